import Foundation
import Testing
@testable import PHRCore

/// Bundles written in other FHIR releases: STU3 and DSTU2 are read (their renamed and retyped
/// elements upgraded; DSTU2 types R4 lacks are skipped by name), and XML gets a message that
/// says what it is.
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
        #expect(immunizations.first?.date?.description == "2024-10-01", "STU3's date is R4's occurrenceDateTime")
        // The same file again adds nothing.
        let again = try RecordImport.run(path: path, vault: vault, profileName: nil, time: Self.time)
        #expect(again.added.values.reduce(0, +) == 0, "\(again.added)")
    }

    /// A DSTU2 bundle as US portals served them (Argonaut): every record phr keeps is read with
    /// its values, and a type R4 has no counterpart for is skipped by name.
    static let dstu2 = """
        {"resourceType": "Bundle", "type": "searchset", "entry": [
          {"fullUrl": "https://portal.example.org/api/FHIR/DSTU2/Patient/p1",
           "resource": {"resourceType": "Patient", "id": "p1", "name": [{"family": ["Example"], "given": ["Alex"]}], "birthDate": "1975-05-01"}},
          {"resource": {"resourceType": "AllergyIntolerance", "id": "a1", "status": "active", "criticality": "CRITH", "category": "medication",
                        "substance": {"coding": [{"system": "http://www.nlm.nih.gov/research/umls/rxnorm", "code": "161", "display": "Acetaminophen"}], "text": "Acetaminophen"},
                        "patient": {"reference": "Patient/p1"}, "onset": "2015-03-01", "reaction": [{"manifestation": [{"text": "Hives"}], "severity": "severe"}]}},
          {"resource": {"resourceType": "AllergyIntolerance", "id": "a3", "status": "confirmed", "category": "other",
                        "substance": {"text": "Nickel"}, "patient": {"reference": "Patient/p1"}}},
          {"resource": {"resourceType": "AllergyIntolerance", "id": "a2", "status": "refuted",
                        "substance": {"text": "Latex"}, "patient": {"reference": "Patient/p1"}}},
          {"resource": {"resourceType": "Condition", "id": "c1", "patient": {"reference": "Patient/p1"}, "clinicalStatus": "resolved",
                        "verificationStatus": "confirmed", "dateRecorded": "2019-04-03", "onsetDateTime": "2019-04-02", "abatementDateTime": "2019-05-01",
                        "code": {"coding": [{"system": "http://snomed.info/sct", "code": "10509002", "display": "Acute bronchitis"}]}}},
          {"resource": {"resourceType": "MedicationOrder", "id": "m1", "status": "active", "dateWritten": "2024-01-15", "patient": {"reference": "Patient/p1"},
                        "medicationCodeableConcept": {"coding": [{"system": "http://www.nlm.nih.gov/research/umls/rxnorm", "code": "314076", "display": "Lisinopril 10 MG Oral Tablet"}]},
                        "dosageInstruction": [{"text": "1 tablet daily", "timing": {"repeat": {"frequency": 1, "period": 1, "periodUnit": "d"}},
                                               "doseQuantity": {"value": 10, "unit": "mg"}}]}},
          {"resource": {"resourceType": "MedicationStatement", "id": "m2", "status": "completed", "wasNotTaken": true, "patient": {"reference": "Patient/p1"},
                        "medicationCodeableConcept": {"text": "Ibuprofen 200 MG"}}},
          {"resource": {"resourceType": "Immunization", "id": "i1", "status": "completed", "wasNotGiven": false, "date": "2024-10-01", "reported": false,
                        "vaccineCode": {"coding": [{"system": "http://hl7.org/fhir/sid/cvx", "code": "141", "display": "Influenza"}]},
                        "patient": {"reference": "Patient/p1"}}},
          {"resource": {"resourceType": "Observation", "id": "o1", "status": "final",
                        "category": {"coding": [{"system": "http://hl7.org/fhir/observation-category", "code": "laboratory"}]},
                        "code": {"coding": [{"system": "http://loinc.org", "code": "718-7", "display": "Hemoglobin"}]},
                        "subject": {"reference": "Patient/p1"}, "effectiveDateTime": "2025-01-02T08:30:00-05:00",
                        "valueQuantity": {"value": 13.2, "unit": "g/dL", "system": "http://unitsofmeasure.org", "code": "g/dL"},
                        "interpretation": {"coding": [{"system": "http://hl7.org/fhir/v2/0078", "code": "N"}]},
                        "referenceRange": [{"low": {"value": 12, "unit": "g/dL"}, "high": {"value": 16, "unit": "g/dL"}}]}},
          {"resource": {"resourceType": "DiagnosticOrder", "id": "d1", "status": "requested", "subject": {"reference": "Patient/p1"}}}
        ]}
        """

    @Test func aDSTU2BundleIsReadWhereItMapsAndSkippedByNameWhereItDoesNot() throws {
        let (vault, profile, directory) = try F.vault("fhir-dstu2")
        defer { TestSupport.remove(directory) }
        let path = try Self.write(Self.dstu2, directory, "dstu2.json")
        let report = try RecordImport.run(path: path, vault: vault, profileName: nil, time: Self.time)
        #expect(report.format == "FHIR DSTU2 Bundle (searchset)")
        #expect(report.rejectedCount == 0, "\(report.skipped)")
        #expect(report.added["allergies"] == 2 && report.added["conditions"] == 1 && report.added["medications"] == 1
                && report.added["immunizations"] == 1 && report.added["observations"] == 1, "\(report.added) \(report.skipped)")
        // Refuted (DSTU2's status) is no allergy; not taken (wasNotTaken) is no medication; DiagnosticOrder has no R4 counterpart.
        #expect(report.skipped.map(\.type).sorted() == ["AllergyIntolerance", "DiagnosticOrder", "MedicationStatement"], "\(report.skipped)")
        #expect(report.skipped.first { $0.type == "DiagnosticOrder" }?.reason == "phr does not keep DiagnosticOrder resources")
        let allergies = try AllergyStore(vault: vault, profile: profile, time: Self.time).list()
        let acetaminophen = try #require(allergies.first { $0.substance == "Acetaminophen" })
        #expect(acetaminophen.criticality == .high && acetaminophen.severity == .severe && acetaminophen.category == .medication)
        #expect(acetaminophen.status == .active && acetaminophen.since?.description == "2015-03-01")
        // DSTU2's category "other" has no R4 code: kept without a category.
        #expect(allergies.first { $0.substance == "Nickel" }?.category == nil)
        let condition = try #require(try ConditionStore(vault: vault, profile: profile, time: Self.time).list().first)
        #expect(condition.name == "Acute bronchitis" && condition.status == .resolved && condition.resolved?.description == "2019-05-01")
        let medication = try #require(try MedicationStore(vault: vault, profile: profile, time: Self.time).list(all: true).first)
        #expect(medication.name == "Lisinopril 10 MG Oral Tablet" && medication.dose == "10 mg" && medication.start?.description == "2024-01-15")
        let immunization = try #require(try ImmunizationStore(vault: vault, profile: profile, time: Self.time).list().first)
        #expect(immunization.date?.description == "2024-10-01")
        let observation = try #require(try ObservationStore(vault: vault, profile: profile).list().first)
        #expect(observation.valueNumber == 13.2 && observation.category == "laboratory" && observation.lab?.flag == .normal)
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
        #expect(try version(Self.dstu2) == .dstu2)
        #expect(try version(#"{"resourceType":"Bundle","entry":[{"resource":{"resourceType":"Observation","category":{"text":"lab"}}}]}"#) == .dstu2)
        #expect(try version(#"{"resourceType":"Bundle","entry":[{"resource":{"resourceType":"Immunization","wasNotGiven":false,"date":"2020"}}]}"#) == .dstu2)
        #expect(try version(#"{"resourceType":"Bundle","entry":[{"fullUrl":"https://x.example/FHIR/DSTU2/Patient/1","resource":{"resourceType":"Patient"}}]}"#) == .dstu2)
        #expect(FHIRVersion.named("1.0.2") == .dstu2 && FHIRVersion.named("3.0.1") == .stu3 && FHIRVersion.named("4.0.1") == .r4)
    }

    @Test func xmlIsRefusedSayingWhatItIs() throws {
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
        let fhirXML = #"<?xml version="1.0"?><Bundle xmlns="http://hl7.org/fhir"><type value="collection"/></Bundle>"#
        #expect(try refusal(fhirXML, "bundle.xml")?.contains("a FHIR XML file; phr reads FHIR JSON") == true)
        #expect(try refusal("<html><body>hello</body></html>", "page.xml")?.contains("a web page (HTML)") == true)
        #expect(try refusal("<rss version=\"2.0\"/>", "feed.xml")?.contains(
            "an XML file whose root is <rss>, not a C-CDA document; phr reads C-CDA documents (<ClinicalDocument> in urn:hl7-org:v3)") == true)
    }
}
