import Foundation
import Testing
@testable import PHRCore

/// `phr share --fhir`: an HL7 IPS document Bundle, checked for the structure the IPS profiles
/// require and against the IPS example in the corpus's fhir folder (read in place).
@Suite struct IPSDocumentTests {
    static let example = CorpusData.path("fhir/ips-Bundle-IPS-examples-Bundle-01.json")
    static let synthea = CorpusData.path("fhir/synthea-r4-Kermit_Trantow.json")
    static let required = ["11450-4", "48765-2", "10160-0"]

    static func json(_ path: String) throws -> [String: Any] {
        let data = try #require(FileManager.default.contents(atPath: path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Writes the IPS file for `fixture` (every section but the documents, to be quick: the IPS
    /// holds the sections the bundle shares).
    static func ips(_ fixture: ShareFixture) throws -> [String: Any] {
        var request = fixture.request()
        request.sections = Set(ShareSection.allCases).subtracting([.documents])
        request.fhirOutput = "\(fixture.directory)/ips.json"
        let result = try fixture.write(request)
        #expect(result.fhir == request.fhirOutput)
        return try json(request.fhirOutput!)
    }

    static func resources(_ bundle: [String: Any]) -> [(fullUrl: String, resource: [String: Any])] {
        ((bundle["entry"] as? [[String: Any]]) ?? []).map { ($0["fullUrl"] as? String ?? "", $0["resource"] as? [String: Any] ?? [:]) }
    }

    static func sections(_ bundle: [String: Any]) -> [String: [String: Any]] {
        let composition = resources(bundle).first?.resource ?? [:]
        var byCode: [String: [String: Any]] = [:]
        for section in composition["section"] as? [[String: Any]] ?? [] {
            let code = ((section["code"] as? [String: Any])?["coding"] as? [[String: Any]])?.first?["code"] as? String ?? ""
            byCode[code] = section
        }
        return byCode
    }

    /// Every `reference` string anywhere in `value`.
    static func references(in value: Any) -> [String] {
        if let object = value as? [String: Any] {
            return object.flatMap { key, member in key == "reference" ? [member as? String ?? ""] : references(in: member) }
        }
        if let array = value as? [Any] { return array.flatMap(references) }
        return []
    }

    /// The shape every IPS document must have, whatever the records.
    static func checkStructure(_ bundle: [String: Any]) throws {
        #expect(bundle["resourceType"] as? String == "Bundle")
        #expect(bundle["type"] as? String == "document")
        #expect(bundle["timestamp"] is String)
        #expect((bundle["identifier"] as? [String: Any])?["value"] is String)
        let entries = resources(bundle)
        let composition = try #require(entries.first).resource
        #expect(composition["resourceType"] as? String == "Composition", "the Composition comes first")
        #expect(composition["status"] as? String == "final")
        let type = ((composition["type"] as? [String: Any])?["coding"] as? [[String: Any]])?.first
        #expect(type?["system"] as? String == "http://loinc.org" && type?["code"] as? String == "60591-5")
        let subject = (composition["subject"] as? [String: Any])?["reference"] as? String
        #expect(entries.first { $0.fullUrl == subject }?.resource["resourceType"] as? String == "Patient")
        #expect(!(composition["author"] as? [Any] ?? []).isEmpty)

        let sections = sections(bundle)
        for code in required {
            let section = try #require(sections[code], "section \(code)")
            let hasEntries = !(section["entry"] as? [Any] ?? []).isEmpty
            #expect(hasEntries != (section["emptyReason"] != nil), "section \(code): entries or an emptyReason, not both")
            #expect(((section["text"] as? [String: Any])?["div"] as? String)?.hasPrefix("<div xmlns=\"http://www.w3.org/1999/xhtml\">") == true)
        }
        // Every reference resolves to an entry of this Bundle; fullUrls are unique urn:uuids
        // whose UUID is the resource's id.
        let urls = entries.map(\.fullUrl)
        #expect(Set(urls).count == urls.count)
        for (url, resource) in entries {
            #expect(url.hasPrefix("urn:uuid:") && UUID(uuidString: String(url.dropFirst(9))) != nil)
            #expect(resource["id"] as? String == String(url.dropFirst(9)))
        }
        let references = references(in: bundle)
        #expect(!references.isEmpty)
        for reference in references { #expect(urls.contains(reference), "unresolved reference \(reference)") }
    }

    @Test(.corpus) func structureMatchesTheIPSExample() throws {
        let fixture = try ShareFixture(label: "ips", documents: [])
        defer { fixture.remove() }
        let bundle = try Self.ips(fixture)
        try Self.checkStructure(bundle)

        // The example's envelope and Composition use the same profile, type and section codes.
        let example = try Self.json(Self.example)
        #expect(bundle["type"] as? String == example["type"] as? String)
        #expect((bundle["meta"] as? [String: Any])?["profile"] as? [String] == (example["meta"] as? [String: Any])?["profile"] as? [String])
        let exampleSections = Self.sections(example)
        for code in Self.required { #expect(exampleSections[code] != nil, "the example has \(code) too") }
        for (code, section) in Self.sections(bundle) {
            let ours = ((section["code"] as? [String: Any])?["coding"] as? [[String: Any]])?.first?["display"] as? String
            if let theirs = exampleSections[code] {
                #expect(ours == ((theirs["code"] as? [String: Any])?["coding"] as? [[String: Any]])?.first?["display"] as? String, "\(code)")
            }
        }

        // The fixture's records, each in its section.
        let sections = Self.sections(bundle)
        #expect((sections["48765-2"]?["entry"] as? [Any])?.count == 3)
        #expect((sections["10160-0"]?["entry"] as? [Any])?.count == 3, "two current medications and the course that ended in February")
        #expect((sections["11450-4"]?["entry"] as? [Any])?.count == 1)
        #expect((sections["11348-0"]?["entry"] as? [Any])?.count == 1, "the resolved pneumonia is a past illness")
        #expect((sections["11369-6"]?["entry"] as? [Any])?.count == 1)
        #expect(sections["30954-2"] == nil, "no results recorded, so no results section")
        // Procedures (IPS's History of Procedures) and the family history (a section of its own).
        #expect((sections["47519-4"]?["entry"] as? [Any])?.count == 1)
        #expect((sections["10157-6"]?["entry"] as? [Any])?.count == 2)
        let procedure = try #require(Self.resources(bundle).first { $0.resource["resourceType"] as? String == "Procedure" }).resource
        #expect(procedure["status"] as? String == "completed" && procedure["performedDateTime"] as? String == "2009-04")
        #expect((procedure["code"] as? [String: Any])?["text"] as? String == "Appendectomy")
        let relatives = Self.resources(bundle).map(\.resource).filter { $0["resourceType"] as? String == "FamilyMemberHistory" }
        let father = try #require(relatives.first { (($0["relationship"] as? [String: Any])?["text"] as? String) == "father" })
        let fatherCoding = (((father["relationship"] as? [String: Any])?["coding"] as? [[String: Any]])?.first)
        #expect(fatherCoding?["code"] as? String == "FTH" && fatherCoding?["system"] as? String == "http://terminology.hl7.org/CodeSystem/v3-RoleCode")
        let fatherCondition = try #require((father["condition"] as? [[String: Any]])?.first)
        #expect(fatherCondition["contributedToDeath"] as? Bool == true && (fatherCondition["onsetAge"] as? [String: Any])?["value"] as? Int == 61)
        let patient = try #require(Self.resources(bundle).first { $0.resource["resourceType"] as? String == "Patient" }).resource
        #expect(patient["birthDate"] as? String == "1984-07-22")
        #expect(((patient["contact"] as? [[String: Any]])?.first?["name"] as? [String: Any])?["text"] as? String == "Sam Example")
        let statements = Self.resources(bundle).map(\.resource).filter { $0["resourceType"] as? String == "MedicationStatement" }
        #expect(Set(statements.compactMap { $0["status"] as? String }) == ["active", "completed"])
    }

    @Test func emptyVaultStillHasTheRequiredSections() throws {
        let fixture = try ShareFixture(label: "ips-empty", documents: [], records: false)
        defer { fixture.remove() }
        let bundle = try Self.ips(fixture)
        try Self.checkStructure(bundle)
        let sections = Self.sections(bundle)
        #expect(Set(sections.keys) == Set(Self.required))
        for code in Self.required {
            let reason = ((sections[code]?["emptyReason"] as? [String: Any])?["coding"] as? [[String: Any]])?.first
            #expect(reason?["system"] as? String == "http://terminology.hl7.org/CodeSystem/list-empty-reason")
        }
        let patient = try #require(Self.resources(bundle).first { $0.resource["resourceType"] as? String == "Patient" }).resource
        #expect(patient["_birthDate"] != nil, "an unknown birth date says why it is missing")
    }

    @Test(.corpus) func codesKeptFromAnImportAreWrittenBack() throws {
        let fixture = try ShareFixture(label: "ips-synthea", documents: [], records: false)
        defer { fixture.remove() }
        _ = try RecordImport.run(path: Self.synthea, vault: fixture.vault, profileName: nil, time: fixture.time)
        let bundle = try Self.ips(fixture)
        try Self.checkStructure(bundle)
        func codes(_ type: String, _ field: String) -> Set<String> {
            Set(Self.resources(bundle).map(\.resource).filter { $0["resourceType"] as? String == type }.flatMap { resource in
                ((resource[field] as? [String: Any])?["coding"] as? [[String: Any]] ?? []).map {
                    "\($0["system"] as? String ?? "")|\($0["code"] as? String ?? "")"
                }
            })
        }
        #expect(codes("MedicationStatement", "medicationCodeableConcept").contains("http://www.nlm.nih.gov/research/umls/rxnorm|316049"))
        #expect(codes("Condition", "code").contains("http://snomed.info/sct|38341003"))
        #expect(codes("AllergyIntolerance", "code").contains("http://snomed.info/sct|424213003"))
        #expect(codes("Immunization", "vaccineCode").contains("http://hl7.org/fhir/sid/cvx|140"))
        #expect(codes("Observation", "code").contains("http://loinc.org|8302-2"))
        #expect(Self.sections(bundle)["30954-2"] != nil)
    }

    /// A medication a FHIR import brings in as completed or stopped, last month, is listed as
    /// stopped in the PDF summary and in the IPS, with the day it ended.
    @Test func medicationsCompletedInAnImportAreListedAsStopped() throws {
        let fixture = try ShareFixture(label: "ips-stopped", documents: [], records: false)
        defer { fixture.remove() }
        let path = "\(fixture.directory)/stopped.json"
        try """
            {"resourceType": "Bundle", "type": "collection", "entry": [
              {"fullUrl": "urn:uuid:p", "resource": {"resourceType": "Patient", "name": [{"text": "Alex Example"}]}},
              {"fullUrl": "urn:uuid:s", "resource": {"resourceType": "MedicationStatement", "status": "completed",
                "medicationCodeableConcept": {"text": "Prednisolone 5 mg"}, "subject": {"reference": "urn:uuid:p"},
                "effectivePeriod": {"start": "2025-05-02", "end": "2025-05-16"}}},
              {"fullUrl": "urn:uuid:r", "resource": {"resourceType": "MedicationRequest", "status": "stopped", "intent": "order",
                "medicationCodeableConcept": {"text": "Omeprazole 20 mg"}, "subject": {"reference": "urn:uuid:p"},
                "authoredOn": "2025-03-01", "dispenseRequest": {"validityPeriod": {"start": "2025-03-01", "end": "2025-05-28"}}}}]}
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let report = try RecordImport.run(path: path, vault: fixture.vault, profileName: nil, time: fixture.time)
        #expect(report.added["medications"] == 2)

        var request = fixture.request()
        request.sections = [.summary, .medications]
        request.fhirOutput = "\(fixture.directory)/ips.json"
        let result = try fixture.write(request)
        let bundle = try Self.json("\(fixture.directory)/ips.json")
        try Self.checkStructure(bundle)
        let medications = Self.resources(bundle).map(\.resource).filter { $0["resourceType"] as? String == "MedicationStatement" }
        let ended = medications.map { resource -> String in
            let name = (resource["medicationCodeableConcept"] as? [String: Any])?["text"] as? String ?? ""
            let end = (resource["effectivePeriod"] as? [String: Any])?["end"] as? String ?? ""
            return "\(name) \(resource["status"] as? String ?? "") \(end)"
        }
        #expect(ended.sorted() == ["Omeprazole 20 mg stopped 2025-05-28", "Prednisolone 5 mg stopped 2025-05-16"])
        #expect(Self.sections(bundle)["10160-0"]?["emptyReason"] == nil)

        let text = try PDFTools.text(result.path)
        #expect(!text.contains("No current medications recorded"))
        #expect(text.contains("No current medications; stopped in the last 12 months"))
        #expect(text.contains("Prednisolone 5 mg") && text.contains("until 2025-05-16"))
        #expect(text.contains("Omeprazole 20 mg") && text.contains("until 2025-05-28"))
    }

    /// A summary imported into another vault and shared again says the same: dosages (their text
    /// not doubled), a contact's relation, units with their UCUM codes, and the same Patient id.
    @Test func aSummaryImportedAndSharedAgainKeepsItsMeaning() throws {
        let first = try ShareFixture(label: "ips-trip", documents: [], records: true)
        defer { first.remove() }
        var dose = MedicationStore.Input()
        dose.name = "Ibuprofen"
        dose.dose = "1-2 tablets"
        dose.asNeeded = true
        dose.instructions = "with food"
        try MedicationStore(vault: first.vault, profile: first.profile, time: first.time).add(dose)
        let measured = "\(first.directory)/measured.json"
        try """
            {"resourceType": "Bundle", "type": "collection", "entry": [
              {"fullUrl": "urn:uuid:o1", "resource": {"resourceType": "Observation", "status": "final",
                "code": {"coding": [{"system": "http://loinc.org", "code": "8480-6", "display": "Systolic blood pressure"}]},
                "effectiveDateTime": "2025-06-01", "valueQuantity": {"value": 128, "unit": "mmHg", "system": "http://unitsofmeasure.org", "code": "mm[Hg]"}}},
              {"fullUrl": "urn:uuid:o2", "resource": {"resourceType": "Observation", "status": "final",
                "code": {"coding": [{"system": "http://loinc.org", "code": "2345-7", "display": "Glucose"}]},
                "effectiveDateTime": "2025-06-01", "valueQuantity": {"value": 5.4, "unit": "mmol/L", "system": "http://unitsofmeasure.org", "code": "mmol/L"}}}]}
            """.write(toFile: measured, atomically: true, encoding: .utf8)
        _ = try RecordImport.run(path: measured, vault: first.vault, profileName: nil, time: first.time)

        /// What must not change: per medication its dosage, the contacts, the quantities, the Patient id.
        func meaning(_ bundle: [String: Any]) throws -> [String] {
            let resources = Self.resources(bundle).map(\.resource)
            func json(_ value: Any?) throws -> String {
                guard let value else { return "-" }
                return String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]), as: UTF8.self)
            }
            var lines: [String] = []
            for resource in resources {
                switch resource["resourceType"] as? String {
                case "Patient":
                    lines.append("Patient \(resource["id"] as? String ?? "") \(try json(resource["contact"]))")
                case "MedicationStatement":
                    let name = (resource["medicationCodeableConcept"] as? [String: Any])?["text"] as? String ?? ""
                    lines.append("\(name): \(try json(resource["dosage"]))")
                case "Observation":
                    lines.append("\(try json(resource["code"])): \(try json(resource["valueQuantity"]))")
                default: break
                }
            }
            return lines.sorted()
        }
        var bundle = try Self.ips(first)
        let expected = try meaning(bundle)
        #expect(expected.contains { $0.contains(#""text":"partner""#) }, "\(expected)")
        #expect(expected.contains { $0.contains(#""code":"mm[Hg]","system":"http://unitsofmeasure.org","unit":"mmHg""#) })
        #expect(expected.contains { $0.hasPrefix("Ibuprofen 1-2 tablets:") && $0.contains(#""text":"1-2 tablets, as needed; with food""#) })
        var path = "\(first.directory)/ips.json"
        for trip in 1...2 {
            let next = try ShareFixture(label: "ips-trip-\(trip)", documents: [], records: false)
            defer { next.remove() }
            let report = try RecordImport.run(path: path, vault: next.vault, profileName: nil, time: next.time)
            #expect(report.rejectedCount == 0)
            bundle = try Self.ips(next)
            #expect(try meaning(bundle) == expected, "trip \(trip)")
            let medications = try MedicationStore(vault: next.vault, profile: next.profile, time: next.time).list(all: true)
            let ibuprofen = try #require(medications.first { $0.name == "Ibuprofen" })
            #expect(ibuprofen.dose == "1-2 tablets" && ibuprofen.schedule == .asNeeded && ibuprofen.instructions == "with food")
            let iron = try #require(medications.first { $0.name == "Ferrous sulfate" })
            #expect(iron.dose == "325 mg" && iron.schedule == .times([LocalTime("08:00")!]) && iron.instructions == "with water or juice, not with tea")
            #expect(try ContactStore(vault: next.vault, profile: next.profile, time: next.time).list().map(\.relation) == ["partner"])
            path = "\(first.directory)/ips-\(trip).json"
            try FileManager.default.copyItem(atPath: "\(next.directory)/ips.json", toPath: path)
        }
    }
}
