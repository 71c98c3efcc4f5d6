import Foundation
import GRDB

/// Typo tolerance: for a word with few or no matches, the words of the index within a small edit
/// distance (1 for words of 4-7 letters, 2 from 8), found in the FTS5 vocabulary (`search_vocab`),
/// most frequent first. Distances count a swap of two neighbouring letters as one edit
/// (optimal string alignment), because "metfromin" is one slip, not two.
enum TypoCorrector {
    /// A word has "few" matches at or below this many indexed rows.
    static let fewMatches = 2
    static let maximumAlternatives = 3

    /// Alternatives for each plain word of `query` that matches few rows, keyed by the word as
    /// typed. Prefixes, phrases, codes with punctuation and unsegmented scripts are left alone.
    static func corrections(_ db: Database, for query: SearchQuery) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        for case .word(let word, false) in query.clauses.flatMap({ $0 }) where !ScriptRuns.containsUnsegmented(word) {
            let folded = fold(word)
            guard folded.count >= 4, folded.allSatisfy({ $0.isLetter }) else { continue }
            let frequency = try Int.fetchOne(db, sql: "SELECT doc FROM search_vocab WHERE term = ?", arguments: [folded]) ?? 0
            guard frequency <= fewMatches else { continue }
            let alternatives = try candidates(db, for: folded, frequency: frequency)
            if !alternatives.isEmpty { result[word] = alternatives }
        }
        return result
    }

    /// Lowercase without diacritics, as the unicode61 tokenizer (remove_diacritics 2) indexes words.
    static func fold(_ word: String) -> String {
        word.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
    }

    static func maximumDistance(for word: String) -> Int { word.count >= 8 ? 2 : 1 }

    static func candidates(_ db: Database, for word: String, frequency: Int) throws -> [String] {
        // Range scans can find the same term twice (from two prefixes); keep it once.
        var seen = Set<String>()
        let target = Array(word.unicodeScalars)
        let limit = maximumDistance(for: word)
        var scored: [(term: String, distance: Int, documents: Int)] = []
        func consider(_ rows: RowCursor) throws {
            while let row = try rows.next() {
                let term: String = row[0]
                let documents: Int = row[1]
                guard documents > frequency, seen.insert(term).inserted, abs(term.unicodeScalars.count - target.count) <= limit else { continue }
                if let distance = EditDistance.optimalAlignment(target, Array(term.unicodeScalars), limit: limit) {
                    scored.append((term, distance, documents))
                }
            }
        }
        // Most slips keep the first letter: look there first (a range scan of the vocabulary).
        func scan(prefix: String) throws {
            try consider(Row.fetchCursor(db, sql: "SELECT term, doc FROM search_vocab WHERE term >= ? AND term < ?",
                                         arguments: [prefix, prefix + "\u{10FFFF}"]))
        }
        // fts5vocab counts each term's rows as it lists it, so a scan costs in proportion to the
        // terms it passes: start narrow (the first two letters, which most slips keep), widen to
        // the first letter only if that finds nothing.
        if target.count >= 2 { try scan(prefix: String(target[0]) + String(target[1])) }
        if scored.isEmpty { try scan(prefix: String(target[0])) }
        if scored.isEmpty && frequency == 0 && target.count >= 4 {
            // A slip in the first letter: a wrong first letter, a missing one (the typed word is
            // the real one from its second letter), an extra one, or the first two swapped. Each
            // is a range scan on the three letters such a word must start with: fts5vocab counts
            // every term it passes, and two-letter ranges with common words in them ("e", "me")
            // made a first-letter slip cost 70 ms on the bench vault. (A first-letter slip with a
            // second slip within the next two letters is therefore not corrected.)
            let (a, b, c, d) = (String(target[0]), String(target[1]), String(target[2]), String(target[3]))
            var prefixes: Set<String> = [b + c + d, b + a + c]
            if target[0].isASCII {
                for letter in "abcdefghijklmnopqrstuvwxyz0123456789" {
                    prefixes.insert(String(letter) + b + c)
                    prefixes.insert(String(letter) + a + b)
                }
            }
            for prefix in prefixes.sorted() where !prefix.hasPrefix(a) { try scan(prefix: prefix) }
        }
        return scored.sorted { ($0.distance, -$0.documents, $0.term) < ($1.distance, -$1.documents, $1.term) }
            .prefix(maximumAlternatives).map(\.term)
    }

    /// The query as typed with each corrected word replaced by its best alternative.
    static func suggestion(_ text: String, corrections: [String: [String]]) -> String {
        var words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        for index in words.indices {
            if let best = corrections[words[index]]?.first { words[index] = best }
        }
        return words.joined(separator: " ")
    }
}
