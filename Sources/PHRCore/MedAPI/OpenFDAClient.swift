import Foundation

/// openFDA's drug endpoints: labels, the NDC directory and enforcement reports (recalls).
/// https://open.fda.gov/apis/drug/
///
/// openFDA answers 404 NOT_FOUND when a search matches nothing; that comes back as an empty page.
public struct OpenFDAClient: Sendable {
    let http: MedAPIHTTPClient

    public init(http: MedAPIHTTPClient) {
        self.http = http
    }

    /// Drug labels matching an openFDA search, most recent first.
    public func labels(search: String, limit: Int = 10) throws -> Fetched<OpenFDAPage<DrugLabel>> {
        try get("/drug/label.json",
                [QueryItem("search", search), QueryItem("sort", "effective_time:desc"), QueryItem("limit", String(limit))],
                OpenFDAParser.label)
    }

    /// NDC directory entries matching a search.
    public func ndcProducts(search: String, limit: Int = 5) throws -> Fetched<OpenFDAPage<NDCProduct>> {
        try get("/drug/ndc.json", [QueryItem("search", search), QueryItem("limit", String(limit))], OpenFDAParser.ndcProduct)
    }

    /// Enforcement reports matching a search, newest report first.
    public func enforcementReports(search: String, limit: Int = 100) throws -> Fetched<OpenFDAPage<Recall>> {
        try get("/drug/enforcement.json",
                [QueryItem("search", search), QueryItem("sort", "report_date:desc"), QueryItem("limit", String(limit))],
                OpenFDAParser.recall)
    }

    /// `field:"value"`, with the characters that would end the phrase or change the query's
    /// meaning removed from the value (openFDA's query syntax has no escape for them).
    public static func phrase(_ field: String, _ value: String) -> String {
        let cleaned = value.unicodeScalars.filter { scalar in
            !"\"\\".unicodeScalars.contains(scalar) && !CharacterSet.controlCharacters.contains(scalar)
        }
        let text = String(String.UnicodeScalarView(cleaned)).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return "\(field):\"\(text)\""
    }

    private func get<T>(_ path: String, _ query: [QueryItem], _ read: (JSONValue) -> T?) throws -> Fetched<OpenFDAPage<T>> {
        let source = http.request(.openFDA, path: path, query: query).displayURL
        let response = try http.get(.openFDA, path: path, query: query)
        if response.status == 404 {
            return Fetched(value: OpenFDAPage(total: 0, lastUpdated: nil, results: []), source: source)
        }
        let json = try OpenFDAParser.document(response.body, path: path)
        return Fetched(value: OpenFDAParser.page(json, read), source: source)
    }
}
