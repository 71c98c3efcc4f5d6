import Foundation
import Testing
@testable import PHRCore

/// Bundles written in other FHIR releases: STU3 is read (its renamed elements upgraded), DSTU2 is
/// refused by name, and XML gets a message that says what it is.
@Suite struct FHIRVersionTests {
    typealias F = RecordFixtures
    static let time = F.time("2026-05-10T10:00:00Z", "Europe/Berlin")

    static func write(_ text: String, _ directory: String, _ name: String) throws -> String {
        let path = "\(directory)/\(name)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let stu3 = """
        {"resourceType": "Bundle", "type": "collection", "entry": [
          {"resource": {"resourceType": "Patient", "id": "p1", "name": [{"family": "Example", "given": ["Alex"]}]}},
          {"resource": {"resourceType": "Condition", "id": "c1", "clinicalStatus": "active", "verificationStatus": "confirmed",
                        "code": {"coding": [{"system": "http://snomed.info/sct", "code": "195967001", "display": "Asthma"}]},
                        "subject": {"reference": "Patient/p1"}, "onsetDateTime": "2019-04-02", "assertedDate": "2019-04-03"}},
          {"resource": {"resourceType": "AllergyIntolerance", "id": "a1", "clinicalStatus": "active", "verificationStatus": "confirmed",
                        "code": {"coding": [{"system": "http://snomed.info/sct", "code": "764146007", "display": "Penicillin"}]},
                        "patient": {"reference": "Patient/p1"}, "criticality": "high"}},
          {"resource": {"resourceType": "Immunization", "id": "i1", "status": "completed", "notGiven": false, "date": "2024-10-01",
                        "vaccineCode": {"coding": [{"system": "http://hl7.org/fhir/sid/cvx", "code": "141", "display": "Influenza"}]},
                        "patient": {"reference": "Patient/p1"}, "primarySource": true}},
          {"resource": {"resourceType": "MedicationStatement", "id": "m1", "status": "active", "taken": "y",
                        "medicationCodeableConcept": {"coding": [{"system": "http://www.nlm.nih.gov/research/umls/rxnorm", "code": "197361",
                                                                  "display": "Amlodipine 5 MG Oral Tablet"}]},
                        "subject": {"reference": "Patient/p1"}}}
        ]}
        """

    @Test func anSTU3BundleIsReadWithItsRenamedElementsUpgraded() throws {
        let (vault, profile, directory) = try F.vault("fhir-stu3")
        defer { TestSupport.remove(directory) }
        let path = try Self.write(Self.stu3, directory, "stu3.json")
        let report = try RecordImport.run(path: path, vault: vault, profileName: nil, time: Self.time)
        #expect(report.format == "FHIR STU3 Bundle (collection)")
        #expect(report.added["conditions"] == 1 && report.added["allergies"] == 1 && report.added["immunizations"] == 1
                && report.added["medications"] == 1, "\(report.added) \(report.skipped)")
        let conditions = try ConditionStore(vault: vault, profile: profile, time: Self.time).list()
        #expect(conditions.map(\.status) == [.active])
        let immunizations = try ImmunizationStore(vault: vault, profile: profile, time: Self.time).list()
        #expect(immunizations.first?.date.description == "2024-10-01", "STU3's date is R4's occurrenceDateTime")
        // The same file again adds nothing.
        let again = try RecordImport.run(path: path, vault: vault, profileName: nil, time: Self.time)
        #expect(again.added.values.reduce(0, +) == 0, "\(again.added)")
    }

    @Test func theShapesTellTheRelease() throws {
        func version(_ text: String) throws -> FHIRVersion {
            FHIRVersion.detect(try JSONDecoder().decode(StrictJSON.self, from: Data(text.utf8)))
        }
        #expect(try version(Self.stu3) == .stu3)
        #expect(try version(#"{"resourceType":"Bundle","entry":[{"resource":{"resourceType":"Condition","clinicalStatus":{"coding":[{"code":"active"}]}}}]}"#) == .r4)
        #expect(try version(#"{"resourceType":"Bundle","entry":[{"resource":{"resourceType":"MedicationOrder"}}]}"#) == .dstu2)
        #expect(try version(#"{"resourceType":"Bundle","entry":[{"resource":{"resourceType":"AllergyIntolerance","substance":{"text":"x"}}}]}"#) == .dstu2)
        #expect(try version(#"{"resourceType":"Bundle","entry":[]}"#) == .r4)
    }

    @Test func dstu2AndXMLAreRefusedSayingWhatTheyAre() throws {
        let (vault, _, directory) = try F.vault("fhir-versions")
        defer { TestSupport.remove(directory) }
        func refusal(_ text: String, _ name: String) throws -> String? {
            let path = try Self.write(text, directory, name)
            do {
                _ = try RecordImport.run(path: path, vault: vault, profileName: nil, time: Self.time)
                return nil
            } catch let error as InteropError {
                #expect(error.exitStatus == .dataError)
                return error.errorDescription
            }
        }
        let dstu2 = #"{"resourceType":"Bundle","type":"collection","entry":[{"resource":{"resourceType":"MedicationOrder","id":"o1"}}]}"#
        #expect(try refusal(dstu2, "dstu2.json")?.contains("this is a FHIR DSTU2 bundle; phr reads R4 (and STU3)") == true)
        let fhirXML = #"<?xml version="1.0"?><Bundle xmlns="http://hl7.org/fhir"><type value="collection"/></Bundle>"#
        #expect(try refusal(fhirXML, "bundle.xml")?.contains("a FHIR XML file; phr reads FHIR JSON") == true)
        #expect(try refusal("<html><body>hello</body></html>", "page.xml")?.contains(
            "an XML file whose root is <html>, not a C-CDA document; phr reads C-CDA documents (<ClinicalDocument> in urn:hl7-org:v3)") == true)
    }
}
