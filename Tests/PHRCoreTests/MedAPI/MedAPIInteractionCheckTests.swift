import Foundation
import Testing
@testable import PHRCore

/// The interaction and allergy check on constructed medicines whose labels say exactly what a
/// test needs, served by a loopback server: a label naming another drug, or its class; a shared
/// ingredient; a shared class; a medicine RxNorm does not know; allergies by ingredient, by
/// class and by cross-reaction.
@Suite("MedAPI interaction check", .serialized)
struct MedAPIInteractionCheckTests {
    /// Invented drugs (RxCUIs 9000001...) in RxNav's and openFDA's shapes.
    static let answers: [String: String] = {
        var answers: [String: String] = [:]
        func key(_ path: String, _ items: [QueryItem]) -> String {
            items.isEmpty ? path : path + "?" + QueryString.normalized(items)
        }
        func name(_ name: String, _ rxcui: String?) {
            answers[key("/REST/rxcui.json", [QueryItem("name", name), QueryItem("search", "2")])] =
                rxcui.map { #"{"idGroup":{"name":"\#(name)","rxnormId":["\#($0)"]}}"# } ?? #"{"idGroup":{"name":"\#(name)"}}"#
        }
        func related(_ rxcui: String, _ concepts: [(String, String, String)]) {
            let groups = Dictionary(grouping: concepts, by: { $0.2 }).map { tty, members in
                #"{"tty":"\#(tty)","conceptProperties":[\#(members.map { #"{"rxcui":"\#($0.0)","name":"\#($0.1)","tty":"\#($0.2)","synonym":""}"# }.joined(separator: ","))]}"#
            }
            answers["/REST/rxcui/\(rxcui)/allrelated.json"] = #"{"allRelatedGroup":{"rxcui":"\#(rxcui)","conceptGroup":[\#(groups.joined(separator: ","))]}}"#
        }
        func classes(_ drug: String, _ list: [(String, String, String)]) {
            let items = list.map {
                #"{"minConcept":{"name":"\#(drug)"},"rxclassMinConceptItem":{"classId":"\#($0.0)","className":"\#($0.1)","classType":"\#($0.2)"},"rela":"has_epc","relaSource":"DAILYMED"}"#
            }
            answers[key("/REST/rxclass/class/byDrugName.json", [QueryItem("drugName", drug)])] = items.isEmpty ? "{}"
                : #"{"rxclassDrugInfoList":{"rxclassDrugInfo":[\#(items.joined(separator: ","))]}}"#
        }
        func label(search: String, _ setID: String, _ generic: String, _ sections: [String: String]) {
            let path = key("/drug/label.json", [QueryItem("search", search), QueryItem("sort", "effective_time:desc"), QueryItem("limit", "10")])
            guard !sections.isEmpty else {
                answers[path] = "404"
                return
            }
            let body = sections.map { #""\#($0.key)":["\#($0.value)"]"# }.joined(separator: ",")
            answers[path] = #"{"meta":{"results":{"total":1}},"results":[{"set_id":"\#(setID)","effective_time":"20260101","openfda":{"generic_name":["\#(generic.uppercased())"],"substance_name":["\#(generic.uppercased())"],"product_type":["HUMAN PRESCRIPTION DRUG"]},\#(body)}]}"#
        }
        func generic(_ name: String) -> String { OpenFDAClient.phrase("openfda.generic_name", name) }

        name("alphazine", "9000001")
        related("9000001", [("9000001", "alphazine", "IN"), ("9000011", "alphazine 10 MG Oral Tablet", "SCD")])
        classes("alphazine", [("N1", "Sprocket Inhibitor", "EPC")])
        label(search: generic("alphazine"), "set-alphazine", "alphazine", [
            "drug_interactions": "7 DRUG INTERACTIONS Alphazine is cleared by the liver. Coadministration with betamol raised alphazine exposure fourfold. Avoid the combination.",
            "contraindications": "4 CONTRAINDICATIONS Do not use alphazine with widget reuptake inhibitors (WRIs) because of the risk of sprocket storm.",
            "warnings": "Alphazine itself may cause drowsiness. Zorblax may increase alphazine levels; monitor patients.",
        ])
        name("betamol", "9000002")
        related("9000002", [("9000002", "betamol", "IN")])
        classes("betamol", [("N2", "Gear Blocker", "EPC")])
        label(search: generic("betamol"), "", "betamol", [:])
        name("gammadol", "9000003")
        related("9000003", [("9000003", "gammadol", "IN")])
        classes("gammadol", [("N3", "Widget Reuptake Inhibitor", "EPC")])
        label(search: generic("gammadol"), "set-gammadol", "gammadol",
              ["boxed_warning": "WARNING: SPROCKET STORM Do not combine gammadol with any sprocket inhibitor."])
        name("epsilor", "9000004")
        related("9000004", [("9000004", "epsilor", "IN")])
        classes("epsilor", [("N2", "Gear Blocker", "EPC")])
        label(search: generic("epsilor"), "set-epsilor", "epsilor", ["indications_and_usage": "1 INDICATIONS AND USAGE Epsilor relieves gear strain."])
        // A brand with two ingredients, one of them alphazine.
        name("alphazine cold", "9000020")
        related("9000020", [("9000020", "Alphazine Cold", "BN"), ("9000001", "alphazine", "IN"), ("9000005", "deltamine", "IN")])
        classes("deltamine", [])
        label(search: OpenFDAClient.phrase("openfda.brand_name", "Alphazine Cold"), "", "", [:])
        label(search: generic("alphazine") + " AND " + generic("deltamine"), "", "", [:])
        // A name RxNorm does not know.
        name("zorblax", nil)
        answers[key("/REST/spellingsuggestions.json", [QueryItem("name", "zorblax")])] = #"{"suggestionGroup":{"name":"zorblax","suggestionList":null}}"#
        answers[key("/REST/approximateTerm.json", [QueryItem("term", "zorblax"), QueryItem("maxEntries", "5"), QueryItem("option", "1")])] =
            #"{"approximateGroup":{"inputTerm":null}}"#
        classes("zorblax", [])
        label(search: "(\(generic("zorblax")) \(OpenFDAClient.phrase("openfda.brand_name", "zorblax")))", "", "", [:])
        // An allergy entry that is a class, not a drug.
        classes("sprocket inhibitors", [])
        return answers
    }()

    static func withLookup(_ body: (MedicineLookup, LoopbackHTTPServer) throws -> Void) throws {
        let misses = Counter()
        let server = try LoopbackHTTPServer { request in
            let key = request.path + (request.query.isEmpty ? "" : "?" + QueryString.normalized(request.query))
            guard let answer = MedAPIInteractionCheckTests.answers[key] else {
                _ = misses.next()
                return .json(418, #"{"error":{"code":"NOT_RECORDED","message":"\#(key)"}}"#)
            }
            if answer == "404" { return .json(404, #"{"error":{"code":"NOT_FOUND","message":"No matches found!"}}"#) }
            return .json(200, answer)
        }
        defer { server.stop() }
        let (vault, _, directory) = try TestSupport.makeVault("medcheck")
        defer { TestSupport.remove(directory) }
        try body(try MedAPITest.lookup(server, vault: vault), server)
        #expect(misses.next() == 1, "every request had an answer: \(server.requests.map { $0.path + "?" + $0.query })")
    }

    @Test("a label naming the other drug is a finding, quoted, with its section and source")
    func labelNamesOtherDrug() throws {
        try Self.withLookup { lookup, server in
            let report = try lookup.check(medicines: [MedicineEntry(name: "alphazine"), MedicineEntry(name: "betamol")], allergies: [])
            try #require(report.findings.count == 1)
            let finding = report.findings[0]
            #expect(finding.kind == .labelMention)
            #expect(finding.medicines == ["alphazine", "betamol"])
            #expect(finding.severity == .moderate)
            #expect(finding.section == "drug interactions")
            #expect(finding.term == "betamol")
            #expect(finding.quote == "Coadministration with betamol raised alphazine exposure fourfold.")
            #expect(finding.reason == "the alphazine label's drug interactions names betamol")
            #expect(finding.dailyMedURL == "https://dailymed.nlm.nih.gov/dailymed/lookup.cfm?setid=set-alphazine")
            #expect(finding.source?.url.hasPrefix(server.baseURL + "/drug/label.json?search=") == true)
            #expect(report.notices == ["openFDA has no label for betamol; only the other medicines' labels speak about it"])
            #expect(report.pairsWithoutFindings.isEmpty)
        }
    }

    @Test("a label naming the other drug's class; a boxed warning or contraindication is high")
    func labelNamesClass() throws {
        try Self.withLookup { lookup, _ in
            let report = try lookup.check(medicines: [MedicineEntry(name: "alphazine"), MedicineEntry(name: "gammadol")], allergies: [])
            #expect(report.findings.count == 2)
            let contraindication = try #require(report.findings.first { $0.medicines[0] == "alphazine" })
            #expect(contraindication.severity == .high)
            #expect(contraindication.section == "contraindications")
            #expect(contraindication.term == "widget reuptake inhibitors")
            #expect(contraindication.reason == "the alphazine label's contraindications names widget reuptake inhibitors: gammadol is in that class (Widget Reuptake Inhibitor, RxClass EPC)")
            #expect(contraindication.quote == "4 CONTRAINDICATIONS Do not use alphazine with widget reuptake inhibitors (WRIs) because of the risk of sprocket storm.")
            let boxed = try #require(report.findings.first { $0.medicines[0] == "gammadol" })
            #expect(boxed.severity == .high)
            #expect(boxed.section == "boxed warning")
            #expect(boxed.quote == "WARNING: SPROCKET STORM Do not combine gammadol with any sprocket inhibitor.")
        }
    }

    @Test("the same ingredient twice, and two drugs of one specific class, are findings")
    func duplicates() throws {
        try Self.withLookup { lookup, _ in
            let report = try lookup.check(medicines: [MedicineEntry(name: "alphazine"), MedicineEntry(name: "Alphazine Cold"),
                                                      MedicineEntry(name: "betamol"), MedicineEntry(name: "epsilor")], allergies: [])
            let same = try #require(report.findings.first { $0.kind == .sameIngredient })
            #expect(same.medicines == ["alphazine", "Alphazine Cold"])
            #expect(same.term == "alphazine")
            #expect(same.severity == .moderate)
            #expect(same.reason == "both contain alphazine: taking both adds up the dose")
            let sameClass = try #require(report.findings.first { $0.kind == .sameClass })
            #expect(sameClass.medicines == ["betamol", "epsilor"])
            #expect(sameClass.reason == "both are in the class Gear Blocker (RxClass EPC): a duplicated therapy")
            #expect(report.medicines[1].ingredients == ["alphazine", "deltamine"])
            #expect(!report.findings.contains { $0.kind == .labelMention && $0.medicines == ["alphazine", "Alphazine Cold"] },
                    "a label naming its own ingredient in another product is the duplicate, already reported")
        }
    }

    @Test("a medicine RxNorm does not know is checked by its name, and the report says so")
    func unknownMedicine() throws {
        try Self.withLookup { lookup, _ in
            let report = try lookup.check(medicines: [MedicineEntry(name: "alphazine"), MedicineEntry(name: "Zorblax")], allergies: [])
            let finding = try #require(report.findings.first)
            #expect(finding.term == "Zorblax")
            #expect(finding.section == "warnings")
            #expect(finding.quote == "Zorblax may increase alphazine levels; monitor patients.")
            #expect(report.notices.contains("Zorblax is not in RxNorm; it was checked by its name as entered"))
            #expect(report.medicines[1].concept == nil)
        }
    }

    @Test("allergies: by ingredient, by class, by a shared class (cross-reaction); nothing for unrelated ones")
    func allergies() throws {
        try Self.withLookup { lookup, _ in
            let report = try lookup.check(medicines: [MedicineEntry(name: "alphazine"), MedicineEntry(name: "Alphazine Cold"),
                                                      MedicineEntry(name: "betamol")],
                                          allergies: [AllergyEntry(substance: "deltamine"), AllergyEntry(substance: "sprocket inhibitors"),
                                                      AllergyEntry(substance: "epsilor")])
            func finding(_ allergy: String, _ medicine: String) -> AllergyFinding? {
                report.allergyFindings.first { $0.allergy == allergy && $0.medicine == medicine }
            }
            #expect(finding("deltamine", "Alphazine Cold")?.reason == "Alphazine Cold contains deltamine")
            #expect(finding("deltamine", "Alphazine Cold")?.severity == .high)
            #expect(finding("deltamine", "alphazine") == nil)
            #expect(finding("sprocket inhibitors", "alphazine")?.matched == "Sprocket Inhibitor")
            #expect(finding("sprocket inhibitors", "alphazine")?.severity == .high)
            #expect(finding("sprocket inhibitors", "Alphazine Cold")?.severity == .high, "its alphazine is a sprocket inhibitor")
            let cross = try #require(finding("epsilor", "betamol"))
            #expect(cross.severity == .moderate)
            #expect(cross.reason == "epsilor and betamol are both in the class Gear Blocker (RxClass EPC): cross-reactions are possible")
            #expect(report.allergyFindings.count == 4)
            #expect(report.allergyFindings.first?.severity == .high)
        }
    }

    @Test("when no medicine can be looked up at all, the check fails (exit 69) instead of saying nothing")
    func nothingReachable() throws {
        let server = try LoopbackHTTPServer { _ in .json(200, "{}") }
        server.stop()
        let (vault, _, directory) = try TestSupport.makeVault("medcheck")
        defer { TestSupport.remove(directory) }
        let lookup = try MedAPITest.lookup(server, vault: vault)
        #expect(throws: MedAPIError.self) {
            _ = try lookup.check(medicines: [MedicineEntry(name: "alphazine")], allergies: [])
        }
    }
}
