import Foundation
import Testing
@testable import PHRCore

/// The lookups the commands use, end to end through the project's cassettes served on loopback.
@Suite("MedAPI medicine lookups", .serialized)
struct MedAPILookupTests {
    /// A fresh vault and a lookup through the cassette server, torn down after `body`.
    static func withLookup(_ body: (MedicineLookup, MedAPITest.CassetteServer) throws -> Void) throws {
        let cassettes = try MedAPITest.CassetteServer()
        defer { cassettes.server.stop() }
        let (vault, _, directory) = try TestSupport.makeVault("medlookup")
        defer { TestSupport.remove(directory) }
        try body(try MedAPITest.lookup(cassettes.server, vault: vault), cassettes)
        #expect(cassettes.misses.isEmpty, "requests no cassette answers: \(cassettes.misses)")
        // Whatever the lookups cached, the vault still passes 'phr check'.
        let report = try VaultCheck.run(location: vault.location, keyFile: vault.keyFile, keys: vault.keys)
        #expect(report.problems == [])
    }

    @Test("a name resolves to its RxCUI and ingredients, as `med add` stores them")
    func resolve() throws {
        try Self.withLookup { lookup, _ in
            let resolved = try lookup.resolve("  Citalopram ")
            #expect(resolved.concept == RxConcept(rxcui: "2556", name: "citalopram", tty: "IN"))
            #expect(resolved.ingredients.map(\.rxcui) == ["2556"])
            #expect(resolved.query == "Citalopram")
            #expect(resolved.sources.map(\.publisher) == ["RxNorm (NLM RxNav)", "RxNorm (NLM RxNav)"])

            let brand = try lookup.resolve("Lipitor")
            #expect(brand.concept.tty == "BN")
            #expect(brand.ingredients.map(\.name) == ["atorvastatin"])
        }
    }

    @Test("an unknown name is \"no medicine called X; did you mean ...?\" (exit 66)")
    func unknownName() throws {
        try Self.withLookup { lookup, _ in
            do {
                _ = try lookup.resolve("ambienn")
                Issue.record("ambienn is not a medicine")
            } catch let error as MedAPIError {
                #expect(error.localizedDescription == "no medicine called 'ambienn'; did you mean Ambien, Ammens, Amber, Amrinon or Ambifed?")
                #expect(error.exitStatus == .noInput)
                #expect(error.hint != nil)
            }
        }
    }

    @Test("info: ingredients, brands without combinations, forms, strengths, pharmacologic classes, label, sources")
    func info() throws {
        try Self.withLookup { lookup, _ in
            let info = try lookup.info(.name("citalopram"))
            #expect(info.concept.kind == "ingredient")
            #expect(info.ingredients.map(\.name) == ["citalopram"])
            #expect(info.brandNames == ["Celexa"])
            #expect(info.genericNames == ["citalopram"])
            #expect(info.doseForms == ["Oral Solution", "Oral Tablet"])
            #expect(info.strengths == ["citalopram 2 MG/ML", "citalopram 10 MG", "citalopram 20 MG", "citalopram 40 MG"])
            #expect(info.classes.map(\.label) == ["Serotonin Reuptake Inhibitor (EPC)", "Selective serotonin reuptake inhibitors (ATC1-4)",
                                                  "Antidepressive Agents, Second-Generation (MESHPA)", "Serotonin Uptake Inhibitors (MESHPA)"])
            let label = try #require(info.label)
            #expect(label.setID == "0109f365-bebd-4810-a56f-4451e10245db")
            #expect(label.manufacturer == "REMEDYREPACK INC.")
            #expect(label.effectiveDate == "2025-06-12")
            #expect(label.indications == "Citalopram tablets are indicated for the treatment of major depressive disorder (MDD) in adults [see Clinical Studies (14)].")
            #expect(label.boxedWarning?.hasPrefix("WARNING: SUICIDAL THOUGHTS AND BEHAVIORS Antidepressants increased") == true)
            #expect(label.contraindications?.hasPrefix("Citalopram tablets are contraindicated in patients") == true)
            #expect(label.warnings?.hasPrefix("5.1 Suicidal Thoughts") == true)
            #expect(info.sources.contains { $0.publisher == "openFDA (U.S. FDA)" && $0.url.contains("/drug/label.json?search=") })
            #expect(info.sources.contains { $0.url == "\(lookup.configuration.baseURL(.rxnav).absoluteString)/REST/rxcui/2556/allrelated.json" })
            #expect(info.disclaimer.contains("not medical advice"))
            #expect(info.notices.isEmpty)

            let ibuprofen = try lookup.info(.name("ibuprofen"))
            #expect(ibuprofen.brandNames == ["Advil", "Motrin"], "Advil PM is a combination, not a name for ibuprofen")
            #expect(ibuprofen.label?.setID == "00000000-0000-4000-8000-000000000201", "the prescription label, with its interaction sections")
            #expect(ibuprofen.label?.productType == "HUMAN PRESCRIPTION DRUG")
        }
    }

    @Test("info by RxCUI for a product: its generic and brand, its strength")
    func infoByRxCUI() throws {
        try Self.withLookup { lookup, _ in
            let info = try lookup.info(MedicineReference.parse("308191"))
            #expect(info.concept == RxConcept(rxcui: "308191", name: "amoxicillin 500 MG Oral Capsule", tty: "SCD"))
            #expect(info.genericNames == ["amoxicillin 500 MG Oral Capsule"])
            #expect(info.brandNames == ["Amoxil"])
            #expect(info.strengths == ["amoxicillin 500 MG"])
            #expect(info.label?.title == "Amoxicillin (amoxicillin)" || info.label?.title == "Amoxicillin")
        }
    }

    @Test("alternatives of a brand name: one group per strength, the generic first")
    func alternativesOfBrand() throws {
        try Self.withLookup { lookup, _ in
            let report = try lookup.alternatives(.name("Lipitor"))
            #expect(report.ingredients.map(\.name) == ["atorvastatin"])
            #expect(report.groups.map { $0.generic?.name } == ["atorvastatin 10 MG Oral Tablet", "atorvastatin 20 MG Oral Tablet",
                                                                 "atorvastatin 40 MG Oral Tablet", "atorvastatin 80 MG Oral Tablet"])
            for group in report.groups {
                #expect(group.products.map(\.kind) == [.generic, .brand])
                #expect(group.products[1].brand == "Lipitor")
                #expect(group.products[1].name == group.products[0].name + " [Lipitor]")
            }
            #expect(report.groups[0].products.map(\.rxcui) == ["617312", "617314"])
        }
    }

    @Test("alternatives of an ingredient leave combinations out; of a product, it is marked")
    func alternativesOfIngredientAndProduct() throws {
        try Self.withLookup { lookup, _ in
            let ibuprofen = try lookup.alternatives(.name("ibuprofen"))
            #expect(ibuprofen.groups.map { $0.generic?.rxcui } == ["310965", "197805", "197806", "197807"])
            #expect(ibuprofen.groups[0].products.map(\.name) == ["ibuprofen 200 MG Oral Tablet", "ibuprofen 200 MG Oral Tablet [Advil]"])
            #expect(ibuprofen.groups[3].products.map(\.brand) == [nil, "Motrin"])
            #expect(!ibuprofen.groups.flatMap(\.products).contains { $0.name.contains("diphenhydramine") })

            let product = try lookup.alternatives(.rxcui("200371"))
            #expect(product.groups.count == 1)
            #expect(product.groups[0].products.map(\.rxcui) == ["200371", "213344"])
            #expect(product.groups[0].products.map(\.isAsked) == [true, false])
            #expect(product.groups[0].products[1].brand == "Celexa")
        }
    }

    @Test("recalls: newest first, only reports naming the ingredient, the person's product marked")
    func recalls() throws {
        try Self.withLookup { lookup, _ in
            let report = try lookup.recalls(for: [MedicineEntry(id: "abc123", name: "Citalopram 20 mg", rxcui: "200371"),
                                                  MedicineEntry(name: "ibuprofen"), MedicineEntry(name: "amoxicillin")])
            #expect(report.medicines.map(\.searchedFor) == [["citalopram"], ["ibuprofen"], ["amoxicillin"]])
            let citalopram = report.medicines[0]
            #expect(citalopram.medicine.id == "abc123")
            #expect(citalopram.total == 3)
            #expect(citalopram.recalls.map(\.recall.recallNumber) == ["D-9012-2026", "D-9003-2024"])
            #expect(citalopram.recalls.map(\.matchesProduct) == [true, false])
            let first = citalopram.recalls[0].recall
            #expect(first.classification == "Class II")
            #expect(first.status == "Ongoing")
            #expect(first.reportDate == "2026-03-04")
            #expect(first.reason?.hasPrefix("Failed Dissolution Specifications") == true)
            #expect(citalopram.recalls[1].recall.terminationDate == "2025-01-15")
            #expect(report.medicines[1].recalls.map(\.recall.classification) == ["Class II", "Class III"])
            #expect(report.medicines[2].recalls.isEmpty, "openFDA's 404 NOT_FOUND is no recalls")
            #expect(report.medicines[2].total == 0)
            #expect(report.disclaimer.contains("not medical advice"))
        }
    }

    @Test("check: the real-shaped labels of citalopram, ibuprofen, amoxicillin and linezolid, and a penicillin allergy")
    func checkFromCassettes() throws {
        try Self.withLookup { lookup, _ in
            let report = try lookup.check(medicines: ["citalopram", "ibuprofen", "amoxicillin", "linezolid"].map { MedicineEntry(name: $0) },
                                          allergies: [AllergyEntry(substance: "Penicillin", severity: "severe")])
            func findings(_ a: String, _ b: String) -> [InteractionFinding] {
                report.findings.filter { Set($0.medicines) == [a, b] }
            }
            let serotonin = findings("citalopram", "linezolid")
            let contraindication = try #require(serotonin.first { $0.medicines[0] == "citalopram" && $0.section == "contraindications" })
            #expect(contraindication.severity == .high)
            #expect(contraindication.term == "linezolid")
            #expect(contraindication.quote?.contains("MAOIs such as linezolid") == true)
            #expect(contraindication.source?.publisher == "openFDA (U.S. FDA)")
            #expect(contraindication.dailyMedURL?.hasSuffix("0109f365-bebd-4810-a56f-4451e10245db") == true)
            let reverse = try #require(serotonin.first { $0.medicines[0] == "linezolid" && $0.section == "contraindications" })
            #expect(reverse.severity == .high)
            #expect(reverse.term == "serotonin re-uptake inhibitors", "the label's own words")
            #expect(reverse.reason == "the linezolid label's contraindications names serotonin re-uptake inhibitors: citalopram is in that class (Serotonin Reuptake Inhibitor, RxClass EPC)")

            let bleeding = findings("citalopram", "ibuprofen")
            #expect(bleeding.allSatisfy { $0.severity == .moderate })
            let nsaids = try #require(bleeding.first { $0.medicines[0] == "citalopram" })
            #expect(nsaids.section == "warnings and precautions")
            #expect(nsaids.quote == "Concomitant use of aspirin, nonsteroidal anti-inflammatory drugs (NSAIDs), other antiplatelet drugs, warfarin, and other anticoagulants may add to this risk.")
            let ssris = try #require(bleeding.first { $0.medicines[0] == "ibuprofen" })
            #expect(ssris.section == "drug interactions")
            #expect(ssris.quote?.contains("selective serotonin reuptake inhibitors (SSRIs)") == true)

            #expect(findings("amoxicillin", "ibuprofen").isEmpty)
            #expect(findings("amoxicillin", "citalopram").isEmpty)
            #expect(findings("amoxicillin", "linezolid").isEmpty)
            #expect(Set(report.pairsWithoutFindings.map(Set.init)) == [["citalopram", "amoxicillin"], ["ibuprofen", "amoxicillin"],
                                                                        ["ibuprofen", "linezolid"], ["amoxicillin", "linezolid"]])
            #expect(report.findings.first?.severity == .high, "most serious first")

            #expect(report.allergyFindings.count == 1)
            let allergy = try #require(report.allergyFindings.first)
            #expect(allergy.medicine == "amoxicillin")
            #expect(allergy.severity == .high)
            #expect(allergy.matched == "Penicillin-class Antibacterial")
            #expect(allergy.reason == "amoxicillin is in the class Penicillin-class Antibacterial (RxClass EPC)")
            #expect(allergy.section == "contraindications")
            #expect(allergy.quote?.contains("(e.g., penicillins and cephalosporins)") == true)
            #expect(report.medicines.map(\.labelTitle) == ["Citalopram (citalopram hydrobromide)", "Ibuprofen", "Amoxicillin", "Linezolid"])
            #expect(report.disclaimer.contains("not medical advice"))
        }
    }

    @Test("a penicillin allergy against an amoxicillin product given by RxCUI")
    func penicillinAllergyAgainstProduct() throws {
        try Self.withLookup { lookup, _ in
            let report = try lookup.check(medicines: [MedicineEntry(id: "m1", name: "Amoxicillin 500 mg capsules", rxcui: "308191")],
                                          allergies: [AllergyEntry(substance: "penicillins")])
            let finding = try #require(report.allergyFindings.first)
            #expect(finding.severity == .high)
            #expect(finding.medicine == "Amoxicillin 500 mg capsules")
            #expect(finding.matched == "Penicillin-class Antibacterial")
            #expect(finding.quote?.contains("penicillins") == true)
            #expect(report.medicines.first?.concept?.tty == "SCD")
            #expect(report.medicines.first?.ingredients == ["amoxicillin"])
        }
    }
}
