import Foundation

/// Names, RxCUIs and NDCs to RxNorm concepts and their ingredients.
extension MedicineLookup {
    /// What a medicine record needs: the RxCUI and ingredients of `name` (`phr med add NAME` when
    /// online, `phr med resolve` later). Throws `MedAPIError.noSuchMedicine` with suggestions
    /// when RxNorm knows no such name, `.offline` when offline and never looked up.
    public func resolve(_ name: String) throws -> ResolvedMedicine {
        try resolve(.name(name))
    }

    public func resolve(_ reference: MedicineReference) throws -> ResolvedMedicine {
        let trail = LookupTrail()
        let resolved = try resolve(reference, trail: trail)
        return ResolvedMedicine(query: reference.description, concept: resolved.concept, ingredients: resolved.ingredients,
                                sources: trail.sources, notices: trail.notices)
    }

    /// A concept with everything RxNav relates to it.
    struct ConceptDetails {
        var concept: RxConcept
        var related: [RxConcept]
        var ndc: NDCDetails?

        var ingredients: [RxConcept] {
            let found = related.filter { $0.tty == "IN" }
            return found.isEmpty && concept.tty == "IN" ? [concept] : found.sorted { $0.name.lowercased() < $1.name.lowercased() }
        }

        func related(_ tty: String) -> [RxConcept] {
            related.filter { $0.tty == tty && $0.rxcui != concept.rxcui }
        }
    }

    func resolve(_ reference: MedicineReference, trail: LookupTrail) throws -> ConceptDetails {
        switch reference {
        case .name(let name):
            let rxcui = try rxcui(forName: name, trail: trail)
            return try details(rxcui, fallbackName: name, trail: trail)
        case .rxcui(let rxcui):
            return try details(rxcui, fallbackName: nil, trail: trail)
        case .ndc(let code):
            let ndc = try ndcDetails(code, trail: trail)
            guard let rxcui = ndc.status?.rxcui ?? ndc.products.lazy.flatMap(\.rxcuis).first else {
                throw MedAPIError.unknownCode(kind: "NDC", code: code)
            }
            var result = try details(rxcui, fallbackName: ndc.status?.conceptName, trail: trail)
            result.ndc = ndc
            return result
        }
    }

    /// The RxCUI RxNav matches to `name`, or `noSuchMedicine` with RxNav's suggestions.
    func rxcui(forName name: String, trail: LookupTrail) throws -> String {
        let key = Self.normalizedName(name)
        guard !key.isEmpty else { throw MedAPIError.noSuchMedicine(query: name, suggestions: []) }
        let answer = try cached(.name, key, service: .rxnav, about: "the RxNorm match for '\(key)'", trail: trail,
                                load: { try MedAPICache.loadName($0, key) },
                                fetch: { http in
            let client = RxNavClient(http: http)
            let ids = try client.rxcuis(forName: key)
            if let rxcui = ids.value.first { return (MedAPICache.NameAnswer.matched(rxcui: rxcui), ids.source, true, nil) }
            return (.unknown(suggestions: try Self.suggestions(for: key, client)), ids.source, false, nil)
        }, store: { db, answer, _ in try MedAPICache.storeName(db, key, answer: answer) })
        switch answer {
        case .matched(let rxcui): return rxcui
        case .unknown(let suggestions): throw MedAPIError.noSuchMedicine(query: LabelText.collapse(name), suggestions: suggestions)
        }
    }

    /// "Did you mean": RxNav's spelling suggestions, then the names of its approximate matches,
    /// each once, at most five.
    static func suggestions(for name: String, _ client: RxNavClient) throws -> [String] {
        var names = try client.spellingSuggestions(name).value
        names += try client.approximateMatches(name).value.compactMap(\.name)
        var seen = Set<String>()
        return names.filter { seen.insert($0.lowercased()).inserted && $0.lowercased() != name }.prefix(5).map { $0 }
    }

    /// The concept `rxcui` and its related concepts (`allrelated.json`, cached).
    func details(_ rxcui: String, fallbackName: String?, trail: LookupTrail) throws -> ConceptDetails {
        let related = try allRelated(rxcui, trail: trail)
        guard !related.isEmpty else { throw MedAPIError.unknownCode(kind: "RxCUI", code: rxcui) }
        // allrelated lists the concept itself in its own group; an answer cached from another
        // lookup, or the name it was asked by, stands in when it does not.
        var concept = related.first { $0.rxcui == rxcui }
        if concept == nil { concept = try cache.read { try MedAPICache.loadConcept($0, rxcui) } }
        let known = concept ?? RxConcept(rxcui: rxcui, name: fallbackName.map(LabelText.collapse) ?? "RxCUI \(rxcui)", tty: "")
        return ConceptDetails(concept: known, related: related)
    }

    func allRelated(_ rxcui: String, trail: LookupTrail) throws -> [RxConcept] {
        try cached(.allRelated, rxcui, service: .rxnav, about: "RxNorm concepts related to RxCUI \(rxcui)", trail: trail,
                   load: { try MedAPICache.loadRelated($0, rxcui) },
                   fetch: { http in
            let fetched = try RxNavClient(http: http).allRelated(rxcui)
            return (Self.cacheOrder(fetched.value), fetched.source, !fetched.value.isEmpty, nil)
        }, store: { db, concepts, at in try MedAPICache.storeRelated(db, rxcui, concepts, termTypes: nil, at: at) })
    }

    /// Concepts of some term types related to `rxcui` (`related.json?tty=...`, cached). A fresh
    /// allrelated answer already holds them, so it is used without asking again.
    func related(_ rxcui: String, termTypes: [String], trail: LookupTrail) throws -> [RxConcept] {
        let types = Set(termTypes)
        if try isFresh(.allRelated, rxcui) {
            return try allRelated(rxcui, trail: trail).filter { types.contains($0.tty) }
        }
        let key = "\(rxcui) \(termTypes.joined(separator: "+"))"
        return try cached(.related, key, service: .rxnav, about: "\(termTypes.joined(separator: ", ")) concepts related to RxCUI \(rxcui)",
                          trail: trail, load: { try MedAPICache.loadRelated($0, rxcui, termTypes: types) },
                          fetch: { http in
            let fetched = try RxNavClient(http: http).related(rxcui, termTypes: termTypes)
            let concepts = Self.cacheOrder(fetched.value.filter { types.contains($0.tty) })
            return (concepts, fetched.source, !concepts.isEmpty, nil)
        }, store: { db, concepts, at in try MedAPICache.storeRelated(db, rxcui, concepts, termTypes: types, at: at) })
    }

    /// Concepts in the order the cache reads them back (type, then name), so an answer reads the
    /// same fresh or cached.
    static func cacheOrder(_ concepts: [RxConcept]) -> [RxConcept] {
        concepts.sorted { ($0.tty, $0.name) < ($1.tty, $1.name) }
    }

    /// RxNav's status of an NDC and openFDA's directory entry for it.
    func ndcDetails(_ code: String, trail: LookupTrail) throws -> NDCDetails {
        var status: NDCStatus?
        if let ndc11 = MedicineReference.ndc11(code) {
            status = try cached(.ndc, ndc11, service: .rxnav, about: "the status of NDC \(code)", trail: trail,
                                load: { try MedAPICache.loadNDCStatus($0, ndc: ndc11) },
                                fetch: { http in
                let fetched = try RxNavClient(http: http).ndcStatus(ndc11)
                return (fetched.value, fetched.source, fetched.value != nil, nil)
            }, store: { db, value, _ in try MedAPICache.storeNDCStatus(db, ndc: ndc11, value) })
        }
        // openFDA writes NDCs hyphenated; a plain 11-digit code cannot be split back unambiguously.
        var products: [NDCProduct] = []
        if code.contains("-") {
            let field = code.split(separator: "-").count == 3 ? "packaging.package_ndc" : "product_ndc"
            let search = OpenFDAClient.phrase(field, code)
            do {
                products = try cached(.ndcProduct, search, service: .openFDA, about: "the NDC directory entry for \(code)",
                                      trail: trail, load: { try MedAPICache.loadNDCProducts($0, query: search) },
                                      fetch: { http in
                    let fetched = try OpenFDAClient(http: http).ndcProducts(search: search)
                    return (fetched.value.results, fetched.source, !fetched.value.results.isEmpty, fetched.value.total)
                }, store: { db, value, at in try MedAPICache.storeNDCProducts(db, query: search, value, at: at) })
            } catch let error as MedAPIError where error.allowsCacheFallback && status?.rxcui != nil {
                // RxNav identified the product; the directory entry only adds detail.
                trail.notice("the NDC directory entry is missing: \(error.localizedDescription)")
            }
        }
        guard status != nil || !products.isEmpty else { throw MedAPIError.unknownCode(kind: "NDC", code: code) }
        return NDCDetails(code: code, status: status, products: products)
    }
}
