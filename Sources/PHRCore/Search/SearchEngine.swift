import Foundation
import GRDB

/// One result of a search: a record (for documents, the best-matching page and the other pages
/// that match), with a snippet whose matched words are marked by `matches` ranges.
public struct SearchHit: Codable, Sendable, Equatable {
    public var kind: String
    public var id: String
    public var title: String
    public var date: String?
    public var type: String?
    /// The best page, for documents.
    public var page: Int?
    /// Every matching page, for documents, ascending.
    public var pages: [Int]?
    /// Text around the match, on one line.
    public var snippet: String
    /// Matched words in `snippet` as [start, length] in Unicode code points.
    public var matches: [[Int]]
    /// BM25 score (lower is better; FTS5's convention); 0 for substring-only matches.
    public var score: Double
    /// True if the record matched only through a typo correction.
    public var fuzzy: Bool
}

/// The answer to a query.
public struct SearchResults: Codable, Sendable, Equatable {
    public var query: String
    public var hits: [SearchHit]
    /// When nothing matched as typed: the query with its likely typos corrected.
    public var didYouMean: String?
    /// Each corrected word and what it was also matched as.
    public var corrections: [String: [String]]

    enum CodingKeys: String, CodingKey {
        case query, hits
        case didYouMean = "did_you_mean"
        case corrections
    }
}

/// Runs queries against the index: BM25 with column weights (title 10, tags 5, body 1), exact
/// matches before typo-tolerant ones, recency as the tie-breaker, hits grouped by record.
public struct SearchEngine {
    public let vault: Vault
    public let profile: Profile

    /// Column weights for bm25(): title, tags, body, alternate spellings.
    static let weights = "10.0, 5.0, 1.0, 1.0"
    static let markStart = "\u{2}"
    static let markEnd = "\u{3}"

    public init(vault: Vault, profile: Profile) {
        self.vault = vault
        self.profile = profile
    }

    public struct Options: Sendable {
        public var limit: Int = 20
        public var fuzzy: Bool = true

        public init(limit: Int = 20, fuzzy: Bool = true) {
            self.limit = limit
            self.fuzzy = fuzzy
        }
    }

    public func search(_ text: String, refine: (inout SearchQuery) throws -> Void = { _ in },
                       options: Options = Options()) throws -> SearchResults {
        var query = try SearchQuery(parsing: text)
        try refine(&query)
        guard query.hasTerms else { throw SearchError.nothingToSearch }
        return try vault.database.read { db in
            try run(db, query: query, text: text, options: options)
        }
    }

    func run(_ db: Database, query: SearchQuery, text: String, options: Options) throws -> SearchResults {
        var hits = try fetch(db, query: query, limit: options.limit, excluding: [], fuzzy: false)
        var corrections: [String: [String]] = [:]
        var didYouMean: String?
        if options.fuzzy && hits.count < options.limit {
            corrections = try TypoCorrector.corrections(db, for: query)
            if !corrections.isEmpty {
                var widened = query
                widened.clauses = query.clauses.map { clause in
                    clause.flatMap { term -> [SearchQuery.Term] in
                        guard case .word(let word, false) = term, let alternatives = corrections[word] else { return [term] }
                        return [term] + alternatives.map { .word($0, prefix: false) }
                    }
                }
                let seen = Set(hits.map { "\($0.kind)/\($0.id)" })
                hits += try fetch(db, query: widened, limit: options.limit - hits.count, excluding: seen, fuzzy: true)
                if hits.allSatisfy(\.fuzzy) && !hits.isEmpty {
                    didYouMean = TypoCorrector.suggestion(text, corrections: corrections)
                }
            }
        }
        return SearchResults(query: text, hits: hits, didYouMean: didYouMean, corrections: corrections)
    }

    // MARK: SQL

    /// Builds and runs one query; rows are grouped by record and `limit` records returned.
    func fetch(_ db: Database, query: SearchQuery, limit: Int, excluding: Set<String>, fuzzy: Bool) throws -> [SearchHit] {
        guard limit > 0 else { return [] }
        var conditions = ["e.profile_id = ?"]
        var arguments: StatementArguments = [profile.id]
        let plainClauses = query.clauses.filter { !$0.contains(where: \.isUnsegmented) }
        let mixedClauses = query.clauses.filter { $0.contains(where: \.isUnsegmented) }
        for clause in mixedClauses {
            var alternatives: [String] = []
            for term in clause {
                let (sql, argument) = Self.condition(for: term)
                alternatives.append(sql)
                arguments += [argument]
            }
            conditions.append("(" + alternatives.joined(separator: " OR ") + ")")
        }
        for term in query.excluded {
            let (sql, argument) = Self.condition(for: term)
            conditions.append("NOT " + sql)
            arguments += [argument]
        }
        if !query.kinds.isEmpty {
            conditions.append("e.kind IN (\(query.kinds.map { _ in "?" }.joined(separator: ",")))")
            arguments += StatementArguments(query.kinds)
        }
        if !query.types.isEmpty {
            conditions.append("e.type IN (\(query.types.map { _ in "?" }.joined(separator: ",")))")
            arguments += StatementArguments(query.types)
        }
        for tag in query.tags {
            conditions.append("(' ' || e.tags || ' ') LIKE ?")
            arguments += ["% \(tag) %"]
        }
        if let since = query.since {
            conditions.append("e.date >= ?")
            arguments += [since]
        }
        if let before = query.before {
            conditions.append("e.date < ?")
            arguments += [before]
        }
        if let until = query.until {
            conditions.append("e.date <= ?")
            arguments += [until]
        }

        // Rows are pages; fetch more than `limit` so that several pages of one document still
        // leave `limit` distinct records.
        let rowLimit = limit * 4 + excluding.count
        let sql: String
        if plainClauses.isEmpty {
            sql = """
                SELECT e.id AS rowid, e.kind, e.record_id, e.page, e.title, e.type, e.date, e.body AS snippet,
                       NULL AS any_snippet, 0.0 AS score
                FROM search_entry e
                WHERE \(conditions.joined(separator: " AND "))
                ORDER BY e.date IS NULL, e.date DESC, e.id
                LIMIT \(rowLimit)
                """
        } else {
            // Exclusions are row conditions (above): FTS5's NOT is binary and cannot stand alone.
            let expression = plainClauses.map(Self.ftsClause).joined(separator: " AND ")
            sql = """
                SELECT e.id AS rowid, e.kind, e.record_id, e.page, e.title, e.type, e.date,
                       snippet(search_fts, 2, '\(Self.markStart)', '\(Self.markEnd)', '…', 14) AS snippet,
                       snippet(search_fts, 0, '\(Self.markStart)', '\(Self.markEnd)', '…', 14) AS any_snippet,
                       bm25(search_fts, \(Self.weights)) AS score
                FROM search_fts JOIN search_entry e ON e.id = search_fts.rowid
                WHERE search_fts MATCH ? AND \(conditions.joined(separator: " AND "))
                ORDER BY round(score, 6), e.date IS NULL, e.date DESC, e.id
                LIMIT \(rowLimit)
                """
            arguments = [expression] + arguments
        }
        let rows = try Row.fetchAll(db, sql: sql, arguments: arguments)

        var hits: [SearchHit] = []
        var position: [String: Int] = [:]
        let substrings = query.clauses.flatMap { $0 }.filter(\.isUnsegmented).map(\.text)
        for row in rows {
            let kind: String = row["kind"]
            let id: String = row["record_id"]
            let key = "\(kind)/\(id)"
            if excluding.contains(key) { continue }
            let page: Int? = row["page"]
            if let index = position[key] {
                if let page { hits[index].pages?.append(page) }
                continue
            }
            guard hits.count < limit else { continue }
            // Text around the match in the body; for a match only in the title or tags, the start
            // of the body says more than the title repeated, unless the body is empty.
            var snippet: String = row["snippet"]
            if snippet.isEmpty, let any: String = row["any_snippet"] { snippet = any }
            if plainClauses.isEmpty || (!snippet.contains(Self.markStart) && !substrings.isEmpty) {
                snippet = Self.substringSnippet(plainClauses.isEmpty ? snippet : try String.fetchOne(db, sql: "SELECT body FROM search_entry WHERE id = ?", arguments: [row["rowid"]]) ?? "", terms: substrings)
            }
            let (clean, matches) = Self.unmark(snippet)
            position[key] = hits.count
            hits.append(SearchHit(kind: kind, id: id, title: row["title"], date: row["date"], type: row["type"],
                                  page: page, pages: page.map { [$0] }, snippet: clean, matches: matches,
                                  score: row["score"], fuzzy: fuzzy))
        }
        return hits.map { hit in
            var hit = hit
            hit.pages = hit.pages.map { Array(Set($0)).sorted() }
            return hit
        }
    }

    /// A row condition matching one term through the word index or, for unsegmented scripts,
    /// by substring through the trigram index (substrings under 3 characters by a scan).
    static func condition(for term: SearchQuery.Term) -> (String, DatabaseValueConvertible) {
        if term.isUnsegmented {
            let text = term.text.lowercased()
            if text.unicodeScalars.count >= 3 {
                return ("e.id IN (SELECT rowid FROM search_cjk_fts WHERE search_cjk_fts MATCH ?)", quote(text))
            }
            return ("e.id IN (SELECT entry_id FROM search_cjk WHERE instr(lower(text), ?) > 0)", text)
        }
        return ("e.id IN (SELECT rowid FROM search_fts WHERE search_fts MATCH ?)", ftsTerm(term))
    }

    static func quote(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func ftsTerm(_ term: SearchQuery.Term) -> String {
        switch term {
        case .word(let text, let prefix): return quote(text) + (prefix ? " *" : "")
        case .phrase(let text): return quote(text)
        }
    }

    static func ftsClause(_ clause: [SearchQuery.Term]) -> String {
        clause.count == 1 ? ftsTerm(clause[0]) : "(" + clause.map(ftsTerm).joined(separator: " OR ") + ")"
    }

    /// A snippet around the first occurrence of any of `terms` (case-insensitive), marked.
    static func substringSnippet(_ body: String, terms: [String]) -> String {
        let flat = body.replacingOccurrences(of: "\n", with: " ")
        for term in terms {
            guard let range = flat.range(of: term, options: [.caseInsensitive, .diacriticInsensitive]) else { continue }
            let start = flat.index(range.lowerBound, offsetBy: -24, limitedBy: flat.startIndex) ?? flat.startIndex
            let end = flat.index(range.upperBound, offsetBy: 48, limitedBy: flat.endIndex) ?? flat.endIndex
            return (start > flat.startIndex ? "…" : "") + flat[start..<range.lowerBound] + markStart + flat[range]
                + markEnd + flat[range.upperBound..<end] + (end < flat.endIndex ? "…" : "")
        }
        return String(flat.prefix(80))
    }

    /// Removes the match markers, returning the text on one line and [start, length] ranges in
    /// Unicode code points.
    static func unmark(_ snippet: String) -> (String, [[Int]]) {
        var text = String.UnicodeScalarView()
        var matches: [[Int]] = []
        var start: Int?
        var count = 0
        var lastWasSpace = false
        for scalar in snippet.unicodeScalars {
            switch scalar {
            case "\u{2}": start = count
            case "\u{3}":
                if let begin = start, count > begin { matches.append([begin, count - begin]) }
                start = nil
            default:
                let isSpace = CharacterSet.whitespacesAndNewlines.contains(scalar)
                if isSpace && (lastWasSpace || count == 0) { continue }
                text.append(isSpace ? " " : scalar)
                lastWasSpace = isSpace
                count += 1
            }
        }
        return (String(text).trimmingCharacters(in: .whitespaces), matches)
    }
}
