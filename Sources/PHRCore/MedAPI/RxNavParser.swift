import Foundation

/// Reads RxNav's JSON answers (https://lhncbc.nlm.nih.gov/RxNav/APIs/RxNormAPIs.html).
///
/// RxNav leaves out what it has nothing for: `{"idGroup":{}}` for an unknown name, a concept
/// group with only `{"tty":"BPCK"}`, `{}` from RxClass. Every reader here turns those into empty
/// results; only a body that is not JSON at all is an error.
enum RxNavParser {
    static func document(_ data: Data, path: String) throws -> JSONValue {
        do {
            return try JSONValue.parse(data)
        } catch {
            throw MedAPIError.unreadableResponse(service: .rxnav, path: path, reason: "it is not JSON")
        }
    }

    /// `rxcui.json?name=`: the RxCUIs matching a name, best first. Empty for no match.
    static func rxcuis(_ json: JSONValue) -> [String] {
        json[path: "idGroup", "rxnormId"].texts.filter(isRxCUI)
    }

    /// `spellingsuggestions.json?name=`: names close to a misspelt one, best first.
    static func spellingSuggestions(_ json: JSONValue) -> [String] {
        json[path: "suggestionGroup", "suggestionList", "suggestion"].texts
    }

    /// `approximateTerm.json?term=`: candidates ordered by rank, one per RxCUI.
    static func approximateMatches(_ json: JSONValue) -> [ApproximateMatch] {
        var seen = Set<String>()
        var matches: [ApproximateMatch] = []
        for candidate in json[path: "approximateGroup", "candidate"].elements {
            guard let rxcui = candidate["rxcui"].text, isRxCUI(rxcui), seen.insert(rxcui).inserted else { continue }
            matches.append(ApproximateMatch(rxcui: rxcui, name: candidate["name"].text, score: candidate["score"]?.double,
                                            rank: candidate["rank"]?.int, source: candidate["source"].text))
        }
        return matches.enumerated().sorted {
            ($0.element.rank ?? Int.max, $0.offset) < ($1.element.rank ?? Int.max, $1.offset)
        }.map(\.element)
    }

    /// The concepts of `allrelated.json` (group "allRelatedGroup") or `related.json`
    /// ("relatedGroup"), in the order given, each once.
    static func relatedConcepts(_ json: JSONValue) -> [RxConcept] {
        let group = json["allRelatedGroup"] ?? json["relatedGroup"]
        var seen = Set<String>()
        var concepts: [RxConcept] = []
        for conceptGroup in group?["conceptGroup"].elements ?? [] {
            let groupTTY = conceptGroup["tty"].text
            for properties in conceptGroup["conceptProperties"].elements {
                guard let concept = concept(properties, tty: groupTTY), seen.insert(concept.rxcui).inserted else { continue }
                concepts.append(concept)
            }
        }
        return concepts
    }

    static func concept(_ properties: JSONValue, tty groupTTY: String? = nil) -> RxConcept? {
        guard let rxcui = properties["rxcui"].text, isRxCUI(rxcui), let name = properties["name"].text,
              let tty = properties["tty"].text ?? groupTTY else { return nil }
        return RxConcept(rxcui: rxcui, name: name, tty: tty, synonym: properties["synonym"].text)
    }

    /// `rxclass/class/byDrugName.json`: the classes of the drug, each (class, relation) once.
    static func drugClasses(_ json: JSONValue) -> [DrugClass] {
        var seen = Set<DrugClass>()
        var classes: [DrugClass] = []
        for info in json[path: "rxclassDrugInfoList", "rxclassDrugInfo"].elements {
            let item = info["rxclassMinConceptItem"]
            guard let id = item?["classId"].text, let name = item?["className"].text, let type = item?["classType"].text else { continue }
            let drugClass = DrugClass(id: id, name: name, type: type, relation: info["rela"].text, source: info["relaSource"].text)
            if seen.insert(drugClass).inserted { classes.append(drugClass) }
        }
        return classes
    }

    /// `ndcstatus.json?ndc=`: nil when RxNav says nothing about the code. An obsolete NDC may
    /// have no current RxCUI; the most recent one in its history stands in.
    static func ndcStatus(_ json: JSONValue, asked ndc: String) -> NDCStatus? {
        guard let status = json["ndcStatus"], status["status"].text != nil || status["rxcui"].text != nil else { return nil }
        var rxcui = status["rxcui"].text.flatMap { isRxCUI($0) ? $0 : nil }
        if rxcui == nil {
            let history = status["ndcHistory"].elements.sorted { ($0["endDate"].text ?? "") > ($1["endDate"].text ?? "") }
            rxcui = history.lazy.compactMap { $0["activeRxcui"].text ?? $0["originalRxcui"].text }.first(where: isRxCUI)
        }
        return NDCStatus(ndc: status["ndc11"].text ?? ndc, status: status["status"].text?.uppercased(), rxcui: rxcui,
                         conceptName: status["conceptName"].text, conceptStatus: status["conceptStatus"].text)
    }

    static func isRxCUI(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 10 && text.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
