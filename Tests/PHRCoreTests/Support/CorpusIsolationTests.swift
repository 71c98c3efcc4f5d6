import Foundation
import Testing

/// A fresh clone without the third-party corpus must pass `make test`: only `CorpusData` (in the
/// PHRTestSupport target the test targets share) may name where the corpus lives, so every other
/// test reaches it through `CorpusData.path` and the `.corpus` trait that skips it when it is absent.
@Suite struct CorpusIsolationTests {
    static let helpers = ["Support/PHRTestSupport/CorpusData.swift"]
    /// The benchmarks are a separate program that cannot use the test helper; they read the
    /// corpus the same way (PHR_TEST_DATA, else the same folder) in one place.
    static let allowed = Set(helpers + ["../Benchmarks/PHRBench/IngestBenchmark.swift", "../Benchmarks/PHRBench/SearchBenchmark.swift"])

    /// Swift sources under `root`/Tests (every test target and Tests/Support) and
    /// `root`/Benchmarks, relative to Tests/ (or "../Benchmarks/...").
    static func sources(root: String) -> [String] {
        let tests = "\(root)/Tests"
        let inTests = TestSupport.files(under: tests).map { String($0.dropFirst(tests.count + 1)) }
        let benchmarks = TestSupport.files(under: "\(root)/Benchmarks")
            .map { "../Benchmarks/" + $0.dropFirst(root.count + "/Benchmarks/".count) }
        return (inTests + benchmarks).filter { $0.hasSuffix(".swift") }.sorted()
    }

    /// The lines of those sources, outside `allowed`, that name the corpus location.
    static func offenders(root: String) throws -> [String] {
        // Spelled in pieces so this file does not match itself.
        let needles = ["shared" + "/data", "../" + "shared", "shared" + "Data"]
        var offenders: [String] = []
        for file in sources(root: root) where !allowed.contains(file) {
            let text = try String(contentsOfFile: "\(root)/Tests/\(file)", encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where needles.contains(where: { line.contains($0) }) {
                offenders.append("Tests/\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        return offenders
    }

    @Test func onlyTheHelperNamesTheCorpusLocation() throws {
        let sources = Self.sources(root: TestSupport.packageRoot)
        #expect(sources.count > 50, "found the test sources")
        #expect(Set(Self.helpers).isSubset(of: sources), "the helper is among them")
        #expect(sources.contains { $0.hasPrefix("PHRRenderTests/") } && sources.contains { $0.hasPrefix("PHRCLITests/") },
                "every test target is among them")
        let offenders = try Self.offenders(root: TestSupport.packageRoot)
        #expect(offenders.isEmpty, """
            these lines name the corpus location; use CorpusData.path(...) and mark the test .corpus:
            \(offenders.joined(separator: "\n"))
            """)
    }

    /// The check finds a planted line in any test target and in the support target beside the
    /// helper, and lets the helper itself be.
    @Test func aLineNamingTheCorpusIsFoundWhereverItIs() throws {
        let root = try TestSupport.temporaryDirectory("corpus-isolation")
        defer { TestSupport.remove(root) }
        let planted = "let folder = \"../" + "shared" + "/data/pdfs\""
        let files = [
            "Tests/Support/PHRTestSupport/CorpusData.swift": planted,
            "Tests/Support/PHRTestSupport/Other.swift": "// fine\n" + planted,
            "Tests/PHRRenderTests/ReaderTests.swift": planted,
            "Tests/PHRCLITests/CleanTests.swift": "let folder = CorpusData.path(\"pdfs\")",
            "Tests/Fixtures/notes.txt": planted,
        ]
        for (path, text) in files {
            try FileManager.default.createDirectory(atPath: "\(root)/\((path as NSString).deletingLastPathComponent)",
                                                    withIntermediateDirectories: true)
            try text.write(toFile: "\(root)/\(path)", atomically: true, encoding: .utf8)
        }
        #expect(try Self.offenders(root: root) == ["Tests/PHRRenderTests/ReaderTests.swift:1: \(planted)",
                                                   "Tests/Support/PHRTestSupport/Other.swift:2: \(planted)"])
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
