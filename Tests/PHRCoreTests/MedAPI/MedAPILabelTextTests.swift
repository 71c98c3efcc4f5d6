import Foundation
import Testing
@testable import PHRCore

/// Reading label prose and naming conventions: whole-word matching with plurals, sentences to
/// quote, headings, class-name variants, allergy words, product names, references and queries.
@Suite("MedAPI label text")
struct MedAPILabelTextTests {
    @Test("whole words, any case, a plural on the last word, hyphens and spaces alike")
    func matching() {
        #expect(LabelText.mentions("penicillin", in: "hypersensitivity to penicillins and cephalosporins"))
        #expect(LabelText.mentions("Penicillins", in: "a Penicillin-class Antibacterial"))
        #expect(LabelText.mentions("NSAID", in: "aspirin or other NSAIDs."))
        #expect(LabelText.mentions("Nonsteroidal Anti-inflammatory Drug", in: "nonsteroidal anti inflammatory drugs (NSAIDs)"))
        #expect(LabelText.mentions("therapy", in: "combination therapies"))
        #expect(LabelText.mentions("MAOI", in: "MAOIs (including linezolid)"))
        #expect(!LabelText.mentions("citalopram", in: "escitalopram oxalate"), "no match inside another word")
        #expect(!LabelText.mentions("inhibitor", in: "reuptake inhibition"))
        #expect(!LabelText.mentions("io", in: "io"), "terms shorter than three letters mean nothing")
        #expect(LabelText.mentions("CYP2D6 Inhibitors", in: "strong CYP2D6 inhibitors such as"))
        #expect(LabelText.mentions("5-HT1 receptor agonists", in: "serotonin 5-HT1 receptor agonists (triptans)"))
        #expect(LabelText.mentions("a.b+c", in: "x A B c y"), "characters of regular expressions in a term are plain text")
    }

    @Test("the first mention wins, and the quote is its sentence")
    func sentences() throws {
        let text = "Use caution. Concomitant use of aspirin, NSAIDs (e.g. ibuprofen), and warfarin may add to this risk. Other text U.S. follows. Last one"
        let mention = try #require(LabelText.firstMention(of: ["warfarin", "NSAID"], in: text))
        #expect(mention.term == "NSAID")
        #expect(mention.quote == "Concomitant use of aspirin, NSAIDs (e.g. ibuprofen), and warfarin may add to this risk.")
        #expect(LabelText.firstMention(of: ["follows"], in: text)?.quote == "Other text U.S. follows.")
        #expect(LabelText.firstMention(of: ["last"], in: text)?.quote == "Last one")
        #expect(LabelText.firstMention(of: ["absent"], in: text) == nil)

        let long = String(repeating: "word ", count: 200) + "the target drug " + String(repeating: "more ", count: 200) + "end."
        let cut = try #require(LabelText.firstMention(of: ["target drug"], in: long)).quote
        #expect(cut.hasPrefix("…") && cut.hasSuffix("…"))
        #expect(cut.contains("the target drug"))
        #expect(cut.count <= 365)
    }

    @Test("section headings are removed for display; a boxed warning keeps its title")
    func headings() {
        #expect(LabelText.withoutHeading("1 INDICATIONS AND USAGE Citalopram is indicated", section: .indications) == "Citalopram is indicated")
        #expect(LabelText.withoutHeading("5 WARNINGS AND PRECAUTIONS 5.1 Bleeding", section: .warningsAndCautions) == "5.1 Bleeding")
        #expect(LabelText.withoutHeading("Uses temporarily relieves minor aches", section: .indications) == "temporarily relieves minor aches")
        #expect(LabelText.withoutHeading("Use of X is contraindicated", section: .contraindications) == "Use of X is contraindicated")
        #expect(LabelText.withoutHeading("WARNING: SUICIDAL THOUGHTS", section: .boxedWarning) == "WARNING: SUICIDAL THOUGHTS")
        #expect(LabelText.withoutHeading("Contraindicated   in\npregnancy", section: .contraindications) == "Contraindicated in pregnancy")
        let summary = LabelText.summary(["One sentence here. " + String(repeating: "Another sentence follows. ", count: 30)],
                                        section: .warnings, maxLength: 100)
        #expect(summary == "One sentence here. Another sentence follows. Another sentence follows. Another sentence follows. …")
        #expect(LabelText.summary([], section: .warnings) == nil)
    }

    @Test("class names as labels write them: abbreviations, MeSH inversions, CYP, -class, re-uptake")
    func classTerms() {
        func terms(_ name: String, _ type: String = "EPC", id: String = "N1") -> [String] {
            DrugVocabulary.classTerms(DrugClass(id: id, name: name, type: type))
        }
        #expect(terms("Monoamine Oxidase Inhibitors", "MOA") == ["Monoamine Oxidase Inhibitors", "MAOI"])
        #expect(terms("Anti-Inflammatory Agents, Non-Steroidal", "MESHPA")
                == ["Anti-Inflammatory Agents, Non-Steroidal", "Non-Steroidal Anti-Inflammatory Agents", "NSAID"])
        #expect(terms("Penicillin-class Antibacterial") == ["Penicillin-class Antibacterial", "Penicillin"])
        #expect(terms("Cytochrome P450 2D6 Inhibitors", "MOA") == ["Cytochrome P450 2D6 Inhibitors", "CYP2D6 Inhibitors"])
        #expect(terms("Cytochrome P-450 CYP3A Inhibitors", "MESHPA") == ["Cytochrome P-450 CYP3A Inhibitors", "CYP3A Inhibitors"])
        #expect(terms("Serotonin Reuptake Inhibitor") == ["Serotonin Reuptake Inhibitor", "Serotonin Re-uptake Inhibitor", "SSRI"])
        #expect(terms("HMG-CoA Reductase Inhibitor") == ["HMG-CoA Reductase Inhibitor", "statin"])
        #expect(terms("Enzyme Inhibitors", "MESHPA").isEmpty, "too broad to mean a drug")
        #expect(DrugClass(id: "N06A", name: "ANTIDEPRESSANTS", type: "ATC1-4").isPharmacologic == false)
        #expect(DrugClass(id: "N06AB", name: "SSRIs", type: "ATC1-4").isPharmacologic)
        #expect(DrugClass(id: "D1", name: "Depression", type: "DISEASE").isPharmacologic == false)
        #expect(DrugClass(id: "D1", name: "Anticoagulants", type: "MESHPA").isSpecific == false)
    }

    @Test("allergy entries: as written, without generic words, short forms spelled out")
    func allergyTerms() {
        #expect(DrugVocabulary.allergyTerms("Penicillin antibiotics") == ["Penicillin antibiotics", "penicillin"])
        #expect(DrugVocabulary.allergyTerms("sulfa drugs") == ["sulfa drugs", "sulfa", "sulfonamide"])
        #expect(DrugVocabulary.allergyTerms("NSAIDs") == ["NSAIDs", "nonsteroidal anti-inflammatory drug", "non-steroidal anti-inflammatory agent",
                                                          "nonsteroidal anti-inflammatory agent"])
        #expect(DrugVocabulary.allergyTerms("  latex ") == ["latex"])
    }

    @Test("RxNorm product names: generic, brand, components")
    func productNames() {
        let caduet = RxProductName("amlodipine 5 MG / atorvastatin 10 MG Oral Tablet [Caduet]")
        #expect(caduet.brand == "Caduet")
        #expect(caduet.generic == "amlodipine 5 MG / atorvastatin 10 MG Oral Tablet")
        #expect(caduet.components.count == 2)
        #expect(caduet.hasExactly(ingredients: ["atorvastatin", "amlodipine"]))
        #expect(!caduet.hasExactly(ingredients: ["atorvastatin"]))
        #expect(RxProductName("metoprolol succinate 25 MG 24HR Extended Release Oral Tablet").hasExactly(ingredients: ["metoprolol"]))
        #expect(!RxProductName("metoprololx 25 MG Oral Tablet").hasExactly(ingredients: ["metoprolol"]))
        #expect(RxProductName("Ketotifen 0.25 MG/ML Ophthalmic Solution").components.count == 1)
        #expect(RxProductName("{7 (x 1 MG Oral Tablet) } Pack [Brand]").components.count == 1)
    }

    @Test("what people type: names, RxCUIs, NDCs")
    func references() {
        #expect(MedicineReference.parse(" citalopram  20 mg ") == .name("citalopram 20 mg"))
        #expect(MedicineReference.parse("2556") == .rxcui("2556"))
        #expect(MedicineReference.parse("rxcui:617314") == .rxcui("617314"))
        #expect(MedicineReference.parse("rxcui:abc") == .name("rxcui:abc"))
        #expect(MedicineReference.parse("0071-0155-23") == .ndc("0071-0155-23"))
        #expect(MedicineReference.parse("00071015523") == .ndc("00071015523"))
        #expect(MedicineReference.parse("68682-065") == .ndc("68682-065"))
        #expect(MedicineReference.parse("ndc:12345-678-90") == .ndc("12345-678-90"))
        #expect(MedicineReference.parse("12-34") == .name("12-34"))
        #expect(MedicineReference.ndc11("0071-0155-23") == "00071015523")
        #expect(MedicineReference.ndc11("12345-678-90") == "12345067890")
        #expect(MedicineReference.ndc11("12345-6789-0") == "12345678900")
        #expect(MedicineReference.ndc11("68682-065") == nil)
        #expect(MedicineReference.parse("Tylenol").description == "Tylenol")
        #expect(MedicineReference.rxcui("1").description == "RxCUI 1")
    }

    @Test("query strings: form encoding, decoding, normalising, redacting")
    func queries() {
        #expect(QueryString.encode([QueryItem("tty", "IN SCD SBD"), QueryItem("search", #"openfda.rxcui:"1""#)])
                == "tty=IN+SCD+SBD&search=openfda.rxcui:%221%22")
        #expect(QueryString.encode([QueryItem("name", "é+&=")]) == "name=%C3%A9%2B%26%3D")
        #expect(QueryString.decode("a=1+2&b=%41&c&=x") == [QueryItem("a", "1 2"), QueryItem("b", "A"), QueryItem("c", ""), QueryItem("", "x")])
        #expect(QueryString.decode("bad=%zz") == [QueryItem("bad", "%zz")])
        #expect(QueryString.normalized("b=2&a=1&api_key=s&a=0") == "a=0&a=1&b=2")
        #expect(QueryString.redacted([QueryItem("api_key", "s"), QueryItem("x", "y")]) == [QueryItem("api_key", "REDACTED"), QueryItem("x", "y")])
        #expect(OpenFDAClient.phrase("openfda.generic_name", "  a \"b\" \\c\n d ") == #"openfda.generic_name:"a b c d""#)
    }

    @Test("ages in words")
    func ages() {
        #expect(MedAPISource.describeAge(5) == "less than a minute")
        #expect(MedAPISource.describeAge(120) == "2 minutes")
        #expect(MedAPISource.describeAge(3600) == "1 hour")
        #expect(MedAPISource.describeAge(47 * 3600) == "47 hours")
        #expect(MedAPISource.describeAge(40 * 86_400 + 5) == "40 days")
    }
}
