import Foundation
import Testing

/// `phr search` with very long queries answers at once: repeated words count once, and too
/// many different words are a usage error with a hint.
@Suite struct SearchLimitCommandTests {
    static let env = ["PHR_PASSPHRASE": "correct horse battery staple"]

    @Test func longQueriesFinishFastAndWorkOrAreRefusedClearly() throws {
        let cli = try CLI(label: "searchlimit")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        #expect(try cli.run(["condition", "add", "Asthma"], Self.env).status == 0)

        var started = Date()
        let repeated = try cli.run(["search", Array(repeating: "asthma", count: 400).joined(separator: " ")], Self.env)
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(repeated.status == 0, "\(repeated.stderr)")
        #expect(repeated.stdout.contains("Asthma"))

        started = Date()
        let distinct = try cli.run(["search", (0..<400).map { "word\($0)x" }.joined(separator: " ")], Self.env)
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(distinct.status == 64)
        #expect(distinct.stdout.isEmpty)
        #expect(distinct.stderr == """
            phr: error: search: the query has 400 different words and phrases; at most 32 are allowed
            phr: hint: search for the few most telling words or a short "phrase"; every word must match, so more words rarely find more

            """)
    }
}
