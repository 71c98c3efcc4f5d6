import Foundation
import Testing

/// A fresh clone without the third-party corpus must pass `make test`: only `CorpusData` (in the
/// PHRTestSupport target both test targets share) may name where the corpus lives, so every other test reaches
/// it through `CorpusData.path` and the `.corpus` trait that skips it when it is absent.
@Suite struct CorpusIsolationTests {
    static let tests = "\(TestSupport.packageRoot)/Tests"
    static let helpers = ["Support/PHRTestSupport/CorpusData.swift"]

    /// Swift sources under Tests/ and Benchmarks/, relative to Tests/ (or "../Benchmarks/...").
    static func sources() -> [String] {
        let tests = TestSupport.files(under: Self.tests).map { String($0.dropFirst(Self.tests.count + 1)) }
        let benchmarks = TestSupport.files(under: "\(TestSupport.packageRoot)/Benchmarks")
            .map { "../Benchmarks/" + $0.dropFirst(TestSupport.packageRoot.count + "/Benchmarks/".count) }
        return (tests + benchmarks).filter { $0.hasSuffix(".swift") }.sorted()
    }

    @Test func onlyTheHelperNamesTheCorpusLocation() throws {
        // Spelled in pieces so this file does not match itself.
        let needles = ["shared" + "/data", "../" + "shared", "shared" + "Data"]
        // The benchmarks are a separate program that cannot use the test helper; they read
        // the corpus the same way (PHR_TEST_DATA, else the same folder) in one place.
        let allowed = Set(Self.helpers + ["../Benchmarks/PHRBench/IngestBenchmark.swift", "../Benchmarks/PHRBench/SearchBenchmark.swift"])
        var offenders: [String] = []
        let sources = Self.sources()
        #expect(sources.count > 50, "found the test sources")
        for file in sources where !allowed.contains(file) {
            let text = try String(contentsOfFile: "\(Self.tests)/\(file)", encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where needles.contains(where: { line.contains($0) }) {
                offenders.append("Tests/\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(offenders.isEmpty, """
            these lines name the corpus location; use CorpusData.path(...) and mark the test .corpus:
            \(offenders.joined(separator: "\n"))
            """)
    }

    @Test func theHelperLooksWhereTheREADMESays() {
        if let path = ProcessInfo.processInfo.environment["PHR_TEST_DATA"], !path.isEmpty {
            #expect(CorpusData.root == path)
        } else {
            let parent = (TestSupport.packageRoot as NSString).deletingLastPathComponent
            #expect(CorpusData.root == "\(parent)/shared" + "/data")
        }
        #expect(CorpusData.path("pdfs/manifest.json") == "\(CorpusData.root)/pdfs/manifest.json")
    }
}
