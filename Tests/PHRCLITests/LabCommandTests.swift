import Foundation
import Testing

/// `phr lab` through the real binary: typing results in, the review rule of `lab extract`, and
/// a generated lab report read end to end.
@Suite struct LabCommandTests {
    static let env = ["PHR_PASSPHRASE": "correct horse battery staple", "TZ": "Europe/Berlin", "PHR_TEST_NOW": "2025-06-01T10:00:00Z"]

    static func expect(_ result: CLI.Result, status: Int32 = 0, stdout: String? = nil, stderr: String = "",
                       sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == status, "\(result.stderr)", sourceLocation: sourceLocation)
        if let stdout { #expect(result.stdout == stdout, sourceLocation: sourceLocation) }
        #expect(result.stderr == stderr, sourceLocation: sourceLocation)
    }

    @Test func addListAndTrend() throws {
        let cli = try CLI(label: "lab")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let first = try cli.run(["lab", "add", "ferritin", "12", "ng/mL", "--range", "30-400", "--date", "2024-03-18"], Self.env)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasSuffix(" ferritin 12 ng/mL (L) on 2024-03-18\n"))
        #expect(try cli.run(["lab", "add", "Ferritin", "85", "µg/L", "--range", "30-400", "--date", "2025-03-18"], Self.env).status == 0)
        let list = try cli.run(["lab", "list", "--flagged"], Self.env)
        #expect(list.status == 0)
        #expect(list.stdout.split(separator: "\n").count == 2)
        #expect(list.stdout.contains("ferritin  12 ng/mL  30-400  L     typed"))
        let trend = try cli.run(["lab", "trend", "ferritin"], Self.env)
        #expect(trend.status == 0, "\(trend.stderr)")
        // Results in ng/mL and µg/L share one axis in the metric unit (µg/L, the same numbers).
        #expect(trend.stdout.hasPrefix("""
            Ferritin (µg/L)
            DATE        VALUE    RANGE   FLAG  SOURCE
            2024-03-18  12 µg/L  30–400  L     typed
            2025-03-18  85 µg/L  30–400        typed

            """))
        #expect(trend.stdout.hasSuffix("● in range  ▲ high  ▼ low  ░ reference 30–400 µg/L\n"))
        Self.expect(try cli.run(["lab", "add", "ferritin", "twelve"], Self.env), status: 64, stdout: "",
                    stderr: "phr: error: VALUE: 'twelve' is not a result\nphr: hint: give a number (12, 3,6), a comparison (>60) or a word (Negative, Trace, 2+)\n")
    }

    @Test func extractNeedsReviewOrAFlagAndReadsAGeneratedReport() throws {
        let cli = try CLI(label: "lab-extract")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let sample = "\(CLI.packageRoot)/Samples/lab-reports/lab-report-us-panel.pdf"
        #expect(try cli.run(["doc", "add", sample], Self.env).status == 0)
        let id = try #require(try cli.run(["doc", "list"], Self.env).stdout.split(separator: "\n").dropFirst().first?
            .split(separator: " ").first.map(String.init))
        // No terminal and neither --yes nor --json: nothing read, nothing saved, exit 64.
        Self.expect(try cli.run(["lab", "extract", id], Self.env), status: 64, stdout: "", stderr: """
            phr: error: --yes: lab extract shows the rows for review and needs a terminal for it
            phr: hint: add --yes to save the rows the reader is sure of, or --json to print them without saving

            """)
        let proposal = try cli.run(["lab", "extract", id, "--json"], Self.env)
        #expect(proposal.status == 0, "\(proposal.stderr)")
        #expect(proposal.stdout.contains("\"collected\" : \"2025-09-08\""))
        Self.expect(try cli.run(["lab", "list"], Self.env), stdout: "", stderr: "phr: no lab results; add one with 'phr lab add' or read a report with 'phr lab extract DOC'\n")
        let saved = try cli.run(["lab", "extract", id, "--yes"], Self.env)
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(saved.stdout == "saved 24 results from document \(id)\n")
        // Again: nothing new.
        let again = try cli.run(["lab", "extract", id, "--yes"], Self.env)
        #expect(again.stdout == "saved 0 results from document \(id)\n")
        #expect(again.stderr == "phr: 24 already saved from this document before, left alone\n")
        let list = try cli.run(["lab", "list", "--analyte", "ldl", "--json"], Self.env)
        #expect(list.stdout.contains("\"document_id\" : \"\(id)\""))
        #expect(list.stdout.contains("\"page\" : 1"))
        #expect(list.stdout.contains("\"value_number\" : 166"))
    }
}
