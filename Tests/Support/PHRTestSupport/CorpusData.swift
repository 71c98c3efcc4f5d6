import Foundation
import Testing

// The one way tests reach the third-party corpus, shared by both test targets through the
// PHRTestSupport target; CorpusIsolationTests checks that no other test file names the corpus path.

/// The third-party test corpus (PDFs, RxNav and openFDA answers, FHIR bundles) that is never
/// copied into the repository: `$PHR_TEST_DATA`, else `../shared/data` beside the package root.
/// Tests that read it carry the `.corpus` trait: they are skipped, with a reason, when it is
/// absent, unless `PHR_REQUIRE_TEST_DATA=1` (CI) makes them run and fail instead.
public enum CorpusData {
    /// Where the corpus is looked for.
    public static let root: String = {
        if let path = ProcessInfo.processInfo.environment["PHR_TEST_DATA"], !path.isEmpty { return path }
        return ((PackageRoot.path as NSString).deletingLastPathComponent as NSString).appendingPathComponent("shared/data")
    }()

    /// True when `PHR_REQUIRE_TEST_DATA=1`: a missing corpus is a failure, not a skip.
    public static let isRequired = ProcessInfo.processInfo.environment["PHR_REQUIRE_TEST_DATA"] == "1"

    /// The corpus is there: the PDF manifest and the API and FHIR folders.
    public static let isPresent: Bool = {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: "\(root)/pdfs/manifest.json")
            && FileManager.default.fileExists(atPath: "\(root)/api", isDirectory: &isDirectory) && isDirectory.boolValue
            && FileManager.default.fileExists(atPath: "\(root)/fhir", isDirectory: &isDirectory) && isDirectory.boolValue
    }()

    /// The reason printed for each skipped test; `make test` counts the lines that carry it.
    public static let skipReason: Comment = "needs the third-party corpus: set PHR_TEST_DATA=DIR, or put it in shared/data beside this package"

    /// A file or folder of the corpus, such as "pdfs/broken/qpdf__bad7.pdf".
    public static func path(_ relative: String) -> String { "\(root)/\(relative)" }

    /// The FHIR bundles of the corpus (fhir/*.json), sorted.
    public static var fhirBundles: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path("fhir"))) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { path("fhir/\($0)") }
    }
}

extension Trait where Self == ConditionTrait {
    /// For a test that reads the third-party corpus: runs when it is present or required.
    public static var corpus: Self {
        .enabled(if: CorpusData.isPresent || CorpusData.isRequired, CorpusData.skipReason)
    }
}
