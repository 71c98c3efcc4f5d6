import Foundation
import Testing

/// `phr share` and `phr emergency --pdf` through the real binary: what they print, their exit
/// statuses, the files they write (read back with poppler-utils), and that errors name the
/// option or file and never a password.
@Suite struct ShareCommandTests {
    static let passphrase = "correct horse battery staple"
    static let samples = "\(CLI.packageRoot)/Samples/documents"
    static var env: [String: String] { ["PHR_PASSPHRASE": passphrase, "PHR_TEST_NOW": "2025-06-15T09:00:00Z", "TZ": "UTC"] }

    /// A vault with the samples and a few records.
    static func prepared(_ label: String) throws -> CLI {
        let cli = try CLI(label: label)
        _ = try cli.initVault(passphrase: passphrase)
        for arguments in [
            ["doc", "add", samples],
            ["id", "set", "--name", "Alex Example", "--dob", "1984-07-22", "--blood-type", "A+"],
            ["allergy", "add", "Penicillin", "--reaction", "anaphylaxis", "--severity", "severe"],
            ["med", "add", "Ferrous sulfate", "--dose", "325 mg", "--schedule", "08:00"],
            ["appt", "add", "--with", "Dr. Lee", "--at", "2025-07-01 09:30", "--reason", "anemia follow-up"],
            ["contact", "add", "Sam Example", "--phone", "555-0101", "--emergency"],
        ] {
            let result = try cli.run(arguments, env)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        return cli
    }

    static func tool(_ name: String, _ arguments: [String]) throws -> (status: Int32, stdout: String) {
        let (status, stdout) = try Subprocess.output("/usr/bin/\(name)", arguments)
        return (status, String(decoding: stdout, as: UTF8.self))
    }

    static func pages(_ path: String, password: String? = nil) throws -> Int? {
        let info = try tool("pdfinfo", (password.map { ["-upw", $0] } ?? []) + [path])
        guard info.status == 0 else { return nil }
        return info.stdout.split(separator: "\n").first { $0.hasPrefix("Pages:") }.flatMap { Int($0.split(separator: " ").last!) }
    }

    /// Issue 37, items 5 and 14: a TIFF's pages were read by number, each read walking the file
    /// from its start (quadratic: 10,050 pages took over ten minutes), and a bundle kept its first
    /// 500 pages only, calling it a 500-page document. Every page is drawn, one at a time in
    /// the memory of one, and four times the pages cost about four times the time.
    @Test func aManyPageTIFFIsDrawnWholeInLinearTime() throws {
        let cli = try CLI(label: "share-tiff")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let script = """
            import sys
            from PIL import Image, ImageDraw
            for n in (150, 600):
                pages = []
                for i in range(n):
                    page = Image.new('1', (64, 48), 1)
                    ImageDraw.Draw(page).text((2, 2), str(i + 1), fill=0)
                    pages.append(page)
                pages[0].save(sys.argv[1] + '/pages-%d.tiff' % n, save_all=True, append_images=pages[1:], compression='group4')
            """
        let made = try cli.run(["-c", script, cli.directory], executable: "/usr/bin/python3")
        try #require(made.status == 0, "\(made.stderr)")
        var seconds: [Int: Double] = [:]
        for count in [150, 600] {
            let added = try cli.run(["doc", "add", "--ocr", "never", "--json", "\(cli.directory)/pages-\(count).tiff"], Self.env)
            try #require(added.status == 0, "\(added.stderr)")
            let listed = (try JSONSerialization.jsonObject(with: Data(added.stdout.utf8)) as? [[String: Any]])?.first?["document"] as? [String: Any]
            let id = try #require(listed?["id"] as? String, "\(added.stdout)")
            let out = "\(cli.directory)/bundle-\(count).pdf"
            let started = Date()
            let shared = try cli.run(["share", "--for", "Dr. Lee", "--doc", id, "--out", out], Self.env)
            seconds[count] = Date().timeIntervalSince(started)
            #expect(shared.status == 0, "\(shared.stderr)")
            #expect(shared.stderr.contains("1 document on \(count) (") , "\(shared.stderr)")
            let info = try Self.tool("pdfinfo", [out])
            #expect(info.stdout.contains("Pages:           \(count + 2)\n"), "\(info.stdout)")
        }
        #expect(seconds[600]! / seconds[150]! < 8, "150 pages: \(seconds[150]!) s; 600: \(seconds[600]!) s")
    }

    @Test func shareWritesTheBundleAndSaysWhatIsInIt() throws {
        let cli = try Self.prepared("share")
        defer { cli.cleanUp() }
        let result = try cli.run(["share", "--for", "Dr. Lee", "--out", "bundle.pdf"], Self.env)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "")
        #expect(result.stderr.range(of: #"^phr: wrote bundle\.pdf for Dr\. Lee: 12 pages, 3 of cover and summary, 7 documents on 9 \([0-9.]+ kB\)\n$"#,
                                    options: .regularExpression) != nil, "\(result.stderr)")
        let path = "\(cli.directory)/bundle.pdf"
        #expect(try Self.pages(path) == 12)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let text = try Self.tool("pdftotext", [path, "-"]).stdout
        for fact in ["Alex Example", "Penicillin", "Ferrous sulfate", "2025-07-01 09:30", "Laboratory Report", "Παραπεμπτικό σημείωμα"] {
            #expect(text.contains(fact), "\(fact)")
        }
    }

    /// What the default left out, and a missing name, are said to the user on stderr, never to
    /// the clinician in the bundle.
    @Test func theUserIsToldWhatTheDefaultLeftOutAndThatTheNameIsMissing() throws {
        let cli = try CLI(label: "share-notes")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        #expect(try cli.run(["doc", "add", "\(Self.samples)/vaccination-record.pdf"], Self.env).status == 0)
        // A year later, the January 2025 document is outside the default 12 months.
        let later = Self.env.merging(["PHR_TEST_NOW": "2026-06-15T09:00:00Z"]) { $1 }
        let share = try cli.run(["share", "--for", "Dr. Lee", "--out", "\(cli.directory)/b.pdf"], later)
        #expect(share.status == 0, "\(share.stderr)")
        #expect(share.stderr.contains("phr: 1 older document was left out (by default a bundle holds the last 12 months); include them with --since DATE"))
        #expect(share.stderr.contains("phr: warning: the medical ID has no name, so the bundle says \"Name not recorded\""))
        let text = try Self.tool("pdftotext", ["\(cli.directory)/b.pdf", "-"]).stdout
        #expect(text.contains("Name not recorded") && !text.contains("--since") && !text.contains("documents at the end"))
        #expect(try cli.run(["id", "set", "--name", "Alex Example"], later).status == 0)
        let named = try cli.run(["share", "--for", "Dr. Lee", "--out", "\(cli.directory)/c.pdf", "--since", "2020-01-01"], later)
        #expect(named.status == 0 && !named.stderr.contains("left out") && !named.stderr.contains("no name"), "\(named.stderr)")
    }

    @Test func jsonReportsPagesDocumentsAndHashes() throws {
        let cli = try Self.prepared("share-json")
        defer { cli.cleanUp() }
        let result = try cli.run(["share", "--for", "Dr. Lee", "--out", "b.pdf", "--doc-type", "lab", "--doc-type", "imaging",
                                  "--paper", "letter", "--include", "summary,documents", "--fhir", "ips.json", "--json"], Self.env)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["paper"] as? String == "letter")
        #expect(json["sections"] as? [String] == ["summary", "documents"])
        #expect(json["encrypted"] as? Bool == false)
        let documents = try #require(json["documents"] as? [[String: Any]])
        #expect(documents.map { $0["type"] as? String } == ["lab", "imaging"])
        #expect(documents.first?["sha256"] as? String == CLI.sha256("\(Self.samples)/lab-report-cbc-ferritin.pdf"))
        #expect(documents.first?["first_page"] as? Int == (json["summary_pages"] as? Int ?? 0) + 1)
        #expect(json["pages"] as? Int == (json["summary_pages"] as? Int ?? 0) + 3)
        #expect(json["fhir"] as? String == "ips.json")
        let ipsData = try #require(FileManager.default.contents(atPath: "\(cli.directory)/ips.json"))
        let ips = try #require(try JSONSerialization.jsonObject(with: ipsData) as? [String: Any])
        #expect(ips["type"] as? String == "document")
        #expect(((ips["entry"] as? [[String: Any]])?.first?["resource"] as? [String: Any])?["resourceType"] as? String == "Composition")
        let size = try Self.tool("pdfinfo", ["\(cli.directory)/b.pdf"]).stdout
        #expect(size.contains("612 x 792 pts (letter)"))
    }

    @Test func passwordFileEncryptsAndNeverLeaksThePassword() throws {
        let cli = try Self.prepared("share-password")
        defer { cli.cleanUp() }
        let password = "Clinic visit 2025!"
        let file = try cli.passphraseFile(password, name: "bundle-password")
        let result = try cli.run(["share", "--for", "Dr. Lee", "--out", "secret.pdf", "--password-file", file], Self.env)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains(", encrypted with AES-256 ("))
        let path = "\(cli.directory)/secret.pdf"
        #expect(try Self.pages(path) == nil, "pdfinfo fails without the password")
        #expect(try Self.pages(path, password: password) == 12)
        #expect(!result.output.contains(password))

        let long = try cli.passphraseFile(String(repeating: "p", count: 200), name: "long-password")
        let refused = try cli.run(["share", "--for", "Dr. Lee", "--out", "other.pdf", "--password-file", long], Self.env)
        #expect(refused.status == 65)
        #expect(refused.stderr == "phr: error: --password-file \(long): the password is longer than 127 bytes\nphr: hint: put the password on the first line of the file\n")
        #expect(!refused.output.contains("ppppp"))
        let missing = try cli.run(["share", "--for", "Dr. Lee", "--out", "other.pdf", "--password-file", "nope"], Self.env)
        #expect(missing.status == 66)
        #expect(missing.stderr == "phr: error: --password-file nope: no such file or directory\n")
        #expect(!FileManager.default.fileExists(atPath: "\(cli.directory)/other.pdf"))
    }

    @Test func usageErrorsNameTheOption() throws {
        let cli = try Self.prepared("share-usage")
        defer { cli.cleanUp() }
        let cases: [([String], String)] = [
            (["--include", "summary,vitals"], "--include: 'vitals' is not a section"),
            (["--paper", "a5"], "--paper: 'a5' is not a paper size; use a4 or letter"),
            (["--since", "2025/01/01"], "--since: '2025/01/01' is not a date; use YYYY-MM-DD"),
            (["--doc-type", "scan"], "--doc-type: 'scan' is not a document type"),
            (["--include", "summary", "--doc-type", "lab"], "--doc-type: documents are chosen but --include leaves out the documents section"),
        ]
        for (arguments, message) in cases {
            let result = try cli.run(["share", "--for", "Dr. Lee", "--out", "x.pdf"] + arguments, Self.env)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        let missingFor = try cli.run(["share", "--out", "x.pdf"], Self.env)
        #expect(missingFor.status == 64 && missingFor.stderr.contains("--for"))
        let unknown = try cli.run(["share", "--for", "Dr. Lee", "--out", "x.pdf", "--doc", "zzzzzz"], Self.env)
        #expect(unknown.status == 66)
        #expect(unknown.stderr == "phr: error: no document with ID 'zzzzzz'\nphr: hint: list them with 'phr doc list'\n")
        #expect(!FileManager.default.fileExists(atPath: "\(cli.directory)/x.pdf"))
    }

    @Test func existingFilesAreKeptUnlessForced() throws {
        let cli = try Self.prepared("share-force")
        defer { cli.cleanUp() }
        #expect(FileManager.default.createFile(atPath: "\(cli.directory)/b.pdf", contents: Data("mine".utf8)))
        let refused = try cli.run(["share", "--for", "Dr. Lee", "--out", "b.pdf", "--include", "summary"], Self.env)
        #expect(refused.status == 1)
        #expect(refused.stderr == "phr: error: b.pdf already exists\nphr: hint: choose another name, remove the file, or add --force\n")
        let forced = try cli.run(["share", "--for", "Dr. Lee", "--out", "b.pdf", "--include", "summary", "--force"], Self.env)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try Self.pages("\(cli.directory)/b.pdf") == 2)
        let missingDirectory = try cli.run(["share", "--for", "Dr. Lee", "--out", "no/such/dir/b.pdf", "--include", "summary"], Self.env)
        #expect(missingDirectory.status == 74)
        #expect(missingDirectory.stderr == "phr: error: cannot create no/such/dir/b.pdf: no such file or directory\n")
    }

    @Test func damagedDocumentStopsTheBundleWithExit80() throws {
        let cli = try Self.prepared("share-damaged")
        defer { cli.cleanUp() }
        // Flip a byte in the middle of every blob: whichever documents are chosen, one is damaged.
        for blob in try FileManager.default.subpathsOfDirectory(atPath: "\(cli.vault)/blobs") where blob.count > 60 && !blob.hasPrefix("tmp") {
            let path = "\(cli.vault)/blobs/\(blob)"
            var bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
            bytes[bytes.count / 2] ^= 0x20
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
        let result = try cli.run(["share", "--for", "Dr. Lee", "--out", "b.pdf"], Self.env)
        #expect(result.status == 80, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("phr: error: vault integrity check failed: blob "))
        #expect(!FileManager.default.fileExists(atPath: "\(cli.directory)/b.pdf"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.directory).filter { $0.contains("b.pdf") }.isEmpty)
    }

    @Test func crashingRendererFailsCleanly() throws {
        let cli = try Self.prepared("share-crash")
        defer { cli.cleanUp() }
        // Debug builds only: the drawing worker aborts as soon as it starts, as a hostile
        // document could make it do.
        let result = try cli.run(["share", "--for", "Dr. Lee", "--out", "b.pdf"], Self.env.merging(["PHR_TEST_SHARE_WORKER_FAULT": "crash"]) { $1 })
        #expect(result.status == 65)
        #expect(result.stderr == """
            phr: error: cannot draw the bundle: the process drawing the bundle crashed (signal 6); one of the documents may be damaged
            phr: hint: try again with fewer documents (--doc, --doc-type, --since) to find the one that fails

            """)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.directory).filter { $0.contains("b.pdf") }.isEmpty)
    }

    @Test func emergencyPDFHasTheCardAndAPage() throws {
        let cli = try Self.prepared("emergency-pdf")
        defer { cli.cleanUp() }
        let result = try cli.run(["emergency", "--pdf", "card.pdf"], Self.env)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "phr: wrote card.pdf: wallet card front and back, and a full a4 page (3 pages)\n")
        let sizes = try Self.tool("pdfinfo", ["-f", "1", "-l", "3", "\(cli.directory)/card.pdf"]).stdout
        #expect(sizes.contains("Page    1 size:  242.646 x 153.014 pts"))
        #expect(sizes.contains("Page    2 size:  242.646 x 153.014 pts"))
        #expect(sizes.contains("Page    3 size:  595.276 x 841.89 pts (A4)"))
        let text = try Self.tool("pdftotext", ["\(cli.directory)/card.pdf", "-"]).stdout
        #expect(text.contains("Penicillin") && text.contains("555-0101"))
        let misuse = try cli.run(["emergency", "--paper", "letter"], Self.env)
        #expect(misuse.status == 64)
        #expect(misuse.stderr.contains("--paper and --force apply to --pdf only"))
        let plain = try cli.run(["emergency"], Self.env)
        #expect(plain.status == 0 && plain.stdout.hasPrefix("EMERGENCY INFORMATION: Alex Example\n"))
    }
}
