import Foundation
import PHRCore

/// Issues 15 and 27: `phr lab extract` on 10-page lab reports with a text layer (budget: the
/// rows under 0.1 s once the words are read) and `phr lab trend` over ten years of monthly
/// results (budget: 50 ms in-process). Two reports: the cairo samples joined (tables with
/// headers), and ten pages of the Chromium layout corpus (lines of text, headerless panels,
/// stacked headers: the slower paths of the reader).
///
/// The report is the project's own samples joined with `pdfunite` (the three-page report three
/// times and the one-page panel: 10 pages, 213 result rows). Text extraction is the word boxes
/// `phr-render` reads from the text layer (`DocumentImporter.layouts`), printed beside
/// `pdftotext -bbox-layout` on the same file as the peer; the reading of rows from those words is
/// what the budget is about.
enum LabBenchmark {
    static let runs = 11
    static let trendRuns = 21
    static let extractionBudget = 0.1
    static let trendBudget = 0.050

    static func run() throws {
        let directory = try Benchmark.scratchDirectory("labs")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let samples = ShareBenchmark.packageRoot + "/Samples/lab-reports"
        let report = "\(directory)/lab-report-10-pages.pdf"
        let multi = "\(samples)/lab-report-multi-page.pdf"
        let joined = try BenchProcess.run(["pdfunite", multi, multi, multi, "\(samples)/lab-report-us-panel.pdf", report])
        guard joined.status == 0 else { throw BenchmarkError.failed("pdfunite exited \(joined.status)") }

        let (vault, _) = try Vault.create(at: VaultLocation(path: "\(directory)/vault"), passphrase: SecretBytes(copying: Array("benchmark passphrase".utf8)),
                                          parameters: ScryptParameters(log2N: 10, r: 8, p: 1))
        let profile = try vault.database.read { db in try Profiles.resolve(db, name: nil) }
        let importer = DocumentImporter(vault: vault, profile: profile, extractor: TextExtractor())
        guard let document = try importer.add([report], options: .init()).first?.document else {
            throw BenchmarkError.failed("the joined report was not added")
        }
        guard document.pageCount == 10 else { throw BenchmarkError.failed("the joined report has \(document.pageCount) pages") }

        // 1. Extraction: the words (phr-render), then the rows (in-process), each the median of 11.
        var layouts: [PageLayout] = []
        let wordsSeconds = try Benchmark.median(runs: runs) { layouts = try importer.layouts(of: document) }
        var extraction: LabExtraction?
        let readSeconds = Benchmark.median(runs: runs) {
            extraction = LabExtraction.read(documentID: document.id, pages: layouts.map { ($0.page, $0.words) }, documentDate: document.date)
        }
        let rows = extraction?.rows.count ?? 0
        let expected = 3 * 63 + 24
        guard rows == expected else { throw BenchmarkError.failed("read \(rows) rows, expected \(expected)") }

        // The same for ten one-page layouts of the corpus joined.
        let layoutsDirectory = ShareBenchmark.packageRoot + "/Samples/lab-layouts"
        let corpusPages = ["bullets-letter", "lines-colon-ref", "lines-dot-leaders-brackets", "no-header-short-panels", "portal-cards",
                           "flag-spellings", "qualitative-and-comparators", "heldout-current-previous-change", "heldout-in-range-out-of-range",
                           "heldout-nhs-result-cell"].map { "\(layoutsDirectory)/\($0).pdf" }
        let corpusReport = "\(directory)/lab-layouts-10-pages.pdf"
        let corpusJoined = try BenchProcess.run(["pdfunite"] + corpusPages + [corpusReport])
        guard corpusJoined.status == 0 else { throw BenchmarkError.failed("pdfunite exited \(corpusJoined.status)") }
        guard let corpusDocument = try importer.add([corpusReport], options: .init()).first?.document, corpusDocument.pageCount == 10 else {
            throw BenchmarkError.failed("the joined layouts were not added as 10 pages")
        }
        let corpusLayouts = try importer.layouts(of: corpusDocument)
        var corpusRows = 0
        let corpusSeconds = Benchmark.median(runs: runs) {
            corpusRows = LabExtraction.read(documentID: corpusDocument.id, pages: corpusLayouts.map { ($0.page, $0.words) },
                                            documentDate: corpusDocument.date).rows.count
        }
        var peer: [Double] = []
        for _ in 0..<runs {
            let result = try BenchProcess.run(["pdftotext", "-bbox-layout", report, "/dev/null"])
            guard result.status == 0 else { throw BenchmarkError.failed("pdftotext exited \(result.status)") }
            peer.append(result.seconds)
        }
        peer.sort()
        print("10-page lab report (the generated samples joined), \(rows) result rows; median of \(runs) runs")
        Benchmark.row("", ["seconds", "budget"])
        Benchmark.row("pdftotext -bbox-layout (peer)", [String(format: "%.3f", peer[peer.count / 2]), ""])
        Benchmark.row("phr words from the text layer", [String(format: "%.3f", wordsSeconds), ""])
        Benchmark.row("phr rows from the words", [String(format: "%.4f", readSeconds), String(format: "%.1f", extractionBudget)])
        Benchmark.row("phr rows, 10 corpus layouts (\(corpusRows) rows)", [String(format: "%.4f", corpusSeconds), String(format: "%.1f", extractionBudget)])

        // 2. Trends: ten years of monthly ferritin beside 40 other analytes' results.
        let time = TimeContext(now: Date(), zone: TimeZone(identifier: "Europe/Berlin")!)
        let store = LabStore(vault: vault, profile: profile, time: time)
        let today = time.today()
        var generator = SystemRandomNumberGenerator()
        let others = ["glucose", "creatinine", "sodium", "potassium", "tsh", "hba1c", "ldl", "hdl", "alt", "ast"]
        for month in 0..<120 {
            let day = today.adding(days: -month * 30)
            var ferritin = LabStore.Input(name: "Ferritin", value: String(Int.random(in: 8...420, using: &generator)), unit: month % 2 == 0 ? "ng/mL" : "µg/L")
            ferritin.range = "30-400"
            ferritin.date = day.description
            try store.add(ferritin)
            for name in others where month % 3 == 0 {
                var input = LabStore.Input(name: name, value: String(Double.random(in: 1...100, using: &generator).rounded()), unit: nil)
                input.date = day.description
                try store.add(input)
            }
        }
        var trend: LabTrend?
        var lines: [String] = []
        let trendSeconds = try Benchmark.median(runs: trendRuns) {
            trend = try store.trend("ferritin")
            lines = LabTrendChart.lines(trend!, colour: false)
        }
        var summaries = 0
        let summarySeconds = try Benchmark.median(runs: trendRuns) { summaries = try store.summaries().count }
        guard trend?.points.count == 120, !lines.isEmpty else { throw BenchmarkError.failed("the trend has \(trend?.points.count ?? 0) points") }
        print("\nten years of monthly ferritin (120 results, ng/mL and µg/L mixed) among \(120 + 40 * others.count) results; median of \(trendRuns)")
        Benchmark.row("", ["seconds", "budget"])
        Benchmark.row("lab trend ferritin", [String(format: "%.4f", trendSeconds), String(format: "%.3f", trendBudget)])
        Benchmark.row("lab trend, all \(summaries) analytes", [String(format: "%.4f", summarySeconds), ""])
    }
}
