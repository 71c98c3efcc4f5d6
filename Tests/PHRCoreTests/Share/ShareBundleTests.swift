import Foundation
import Glibc
import Testing
@testable import PHRCore
@testable import PHRRender

/// `phr share`'s PDF, read back with poppler-utils: what it says, how many pages, its outline,
/// its manifest, and what happens when a document's blob is damaged.
@Suite struct ShareBundleTests {
    @Test func bundleCarriesTheSummaryAndEveryDocument() throws {
        let fixture = try ShareFixture()
        defer { fixture.remove() }
        let result = try fixture.write(fixture.request())
        let path = result.path
        let text = try PDFTools.text(path)

        #expect(text.contains("Alex Example"))
        for name in ShareFixture.currentMedications { #expect(text.contains(name), "medication \(name)") }
        for substance in ShareFixture.allergies { #expect(text.contains(substance), "allergy \(substance)") }
        #expect(text.contains("2025-07-01 09:30"), "the next appointment")
        #expect(text.contains("Next appointment: 2025-07-01 09:30 with Dr. Lee"))
        #expect(text.contains("CONFIDENTIAL"))
        #expect(text.contains("prepared for Dr. Lee"))
        // Procedures and the family history, each a table of its own.
        #expect(text.contains("Procedures") && text.contains("Appendectomy") && text.contains("2009-04"))
        #expect(text.contains("Family history") && text.contains("Myocardial infarction") && text.contains("2 relatives"), "\(text)")

        // Cover and summary, then each document's pages, nothing else.
        #expect(result.documents.count == fixture.documents.count)
        let documentPages = try fixture.documents.map { try PDFTools.pageCount("\(ShareFixture.samples)/\($0.fileName)") }
        #expect(result.documents.map(\.pages).reduce(0, +) == documentPages.reduce(0, +))
        #expect(try PDFTools.pageCount(path) == result.pages)
        #expect(result.pages == result.summaryPages + documentPages.reduce(0, +))

        // Every embedded document's own text is on its pages of the bundle, as text: every word
        // of the original. (Compared in NFKC: a ligature glyph the fonts map to U+FB01 comes out
        // of the bundle as "ﬁ", which viewers' search treats as "fi".)
        func words(_ text: String) -> Set<Substring> {
            Set(text.precomposedStringWithCompatibilityMapping.split { !$0.isLetter && !$0.isNumber }.filter { $0.count >= 3 })
        }
        for included in result.documents {
            let original = "\(ShareFixture.samples)/\(try #require(fixture.documents.first { $0.id == included.id }).fileName)"
            let originalWords = words(try PDFTools.text(original))
            let bundleText = try PDFTools.text(path, first: included.firstPage, last: included.firstPage + included.pages - 1)
            #expect(originalWords.count > 40)
            #expect(originalWords.subtracting(words(bundleText)).isEmpty, "\(included.title): \(originalWords.subtracting(words(bundleText)))")
            #expect(bundleText.contains("Document \(result.documents.firstIndex(of: included)! + 1) of \(result.documents.count)"))
        }

        // Page numbers "n / N" on every page.
        for page in [1, result.summaryPages, result.pages] {
            #expect(try PDFTools.text(path, first: page, last: page).contains("\(page) / \(result.pages)"))
        }
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    @Test func outlineListsEverySectionAndDocument() throws {
        let fixture = try ShareFixture()
        defer { fixture.remove() }
        let result = try fixture.write(fixture.request())
        let outline = try PDFTools.outline(result.path)
        let titles = outline.map(\.title)
        #expect(titles.first == "Cover")
        for section in ShareSection.allCases {
            #expect(outline.contains { $0.title == section.title && $0.level == 0 }, "\(section)")
        }
        for document in fixture.documents {
            let title = ShareBundleComposer.outlineTitle(document)
            #expect(outline.contains { $0.title == title && $0.level == 1 }, "\(title)")
        }
        // Documents appear newest first, as listed in the manifest.
        let listed = outline.filter { $0.level == 1 }.map(\.title)
        let byDate = fixture.documents.sorted { ($0.date ?? "") > ($1.date ?? "") }.map(ShareBundleComposer.outlineTitle)
        #expect(listed == byDate)
    }

    @Test func coverContentsGiveTheRightPages() throws {
        let fixture = try ShareFixture()
        defer { fixture.remove() }
        let result = try fixture.write(fixture.request())
        let cover = try PDFTools.text(result.path, first: 1, last: 1, layout: true)
        for document in result.documents {
            let title = ShareBundleComposer.outlineTitle(try #require(fixture.documents.first { $0.id == document.id }))
            let line = try #require(cover.split(separator: "\n").first { $0.contains(title) }, "\(title) on the cover")
            #expect(line.hasSuffix(" \(document.firstPage)"), "\(line)")
        }
    }

    @Test func manifestHashesAreThoseOfTheOriginals() throws {
        let fixture = try ShareFixture()
        defer { fixture.remove() }
        let result = try fixture.write(fixture.request())
        let text = try PDFTools.text(result.path, first: 1, last: result.summaryPages).filter { !$0.isWhitespace }
        for included in result.documents {
            let file = "\(ShareFixture.samples)/\(try #require(fixture.documents.first { $0.id == included.id }).fileName)"
            let digest = try SHA256Hasher.hash(Array(try #require(FileManager.default.contents(atPath: file)))).hex
            #expect(included.sha256 == digest)
            #expect(text.contains(digest), "\(included.title)")
        }
    }

    @Test func includeChoosesTheSections() throws {
        let fixture = try ShareFixture()
        defer { fixture.remove() }
        var request = fixture.request()
        request.sections = [.medications, .allergies]
        let result = try fixture.write(request)
        let outline = try PDFTools.outline(result.path).map(\.title)
        #expect(outline == ["Cover", "Allergies and intolerances", "Medications"])
        #expect(result.documents.isEmpty && result.pages == result.summaryPages)
        let text = try PDFTools.text(result.path)
        #expect(text.contains("Ferrous sulfate") && !text.contains("Iron-deficiency anemia"))
        // The course that ended in February is listed as stopped within the last year.
        #expect(text.contains("Stopped in the last 12 months") && text.contains("Amoxicillin-clavulanate"))

        request.documentIDs = [fixture.documents[0].id]
        #expect(throws: ShareError.invalidOption(option: Field("doc"), reason: "documents are chosen but \(Field.include) leaves out the documents section")) {
            try fixture.write(request)
        }
    }

    /// The drawing worker parses documents: it receives the records of the sections asked for
    /// and no others.
    @Test func theDrawingWorkerReceivesOnlyTheSectionsAskedFor() throws {
        let fixture = try ShareFixture()
        defer { fixture.remove() }
        var request = fixture.request()
        request.sections = [.summary, .medications]
        let content = try ShareContent.load(vault: fixture.vault, profile: fixture.profile, request: request, time: fixture.time)
        #expect(!content.allergies.isEmpty && !content.conditions.isEmpty, "the fixture has records to leave out")
        let sent = String(decoding: try JSONEncoder().encode(content.limited(to: Array(request.sections))), as: UTF8.self)
        #expect(sent.contains("Ferrous sulfate"))
        for allergy in ShareFixture.allergies { #expect(!sent.contains(allergy), "\(allergy)") }
        #expect(!sent.contains("Appendectomy") && !sent.contains("Breast cancer"), "procedures and family history stay behind too")
        #expect(!sent.contains("Iron-deficiency anemia"))
        let all = String(decoding: try JSONEncoder().encode(content.limited(to: ShareSection.allCases)), as: UTF8.self)
        #expect(all.contains("Penicillin") && all.contains("Iron-deficiency anemia"))
    }

    @Test func damagedBlobFailsWithTheIntegrityErrorAndWritesNothing() throws {
        let fixture = try ShareFixture(records: false)
        defer { fixture.remove() }
        let victim = fixture.documents[2]
        let blobPath = fixture.vault.blobs.path(for: victim.blobName)
        var bytes = [UInt8](try #require(FileManager.default.contents(atPath: blobPath)))
        bytes[bytes.count / 2] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: blobPath))

        let request = fixture.request()
        #expect {
            try fixture.write(request)
        } throws: { error in
            guard let error = error as? VaultError, case .integrity = error else { return false }
            return error.exitStatus == .integrity
        }
        #expect(!FileManager.default.fileExists(atPath: request.output))
        // No temporary file either: nothing was written before every document authenticated.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.directory).filter { $0.contains("bundle") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func aWorkerThatCannotStartIsReported() throws {
        let fixture = try ShareFixture(label: "share-noworker", documents: [], records: false)
        defer { fixture.remove() }
        let request = fixture.request()
        #expect(throws: ShareError.helperUnavailable(path: "/nonexistent/phr-render", code: ENOENT)) {
            try ShareBundle.write(request, vault: fixture.vault, profile: fixture.profile, time: fixture.time,
                                  renderer: ShareRenderer(workerExecutable: "/nonexistent/phr-render"))
        }
        #expect(!FileManager.default.fileExists(atPath: request.output))
    }

    @Test func existingOutputIsKeptUnlessForced() throws {
        let fixture = try ShareFixture(records: false)
        defer { fixture.remove() }
        var request = fixture.request()
        #expect(FileManager.default.createFile(atPath: request.output, contents: Data("keep me".utf8)))
        #expect(throws: ShareError.exists(path: request.output)) { try fixture.write(request) }
        #expect(FileManager.default.contents(atPath: request.output) == Data("keep me".utf8))
        request.force = true
        let result = try fixture.write(request)
        #expect(try PDFTools.pageCount(request.output) == result.pages)
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.directory).filter { $0.contains("bundle") }
        #expect(names == ["bundle.pdf"], "no temporary file is left beside the bundle")
    }

    @Test func bundleWithoutMedicalIDOrRecordsSaysSo() throws {
        let fixture = try ShareFixture(label: "share-empty", documents: [], records: false)
        defer { fixture.remove() }
        let result = try fixture.write(fixture.request())
        let text = try PDFTools.text(result.path)
        #expect(text.contains("No medical ID recorded"))
        #expect(text.contains("No allergies or intolerances recorded."))
        #expect(text.contains("No documents are included (none dated in the last 12 months)."))
        // Nothing promises documents that are not there, and no command-line flag reaches the clinician.
        #expect(!text.contains("documents at the end") && !text.contains("--"))
        #expect(!text.contains(" me ") && text.contains("Name not recorded"), "the default profile's name is not the patient's")
        #expect(result.pages == 2 && result.summaryPages == 2)
        // Procedures and family history are printed only when there is something in them.
        #expect(!text.contains("Procedures") && !text.contains("Family history"))
    }
}
