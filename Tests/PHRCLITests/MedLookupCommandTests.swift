import Foundation
import Testing

/// The five medicine lookup commands and `phr observation` through the real binary, answering
/// from the project's cassettes (PHR_MEDAPI_MODE=replay: never the network).
@Suite struct MedLookupCommandTests {
    static let passphrase = "correct horse battery staple"
    static var env: [String: String] {
        ["PHR_PASSPHRASE": passphrase, "PHR_MEDAPI_MODE": "replay",
         "PHR_MEDAPI_CASSETTES": "\(CLI.packageRoot)/Tests/Fixtures/cassettes"]
    }

    static func json(_ text: String) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    @Test func infoAndAlternativesAnswerFromTheCassettes() throws {
        let cli = try CLI(label: "medinfo")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let info = try cli.run(["med", "info", "citalopram"], Self.env)
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stderr.hasPrefix("phr: warning: replay mode: answers come from the cassettes"))
        #expect(info.stdout.hasPrefix("citalopram  (ingredient, RxCUI 2556)\n  ingredients      citalopram (RxCUI 2556)\n  brand names      Celexa\n"))
        let infoJSON = try #require(Self.json(try cli.run(["med", "info", "citalopram", "--json"], Self.env).stdout) as? [String: Any])
        #expect(((infoJSON["concept"] as? [String: Any])?["rxcui"] as? String) == "2556")
        let alternatives = try cli.run(["med", "alternatives", "Lipitor"], Self.env)
        #expect(alternatives.status == 0, "\(alternatives.stderr)")
        #expect(alternatives.stdout.hasPrefix("Alternatives for Lipitor (brand name, RxCUI 153165): same ingredients (atorvastatin), same strength and form\n"))
        let unknown = try cli.run(["med", "info", "zzzqqq"], Self.env)
        #expect(unknown.status != 0 && unknown.stderr.contains("phr: error:"))
    }

    @Test func checkRecallsAndResolveWorkOnTheProfilesMedications() throws {
        let cli = try CLI(label: "medcheck")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let none = try cli.run(["med", "check"], Self.env)
        #expect(none.status != 0 && none.stderr.contains("phr: error:") && none.stderr.contains("--with NAME"))
        #expect(try cli.run(["med", "add", "Citalopram", "--dose", "20 mg", "--schedule", "08:00"], Self.env).status == 0)
        #expect(try cli.run(["med", "add", "Ibuprofen", "--as-needed"], Self.env).status == 0)
        // A medicine named again with --with, in another case, is checked once.
        let check = try cli.run(["med", "check", "--with", "CITALOPRAM"], Self.env)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.hasPrefix("Checked 2 medicines for me: Citalopram, Ibuprofen\n\nMODERATE  Citalopram + Ibuprofen\n"))
        #expect(check.stdout.components(separatedBy: "Citalopram + Ibuprofen").count == 2, "one entry for the pair")
        #expect(check.stdout.contains("no finding does not mean a combination is safe"))
        let checkJSON = try #require(Self.json(try cli.run(["med", "check", "--json"], Self.env).stdout) as? [String: Any])
        #expect((checkJSON["findings"] as? [Any])?.isEmpty == false)

        let recalls = try cli.run(["med", "recalls", "--limit", "1"], Self.env)
        #expect(recalls.status == 0, "\(recalls.stderr)")
        #expect(recalls.stdout.contains("Citalopram: 1 of 3 reports\n  2026-03-04  Class II  Ongoing  D-9012-2026"), "\(recalls.stdout)")
        let since = try #require(Self.json(try cli.run(["med", "recalls", "citalopram", "--since", "2026-03-01", "--json"], Self.env).stdout) as? [String: Any])
        let dates = ((since["medicines"] as? [[String: Any]])?.first?["recalls"] as? [[String: Any]])?.compactMap {
            ($0["recall"] as? [String: Any])?["report_date"] as? String ?? ($0["recall"] as? [String: Any])?["reportDate"] as? String
        } ?? []
        #expect(!dates.isEmpty && dates.allSatisfy { $0 >= "2026-03-01" }, "\(dates)")
        let badSince = try cli.run(["med", "recalls", "--since", "March"], Self.env)
        #expect(badSince.status == 64 && badSince.stderr.hasPrefix("phr: error: --since:"))

        let resolve = try cli.run(["med", "resolve", "--json"], Self.env)
        #expect(resolve.status == 0, "\(resolve.stderr)")
        let resolved = try #require(Self.json(resolve.stdout) as? [[String: Any]])
        #expect(Set(resolved.compactMap { $0["rxcui"] as? String }).isSubset(of: ["2556", "5640"]))
        let again = try cli.run(["med", "resolve"], Self.env)
        #expect(again.stdout == "Every medication of me has an RxCUI.\n")
    }

    @Test func observationsImportedFromFHIRAreListedAndShown() throws {
        let cli = try CLI(label: "observation")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let empty = try cli.run(["observation", "list"], Self.env)
        #expect(empty.status == 0 && empty.stdout.isEmpty)
        #expect(empty.stderr == "phr: no observations; they come from FHIR imports ('phr import FILE')\n")
        let bundle = """
            {"resourceType":"Bundle","type":"collection","entry":[
            {"resource":{"resourceType":"Patient","id":"p1","name":[{"family":"Example","given":["Alex"]}]}},
            {"resource":{"resourceType":"Observation","id":"o1","status":"final","code":{"coding":[{"system":"http://loinc.org","code":"2276-4","display":"Ferritin"}],"text":"Ferritin"},"subject":{"reference":"Patient/p1"},"effectiveDateTime":"2025-03-18","valueQuantity":{"value":12,"unit":"ng/mL","system":"http://unitsofmeasure.org","code":"ng/mL"}}}]}
            """
        #expect(FileManager.default.createFile(atPath: "\(cli.directory)/obs.json", contents: Data(bundle.utf8)))
        #expect(try cli.run(["import", "\(cli.directory)/obs.json"], Self.env).status == 0)
        let list = try cli.run(["observation", "list"], Self.env)
        #expect(list.status == 0)
        let lines = list.stdout.split(separator: "\n")
        #expect(lines.first == "ID      DATE        VALUE     NAME")
        #expect(lines.count == 2 && lines[1].hasSuffix("  2025-03-18  12 ng/mL  Ferritin"), "\(list.stdout)")
        let id = String(lines[1].prefix(6))
        let listed = try #require(Self.json(try cli.run(["observation", "list", "--json"], Self.env).stdout) as? [[String: Any]])
        #expect(listed.first?["id"] as? String == id)
        let missing = try cli.run(["observation", "rm", "zzzz", "--yes"], Self.env)
        #expect(missing.status == 66 && missing.stderr.hasPrefix("phr: error: "))
        #expect(try cli.run(["observation", "rm", id, "--yes"], Self.env).status == 0)
        #expect(try cli.run(["observation", "list"], Self.env).stdout.isEmpty)
    }
}
