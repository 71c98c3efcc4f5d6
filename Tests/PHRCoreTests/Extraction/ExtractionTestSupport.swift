import Foundation
import Testing
@testable import PHRCore

/// The third-party PDF corpus (`CorpusData`, read in place) and helpers to run extractions.
enum ExtractionFixtures {
    static let corpus = CorpusData.path("pdfs")
    /// The project's own synthetic documents (Samples/README.md).
    static let samples = "\(TestSupport.packageRoot)/Samples/documents"

    /// One file of the corpus, from manifest.json.
    struct CorpusFile: Decodable, CustomTestStringConvertible {
        let cat: String
        let dest: String
        let pages: String
        let pw: String

        var path: String { "\(ExtractionFixtures.corpus)/\(cat)/\(dest)" }
        /// The page count pdfinfo gave, nil where poppler could not open the file ("n/a").
        var pageCount: Int? { Int(pages) }
        /// The user password, nil for none or owner-only ("(none; owner-only)"), without the
        /// owner password the manifest notes in parentheses.
        var password: String? {
            guard !pw.isEmpty, !pw.hasPrefix("(") else { return nil }
            return String(pw.split(separator: " ").first!)
        }
        var testDescription: String { "\(cat)/\(dest)" }
    }

    /// The files listed in the manifest that are present.
    static let corpusFiles: [CorpusFile] = {
        guard let data = FileManager.default.contents(atPath: "\(corpus)/manifest.json"),
              let files = try? JSONDecoder().decode([CorpusFile].self, from: data) else { return [] }
        return files.filter { FileManager.default.fileExists(atPath: $0.path) }.sorted { $0.path < $1.path }
    }()

    static func files(in category: String) -> [CorpusFile] {
        corpusFiles.filter { $0.cat == category }
    }

    /// The corpus file called `name`. When the corpus is missing but required (CI), a file that
    /// does not exist, so the tests that use it fail instead of trapping.
    static func file(_ name: String) -> CorpusFile {
        corpusFiles.first { $0.dest == name } ?? CorpusFile(cat: "missing", dest: name, pages: "n/a", pw: "")
    }

    /// An extractor whose workers are the built `phr` ($PHR_BIN).
    static func extractor(_ limits: ExtractionLimits = .default, faults: [String: String] = [:]) -> TextExtractor {
        let extractor = TextExtractor(workerExecutable: TestSupport.renderBinary, limits: limits)
        extractor.testFaults = faults
        return extractor
    }

    /// One extraction with every page collected.
    static func extract(_ path: String, password: String? = nil, with extractor: TextExtractor? = nil)
        throws -> (summary: ExtractionSummary, pages: [ExtractedPage]) {
        let extractor = extractor ?? Self.extractor()
        var pages: [ExtractedPage] = []
        let summary = try extractor.extract(.path(path), password: password.map(TestSupport.secret)) { pages.append($0) }
        return (summary, pages)
    }

    /// A batch extraction, with pages and summaries by job index.
    static func extractAll(_ jobs: [ExtractionJob], with extractor: TextExtractor)
        throws -> (summaries: [Int: ExtractionSummary], pages: [Int: [ExtractedPage]]) {
        var summaries: [Int: ExtractionSummary] = [:]
        var pages: [Int: [ExtractedPage]] = [:]
        try extractor.extractAll(jobs, onPage: { index, page in
            #expect(summaries[index] == nil, "a page arrived after its document finished")
            pages[index, default: []].append(page)
        }, onFinish: { index, summary in
            #expect(summaries[index] == nil, "a document finished twice")
            summaries[index] = summary
        })
        return (summaries, pages)
    }

    /// Peak resident set of this process, in bytes (getrusage ru_maxrss is in kilobytes).
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss * 1024
    }
}
