import Foundation
import Testing
@testable import PHRCore

/// A query's cost is bounded whatever is typed: repeated words count once, and more than
/// `SearchQuery.maximumTerms` different words (or more than `maximumLength` characters) are
/// refused with a usage error instead of taking seconds.
@Suite struct SearchQueryLimitTests {
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = Date()
        try body()
        return Date().timeIntervalSince(start)
    }

    @Test func repeatedWordsCountOnceAndFindWhatOneWordFinds() throws {
        let (vault, profile, directory) = try SearchEngineTests.corpus()
        defer { TestSupport.remove(directory) }
        let engine = SearchEngine(vault: vault, profile: profile)
        let once = try engine.search("ferritin")
        let repeated = Array(repeating: "ferritin", count: 400).joined(separator: " ")
        var results: SearchResults?
        let elapsed = try Self.seconds { results = try engine.search(repeated) }
        #expect(SearchEngineTests.ids(try #require(results)) == SearchEngineTests.ids(once))
        #expect(elapsed < 1, "400 repeats took \(elapsed) s")

        let mixed = try SearchQuery(parsing: "Iron iron IRON -draft -draft metformin OR insulin OR metformin insulin OR metformin amox* amox*")
        #expect(mixed.clauses == [[.word("Iron", prefix: false)], [.word("metformin", prefix: false), .word("insulin", prefix: false)],
                                  [.word("amox", prefix: true)]])
        #expect(mixed.excluded == [.word("draft", prefix: false)])
        // A prefix and the whole word are different terms.
        #expect(try SearchQuery(parsing: "amox amox*").clauses.count == 2)
    }

    @Test func tooManyDifferentWordsAreRefusedQuickly() throws {
        let (vault, profile, directory) = try SearchEngineTests.corpus()
        defer { TestSupport.remove(directory) }
        let engine = SearchEngine(vault: vault, profile: profile)
        let words = (0..<400).map { "word\($0)x" }
        let elapsed = Self.seconds {
            #expect(throws: SearchError.tooManyTerms(count: 400, limit: SearchQuery.maximumTerms)) {
                try engine.search(words.joined(separator: " "))
            }
        }
        #expect(elapsed < 1)
        #expect(throws: SearchError.tooManyTerms(count: 33, limit: 32)) {
            try SearchQuery(parsing: words.prefix(30).joined(separator: " ") + " -a -b -c")
        }
        // At the limit the query runs, and fast.
        let atLimit = words.prefix(SearchQuery.maximumTerms).joined(separator: " OR ")
        let limitElapsed = try Self.seconds { _ = try engine.search("ferritin " + atLimit.split(separator: " ").dropLast(2).joined(separator: " ")) }
        #expect(limitElapsed < 2)
        #expect(throws: SearchError.tooLong(limit: SearchQuery.maximumLength)) {
            try SearchQuery(parsing: String(repeating: "a-", count: 5001))
        }
        #expect(SearchError.tooManyTerms(count: 400, limit: 32).exitStatus == .usage)
    }
}
