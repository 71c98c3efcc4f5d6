import Foundation

/// An answer from a service with the request that fetched it (for source lines and the cache).
public struct Fetched<Value> {
    public var value: Value
    /// The URL asked, credentials REDACTED.
    public var source: String
}

extension Fetched: Sendable where Value: Sendable {}

/// RxNav's RxNorm and RxClass APIs: names to RxCUIs, related concepts, NDCs and drug classes.
/// https://lhncbc.nlm.nih.gov/RxNav/APIs/RxNormAPIs.html,
/// https://lhncbc.nlm.nih.gov/RxNav/APIs/RxClassAPIs.html
///
/// NLM's drug-interaction API was discontinued in January 2024; phr does not call it.
public struct RxNavClient: Sendable {
    let http: MedAPIHTTPClient

    public init(http: MedAPIHTTPClient) {
        self.http = http
    }

    /// RxCUIs for a name (`search=2`: an exact match, else a normalised one), best first.
    public func rxcuis(forName name: String) throws -> Fetched<[String]> {
        try get("/REST/rxcui.json", [QueryItem("name", name), QueryItem("search", "2")], RxNavParser.rxcuis)
    }

    /// Nearest concepts to a misspelt or partial name (`option=1`: current RxNorm concepts
    /// only, which come with names).
    public func approximateMatches(_ term: String, maxEntries: Int = 5) throws -> Fetched<[ApproximateMatch]> {
        try get("/REST/approximateTerm.json",
                [QueryItem("term", term), QueryItem("maxEntries", String(maxEntries)), QueryItem("option", "1")],
                RxNavParser.approximateMatches)
    }

    /// Correctly spelt names close to `name`.
    public func spellingSuggestions(_ name: String) throws -> Fetched<[String]> {
        try get("/REST/spellingsuggestions.json", [QueryItem("name", name)], RxNavParser.spellingSuggestions)
    }

    /// Every concept related to `rxcui` (ingredients, brands, dose forms, products), the
    /// concept itself included.
    public func allRelated(_ rxcui: String) throws -> Fetched<[RxConcept]> {
        try get("/REST/rxcui/\(try checked(rxcui))/allrelated.json", [], RxNavParser.relatedConcepts)
    }

    /// Concepts of the given term types related to `rxcui` (`tty=IN+SCD+SBD`).
    public func related(_ rxcui: String, termTypes: [String]) throws -> Fetched<[RxConcept]> {
        try get("/REST/rxcui/\(try checked(rxcui))/related.json", [QueryItem("tty", termTypes.joined(separator: " "))],
                RxNavParser.relatedConcepts)
    }

    /// Whether an NDC is current and which product it is.
    public func ndcStatus(_ ndc: String) throws -> Fetched<NDCStatus?> {
        try get("/REST/ndcstatus.json", [QueryItem("ndc", ndc)]) { RxNavParser.ndcStatus($0, asked: ndc) }
    }

    /// RxClass classes of a drug, by its name (all class sources).
    public func drugClasses(drugName: String) throws -> Fetched<[DrugClass]> {
        try get("/REST/rxclass/class/byDrugName.json", [QueryItem("drugName", drugName)], RxNavParser.drugClasses)
    }

    private func get<T>(_ path: String, _ query: [QueryItem], _ read: (JSONValue) -> T) throws -> Fetched<T> {
        let source = http.request(.rxnav, path: path, query: query).displayURL
        let response = try http.get(.rxnav, path: path, query: query)
        // RxNav answers 404 for identifiers it does not know; that is "nothing", like `{}`.
        guard response.status != 404, !response.body.isEmpty else {
            return Fetched(value: read(.object([:])), source: source)
        }
        return Fetched(value: read(try RxNavParser.document(response.body, path: path)), source: source)
    }

    private func checked(_ rxcui: String) throws -> String {
        guard RxNavParser.isRxCUI(rxcui) else {
            throw MedAPIError.requestRejected(service: .rxnav, status: 400, message: "'\(rxcui)' is not an RxCUI")
        }
        return rxcui
    }
}
