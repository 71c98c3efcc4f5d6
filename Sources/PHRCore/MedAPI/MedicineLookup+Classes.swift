import Foundation

/// Drug classes from RxClass, by ingredient name.
extension MedicineLookup {
    /// Every RxClass class of a drug name, as RxClass gives them (cached).
    func classes(ofDrug name: String, trail: LookupTrail) throws -> [DrugClass] {
        let key = Self.normalizedName(name)
        guard !key.isEmpty else { return [] }
        return try cached(.classes, key, service: .rxnav, about: "the RxClass classes of \(key)", trail: trail,
                          load: { try MedAPICache.loadClasses($0, drug: key) },
                          fetch: { http in
            let fetched = try RxNavClient(http: http).drugClasses(drugName: key)
            // The order the cache reads them back in, so online and offline answers read the same.
            let classes = fetched.value.sorted { ($0.type, $0.name, $0.id) < ($1.type, $1.name, $1.id) }
            return (classes, fetched.source, !classes.isEmpty, nil)
        }, store: { db, classes, _ in try MedAPICache.storeClasses(db, drug: key, classes) })
    }

    /// The pharmacologic classes of a medicine's ingredients (of its name when none are known),
    /// each once, the most telling first: FDA's established class, then mechanism, structure,
    /// ATC group and MeSH action.
    func pharmacologicClasses(ingredientNames: [String], trail: LookupTrail) throws -> [DrugClass] {
        var seen = Set<String>()
        var result: [DrugClass] = []
        for name in ingredientNames {
            for drugClass in try classes(ofDrug: name, trail: trail) where drugClass.isPharmacologic {
                if seen.insert("\(drugClass.type) \(drugClass.id)").inserted { result.append(drugClass) }
            }
        }
        let priority = ["EPC": 0, "MOA": 1, "CHEM": 2, "ATC1-4": 3, "MESHPA": 4]
        return result.enumerated().sorted {
            (priority[$0.element.type] ?? 9, $0.offset) < (priority[$1.element.type] ?? 9, $1.offset)
        }.map(\.element)
    }
}
