import Foundation
import Testing
@testable import PHRCore

/// The parsers against real RxNav and openFDA responses (the corpus's api folder, read in place),
/// and against the surprises the services send: numbers as strings, nulls, missing fields,
/// single values for lists, bodies that are not JSON.
@Suite("MedAPI parsers")
struct MedAPIParserTests {
    @Test("openFDA error bodies of a real recorded session: 400, 403, 404, 500", .corpus)
    func openFDAErrors() throws {
        let interactions = try MedAPITest.vcrInteractions("openfda-errors-400-403-404-500.2025-07.cassette.yml")
        #expect(interactions.count == 15)
        var codes: [Int: Set<String>] = [:]
        for interaction in interactions {
            let error = try #require(OpenFDAParser.error(Data(interaction.body.utf8)), "no error in \(interaction.body)")
            codes[interaction.status, default: []].insert(error.code)
        }
        #expect(codes == [400: ["BAD_REQUEST"], 403: ["API_KEY_INVALID"], 404: ["NOT_FOUND"], 500: ["SERVER_ERROR"]])

        let notFound = try #require(interactions.first { $0.status == 404 })
        let parsed = try #require(OpenFDAParser.error(Data(notFound.body.utf8)))
        #expect(parsed.message == "No matches found!")
        let badRequest = try #require(interactions.first { $0.status == 400 })
        #expect(OpenFDAParser.error(Data(badRequest.body.utf8))?.message == "Sorting allowed by non-analyzed fields only: invalid_field")
    }

    @Test("what each real error status means for phr", .corpus)
    func openFDAErrorStatuses() throws {
        let interactions = try MedAPITest.vcrInteractions("openfda-errors-400-403-404-500.2025-07.cassette.yml")
        func outcome(_ status: Int) throws -> MedAPIHTTPClient.Outcome {
            let body = try #require(interactions.first { $0.status == status }).body
            return MedAPIHTTPClient.classify(HTTPResponse(status: status, body: Data(body.utf8)), service: .openFDA, now: Date())
        }
        guard case .answer = try outcome(404) else { Issue.record("404 NOT_FOUND is an answer (no match)"); return }
        guard case .fail(.invalidAPIKey(let message)) = try outcome(403) else { Issue.record("403 is a refused key"); return }
        #expect(message?.contains("invalid api_key") == true)
        guard case .fail(.requestRejected(.openFDA, 400, let detail)) = try outcome(400) else { Issue.record("400 is rejected"); return }
        #expect(detail == "BAD_REQUEST: Sorting allowed by non-analyzed fields only: invalid_field")
        guard case .retry(.serverError(500, let serverMessage), _) = try outcome(500) else { Issue.record("500 is retried"); return }
        #expect(serverMessage == "SERVER_ERROR: Check your request and try again")
    }

    @Test("the real citalopram label: identity, RxCUI, sections, total", .corpus)
    func citalopramLabel() throws {
        let json = try JSONValue.parse(try MedAPITest.sharedFile("openfda-label-citalopram-trimmed.2026.json"))
        let page = OpenFDAParser.page(json, OpenFDAParser.label)
        #expect(page.total == 91)
        #expect(page.lastUpdated == "2026-09-18")
        let label = try #require(page.results.first)
        #expect(page.results.count == 1)
        #expect(label.setID == "0109f365-bebd-4810-a56f-4451e10245db")
        #expect(label.splID == "5aacc6ac-f606-7dbf-e063-6394a90ad7ce")
        #expect(label.rxcuis == ["309314"])
        #expect(label.brandNames == ["Citalopram"])
        #expect(label.genericNames == ["CITALOPRAM HYDROBROMIDE"])
        #expect(label.manufacturers == ["REMEDYREPACK INC."])
        #expect(label.productType == "HUMAN PRESCRIPTION DRUG")
        #expect(label.title == "Citalopram (citalopram hydrobromide)")
        #expect(label.text(.boxedWarning).first?.hasPrefix("WARNING: SUICIDAL THOUGHTS AND BEHAVIORS") == true)
        #expect(label.text(.warningsAndCautions).first?.contains("QT-Prolongation") == true)
        #expect(label.text(.contraindications).first?.contains("linezolid") == true)
        #expect(label.text(.drugInteractions).first?.contains("Monoamine Oxidase Inhibitors") == true)
        #expect(label.text(.warnings).isEmpty)
        #expect(label.effectiveDate == nil)
        let summary = LabelSummary(label)
        #expect(summary.indications?.hasPrefix("Citalopram tablets are indicated") == true)
        #expect(summary.warnings?.hasPrefix("QT-Prolongation") == true)
        #expect(summary.dailyMedURL == "https://dailymed.nlm.nih.gov/dailymed/lookup.cfm?setid=0109f365-bebd-4810-a56f-4451e10245db")
    }

    @Test("the citalopram label names linezolid in its contraindications, quoted as a sentence", .corpus)
    func citalopramLabelMention() throws {
        let json = try JSONValue.parse(try MedAPITest.sharedFile("openfda-label-citalopram-trimmed.2026.json"))
        let label = try #require(OpenFDAParser.page(json, OpenFDAParser.label).results.first)
        let text = label.text(.contraindications).joined(separator: " ")
        let mention = try #require(LabelText.firstMention(of: ["linezolid"], in: text))
        #expect(mention.term == "linezolid")
        #expect(mention.quote.contains("MAOIs (including MAOIs such as linezolid"))
        #expect(LabelText.firstMention(of: ["MAOI"], in: text)?.term == "MAOI")
    }

    @Test("the real allrelated answer: groups, empty groups, the concept itself", .corpus)
    func allRelated() throws {
        let json = try JSONValue.parse(try MedAPITest.sharedFile("rxnorm-allrelated-866350.2015.json"))
        let concepts = RxNavParser.relatedConcepts(json)
        #expect(concepts.count == 13)
        #expect(concepts.first == RxConcept(rxcui: "866350", name: "Zyrtec Itchy Eye", tty: "BN"))
        #expect(concepts.filter { $0.tty == "IN" }.map(\.name) == ["Ketotifen"])
        #expect(concepts.filter { $0.tty == "BPCK" || $0.tty == "GPCK" || $0.tty == "MIN" }.isEmpty)
        let branded = try #require(concepts.first { $0.tty == "SBD" })
        #expect(branded.rxcui == "866353")
        #expect(branded.synonym == "Zyrtec Itchy Eye 0.025 % Ophthalmic Solution")
        #expect(concepts.first { $0.tty == "SCDC" }?.synonym == nil, "an empty synonym reads as none")

        let generic = try #require(concepts.first { $0.tty == "SCD" })
        #expect(RxProductName(branded.name).generic == generic.name)
        #expect(RxProductName(branded.name).brand == "Zyrtec Itchy Eye")
        #expect(RxProductName(generic.name).hasExactly(ingredients: ["Ketotifen"]))
    }

    @Test("the real spelling suggestions", .corpus)
    func spellingSuggestions() throws {
        let json = try JSONValue.parse(try MedAPITest.sharedFile("rxnorm-spellingsuggestions-ambienn.2015.json"))
        #expect(RxNavParser.spellingSuggestions(json) == ["Ambien", "Ammens", "Amber", "Amrinon", "Ambifed", "ambrisentan", "alizan"])
    }

    @Test("FDA's NDC documentation example: product, ingredients, packaging, classes; the count shape", .corpus)
    func ndcExample() throws {
        let json = try JSONValue.parse(try MedAPITest.sharedFile("openfda-ndc-official-doc-examples.json"))
        let result = try #require(json["result"])
        let product = try #require(OpenFDAParser.ndcProduct(result))
        #expect(product.productNDC == "68682-065")
        #expect(product.brandName == "Methoxsalen")
        #expect(product.labeler == "Oceanside Pharmaceuticals")
        #expect(product.dosageForm == "CAPSULE, LIQUID FILLED")
        #expect(product.routes == ["ORAL"])
        #expect(product.activeIngredients == [NDCProduct.Ingredient(name: "METHOXSALEN", strength: "10 mg/1")])
        #expect(product.packages == [NDCProduct.Package(ndc: "68682-065-10", description: "50 CAPSULE, LIQUID FILLED in 1 BOTTLE, PLASTIC (68682-065-10)")])
        #expect(product.rxcuis == ["1812434"])
        #expect(product.pharmacologicClasses.contains("Psoralen [EPC]"))
        #expect(product.marketingCategory == "NDA AUTHORIZED GENERIC")

        let anatomy = OpenFDAParser.page(try #require(json["anatomy"]), OpenFDAParser.ndcProduct)
        #expect(anatomy.total == 142572)
        #expect(anatomy.results.isEmpty, "an empty result object is skipped, not a crash")
        let count = try #require(json["count"])
        #expect(count["results"].elements.compactMap { $0["term"].text } == ["CII", "CIV", "CIII", "CV", "CI"])
        #expect(count["results"].elements.first?["count"]?.int == 2315)

        let classTerms = DrugVocabulary.classTerms(DrugClass(id: "", name: "Psoralen [EPC]", type: "EPC"))
        #expect(classTerms.first == "Psoralen")
    }

    @Test("numbers as strings, nulls, missing and single values never crash")
    func tolerantParsing() throws {
        let approximate = try JSONValue.parse(Data("""
            {"approximateGroup":{"inputTerm":null,"candidate":[
              {"rxcui":"2","rxaui":"9","score":"3.5","rank":"2","name":"second"},
              {"rxcui":1,"score":7,"rank":"1","name":"first","source":"RXNORM"},
              {"rxcui":"1","rank":"3","name":"duplicate"},
              {"rxcui":null,"rank":"4"},
              {"rxcui":"12x","rank":"5"},
              {"rxcui":"3","rank":null,"name":""}]}}
            """.utf8))
        let matches = RxNavParser.approximateMatches(approximate)
        #expect(matches.map(\.rxcui) == ["1", "2", "3"])
        #expect(matches[0].score == 7 && matches[0].rank == 1 && matches[0].name == "first")
        #expect(matches[1].score == 3.5)
        #expect(matches[2].name == nil)

        #expect(RxNavParser.rxcuis(try JSONValue.parse(Data(#"{"idGroup":{}}"#.utf8))) == [])
        #expect(RxNavParser.rxcuis(try JSONValue.parse(Data(#"{"idGroup":{"name":null,"rxnormId":"2556"}}"#.utf8))) == ["2556"])
        #expect(RxNavParser.rxcuis(try JSONValue.parse(Data(#"{"idGroup":null}"#.utf8))) == [])
        #expect(RxNavParser.relatedConcepts(try JSONValue.parse(Data(#"{"allRelatedGroup":{"conceptGroup":null}}"#.utf8))) == [])
        #expect(RxNavParser.relatedConcepts(try JSONValue.parse(Data(#"{"relatedGroup":{"conceptGroup":[{"tty":"IN","conceptProperties":{"rxcui":"5","name":"x"}}]}}"#.utf8)))
                == [RxConcept(rxcui: "5", name: "x", tty: "IN")])
        #expect(RxNavParser.drugClasses(try JSONValue.parse(Data("{}".utf8))) == [])
        #expect(RxNavParser.ndcStatus(try JSONValue.parse(Data(#"{"ndcStatus":{"ndc11":"00364666854","status":"OBSOLETE","rxcui":"","ndcHistory":[{"activeRxcui":"","originalRxcui":"312656","startDate":"200706","endDate":"201101"}]}}"#.utf8)), asked: "x")
                == NDCStatus(ndc: "00364666854", status: "OBSOLETE", rxcui: "312656", conceptName: nil, conceptStatus: nil))

        let page = OpenFDAParser.page(try JSONValue.parse(Data("""
            {"meta":{"results":{"total":"12"}},"results":[
              {"recall_number":"D-1-2026","classification":null,"report_date":"20260230","openfda":{"rxcui":["x","12"]}},
              {"classification":"Class I"},
              {"recall_number":"D-2-2026","report_date":"2026-02-03","status":"  "}]}
            """.utf8)), OpenFDAParser.recall)
        #expect(page.total == 12)
        #expect(page.results.map(\.recallNumber) == ["D-1-2026", "D-2-2026"])
        #expect(page.results[0].reportDate == nil, "February 30th is not a day")
        #expect(page.results[0].classification == nil)
        #expect(page.results[0].rxcuis == ["12"])
        #expect(page.results[1].reportDate == "2026-02-03")
        #expect(page.results[1].status == nil)

        let labels = OpenFDAParser.page(try JSONValue.parse(Data(#"{"results":[{"openfda":{}},{"warnings":"Just one string","openfda":{"brand_name":"Solo"}}]}"#.utf8)),
                                        OpenFDAParser.label)
        #expect(labels.results.count == 1)
        #expect(labels.results[0].text(.warnings) == ["Just one string"])
        #expect(labels.results[0].setID.hasPrefix("unidentified-"))
        #expect(labels.total == nil)
    }

    @Test("a body that is not JSON is an unreadable answer (exit 69), not a crash")
    func notJSON() {
        #expect(throws: MedAPIError.unreadableResponse(service: .rxnav, path: "/REST/rxcui.json", reason: "it is not JSON")) {
            try RxNavParser.document(Data("<html>Service Unavailable</html>".utf8), path: "/REST/rxcui.json")
        }
        #expect(MedAPIError.unreadableResponse(service: .rxnav, path: "/", reason: "").exitStatus == .unavailable)
        #expect(OpenFDAParser.error(Data("<html>".utf8)) == nil)
        #expect(OpenFDAParser.error(Data()) == nil)
    }
}
