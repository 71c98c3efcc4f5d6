import Foundation
import Testing

/// OCR through the real binary: documents stored without it wait for it, `doc reindex --ocr`
/// reads them (and an interrupted run continues with what is left), `phr status` counts them,
/// `doc show` says how each page was read, and a missing language pack is named with its package.
@Suite struct OCRCommandTests {
    static let passphrase = "correct horse battery staple"
    static var env: [String: String] { ["PHR_PASSPHRASE": passphrase] }
    static let samples = "\(CLI.packageRoot)/Samples/documents"

    /// A sample document's first page as a grey 200 DPI PNG, as a scanner would save it.
    static func scan(_ sample: String, into directory: String, name: String) throws -> String {
        let prefix = "\(directory)/\(name)"
        let process = try Process.run(URL(fileURLWithPath: "/usr/bin/pdftoppm"),
                                      arguments: ["-r", "200", "-gray", "-png", "-f", "1", "-l", "1", "-singlefile",
                                                  "\(samples)/\(sample)", prefix])
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return prefix + ".png"
    }

    /// A one-page PDF with nothing on its page, written by hand.
    static func blankPDF(at path: String) throws {
        let objects = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                       "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
                       "<< /Length 0 >>\nstream\n\nendstream"]
        try Data(HandWrittenPDF.bytes(objects: objects)).write(to: URL(fileURLWithPath: path))
    }

    /// A PDF whose text is drawn as outlines (Ghostscript's -dNoOutputFonts), and a blank one:
    /// neither has a text layer or an image, so both wait for OCR after `doc add`, and `doc
    /// reindex --ocr` settles both (the outlines read, the blank page "OCR found no text")
    /// instead of leaving them waiting for ever (issue 37, item 15; issue 35, item 5).
    @Test func pagesWithoutTextOrImagesStopWaitingOnceOCRRead() throws {
        let cli = try CLI(label: "ocr-blank")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let blank = "\(cli.directory)/blank.pdf"
        try Self.blankPDF(at: blank)
        let outlines = "\(cli.directory)/outlines.pdf"
        let gs = try Process.run(URL(fileURLWithPath: "/usr/bin/gs"), arguments: [
            "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=pdfwrite", "-dNoOutputFonts", "-sOutputFile=\(outlines)",
            "\(Self.samples)/prescription-amoxicillin.pdf"])
        gs.waitUntilExit()
        try #require(gs.terminationStatus == 0)
        let add = try cli.run(["doc", "add", blank, outlines, "--json"], Self.env)
        let added = try #require(try JSONSerialization.jsonObject(with: Data(add.stdout.utf8)) as? [[String: Any]], "\(add.stderr)")
        #expect(added.count == 2 && added.allSatisfy { (($0["document"] as? [String: Any])?["ocr"] as? String) == "waiting" }, "\(add.stdout)")
        #expect(try cli.run(["status"], Self.env).stderr.contains("phr: 2 documents wait for OCR"))
        let reindex = try cli.run(["doc", "reindex", "--ocr", "--json"], Self.env)
        #expect(reindex.status == 0, "\(reindex.stderr)")
        let redone = try #require(try JSONSerialization.jsonObject(with: Data(reindex.stdout.utf8)) as? [[String: Any]])
        #expect(redone.count == 2 && redone.allSatisfy { $0["ocr"] as? String == "done" }, "\(reindex.stdout)")
        #expect(!(try cli.run(["status"], Self.env).stderr.contains("wait for OCR")))
        #expect(try cli.run(["doc", "reindex", "--ocr"], Self.env).stderr == "phr: no documents wait for OCR\n")
        // The outlines were read: the prescription is found by its words.
        let outlinesID = try #require((added.compactMap { $0["document"] as? [String: Any] }.first { ($0["file_name"] as? String) == "outlines.pdf" }
                                       ?? added.compactMap { $0["document"] as? [String: Any] }.last)?["id"] as? String)
        #expect(try cli.run(["search", "amoxicillin"], Self.env).stdout.contains("doc   \(outlinesID)  "), "the outlines were read by OCR")
        // --ocr-always reads a document with a text layer by OCR too (doc add's --ocr always).
        let text = try cli.run(["doc", "add", "\(Self.samples)/prescription-amoxicillin.pdf", "--json"], Self.env)
        let textID = try #require(((try JSONSerialization.jsonObject(with: Data(text.stdout.utf8)) as? [[String: Any]])?.first?["document"] as? [String: Any])?["id"] as? String)
        #expect(try cli.run(["doc", "show", textID], Self.env).stdout.contains("text      indexed\n"))
        let always = try cli.run(["doc", "reindex", "--ocr-always", textID], Self.env)
        #expect(always.status == 0 && always.stdout.contains("indexed by OCR"), "\(always.output)")
        #expect(try cli.run(["doc", "reindex", "--ocr-always"], Self.env).status == 64)
    }

    @Test func documentsStoredWithoutOCRWaitAndReindexReadsThem() throws {
        let cli = try CLI(label: "ocr")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let referral = try Self.scan("referral-letter-el.pdf", into: cli.directory, name: "referral scan")
        let lab = try Self.scan("lab-report-cbc-ferritin.pdf", into: cli.directory, name: "lab scan")

        let add = try cli.run(["doc", "add", "--ocr", "never", referral, lab, "--json"], Self.env)
        #expect(add.status == 0, "\(add.stderr)")
        let added = try #require(try JSONSerialization.jsonObject(with: Data(add.stdout.utf8)) as? [[String: Any]])
        let ids = added.compactMap { ($0["document"] as? [String: Any])?["id"] as? String }
        #expect(ids.count == 2)
        #expect(added.allSatisfy { (($0["document"] as? [String: Any])?["ocr"] as? String) == "waiting" })
        let status = try cli.run(["status"], Self.env)
        #expect(status.stderr.contains("phr: 2 documents wait for OCR; read them with 'phr doc reindex --ocr'"), "\(status.stderr)")
        let waiting = try cli.run(["doc", "show", ids[1]], Self.env)
        #expect(waiting.stdout.contains("ocr       waiting (read it with 'phr doc reindex --ocr \(ids[1])')\n"), "\(waiting.stdout)")
        #expect(try cli.run(["search", "hematocrit"], Self.env).stdout.isEmpty)

        // One document read by ID (as a run interrupted after it would leave things) ...
        let first = try cli.run(["doc", "reindex", "--ocr", ids[1]], Self.env)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("reindexed \(ids[1]) lab \"Lab scan\" 1 page, indexed by OCR\n"), "\(first.stdout)")
        // ... and the run without IDs takes only what still waits.
        let rest = try cli.run(["doc", "reindex", "--ocr", "--json"], Self.env)
        #expect(rest.status == 0, "\(rest.stderr)")
        let redone = try #require(try JSONSerialization.jsonObject(with: Data(rest.stdout.utf8)) as? [[String: Any]])
        #expect(redone.map { $0["id"] as? String } == [ids[0]])
        #expect(redone.first?["outcome"] as? String == "ocr")
        let none = try cli.run(["doc", "reindex", "--ocr"], Self.env)
        #expect(none.status == 0 && none.stderr == "phr: no documents wait for OCR\n", "\(none.stderr)")
        #expect(!(try cli.run(["status"], Self.env).stderr.contains("wait for OCR")))
        // A damaged scan is unreadable, not waiting for an OCR that could never read it.
        let bytes = try #require(FileManager.default.contents(atPath: referral))
        let truncated = "\(cli.directory)/truncated.png"
        #expect(FileManager.default.createFile(atPath: truncated, contents: bytes.prefix(bytes.count / 3)))
        #expect(try cli.run(["doc", "add", truncated], Self.env).status == 65)
        #expect(!(try cli.run(["status"], Self.env).stderr.contains("wait for OCR")))
        #expect(try cli.run(["doc", "reindex", "--ocr"], Self.env).stderr == "phr: no documents wait for OCR\n")

        // What OCR read is found, with a snippet, and the date and type came from it.
        let search = try cli.run(["search", "hematocrit"], Self.env)
        #expect(search.stdout.contains("doc   \(ids[1])  Lab scan  2025-03-18  p.1\n"), "\(search.stdout)")
        let shown = try cli.run(["doc", "show", ids[1], "--json"], Self.env)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        let pages = try #require(json["ocr_pages"] as? [[String: Any]])
        #expect(pages.count == 1 && pages[0]["status"] as? String == "read")
        #expect(((pages[0]["confidence"] as? Double) ?? 0) >= 60)
        let text = try cli.run(["doc", "show", ids[1], "--text"], Self.env)
        #expect(text.stdout.contains("Hemoglobin 11.4 L 13.2"), "\(text.stdout)")
        #expect(text.stdout.contains("ocr       page 1: confidence "))
        #expect(try cli.run(["check"], Self.env).status == 0)
    }

    @Test func aMissingLanguagePackIsNamedWithItsPackageAndNothingIsAdded() throws {
        let cli = try CLI(label: "ocrlang")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        // Tesseract data with English and OSD only, whatever this machine has installed.
        let tessdata = "\(cli.directory)/tessdata"
        try FileManager.default.createDirectory(atPath: tessdata, withIntermediateDirectories: true)
        for model in ["eng", "osd"] {
            try FileManager.default.createSymbolicLink(atPath: "\(tessdata)/\(model).traineddata",
                                                       withDestinationPath: "/usr/share/tesseract-ocr/5/tessdata/\(model).traineddata")
        }
        var env = Self.env
        env["TESSDATA_PREFIX"] = tessdata
        let scan = try Self.scan("vaccination-record.pdf", into: cli.directory, name: "card")
        let before = cli.vaultFingerprint()
        let add = try cli.run(["doc", "add", "--ocr-lang", "deu+eng", scan], env)
        #expect(add.status == 69)
        #expect(add.stderr == """
            phr: error: --ocr-lang: the OCR language pack for deu is not installed (no deu.traineddata in \(tessdata))
            phr: hint: install it (Debian: apt-get install tesseract-ocr-deu, or make deps OCR_LANGS="deu"), or choose other languages

            """, "\(add.stderr)")
        #expect(cli.vaultFingerprint() == before)
        let setting = try cli.run(["doc", "settings", "--ocr-lang", "fra"], env)
        #expect(setting.status == 69)
        let bad = try cli.run(["doc", "add", "--ocr-lang", "eng;rm", scan], env)
        #expect(bad.status == 64)
        #expect(bad.stderr.hasPrefix("phr: error: --ocr-lang: 'eng;rm' is not a list of Tesseract languages"), "\(bad.stderr)")

        // English works, and becomes the default.
        let set = try cli.run(["doc", "settings", "--ocr-lang", "eng", "--json"], env)
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.contains("\"ocr_languages\" : \"eng\"") || set.stdout.contains("\"ocr_languages\": \"eng\""), "\(set.stdout)")
        let added = try cli.run(["doc", "add", scan], env)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("indexed by OCR"), "\(added.stdout)")
    }
}
