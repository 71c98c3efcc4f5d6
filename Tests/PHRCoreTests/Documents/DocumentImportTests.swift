import Foundation
import GRDB
import Testing
@testable import PHRCore

/// Adding, finding, editing, exporting and removing documents, with real PDFs and the real
/// extraction workers (the built `phr` binary).
@Suite struct DocumentImportTests {
    static let samples = "\(TestSupport.packageRoot)/Samples/documents"

    static func importer(_ vault: Vault) throws -> DocumentImporter {
        let profile = try vault.database.read { try Profiles.resolve($0, name: nil) }
        return DocumentImporter(vault: vault, profile: profile, extractor: TextExtractor(workerExecutable: TestSupport.renderBinary))
    }

    static func store(_ vault: Vault) throws -> DocumentStore {
        DocumentStore(vault: vault, profile: try vault.database.read { try Profiles.resolve($0, name: nil) })
    }

    /// (file, type, date) as Samples/README.md describes them.
    static let expectedSamples: [(String, String, String)] = [
        ("prescription-amoxicillin.pdf", "prescription", "2025-05-13"),
        ("insurance-card.pdf", "insurance", "2024-12-16"),
        ("lab-report-cbc-ferritin.pdf", "lab", "2025-03-18"),
        ("discharge-summary.pdf", "discharge", "2025-02-20"),
        ("vaccination-record.pdf", "vaccination", "2025-01-27"),
        ("referral-letter-el.pdf", "referral", "2025-03-25"),
        ("imaging-report-chest-xray.pdf", "imaging", "2025-02-17"),
    ]

    @Test func samplesGetTheirTypeDateAndEveryPageIndexed() throws {
        let (vault, _, directory) = try TestSupport.makeVault("docs")
        defer { TestSupport.remove(directory) }
        let results = try Self.importer(vault).add(Self.expectedSamples.map { "\(Self.samples)/\($0.0)" }, options: .init())
        for ((file, type, date), result) in zip(Self.expectedSamples, results) {
            let document = try #require(result.document, "\(file)")
            #expect(result.status == .added)
            #expect(document.type == type, "\(file)")
            #expect(document.date == date, "\(file)")
            #expect(document.outcome == .indexed, "\(file)")
            #expect(document.textPages == document.pageCount)
            #expect(document.typeSource == "guessed" && document.dateSource == "guessed")
        }
        // Every page's text is in the encrypted FTS5 index.
        let store = try Self.store(vault)
        let lab = try #require(results[2].document)
        let pages = try store.text(of: lab)
        #expect(pages.map(\.page) == [1, 2])
        #expect(pages[1].text.lowercased().contains("ferritin"))
        let engine = SearchEngine(vault: vault, profile: store.profile)
        #expect(try engine.search("ferritin").hits.contains { $0.id == lab.id && $0.pages?.contains(2) == true })
        #expect(try engine.search("αιματολογική").hits.map(\.id) == [results[5].document!.id])
    }

    @Test func sameContentTwiceIsStoredOnce() throws {
        let (vault, _, directory) = try TestSupport.makeVault("docs")
        defer { TestSupport.remove(directory) }
        let file = "\(Self.samples)/prescription-amoxicillin.pdf"
        let copy = "\(directory)/renamed copy.pdf"
        try FileManager.default.copyItem(atPath: file, toPath: copy)
        let first = try Self.importer(vault).add([file, copy], options: .init())
        #expect(first.map(\.status) == [.added, .duplicate])
        let second = try Self.importer(vault).add([copy], options: .init())
        #expect(second[0].status == .duplicate)
        #expect(second[0].reason == "already in vault as \(first[0].document!.id)")
        #expect(vault.blobs.namesOnDisk().count == 1)
        #expect(try Self.store(vault).list().count == 1)
    }

    @Test func optionsOverrideEveryGuess() throws {
        let (vault, _, directory) = try TestSupport.makeVault("docs")
        defer { TestSupport.remove(directory) }
        var options = DocumentImporter.Options()
        options.title = "Dr Lee's script"
        options.type = "BILL"
        options.date = "2020-02-29"
        options.tags = ["Urgent", "family"]
        options.provider = "Sample Family Practice"
        options.note = "picked up at the pharmacy on Main Street"
        let document = try #require(try Self.importer(vault).add(["\(Self.samples)/prescription-amoxicillin.pdf"], options: options)[0].document)
        #expect(document.title == "Dr Lee's script")
        #expect(document.type == "bill" && document.typeSource == "user")
        #expect(document.date == "2020-02-29" && document.dateSource == "user")
        #expect(document.tags == ["family", "urgent"])
        let engine = SearchEngine(vault: vault, profile: try Self.store(vault).profile)
        #expect(try engine.search("pharmacy main street tag:urgent type:bill").hits.map(\.id) == [document.id])
        #expect(try engine.search("\"family practice\" amoxicillin").hits.map(\.id) == [document.id])
    }

    @Test func badFilesDoNotStopABatch() throws {
        let (vault, _, directory) = try TestSupport.makeVault("docs")
        defer { TestSupport.remove(directory) }
        let text = "\(directory)/notes.txt"
        try "not a pdf".write(toFile: text, atomically: true, encoding: .utf8)
        let empty = "\(directory)/empty.pdf"
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        let damaged = "\(directory)/damaged.pdf"
        _ = FileManager.default.createFile(atPath: damaged, contents: SyntheticPDF.unopenable)
        let results = try Self.importer(vault).add([text, "\(Self.samples)/vaccination-record.pdf", empty, damaged], options: .init())
        #expect(results.map(\.status) == [.failed, .added, .failed, .added])
        #expect(results[0].reason == "not a PDF or an image (PNG, JPEG, TIFF, WebP, HEIC)")
        #expect(results[2].reason == "the file is empty")
        #expect(results[3].document?.outcome == .unreadable)
        #expect(results.map(\.isProblem) == [true, false, true, true])
        let report = try VaultCheck.run(location: vault.location, keyFile: vault.keyFile, keys: vault.keys)
        #expect(report.problems == [])
    }

    @Test func editChangesMetadataAndTheIndex() throws {
        let (vault, _, directory) = try TestSupport.makeVault("docs")
        defer { TestSupport.remove(directory) }
        let added = try #require(try Self.importer(vault).add(["\(Self.samples)/imaging-report-chest-xray.pdf"], options: .init())[0].document)
        let store = try Self.store(vault)
        var changes = DocumentStore.Changes()
        changes.title = "Chest film after the cough"
        changes.addTags = ["lungs", "winter"]
        changes.date = "2025-02-18"
        var edited = try store.edit(String(added.id.prefix(4)), changes)
        #expect(edited.title == "Chest film after the cough")
        #expect(edited.tags == ["lungs", "winter"])
        #expect(edited.dateSource == "user")
        changes = DocumentStore.Changes()
        changes.removeTags = ["winter"]
        changes.date = ""
        edited = try store.edit(added.id, changes)
        #expect(edited.tags == ["lungs"])
        #expect(edited.date == nil)
        let engine = SearchEngine(vault: vault, profile: store.profile)
        #expect(try engine.search("cough tag:lungs").hits.map(\.id) == [added.id])
        #expect(try engine.search("winter").hits.isEmpty)
        #expect(throws: RecordError.invalidField(field: Field("type"), reason: "'scan' is not a document type; use one of prescription, insurance, lab, imaging, discharge, visit, vaccination, referral, bill, other")) {
            var bad = DocumentStore.Changes()
            bad.type = "scan"
            try store.edit(added.id, bad)
        }
    }

    @Test func exportReturnsTheOriginalBytesAndRemoveLeavesNoTrace() throws {
        let (vault, _, directory) = try TestSupport.makeVault("docs")
        defer { TestSupport.remove(directory) }
        let file = "\(Self.samples)/lab-report-cbc-ferritin.pdf"
        let document = try #require(try Self.importer(vault).add([file], options: .init())[0].document)
        let store = try Self.store(vault)
        let out = "\(directory)/exported.pdf"
        try store.export(document, to: out)
        #expect(FileManager.default.contents(atPath: out) == FileManager.default.contents(atPath: file))
        #expect((try FileManager.default.attributesOfItem(atPath: out))[.posixPermissions] as? Int == 0o600)
        #expect(document.sha256 == (try SHA256Hasher.hash(Array(FileManager.default.contents(atPath: file)!))).hex)
        #expect(throws: DocumentError.exists(out)) { try store.export(document, to: out) }

        let engine = SearchEngine(vault: vault, profile: store.profile)
        #expect(!(try engine.search("ferritin").hits.isEmpty))
        _ = try store.remove(document.id)
        #expect(try engine.search("ferritin").hits.isEmpty)
        #expect(try engine.search("ferritn").hits.isEmpty, "not even through typo tolerance")
        #expect(vault.blobs.namesOnDisk().isEmpty)
        #expect(try vault.database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM search_entry") } == 0)
        #expect(try vault.database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM search_cjk") } == 0)
        #expect(try vault.database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM blob") } == 0)
        #expect(throws: RecordError.notFound(kind: "document", id: document.id)) { _ = try store.get(document.id) }
        let report = try VaultCheck.run(location: vault.location, keyFile: vault.keyFile, keys: vault.keys)
        #expect(report.problems == [] && report.warnings == [])
    }

    @Test func reindexKeepsWhatTheUserSetAndReadsEncryptedPDFsWithTheirPassword() throws {
        let (vault, _, directory) = try TestSupport.makeVault("docs")
        defer { TestSupport.remove(directory) }
        // AES-256 revision 6 with the user password "view".
        let pages = (1...3).map { SyntheticPDF.Page.text("Lab report page \($0)", "Ferritin 12 ng/mL") }
        let locked = try SyntheticPDF(pages: pages, userPassword: Array("view".utf8)).write(to: "\(directory)/locked.pdf")
        var options = DocumentImporter.Options()
        options.title = "Three pages"
        let added = try #require(try Self.importer(vault).add([locked], options: options)[0].document)
        #expect(added.outcome == .passwordRequired)
        #expect(added.pageCount == 0)
        let reindexed = try Self.importer(vault).reindex([added], password: TestSupport.secret("view"))
        #expect(reindexed.first?.outcome == .indexed)
        #expect(reindexed.first?.pageCount == 3)
        #expect(reindexed.first?.title == "Three pages")
        #expect(try Self.store(vault).text(of: reindexed[0]).count == 3)
        // The original encrypted bytes are kept as they were.
        try Self.store(vault).export(reindexed[0], to: "\(directory)/back.pdf")
        #expect(FileManager.default.contents(atPath: "\(directory)/back.pdf") == FileManager.default.contents(atPath: locked))
    }

    @Test func photosOfPaperAreStoredAsNeedingOCR() throws {
        let (vault, _, directory) = try TestSupport.makeVault("docs")
        defer { TestSupport.remove(directory) }
        // A tiny valid PNG: the signature is all phr reads.
        let png = "\(directory)/card photo.png"
        _ = FileManager.default.createFile(atPath: png, contents: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 100)))
        var options = DocumentImporter.Options()
        options.type = "insurance"
        options.ocr = .none
        let document = try #require(try Self.importer(vault).add([png], options: options)[0].document)
        #expect(document.outcome == .noText)
        #expect(document.ocr == .waiting, "stored without OCR, it waits for 'doc reindex --ocr'")
        #expect(document.mediaType == "image/png")
        #expect(document.title == "Card photo")
        let engine = SearchEngine(vault: vault, profile: try Self.store(vault).profile)
        #expect(try engine.search("card photo").hits.map(\.id) == [document.id], "found by its title")
    }

    @Test func directoriesAreSearchedRecursivelySkippingOtherFiles() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { TestSupport.remove(directory) }
        try FileManager.default.createDirectory(atPath: "\(directory)/a/b", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(directory)/.hidden", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "\(Self.samples)/insurance-card.pdf", toPath: "\(directory)/a/b/card.pdf")
        try FileManager.default.copyItem(atPath: "\(Self.samples)/insurance-card.pdf", toPath: "\(directory)/.hidden/card.pdf")
        try "x".write(toFile: "\(directory)/a/readme.txt", atomically: true, encoding: .utf8)
        let expansion = try DocumentImporter.expand([directory])
        #expect(expansion.files.map(\.path) == [InputPath("\(directory)/a/b/card.pdf"), InputPath("\(directory)/a/readme.txt")])
        #expect(expansion.files.allSatisfy { $0.inDirectory })
        #expect(expansion.problems.isEmpty)
        let (vault, _, vaultDirectory) = try TestSupport.makeVault("docs")
        defer { TestSupport.remove(vaultDirectory) }
        let results = try Self.importer(vault).add(files: expansion.files, options: .init())
        #expect(results.map(\.status) == [.added, .skipped], "a file in a directory that is not a document is passed over, not refused")
        #expect(throws: DocumentImportError.missing("\(directory)/nope")) { _ = try DocumentImporter.expand(["\(directory)/nope"]) }
    }

    @Test func titlesComeFromTheDocumentOrItsFileName() {
        #expect(DocumentImporter.title(metadata: "Laboratory report: CBC", fileName: "x.pdf") == "Laboratory report: CBC")
        #expect(DocumentImporter.title(metadata: "untitled", fileName: "discharge_summary-2024.pdf") == "Discharge summary 2024")
        #expect(DocumentImporter.title(metadata: "Microsoft Word - letter.docx", fileName: "letter.pdf") == "Letter")
        #expect(DocumentImporter.title(metadata: nil, fileName: "medical__lab_report.pdf") == "Medical lab report")
    }
}
