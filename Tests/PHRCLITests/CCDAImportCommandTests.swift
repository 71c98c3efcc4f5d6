import CCDASamples
import Foundation
import Testing

/// `phr import` of C-CDA documents through the real binary: the report, exit statuses, and
/// hostile XML (an entity bomb, external entities naming /etc/passwd or a URL) refused at once,
/// with one clear line, nothing of the named file shown and the vault unchanged.
@Suite struct CCDAImportCommandTests {
    static let env = ["PHR_PASSPHRASE": "correct horse battery staple", "TZ": "America/New_York", "PHR_TEST_NOW": "2026-11-21T12:00:00Z"]

    /// A large document never sits in phr's memory (issue 37, item 6: a 195 MB C-CDA took phr
    /// to 950 MB): the reader gets the file's descriptor and each entry is stored as it arrives,
    /// so phr's peak does not grow with the document.
    @Test func phrsMemoryDoesNotGrowWithTheDocument() throws {
        let cli = try CLI(label: "ccda-memory")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        var peaks: [Int] = []
        var sizes: [Int] = []
        for megabytes in [8, 24] {
            let path = "\(cli.directory)/ccd-\(megabytes).xml"
            try CCDASampleDocument.large(bytes: megabytes << 20).write(toFile: path, atomically: true, encoding: .utf8)
            sizes.append((try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0) >> 10)
            peaks.append(try DocumentAddHardeningTests.peakKilobytes(cli, ["import", path]))
        }
        // Read whole, 16 MB more document grew phr by over twice that: the bytes, a memory file
        // of them, and the decoded entries. Streamed, what grows is SQLite's page cache (at
        // most 32 MiB) and the search index's pending terms, which level off: a 100 MB document
        // peaks at about 85 MB, as a 24 MB one does (by hand, debug build).
        #expect(peaks[1] < 110_000)
        #expect(Double(peaks[1] - peaks[0]) < 1.5 * Double(sizes[1] - sizes[0]), "peak \(peaks[0]) kB for \(sizes[0]) kB, \(peaks[1]) kB for \(sizes[1]) kB")
        print("C-CDA import, phr's peak: \(peaks[0]) kB for a \(sizes[0]) kB document, \(peaks[1]) kB for \(sizes[1]) kB")
        let search = try cli.run(["lab", "trend", "hemoglobin", "--json"], Self.env)
        #expect(search.status == 0, "the results were stored: \(search.stderr)")
    }

    @Test func aCCDIsImportedOnceAndReported() throws {
        let cli = try CLI(label: "ccda-import")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let path = "\(cli.directory)/ccd.xml"
        try CCDASampleDocument().xml.write(toFile: path, atomically: true, encoding: .utf8)
        let dry = try cli.run(["import", path, "--dry-run"], Self.env)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(try cli.run(["med", "list"], Self.env).stdout.contains("Lisinopril") == false, "a dry run writes nothing")
        let result = try cli.run(["import", path], Self.env)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("imported \(path) (C-CDA R2.1 Continuity of Care Document (CCD)) into profile me\n"), "\(result.stdout)")
        #expect(result.stdout.contains("  medications    4 added\n"), "\(result.stdout)")
        #expect(result.stdout.contains("  procedures     2 added\n") && result.stdout.contains("  family history 3 added\n"), "\(result.stdout)")
        #expect(result.stdout.contains("\n  section[9] entry[1] Social History Observation: phr keeps only the smoking status of the social history\n"),
                "\(result.stdout)")
        // The procedures and the family history are the CLI's to list, search and export.
        let procedures = try cli.run(["procedure", "list"], Self.env).stdout
        #expect(procedures.contains("Colonoscopy") && procedures.contains("Appendectomy") && procedures.contains("2009"), "\(procedures)")
        let family = try cli.run(["family", "list"], Self.env).stdout
        #expect(family.contains("father") && family.contains("Myocardial infarction (cause of death)"), "\(family)")
        #expect(try cli.run(["search", "appendectomy"], Self.env).stdout.contains("Appendectomy"))
        // The device and the advance directive reach the emergency card, through the medical ID's notes.
        let card = try cli.run(["emergency"], Self.env).stdout
        #expect(card.contains("Device: Cardiac pacemaker (since 2019-05-02)") && card.contains("Not for resuscitation"), "\(card)")
        #expect(result.stderr.isEmpty)
        let list = try cli.run(["med", "list", "--json"], Self.env)
        let medications = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        #expect(medications.count == 3, "the active ones; amoxicillin is stopped")
        let again = try cli.run(["import", path, "--json"], Self.env)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        #expect((report["added"] as? [String: Int])?.isEmpty == true)
        #expect((report["unchanged"] as? [String: Int])?["medications"] == 4)
    }

    /// Lab results from a C-CDA say so wherever their source is shown (issue 37, item 18: they
    /// were labelled "FHIR import").
    @Test func resultsFromACCDAAreLabelledCCDA() throws {
        let cli = try CLI(label: "ccda-labs")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let path = "\(cli.directory)/ccd.xml"
        try CCDASampleDocument().xml.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try cli.run(["import", path], Self.env).status == 0)
        let list = try cli.run(["lab", "list"], Self.env)
        let rows = list.stdout.split(separator: "\n").dropFirst()
        #expect(!rows.isEmpty && rows.allSatisfy { $0.hasSuffix("C-CDA") }, "\(list.stdout)")
        let id = try #require(rows.first?.split(separator: " ").first.map(String.init))
        let show = try cli.run(["lab", "show", id], Self.env)
        #expect(show.stdout.contains("C-CDA import (ccda:result:"), "\(show.stdout)")
        #expect(!show.stdout.contains("FHIR"), "\(show.stdout)")
    }

    @Test func hostileXMLIsRefusedQuicklyAndClearly() throws {
        let cli = try CLI(label: "ccda-hostile")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let before = cli.vaultFingerprint()
        let passwd = (try? String(contentsOfFile: "/etc/passwd", encoding: .utf8)) ?? ""
        let secretLine = try #require(passwd.split(separator: "\n").first.map(String.init))
        let cases = [("bomb.xml", CCDASampleDocument.entityBomb),
                     ("xxe-file.xml", CCDASampleDocument.externalEntity("file:///etc/passwd")),
                     ("xxe-path.xml", CCDASampleDocument.externalEntity("/etc/passwd")),
                     ("xxe-http.xml", CCDASampleDocument.externalEntity("http://127.0.0.1:9/ccda"))]
        for (name, text) in cases {
            let path = "\(cli.directory)/\(name)"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let started = Date()
            let result = try cli.run(["import", path], Self.env)
            #expect(Date().timeIntervalSince(started) < 5, "\(name) took \(Date().timeIntervalSince(started)) s")
            #expect(result.status == 65, "\(name): \(result.status)")
            #expect(result.stderr.hasPrefix("phr: error: \(path): XML: declares entities (<!ENTITY> in a document type declaration), which phr never expands; C-CDA documents have none\nphr: hint: "), "\(name): \(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(!result.stderr.contains(secretLine) && !result.stdout.contains(secretLine), "nothing of /etc/passwd is shown")
        }
        let other = "\(cli.directory)/export.xml"
        try "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Clinic news</title></channel></rss>"
            .write(toFile: other, atomically: true, encoding: .utf8)
        let refused = try cli.run(["import", other], Self.env)
        #expect(refused.status == 65)
        #expect(refused.stderr == """
            phr: error: \(other): an XML file whose root is <rss>, not a C-CDA document; phr reads C-CDA documents (<ClinicalDocument> in urn:hl7-org:v3), Apple Health exports (<HealthData>), FHIR R4 Bundles (JSON), its own exports and iCalendar (.ics) files
            phr: hint: phr imports its own exports (phr export), FHIR R4 Bundles (JSON), C-CDA documents (XML), Apple Health exports (export.zip), Google Fit Takeouts (the .zip or its folder) and iCalendar (.ics) files

            """)
        #expect(cli.vaultFingerprint() == before, "refused files change nothing")
    }
}
