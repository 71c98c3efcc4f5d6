import Foundation

/// `phr med info`: what a medicine is, from RxNorm, RxClass and its FDA label.
extension MedicineLookup {
    /// Describes a medicine. RxNorm is required (its failure is the command's failure); the
    /// classes and the label only add to it, so their failures become notices in the answer.
    public func info(_ reference: MedicineReference) throws -> MedicineInfo {
        let trail = LookupTrail()
        let details = try resolve(reference, trail: trail)
        let concept = details.concept
        let ingredients = details.ingredients
        let ingredientNames = ingredients.map(\.name)

        var brands = details.related("BN").filter { brand in
            // A brand of a combination (Caduet for atorvastatin) is not a name for this medicine.
            let products = details.related.filter { RxTermType.brandedProducts.contains($0.tty) && RxProductName($0.name).brand == brand.name }
            return products.isEmpty || products.contains { RxProductName($0.name).hasExactly(ingredients: ingredientNames) }
        }.map(\.name)
        if concept.tty == "BN" { brands.insert(concept.name, at: 0) }

        let genericNames: [String]
        if RxTermType.brandedProducts.contains(concept.tty) {
            genericNames = details.related.filter { RxTermType.genericProducts.contains($0.tty) }.map(\.name)
        } else if RxTermType.genericProducts.contains(concept.tty) {
            genericNames = [concept.name]
        } else {
            genericNames = ingredientNames
        }
        let doseForms = details.related("DF").map(\.name)
        let componentType = RxTermType.brandedProducts.contains(concept.tty) ? "SBDC" : "SCDC"
        let strengths = details.related(componentType).map(\.name).filter {
            ingredientNames.count != 1 || RxProductName($0).hasExactly(ingredients: ingredientNames)
        }

        var classes: [DrugClass] = []
        try secondary("drug classes", trail) {
            classes = try pharmacologicClasses(ingredientNames: ingredientNames.isEmpty ? [concept.name] : ingredientNames, trail: trail)
        }
        var summary: LabelSummary?
        try secondary("FDA label", trail) {
            summary = try label(for: details, name: concept.name, trail: trail).map { LabelSummary($0.label) }
        }
        if summary == nil && !trail.notices.contains(where: { $0.hasPrefix("no FDA label") }) {
            trail.notice("openFDA has no label for \(concept.name)")
        }
        return MedicineInfo(query: reference.description, concept: concept, ingredients: ingredients,
                            brandNames: Self.sortedUnique(brands, keepFirst: concept.tty == "BN"),
                            genericNames: Self.sortedUnique(genericNames), doseForms: Self.sortedUnique(doseForms),
                            strengths: Self.sortedUnique(strengths), classes: classes, label: summary, ndc: details.ndc,
                            sources: trail.sources, notices: trail.notices, disclaimer: MedAPIDisclaimer.text)
    }

    /// Runs a lookup whose failure should not sink the whole answer: a service problem becomes
    /// a notice; anything else (a missing recording, a bad setting) still fails loudly.
    func secondary(_ what: String, _ trail: LookupTrail, _ body: () throws -> Void) rethrows {
        do {
            try body()
        } catch let error as MedAPIError where error.allowsCacheFallback {
            trail.notice("no \(what): \(error.localizedDescription)")
        }
    }

    /// Sorted with numbers in order ("10 MG" before "100 MG"), each once.
    static func sortedUnique(_ names: [String], keepFirst: Bool = false) -> [String] {
        var seen = Set<String>()
        let unique = names.filter { seen.insert($0.lowercased()).inserted }
        guard let first = unique.first else { return [] }
        let sorted = (keepFirst ? Array(unique.dropFirst()) : unique).sorted {
            $0.compare($1, options: [.numeric, .caseInsensitive]) == .orderedAscending
        }
        return keepFirst ? [first] + sorted : sorted
    }
}
