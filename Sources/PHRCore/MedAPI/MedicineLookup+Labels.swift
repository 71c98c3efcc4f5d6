import Foundation

/// Finding the openFDA label that speaks for a medicine.
extension MedicineLookup {
    /// The label for a medicine: for a product (SCD, SBD, pack) the label FDA links to that
    /// RxCUI; for a brand name, that brand's label; otherwise (or when those find nothing) a
    /// label of a product with exactly the same ingredients. Among the matches the one chosen
    /// covers the product or the same number of substances, carries interaction and
    /// contraindication sections, is for prescription use (their labels are the complete ones),
    /// and is the most recent. Nil when openFDA has no label at all.
    func label(for details: ConceptDetails?, name: String, trail: LookupTrail) throws -> (label: DrugLabel, source: MedAPISource)? {
        for (key, search) in labelSearches(details, name: name) {
            let found = try sourced(.label, key, service: .openFDA, about: "the FDA label for \(name)", trail: trail,
                                    load: { try MedAPICache.loadLabelAnswer($0, query: key) },
                                    fetch: { http -> (value: DrugLabel?, source: String, found: Bool, total: Int?) in
                let fetched = try OpenFDAClient(http: http).labels(search: search, limit: 10)
                let best = Self.bestLabel(fetched.value.results, for: details)
                return (best, fetched.source, best != nil, fetched.value.total)
            }, store: { db, label, at in
                if let label { try MedAPICache.storeLabel(db, label, source: self.labelURL(label), at: at) }
                try MedAPICache.storeLabelAnswer(db, query: key, setID: label?.setID)
            })
            if let label = found.value { return (label, found.source) }
        }
        return nil
    }

    /// A URL that fetches exactly this label again, for the record.
    func labelURL(_ label: DrugLabel) -> String {
        let query = [QueryItem("search", OpenFDAClient.phrase("set_id", label.setID))]
        return http?.request(.openFDA, path: "/drug/label.json", query: query).displayURL
            ?? "\(configuration.baseURL(.openFDA).absoluteString)/drug/label.json?\(QueryString.encode(query))"
    }

    /// The searches to try in order, each with its cache key.
    func labelSearches(_ details: ConceptDetails?, name: String) -> [(key: String, search: String)] {
        var searches: [(String, String)] = []
        if let details {
            let concept = details.concept
            if RxTermType.products.contains(concept.tty) {
                searches.append(("rxcui:\(concept.rxcui)", OpenFDAClient.phrase("openfda.rxcui", concept.rxcui)))
            }
            if concept.tty == "BN" {
                searches.append(("brand:\(concept.name.lowercased())", OpenFDAClient.phrase("openfda.brand_name", concept.name)))
            }
            let ingredients = details.ingredients.map { $0.name.lowercased() }.sorted()
            if !ingredients.isEmpty {
                searches.append(("generic:\(ingredients.joined(separator: "+"))",
                                 ingredients.map { OpenFDAClient.phrase("openfda.generic_name", $0) }.joined(separator: " AND ")))
            }
        }
        if searches.isEmpty {
            let key = Self.normalizedName(name)
            searches.append(("name:\(key)", "(\(OpenFDAClient.phrase("openfda.generic_name", key)) \(OpenFDAClient.phrase("openfda.brand_name", key)))"))
        }
        return searches
    }

    static func bestLabel(_ labels: [DrugLabel], for details: ConceptDetails?) -> DrugLabel? {
        let ingredientCount = details?.ingredients.count ?? 0
        func score(_ label: DrugLabel) -> Int {
            var score = 0
            if let rxcui = details?.concept.rxcui, label.rxcuis.contains(rxcui) { score += 8 }
            if ingredientCount > 0 && Set(label.substanceNames.map { $0.lowercased() }).count == ingredientCount { score += 4 }
            if !label.text(.drugInteractions).isEmpty { score += 2 }
            if !label.text(.contraindications).isEmpty { score += 1 }
            if label.productType?.uppercased().contains("PRESCRIPTION") == true { score += 1 }
            return score
        }
        // openFDA sorted them newest first; the stable sort keeps that order among equals.
        return labels.enumerated().max { lhs, rhs in
            let (l, r) = (score(lhs.element), score(rhs.element))
            return l != r ? l < r : lhs.offset > rhs.offset
        }?.element
    }
}
