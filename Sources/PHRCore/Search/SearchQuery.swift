import Foundation

/// A parsed `phr search` query.
///
/// The language, as a person types it:
///
///     ferritin low            both words (AND)
///     "iron deficiency"       a phrase
///     amox*                   a prefix
///     metformin OR insulin    either (OR binds tighter than the implicit AND: `a b OR c` = a AND (b OR c))
///     -draft                  exclude (a word or a "phrase")
///     type:lab tag:insurance kind:doc after:2025-01-01 before:2026-01-01
///
/// Parentheses are read as spaces: there is no grouping beyond OR binding tighter than AND.
/// `after:D` keeps dates on or after D, `before:D` dates strictly before D (as Gmail does).
/// Words are matched case- and accent-insensitively; every word is handed to FTS5 as a quoted
/// string, so no input can inject FTS5 syntax.
public struct SearchQuery: Equatable, Sendable {
    public enum Term: Equatable, Sendable {
        /// A word (possibly several tokens, like `A-1312/B`), optionally a prefix.
        case word(String, prefix: Bool)
        case phrase(String)

        var text: String {
            switch self {
            case .word(let text, _), .phrase(let text): return text
            }
        }

        /// Written in Chinese, Japanese, Thai...: searched by substring in the trigram index.
        var isUnsegmented: Bool { ScriptRuns.containsUnsegmented(text) }
    }

    /// Terms ANDed together; each clause is an OR of one or more terms.
    public var clauses: [[Term]] = []
    public var excluded: [Term] = []
    public var kinds: [String] = []
    public var types: [String] = []
    public var tags: [String] = []
    /// Inclusive lower bound (YYYY-MM-DD).
    public var since: String?
    /// Exclusive upper bound (YYYY-MM-DD), from `before:`.
    public var before: String?
    /// Inclusive upper bound (YYYY-MM-DD), from `--until`.
    public var until: String?

    public var hasTerms: Bool { !clauses.isEmpty }

    public static let kindNames = ["doc", "med", "appt", "contact", "condition", "allergy", "immunization", "procedure", "family",
                                   "observation", "profile", "log"]

    public init() {}

    /// Longest query text, in characters: a pasted page, not a pasted document.
    public static let maximumLength = 10_000
    /// Most distinct words and phrases (looked for and excluded together). Each one costs an
    /// index lookup, typo candidates and snippet work, so the cost must stay bounded whatever
    /// is typed; repeated words count once.
    public static let maximumTerms = 32

    /// Parses `text`; throws `SearchError.syntax` with a message a person can act on.
    public init(parsing text: String) throws {
        guard text.count <= Self.maximumLength else { throw SearchError.tooLong(limit: Self.maximumLength) }
        let tokens = try Self.tokenize(text)
        var index = 0
        var pendingOr = false
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            switch token {
            case .or:
                guard !clauses.isEmpty, !pendingOr, index < tokens.count else {
                    throw SearchError.syntax("OR needs a word on each side, like 'metformin OR insulin'")
                }
                pendingOr = true
            case .term(let term, let negated):
                if negated {
                    guard !pendingOr else { throw SearchError.syntax("OR cannot be followed by an exclusion") }
                    excluded.append(term)
                } else if pendingOr {
                    clauses[clauses.count - 1].append(term)
                    pendingOr = false
                } else {
                    clauses.append([term])
                }
            case .filter(let filter, let value):
                guard !pendingOr else { throw SearchError.syntax("OR cannot be followed by \(filter.rawValue):") }
                try addFilter(filter, value)
            }
        }
        if pendingOr { throw SearchError.syntax("OR needs a word on each side, like 'metformin OR insulin'") }
        removeRepeats()
        let count = clauses.reduce(0) { $0 + $1.count } + excluded.count
        guard count <= Self.maximumTerms else { throw SearchError.tooManyTerms(count: count, limit: Self.maximumTerms) }
    }

    /// Drops words typed more than once (matching ignores case, so neither do repeats): a term
    /// repeated inside an OR, a clause that repeats an earlier one, an exclusion given twice.
    /// None of them changes which records match.
    mutating func removeRepeats() {
        func key(_ term: Term) -> String {
            switch term {
            case .word(let text, let prefix): return "w" + (prefix ? "*" : " ") + text.lowercased()
            case .phrase(let text): return "p " + text.lowercased()
            }
        }
        var seenClauses = Set<[String]>()
        var kept: [[Term]] = []
        for clause in clauses {
            var seenTerms = Set<String>()
            let unique = clause.filter { seenTerms.insert(key($0)).inserted }
            if seenClauses.insert(unique.map(key).sorted()).inserted { kept.append(unique) }
        }
        clauses = kept
        var seenExcluded = Set<String>()
        excluded = excluded.filter { seenExcluded.insert(key($0)).inserted }
    }

    /// Adds a filter as if `filter:value` had been typed (the CLI's --kind, --type, --tag,
    /// --since, --until; a web UI's fields). The filter is a closed set, so no key can be unknown.
    public mutating func addFilter(_ filter: SearchFilter, _ value: String) throws {
        let lowered = value.lowercased()
        let field = filter.rawValue
        switch filter {
        case .kind:
            let kind = lowered == "document" || lowered == "docs" ? "doc" : lowered == "medication" ? "med" : lowered == "appointment" ? "appt" : lowered
            guard Self.kindNames.contains(kind) else {
                throw SearchError.syntax("kind:\(value) is not a record kind; use one of \(Self.kindNames.joined(separator: ", "))")
            }
            kinds.append(kind)
        case .type: types.append(lowered)
        case .tag: tags.append(lowered)
        case .after, .since:
            since = try Self.date(value, field: field)
        case .before:
            before = try Self.date(value, field: field)
        case .until:
            until = try Self.date(value, field: field)
        }
    }

    static func date(_ value: String, field: String) throws -> String {
        guard let date = CalendarDate(value) else {
            throw SearchError.syntax(CalendarDate.yearProblem(value).map { "\(field):\(value): \($0)" }
                ?? "\(field):\(value) is not a date; use YYYY-MM-DD, like \(field):2025-01-31")
        }
        return date.description
    }

    // MARK: Tokenizing

    enum Token: Equatable {
        case term(Term, negated: Bool)
        case or
        case filter(SearchFilter, value: String)
    }

    static func tokenize(_ text: String) throws -> [Token] {
        var tokens: [Token] = []
        // Typographic quotes from copy-paste count as straight ones. Parentheses do not group
        // (OR already binds tighter than AND); they separate words like spaces.
        let characters = Array(text.map { character -> Character in
            if "\u{201C}\u{201D}\u{201E}\u{00AB}\u{00BB}".contains(character) { return "\"" }
            return character == "(" || character == ")" ? " " : character
        })
        var index = 0
        while index < characters.count {
            if characters[index].isWhitespace {
                index += 1
                continue
            }
            var negated = false
            if characters[index] == "-" && index + 1 < characters.count && !characters[index + 1].isWhitespace {
                negated = true
                index += 1
            }
            if characters[index] == "\"" {
                guard let close = characters[(index + 1)...].firstIndex(of: "\"") else {
                    throw SearchError.syntax("a quote is not closed: add the closing \" after the phrase")
                }
                let inner = characters[(index + 1)..<close].drop(while: \.isWhitespace)
                let phrase = String(inner.reversed().drop(while: \.isWhitespace).reversed())
                index = close + 1
                guard hasSearchableCharacters(phrase) else {
                    throw SearchError.syntax("a quoted phrase is empty")
                }
                tokens.append(.term(.phrase(phrase), negated: negated))
                continue
            }
            var end = index
            while end < characters.count && !characters[end].isWhitespace && characters[end] != "\"" { end += 1 }
            let word = String(characters[index..<end])
            index = end
            if word == "OR" && !negated {
                tokens.append(.or)
                continue
            }
            if let colon = word.firstIndex(of: ":"), !negated {
                let field = word[..<colon].lowercased()
                let value = String(word[word.index(after: colon)...])
                if let filter = SearchFilter(rawValue: field) {
                    guard !value.isEmpty else { throw SearchError.syntax("\(field): needs a value, like \(filter.example)") }
                    tokens.append(.filter(filter, value: value))
                    continue
                }
            }
            let isPrefix = word.hasSuffix("*")
            let stem = isPrefix ? String(word.drop { $0 == "*" }.reversed().drop { $0 == "*" }.reversed()) : word
            guard hasSearchableCharacters(stem) else {
                if negated || isPrefix { throw SearchError.syntax("'\(negated ? "-" : "")\(word)' has no letters or digits to look for") }
                continue  // stray punctuation between words
            }
            tokens.append(.term(.word(stem, prefix: isPrefix), negated: negated))
        }
        return tokens
    }

    /// True if `text` has a letter, mark or digit (what Foundation's CharacterSet.alphanumerics
    /// holds), from the stdlib's Unicode tables rather than a bridged CharacterSet.
    static func hasSearchableCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .nonspacingMark, .spacingMark, .enclosingMark,
                 .decimalNumber, .letterNumber, .otherNumber:
                return true
            default:
                return false
            }
        }
    }
}

/// Errors of `phr search`.
public enum SearchError: PHRError, Equatable {
    case syntax(String)
    case nothingToSearch
    /// More distinct words and phrases than `SearchQuery.maximumTerms`.
    case tooManyTerms(count: Int, limit: Int)
    /// A query longer than `SearchQuery.maximumLength` characters.
    case tooLong(limit: Int)

    public var exitStatus: ExitStatus { .usage }

    public var message: Message {
        switch self {
        case .syntax(let message): return "search: \(message)"
        case .nothingToSearch: return "search: give at least one word to look for (exclusions and filters alone are not a query)"
        case .tooManyTerms(let count, let limit): return "search: the query has \(count) different words and phrases; at most \(limit) are allowed"
        case .tooLong(let limit): return "search: the query is longer than \(limit) characters"
        }
    }

    public var hint: Message? {
        switch self {
        case .syntax: return "words must all match; use \"quotes\" for phrases, word* for prefixes, OR, -word, type:lab, after:2025-01-01"
        case .nothingToSearch: return "to list records by type or date, use '\(Action.listDocumentsByTypeAndDate)'"
        case .tooManyTerms, .tooLong:
            return "search for the few most telling words or a short \"phrase\"; every word must match, so more words rarely find more"
        }
    }
}

/// The filters a search query takes (`kind:doc`, `since:2025-01-31`), as typed in a query or
/// given by a front end's own fields.
public enum SearchFilter: String, CaseIterable, Sendable {
    case kind, type, tag, after, before, since, until

    /// How the filter is written with a value, for messages.
    var example: String {
        switch self {
        case .kind: return "kind:doc"
        case .type: return "type:lab"
        case .tag: return "tag:insurance"
        default: return "\(rawValue):2025-01-31"
        }
    }
}
