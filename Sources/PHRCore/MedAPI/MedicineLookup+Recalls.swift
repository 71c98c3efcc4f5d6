import Foundation

/// `phr med recalls`: FDA enforcement reports for medicines.
extension MedicineLookup {
    /// The enforcement reports (recalls) of products with each medicine's ingredients, newest
    /// report first, at most `limit` each. FDA's reports name products in free text, so the
    /// search is by ingredient, and a report counts only when its product description or its
    /// generic names mention every ingredient; reports FDA links to the exact product (RxCUI)
    /// are marked. Recall lookups are kept for a day.
    public func recalls(for medicines: [MedicineEntry], limit: Int = 100) throws -> RecallsReport {
        let trail = LookupTrail()
        var results: [MedicineRecalls] = []
        var failures: [MedAPIError] = []
        var seen = Set<String>()
        for entry in medicines where seen.insert(entry.rxcui ?? Self.normalizedName(entry.name)).inserted {
            var details: ConceptDetails?
            do {
                details = try resolve(entry.rxcui.map { .rxcui($0) } ?? .name(entry.name), trail: trail)
            } catch let error as MedAPIError {
                switch error {
                case .noSuchMedicine, .unknownCode:
                    trail.notice("\(entry.name) is not in RxNorm; its recalls were searched by its name as entered")
                case _ where error.allowsCacheFallback:
                    trail.notice("\(entry.name) could not be looked up (\(error.localizedDescription)); its recalls were searched by its name")
                default:
                    throw error
                }
            }
            var ingredients = details?.ingredients.map { $0.name.lowercased() } ?? []
            if ingredients.isEmpty { ingredients = [Self.normalizedName(details?.concept.name ?? entry.name)] }
            ingredients.sort()
            do {
                let (recalls, total) = try recalls(ingredients: ingredients, trail: trail)
                var products = Set<String>()
                if let concept = details?.concept, RxTermType.products.contains(concept.tty) {
                    products.insert(concept.rxcui)
                    details?.related.filter { RxTermType.genericProducts.contains($0.tty) }.forEach { products.insert($0.rxcui) }
                }
                let entries = recalls.prefix(limit).map { RecallEntry(recall: $0, matchesProduct: !products.isDisjoint(with: $0.rxcuis)) }
                results.append(MedicineRecalls(medicine: entry, searchedFor: ingredients, total: total, recalls: Array(entries)))
            } catch let error as MedAPIError where error.allowsCacheFallback {
                failures.append(error)
                trail.notice("the recalls of \(entry.name) could not be looked up: \(error.localizedDescription)")
            }
        }
        if !seen.isEmpty, failures.count == seen.count, let first = failures.first { throw first }
        return RecallsReport(medicines: results, sources: trail.sources, notices: trail.notices, disclaimer: MedAPIDisclaimer.text)
    }

    /// The reports for a set of ingredient names (lowercase, sorted) and openFDA's total.
    func recalls(ingredients: [String], trail: LookupTrail) throws -> (recalls: [Recall], total: Int?) {
        let key = ingredients.joined(separator: "+")
        let search = ingredients.map {
            "(\(OpenFDAClient.phrase("openfda.generic_name", $0)) \(OpenFDAClient.phrase("product_description", $0)))"
        }.joined(separator: " AND ")
        let recalls = try cached(.recalls, key, service: .openFDA, about: "FDA recalls of \(ingredients.joined(separator: " and "))",
                                 trail: trail, load: { try MedAPICache.loadRecalls($0, query: key) },
                                 fetch: { http in
            let fetched = try OpenFDAClient(http: http).enforcementReports(search: search)
            let relevant = fetched.value.results.filter { recall in
                let texts = [recall.productDescription ?? ""] + recall.genericNames
                return ingredients.allSatisfy { ingredient in texts.contains { LabelText.mentions(ingredient, in: $0) } }
            }
            return (relevant, fetched.source, !relevant.isEmpty, fetched.value.total)
        }, store: { db, recalls, at in try MedAPICache.storeRecalls(db, query: key, recalls, at: at) })
        return (recalls, try cache.lookup(.recalls, key)?.total)
    }
}
