import Foundation
import Testing

/// `phr doc ...` and `phr search` through the real binary, including the whole third-party PDF
/// corpus (`CorpusData`, pdfs).
@Suite struct DocumentCommandTests {
    static let passphrase = "correct horse battery staple"
    static let samples = "\(CLI.packageRoot)/Samples/documents"
    static var env: [String: String] { ["PHR_PASSPHRASE": passphrase] }

    struct ManifestEntry: Decodable {
        let cat: String
        let dest: String
        let pages: String
        let pw: String
        let enc: String

        /// The user password ("view (owner: master)" means "view"); nil for files that need none.
        var userPassword: String? {
            pw.isEmpty || pw.hasPrefix("(none") ? nil : String(pw.split(separator: " ")[0])
        }
    }

    static func manifest() throws -> [ManifestEntry] {
        let data = try #require(FileManager.default.contents(atPath: CorpusData.path("pdfs/manifest.json")))
        return try JSONDecoder().decode([ManifestEntry].self, from: data)
    }

    static func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    @Test func addPrintsOneLinePerFileAndListShowsThem() throws {
        let cli = try CLI(label: "doc")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let add = try cli.run(["doc", "add", "\(Self.samples)/prescription-amoxicillin.pdf", "\(Self.samples)/lab-report-cbc-ferritin.pdf"], Self.env)
        #expect(add.status == 0, "\(add.stderr)")
        let lines = add.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].range(of: #"^added [0-9a-z]{6} prescription "Prescription: amoxicillin 500 mg \(SAMPLE\)" 1 page$"#, options: .regularExpression) != nil, "\(lines[0])")
        #expect(lines[1].range(of: #"^added [0-9a-z]{6} lab "Laboratory report: CBC and iron studies \(SAMPLE\)" 2 pages$"#, options: .regularExpression) != nil, "\(lines[1])")
        #expect(add.stderr == "phr: 2 added\n")
        let again = try cli.run(["doc", "add", "\(Self.samples)/lab-report-cbc-ferritin.pdf"], Self.env)
        #expect(again.status == 0)
        let labID = String(lines[1].split(separator: " ")[1])
        #expect(again.stdout == "skipped \(Self.samples)/lab-report-cbc-ferritin.pdf: already in vault as \(labID)\n")

        let list = try cli.run(["doc", "list"], Self.env)
        #expect(list.stdout.hasPrefix("ID      DATE        TYPE          PAGES  TITLE\n"))
        #expect(list.stdout.contains("\(labID)  2025-03-18  lab           2      Laboratory report: CBC and iron studies (SAMPLE)\n"))
        let filtered = try #require(try Self.json(cli.run(["doc", "list", "--type", "lab", "--json"], Self.env).stdout) as? [[String: Any]])
        #expect(filtered.map { $0["id"] as? String } == [labID])
        #expect(try cli.run(["doc", "list", "--since", "2025-04-01", "--json"], Self.env).stdout.contains("prescription"))
        let bad = try cli.run(["doc", "list", "--type", "scan"], Self.env)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("'scan' is not a document type"))
    }

    @Test func showExportEditAndRemove() throws {
        let cli = try CLI(label: "doc")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let file = "\(Self.samples)/discharge-summary.pdf"
        let added = try #require(try Self.json(cli.run(["doc", "add", file, "--tag", "hospital", "--json"], Self.env).stdout) as? [[String: Any]])
        let id = try #require((added.first?["document"] as? [String: Any])?["id"] as? String)

        let show = try cli.run(["doc", "show", String(id.prefix(3)), "--text"], Self.env)
        #expect(show.status == 0)
        #expect(show.stdout.contains("type      discharge (guessed)\n"))
        #expect(show.stdout.contains("date      2025-02-20 (found in the text)\n"))
        #expect(show.stdout.contains("tags      hospital\n"))
        #expect(show.stdout.contains("— page 2 —"))
        #expect(show.stdout.lowercased().contains("pneumonia"))

        let out = "\(cli.directory)/copy.pdf"
        let export = try cli.run(["doc", "export", id, "--out", out], Self.env)
        #expect(export.status == 0, "\(export.stderr)")
        #expect(CLI.sha256(out) == CLI.sha256(file))
        #expect((try FileManager.default.attributesOfItem(atPath: out))[.posixPermissions] as? Int == 0o600)
        #expect(try cli.run(["doc", "export", id, "--out", out], Self.env).status == 1, "never overwrites")
        let piped = try cli.run(["doc", "export", id, "--out", "-"], Self.env)
        #expect(piped.status == 0)
        #expect(piped.stdout.utf8.count > 0)

        let edit = try cli.run(["doc", "edit", id, "--title", "Hospital stay", "--tag", "-hospital", "--tag", "+pneumonia", "--date", "2025-02-21"], Self.env)
        #expect(edit.stdout == "updated \(id) discharge \"Hospital stay\" 2 pages\n", "\(edit.stderr)")
        let badTag = try cli.run(["doc", "edit", id, "--tag", "oops"], Self.env)
        #expect(badTag.status == 64)
        #expect(try cli.run(["search", "stay", "tag:pneumonia", "--json"], Self.env).stdout.contains(id))

        let refused = try cli.run(["doc", "rm", id], Self.env)
        #expect(refused.status == 64, "no terminal to confirm on")
        #expect(refused.stderr.contains("needs --yes"))
        let removed = try cli.run(["doc", "rm", id, "--yes"], Self.env)
        #expect(removed.stdout == "removed \(id) discharge \"Hospital stay\" 2 pages\n")
        let search = try cli.run(["search", "pneumonia", "--json"], Self.env)
        #expect(!search.stdout.contains(id))
        #expect(try cli.run(["doc", "show", id], Self.env).status == 66)
        #expect(try cli.run(["check"], Self.env).status == 0)
    }

    @Test func badFilesAreReportedAndTheRestAdded() throws {
        let cli = try CLI(label: "doc")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let text = "\(cli.directory)/notes.txt"
        try "hello".write(toFile: text, atomically: true, encoding: .utf8)
        // A PDF poppler cannot open: its trailer names a catalog that does not exist.
        let damaged = "\(cli.directory)/damaged.pdf"
        try "%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 9 0 R >>\n%%EOF\n".write(toFile: damaged, atomically: true, encoding: .utf8)
        let result = try cli.run(["doc", "add", text, "\(Self.samples)/vaccination-record.pdf", damaged], Self.env)
        #expect(result.status == 65)
        #expect(result.stderr.contains("phr: error: \(text): not a PDF or an image (PNG, JPEG, TIFF, WebP, HEIC)\n"))
        #expect(result.stderr.contains("damaged.pdf: unreadable: "))
        #expect(result.stdout.contains(" vaccination \"Immunization record (SAMPLE)\" 1 page\n"))
        #expect(result.stderr.hasSuffix("phr: 2 added, 2 with problems (see above)\n"))
        let missing = try cli.run(["doc", "add", "\(cli.directory)/nope.pdf"], Self.env)
        #expect(missing.status == 66)
        #expect(missing.stderr.hasPrefix("phr: error: \(cli.directory)/nope.pdf: no such file or directory\n"))
    }

    /// Every third-party PDF goes in without crashing or hanging phr; outcomes by category,
    /// page counts as the manifest says, encrypted ones readable with their password, and the
    /// vault passes `phr check` afterwards.
    @Test(.corpus) func theWholeThirdPartyCorpus() throws {
        let cli = try CLI(label: "corpus")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let add = try cli.run(["doc", "add", CorpusData.path("pdfs"), "--json"], Self.env, timeout: 600)
        #expect(add.status == 65, "some files are broken on purpose")
        let results = try #require(try Self.json(add.stdout) as? [[String: Any]])
        var byFile: [String: [String: Any]] = [:]
        for result in results { byFile[((result["file"] as? String)! as NSString).lastPathComponent] = result }

        for entry in try Self.manifest() {
            guard let result = byFile[entry.dest] else {
                // A directory walk takes only files that are PDFs (or images) by content.
                #expect(entry.pages == "n/a" && !FileManager.default.contents(atPath: CorpusData.path("pdfs/\(entry.cat)/\(entry.dest)"))!.starts(with: Data("%PDF".utf8)),
                        "\(entry.dest) was not processed")
                #expect(add.stderr.contains("skipped (not a PDF or an image)"))
                continue
            }
            let document = result["document"] as? [String: Any]
            let outcome = document?["outcome"] as? String
            let pages = document?["page_count"] as? Int
            switch entry.cat {
            case "text", "medical":
                #expect(outcome == "indexed" || outcome == "partial", "\(entry.dest): \(outcome ?? "nil")")
                #expect(pages == Int(entry.pages), "\(entry.dest)")
            case "scanned":
                // Read by OCR (text drawn as vector curves is no image and stays without text; a
                // 16-pixel CCITT image has nothing to read).
                let expected = entry.dest.contains("vector") ? ["no_text"] : ["ocr", "partial", "no_text"]
                #expect(expected.contains(outcome ?? ""), "\(entry.dest): \(outcome ?? "nil")")
                if !entry.dest.contains("vector") {
                    #expect(document?["ocr"] as? String == "done", "\(entry.dest) was read by OCR")
                }
                #expect(pages == Int(entry.pages), "\(entry.dest)")
            case "encrypted":
                if entry.userPassword == nil {
                    #expect(pages == Int(entry.pages), "owner-password-only files open: \(entry.dest)")
                } else {
                    #expect(outcome == "password_required", "\(entry.dest): \(outcome ?? "nil")")
                }
            case "broken":
                if let expected = Int(entry.pages) {
                    #expect(pages == expected, "\(entry.dest) opens after repair")
                    #expect(outcome != "unreadable", "\(entry.dest)")
                } else if result["status"] as? String == "failed" {
                    #expect(result["reason"] as? String == "not a PDF, PNG or JPEG file", "\(entry.dest)")
                } else {
                    #expect(outcome == "unreadable", "\(entry.dest): \(outcome ?? "nil")")
                }
            default:
                Issue.record("unknown category \(entry.cat)")
            }
        }

        // Encrypted files become readable with their password.
        for entry in try Self.manifest() where entry.cat == "encrypted" {
            guard let password = entry.userPassword else { continue }
            let id = try #require(((byFile[entry.dest]?["document"] as? [String: Any])?["id"]) as? String)
            let passwordFile = try cli.passphraseFile(password, name: "pw-\(id)")
            let reindex = try cli.run(["doc", "reindex", id, "--pdf-password-file", passwordFile, "--json"], Self.env)
            #expect(reindex.status == 0, "\(entry.dest): \(reindex.stderr)")
            let document = try #require((try Self.json(reindex.stdout) as? [[String: Any]])?.first)
            #expect(document["page_count"] as? Int == Int(entry.pages), "\(entry.dest)")
            #expect(document["outcome"] as? String != "password_required", "\(entry.dest)")
        }
        let check = try cli.run(["check"], Self.env, timeout: 600)
        #expect(check.status == 0, "\(check.stderr)")
    }

    /// A word known to be on a page of a third-party file is found on that page.
    @Test(.corpus, arguments: [
        ("text/pypdf__GeoTopo-komprimiert.pdf", "Stichwortverzeichnis", 117),
        ("text/pdfjs__issue13211_thai.pdf", "วิชาสามัญ", 1),
        ("text/pypdf__habibi_arabic.pdf", "حبيبي", 1),
        ("medical/medical__lab_report_cbc_lipid_3p.pdf", "cholesterol", 2),
        ("medical/medical__health_insurance_card.pdf", "member", 1),
    ])
    func wordsAreFoundOnTheirPage(file: String, word: String, page: Int) throws {
        let cli = try CLI(label: "page")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        #expect(try cli.run(["doc", "add", CorpusData.path("pdfs/\(file)")], Self.env).status == 0)
        let search = try cli.run(["search", word, "--json"], Self.env)
        let hits = try #require((try Self.json(search.stdout) as? [String: Any])?["hits"] as? [[String: Any]])
        #expect(hits.count == 1, "\(file): \(search.stdout)")
        #expect((hits.first?["pages"] as? [Int])?.contains(page) == true, "\(file): \(hits.first?["pages"] ?? "none")")
    }

    @Test func searchOnALockedVaultExits77() throws {
        let cli = try CLI(label: "search")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let result = try cli.run(["search", "ferritin"])
        #expect(result.status == 77)
        #expect(result.stderr.hasPrefix("phr: error: the vault at \(cli.vault) is locked\n"))
    }

    @Test func searchReportsBadSyntaxAndTypos() throws {
        let cli = try CLI(label: "search")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        _ = try cli.run(["doc", "add", "\(Self.samples)/prescription-amoxicillin.pdf"], Self.env)
        let bad = try cli.run(["search", "\"unclosed phrase"], Self.env)
        #expect(bad.status == 64)
        #expect(bad.stderr.hasPrefix("phr: error: search: a quote is not closed: add the closing \" after the phrase\n"))
        #expect(!bad.stderr.lowercased().contains("sqlite") && !bad.stderr.lowercased().contains("fts5"))
        let typo = try cli.run(["search", "amoxicilin"], Self.env)
        #expect(typo.status == 0)
        #expect(typo.stderr == "phr: nothing matched 'amoxicilin' as typed; did you mean: amoxicillin\n")
        #expect(typo.stdout.contains("Prescription: amoxicillin 500 mg (SAMPLE)"))
        let nothing = try cli.run(["search", "zzyzx"], Self.env)
        #expect(nothing.status == 0)
        #expect(nothing.stderr == "phr: no matches for 'zzyzx' in me's records\n")
    }

    /// `phr search --json` matches Schemas/search-results.schema.json (checked by Python's
    /// jsonschema, an independent validator).
    @Test func searchJSONMatchesItsSchema() throws {
        let cli = try CLI(label: "schema")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        _ = try cli.run(["doc", "add", Self.samples], Self.env)
        for query in ["ferritin", "amoxicilin", "αιματολογική", "zzyzx"] {
            let output = "\(cli.directory)/results.json"
            let search = try cli.run(["search", query, "--json"], Self.env)
            try search.stdout.write(toFile: output, atomically: true, encoding: .utf8)
            let validate = try cli.run(["-c", """
                import json, sys, jsonschema
                schema = json.load(open(sys.argv[1]))
                jsonschema.Draft202012Validator.check_schema(schema)
                jsonschema.Draft202012Validator(schema).validate(json.load(open(sys.argv[2])))
                """, "\(CLI.packageRoot)/Schemas/search-results.schema.json", output], executable: "/usr/bin/python3")
            #expect(validate.status == 0, "\(query): \(validate.stderr)")
        }
    }
}
