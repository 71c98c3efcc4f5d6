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

    /// Column weights for bm25(): title 10, tags 5, body 1, alternate spellings 1; the same as
    /// the index's `rank` setting (migration v1-search).
    static let columnWeights = "10.0, 5.0, 1.0, 1.0"
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

    /// The FTS5 expression of the query's plain clauses and exclusions, or nil when every clause
    /// is in an unsegmented script.
    ///
    /// Filters (profile, kind, type, tags, dates) are not part of it: a filter term that matches
    /// most rows (the profile of a one-person vault) would make FTS5 walk its whole posting list
    /// on every query. They are checked on the few ranked rows that are read anyway.
    func expression(for query: SearchQuery) -> String? {
        let plain = query.clauses.filter { !$0.contains(where: \.isUnsegmented) }
        guard !plain.isEmpty else { return nil }
        let text = plain.map(Self.ftsClause).joined(separator: " AND ")
        let excluded = query.excluded.filter { !$0.isUnsegmented }
        guard !excluded.isEmpty else { return text }
        return "(\(text)) NOT (\(excluded.map(Self.ftsTerm).joined(separator: " OR ")))"
    }

    /// Conditions on `search_entry e` checked on ranked rows: the profile, kind, type, tags and
    /// dates, and substrings of unsegmented scripts (in clauses and exclusions).
    func rowConditions(for query: SearchQuery) -> (sql: [String], arguments: StatementArguments) {
        // The unary + keeps SQLite from answering "e.id IN (...)" by walking the profile index,
        // which holds every row of a one-person vault, instead of looking the ids up.
        var conditions = ["+e.profile_id = ?"]
        var arguments: StatementArguments = [profile.id]
        if !query.kinds.isEmpty {
            conditions.append("e.kind IN (\(databaseQuestionMarks(count: query.kinds.count)))")
            arguments += StatementArguments(query.kinds)
        }
        if !query.types.isEmpty {
            conditions.append("e.type IN (\(databaseQuestionMarks(count: query.types.count)))")
            arguments += StatementArguments(query.types)
        }
        for tag in query.tags {
            conditions.append("(' ' || e.tags || ' ') LIKE ?")
            arguments += ["% \(tag) %"]
        }
        for clause in query.clauses where clause.contains(where: \.isUnsegmented) {
            var alternatives: [String] = []
            for term in clause {
                let (sql, argument) = Self.condition(for: term)
                alternatives.append(sql)
                arguments += [argument]
            }
            conditions.append("(" + alternatives.joined(separator: " OR ") + ")")
        }
        for term in query.excluded where term.isUnsegmented {
            let (sql, argument) = Self.condition(for: term)
            conditions.append("NOT " + sql)
            arguments += [argument]
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
        return (conditions, arguments)
    }

    /// A matching row: its entry, and its BM25 score (0 for substring-only matches). The columns
    /// are decoded once: sorting compared them by name, a dictionary lookup per comparison.
    struct Candidate {
        var id: Int64
        var kind: String
        var recordID: String
        var page: Int?
        var title: String
        var type: String?
        var date: String?
        var score: Double
        /// A page OCR read with low confidence: ranked after every other hit.
        var demoted: Bool

        init(row: Row, score: Double) {
            id = row[0]
            kind = row[1]
            recordID = row[2]
            page = row[3]
            title = row[4]
            type = row[5]
            date = row[6]
            demoted = (row[7] as Int64?) == 1
            self.score = score
        }

        /// Records are told apart by kind and ID.
        var recordKey: String { kind + "/" + recordID }
    }

    /// Builds and runs one query; rows are grouped by record and `limit` records returned.
    ///
    /// The word index ranks first and alone: FTS5 scores every match from the index without
    /// reading a row, and only the best few hundred rows are then read (and decrypted) from
    /// `search_entry`. Reading every match first made a common word cost a page read per page of
    /// the vault. When filters the index cannot apply (dates, substrings) leave too few records,
    /// the ranked window grows.
    func fetch(_ db: Database, query: SearchQuery, limit: Int, excluding: Set<String>, fuzzy: Bool) throws -> [SearchHit] {
        guard limit > 0 else { return [] }
        let (conditions, conditionArguments) = rowConditions(for: query)
        let expression = expression(for: query)
        let wanted = limit + excluding.count
        var window = max(64, limit * 4 + excluding.count)
        var candidates: CandidateWindow
        while true {
            candidates = try self.candidates(db, expression: expression, conditions: conditions,
                                             arguments: conditionArguments, window: window)
            let records = Set(candidates.rows.map(\.recordKey))
            if records.count >= wanted || candidates.exhausted { break }
            window *= 4
        }
        return try hits(db, candidates: candidates.rows, expression: expression, query: query,
                        limit: limit, excluding: excluding, fuzzy: fuzzy)
    }

    /// Up to `window` ranked index matches that pass `conditions`, best first.
    private func candidates(_ db: Database, expression: String?, conditions: [String],
                            arguments: StatementArguments, window: Int) throws -> CandidateWindow {
        // Pages OCR read with low confidence come after every other hit (their words are less
        // sure), found through document_page's primary key.
        let selectEntry = """
            SELECT e.id, e.kind, e.record_id, e.page, e.title, e.type, e.date,
                (e.kind = 'document' AND EXISTS (SELECT 1 FROM document_page p WHERE p.document_id = e.record_id
                    AND p.page = e.page AND p.ocr = 'low_confidence')) AS demoted
            FROM search_entry e
            """
        guard let expression else {
            // Only substring clauses: no ranking, newest first.
            let sql = selectEntry + " WHERE " + conditions.joined(separator: " AND ")
                + " ORDER BY e.date IS NULL, e.date DESC, e.id LIMIT \(window + 1)"
            let rows = try Row.fetchAll(db, sql: sql, arguments: arguments)
            return CandidateWindow(rows: rows.prefix(window).map { Candidate(row: $0, score: 0) }, exhausted: rows.count <= window)
        }
        // ORDER BY an expression, not FTS5's `rank` column: FTS5 sorts `rank` itself by
        // materialising and sorting every match, while SQLite's own sorter keeps only the
        // LIMIT best rows. phr_rank is bm25() for those rows only (CPHRVFS/rank.c): the same
        // scores, without reading the length of each row that cannot be among them. The weights
        // are those of the index's `rank` setting.
        let ranked = try Row.fetchAll(db, sql: """
            SELECT rowid, phr_rank(search_fts, \(window + 1), \(Self.columnWeights)) AS score FROM search_fts
            WHERE search_fts MATCH ? ORDER BY score LIMIT \(window + 1)
            """, arguments: [expression])
        let exhausted = ranked.count <= window
        let scores = Dictionary(uniqueKeysWithValues: ranked.prefix(window).map { ($0["rowid"] as Int64, $0["score"] as Double) })
        guard !scores.isEmpty else { return CandidateWindow(rows: [], exhausted: true) }
        let sql = selectEntry + " WHERE e.id IN (\(scores.keys.map(String.init).joined(separator: ",")))"
            + conditions.map { " AND " + $0 }.joined()
        let rows = try Row.fetchAll(db, sql: sql, arguments: arguments)
        // Best score first; equal scores (rounded, as BM25 sums differ in the last bits) by recency.
        let sorted = rows.map { Candidate(row: $0, score: scores[$0[0]]!) }.sorted { a, b in
            if a.demoted != b.demoted { return !a.demoted }
            let (x, y) = ((a.score * 1e6).rounded(), (b.score * 1e6).rounded())
            if x != y { return x < y }
            if a.date != b.date { return (a.date ?? "") > (b.date ?? "") }
            return a.id < b.id
        }
        return CandidateWindow(rows: sorted, exhausted: exhausted)
    }

    struct CandidateWindow {
        var rows: [Candidate]
        /// True if the index had no more matches beyond this window.
        var exhausted: Bool
    }

    /// Groups candidates by record, takes `limit` records, and adds snippets and matching pages.
    private func hits(_ db: Database, candidates: [Candidate], expression: String?, query: SearchQuery,
                      limit: Int, excluding: Set<String>, fuzzy: Bool) throws -> [SearchHit] {
        var chosen: [Candidate] = []
        var seen = Set<String>()
        for candidate in candidates {
            let key = candidate.recordKey
            guard !excluding.contains(key), seen.insert(key).inserted else { continue }
            chosen.append(candidate)
            if chosen.count == limit { break }
        }
        guard !chosen.isEmpty else { return [] }

        // The chosen documents' entries, from the index on (kind, record_id, page).
        let documentIDs = chosen.filter { $0.kind == DocumentStore.kind }.map(\.recordID)
        var entries: [Row] = []
        if !documentIDs.isEmpty {
            entries = try Row.fetchAll(db, sql: """
                SELECT id, record_id, ifnull(page, 0) AS page FROM search_entry
                WHERE kind = ? AND record_id IN (\(databaseQuestionMarks(count: documentIDs.count)))
                """, arguments: [DocumentStore.kind] + StatementArguments(documentIDs))
        }
        var entryRange: [String: ClosedRange<Int64>] = [:]
        for entry in entries {
            let (id, record): (Int64, String) = (entry["id"], entry["record_id"])
            entryRange[record] = entryRange[record].map { min($0.lowerBound, id)...max($0.upperBound, id) } ?? id...id
        }

        // Snippets for the chosen rows only (the body around the match, else the title), and for
        // a document, in the same statement, which of its pages match: the matches within the
        // range of its entries' rowids, which FTS5 seeks to. `rowid IN (...)` it cannot use: it
        // walked every match of the query again (for a common word, every page of the vault).
        // snippet() runs for the chosen row only (CASE evaluates lazily).
        var snippets: [Int64: (body: String, title: String)] = [:]
        var found = Set<Int64>()
        if let expression {
            // A column's text around the matches (about 14 words), matches marked.
            func snippet(_ column: Int) -> String { "snippet(search_fts, \(column), '\(Self.markStart)', '\(Self.markEnd)', '…', 14)" }
            let (body, title) = (snippet(2), snippet(0))
            let single = try db.cachedStatement(sql: """
                SELECT rowid, \(body), \(title) FROM search_fts WHERE search_fts MATCH ? AND rowid = ?
                """)
            let ranged = try db.cachedStatement(sql: """
                SELECT rowid, CASE WHEN rowid = ?1 THEN \(body) END, CASE WHEN rowid = ?1 THEN \(title) END
                FROM search_fts WHERE search_fts MATCH ?2 AND rowid BETWEEN ?3 AND ?4
                """)
            for candidate in chosen {
                let rows: [Row]
                if candidate.kind == DocumentStore.kind, let range = entryRange[candidate.recordID], range.contains(candidate.id) {
                    rows = try Row.fetchAll(ranged, arguments: [candidate.id, expression, range.lowerBound, range.upperBound])
                    found.formUnion(rows.map { $0[0] as Int64 })
                } else {
                    rows = try Row.fetchAll(single, arguments: [expression, candidate.id])
                }
                if let row = rows.first(where: { ($0[0] as Int64) == candidate.id }) {
                    snippets[candidate.id] = (row[1], row[2])
                }
            }
        }

        // Every matching page of the chosen documents.
        var pages: [String: Set<Int>] = [:]
        if !entries.isEmpty {
            var matching = Set(entries.map { $0["id"] as Int64 })
            if expression != nil { matching.formIntersection(found) }
            let (conditions, arguments) = rowConditions(for: query)
            if conditions.count > 1 || expression == nil, !matching.isEmpty {
                // Filters beyond the profile (dates, substrings) apply to pages too.
                let ids = matching.map(String.init).joined(separator: ",")
                let sql = "SELECT e.id FROM search_entry e WHERE " + (["e.id IN (\(ids))"] + conditions).joined(separator: " AND ")
                matching = Set(try Int64.fetchAll(db, sql: sql, arguments: arguments))
            }
            for entry in entries where matching.contains(entry["id"]) {
                let page: Int = entry["page"]
                if page > 0 { pages[entry["record_id"], default: []].insert(page) }
            }
        }

        let substrings = query.clauses.flatMap { $0 }.filter(\.isUnsegmented).map(\.text)
        return try chosen.map { candidate in
            let rowID = candidate.id
            var snippet = snippets[rowID]?.body ?? ""
            if snippet.isEmpty { snippet = snippets[rowID]?.title ?? "" }
            if !substrings.isEmpty && !snippet.contains(Self.markStart) {
                // Only substring matches need the body itself (the candidates leave it unread).
                let body = try String.fetchOne(db, sql: "SELECT body FROM search_entry WHERE id = ?", arguments: [rowID]) ?? ""
                snippet = Self.substringSnippet(body, terms: substrings)
            }
            let (clean, matches) = Self.unmark(snippet)
            let (recordID, page) = (candidate.recordID, candidate.page)
            return SearchHit(kind: candidate.kind, id: recordID, title: candidate.title, date: candidate.date, type: candidate.type,
                             page: page, pages: page.map { (pages[recordID] ?? [$0]).union([$0]).sorted() },
                             snippet: clean, matches: matches, score: candidate.score, fuzzy: fuzzy)
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

    /// A snippet around the first occurrence of any of `terms` (ignoring case, as the trigram
    /// index does), marked: 24 code points before it and 48 after, widened so that a combining
    /// mark (a Thai vowel or tone mark) is never cut from its letter.
    ///
    /// Written over Unicode scalars: Foundation's `range(of:options:)` and
    /// `replacingOccurrences` went through NSString and were nine tenths of a CJK query.
    static func substringSnippet(_ body: String, terms: [String]) -> String {
        let text = body.unicodeScalars.map { $0 == "\n" ? " " : $0 }
        let folded = text.map(foldCase)
        func isMark(_ index: Int) -> Bool {
            guard index > 0 && index < text.count else { return false }
            switch text[index].properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: return true
            default: return false
            }
        }
        func string(_ range: Range<Int>) -> String {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: text[range])
            return String(view)
        }
        for term in terms {
            let needle = term.unicodeScalars.map(foldCase)
            guard !needle.isEmpty, needle.count <= folded.count else { continue }
            guard let found = (0...(folded.count - needle.count)).first(where: { offset in
                folded[offset] == needle[0] && folded[offset..<(offset + needle.count)].elementsEqual(needle)
            }) else { continue }
            let matchEnd = found + needle.count
            var start = max(found - 24, 0)
            while isMark(start) { start -= 1 }
            var end = min(matchEnd + 48, text.count)
            while isMark(end) { end += 1 }
            return (start > 0 ? "…" : "") + string(start..<found) + markStart + string(found..<matchEnd)
                + markEnd + string(matchEnd..<end) + (end < text.count ? "…" : "")
        }
        var end = min(80, text.count)
        while isMark(end) { end += 1 }
        return string(0..<end)
    }

    /// A scalar's lowercase form where that is one scalar (all that case folding changes in the
    /// scripts this is used for), else the scalar itself.
    static func foldCase(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar.isASCII {
            return (0x41...0x5A).contains(scalar.value) ? Unicode.Scalar(scalar.value + 0x20)! : scalar
        }
        guard scalar.properties.changesWhenLowercased else { return scalar }
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        return lower.count == 1 ? lower.first! : scalar
    }

    /// Removes the match markers, returning the text on one line (runs of white space and line
    /// breaks as one space, none at either end) and [start, length] ranges in Unicode code points.
    ///
    /// White space is the stdlib's Unicode White_Space property: Foundation's CharacterSet built
    /// a bridged set for every character here and was half of a typical query's time.
    static func unmark(_ snippet: String) -> (String, [[Int]]) {
        var text: [UInt8] = []
        text.reserveCapacity(snippet.utf8.count)
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
                let isSpace = scalar.isASCII ? scalar == " " || (0x09...0x0D).contains(scalar.value) : scalar.properties.isWhitespace
                if isSpace && (lastWasSpace || count == 0) { continue }
                if isSpace {
                    text.append(0x20)
                } else {
                    UTF8.encode(scalar) { text.append($0) }
                }
                lastWasSpace = isSpace
                count += 1
            }
        }
        if lastWasSpace {
            // A trailing space; a match cannot end on it, since matches are words.
            text.removeLast()
            count -= 1
            matches = matches.map { [$0[0], min($0[1], count - $0[0])] }.filter { $0[1] > 0 }
        }
        return (String(decoding: text, as: UTF8.self), matches)
    }
}
