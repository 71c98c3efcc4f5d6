import Foundation
import GRDB
import Testing
@testable import PHRCore

/// FHIR R4 import of the third-party samples in the corpus's fhir folder (read in place): counts and
/// codes, idempotence, all-or-nothing on a corrupted bundle, and the mappings on a synthetic one.
@Suite struct FHIRImportTests {
    typealias F = RecordFixtures
    static let time = F.time("2026-05-10T10:00:00Z", "Europe/Berlin")
    static let synthea = CorpusData.path("fhir/synthea-r4-Kermit_Trantow.json")
    static let ips = CorpusData.path("fhir/ips-Bundle-IPS-examples-Bundle-01.json")

    static func codes(_ codings: [[Coding]], system: String) -> [String] {
        codings.compactMap { $0.code(in: system) }.sorted()
    }

    /// Every row of every record table, to prove a failed import changed nothing.
    static func fingerprint(_ vault: Vault) throws -> [String] {
        try vault.database.read { db in
            try ["medication", "dose", "appointment", "contact", "allergy", "condition", "immunization", "observation", "medical_id",
                 "search_entry", "profile"].flatMap { table in
                try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY rowid").map { "\(table): \($0)" }
            }
        }
    }

    /// Issue 26: a report's counts add up. Every resource but the Patient (its facts fill the
    /// medical ID) is added, updated, already there, skipped or refused, once; a
    /// FamilyMemberHistory once for each condition it lists.
    static func expectTheCountsAddUp(_ path: String, _ report: ImportReport, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let resources = ((json["entry"] as? [[String: Any]]) ?? []).compactMap { $0["resource"] as? [String: Any] }
        let expected = resources.reduce(0) { sum, resource in
            switch resource["resourceType"] as? String {
            case "Patient": return sum
            case "FamilyMemberHistory": return sum + max(1, (resource["condition"] as? [Any])?.count ?? 0)
            default: return sum + 1
            }
        }
        let counted = [report.added, report.updated, report.unchanged].flatMap { $0 }
            .filter { !["medical_id", "contacts"].contains($0.key) }.map(\.value).reduce(0, +)
        let skipped = report.skipped.filter { !["Patient", "Patient.contact", "entry"].contains($0.type) }.count
        #expect(counted + skipped == expected, "\(path): \(counted) counted + \(skipped) skipped, \(expected) entries", sourceLocation: sourceLocation)
    }

    @Test(.corpus) func everyCorpusBundlesCountsAddUp() throws {
        for bundle in CorpusData.fhirBundles {
            let (vault, _, directory) = try F.vault("fhir-counts")
            defer { TestSupport.remove(directory) }
            try Self.expectTheCountsAddUp(bundle, try RecordImport.run(path: bundle, vault: vault, profileName: nil, time: Self.time))
        }
    }

    @Test(.corpus) func syntheaTransactionBundle() throws {
        let (vault, profile, directory) = try F.vault("fhir")
        defer { TestSupport.remove(directory) }
        let report = try RecordImport.run(path: Self.synthea, vault: vault, profileName: nil, time: Self.time)
        #expect(report.format == "FHIR R4 Bundle (transaction)")
        #expect(report.added == ["medical_id": 1, "medications": 6, "allergies": 3, "conditions": 6, "immunizations": 8, "observations": 44,
                                 "procedures": 2])
        #expect(report.skipped.count == 47)
        #expect(Set(report.skipped.map(\.type)) == ["Organization", "Practitioner", "Encounter", "CarePlan", "Claim",
                                                     "ExplanationOfBenefit", "DiagnosticReport"])
        #expect(report.skipped.first { $0.type == "Claim" }?.reason == "phr does not keep Claim resources")

        let medications = try MedicationStore(vault: vault, profile: profile, time: Self.time).list(all: true)
        #expect(Self.codes(medications.map(\.codes), system: Coding.System.rxNorm) == ["1870230", "316049", "316052", "665078", "745679", "895994"])
        let loratadine = try #require(medications.first { $0.codes.code(in: Coding.System.rxNorm) == "665078" })
        #expect(loratadine.name == "Loratadine 5 MG Chewable Tablet" && loratadine.schedule == .asNeeded && loratadine.status == .active)
        #expect(loratadine.start?.description == "1994-03-30")
        #expect(loratadine.prescriber != nil)
        #expect(medications.filter { $0.status == .stopped }.count == 3)
        #expect(loratadine.source?.key == "fhir:urn:uuid:2463dfcd-897c-4bc0-ab82-417fdddea39c")

        let allergies = try AllergyStore(vault: vault, profile: profile, time: Self.time).list()
        #expect(Self.codes(allergies.map(\.codes), system: Coding.System.snomed) == ["300913006", "424213003", "91935009"])
        #expect(allergies.allSatisfy { $0.category == .food && $0.criticality == .low && $0.status == .active })
        let conditions = try ConditionStore(vault: vault, profile: profile, time: Self.time).list()
        #expect(Self.codes(conditions.map(\.codes), system: Coding.System.snomed) == ["232353008", "233678006", "38341003", "444814009", "444814009", "444814009"])
        #expect(conditions.filter(\.isCurrent).map(\.name) == ["Hypertension"])
        #expect(conditions.first { $0.name == "Childhood asthma" }?.resolved?.description == "2013-06-10")
        let immunizations = try ImmunizationStore(vault: vault, profile: profile, time: Self.time).list()
        #expect(Self.codes(immunizations.map(\.codes), system: Coding.System.cvx) == ["113", "114", "140", "140", "140", "140", "140", "43"])
        #expect(immunizations.first?.date?.description == "2019-06-17")
        let procedures = try ProcedureStore(vault: vault, profile: profile, time: Self.time).list()
        #expect(procedures.allSatisfy { $0.status == .completed && $0.date != nil && $0.codes.code(in: Coding.System.snomed) != nil }, "\(procedures)")
        let observations = try ObservationStore(vault: vault, profile: profile).list()
        #expect(observations.count == 44)
        #expect(try ObservationStore(vault: vault, profile: profile).list(code: "8302-2").count == 5)
        let pressure = try #require(observations.first { $0.codes.code(in: Coding.System.loinc) == "55284-4" })
        #expect(pressure.components.map { $0.codes.code(in: Coding.System.loinc) } == ["8462-4", "8480-6"])

        let id = try #require(try MedicalIDStore(vault: vault, profile: profile, time: Self.time).get())
        #expect(id.name == "Kermit Trantow" && id.dateOfBirth?.description == "1993-06-21" && id.sex == .male)
        #expect(id.heightCm == 178.6 && id.weightKg == 71.7, "the latest height and weight (2019)")
        #expect(id.identifiers.count == 5)
        #expect(report.notes == ["medical ID: set name, date of birth, sex, height, weight, 5 identifiers"])

        // Searchable by name and by code.
        let hits = try vault.database.read { db in
            try String.fetchAll(db, sql: "SELECT e.kind FROM search_fts f JOIN search_entry e ON e.id = f.rowid WHERE search_fts MATCH '665078 OR shellfish' ORDER BY e.kind")
        }
        #expect(hits == ["allergy", "med"])

        let before = try Self.fingerprint(vault)
        let again = try RecordImport.run(path: Self.synthea, vault: vault, profileName: nil, time: F.time("2026-06-01T00:00:00Z", "Europe/Berlin"))
        #expect(again.added.isEmpty && again.updated.isEmpty && again.changedCount == 0)
        #expect(again.unchanged == ["medical_id": 1, "medications": 6, "allergies": 3, "conditions": 6, "immunizations": 8, "observations": 44,
                                    "procedures": 2])
        #expect(try Self.fingerprint(vault) == before, "a second import changes nothing")
    }

    @Test(.corpus) func ipsDocumentBundle() throws {
        let (vault, profile, directory) = try F.vault("fhir")
        defer { TestSupport.remove(directory) }
        let report = try RecordImport.run(path: Self.ips, vault: vault, profileName: nil, time: Self.time)
        #expect(report.format == "FHIR R4 Bundle (document)")
        #expect(report.added == ["medical_id": 1, "medications": 2, "contacts": 1, "allergies": 1, "conditions": 2, "observations": 6])
        #expect(report.skipped.map { "\($0.entry) \($0.type)" } == [
            "entry[0] Composition", "entry[2] Practitioner", "entry[3] Organization", "entry[7] Medication", "entry[8] Medication",
            "entry[11] Organization", "entry[16] Observation", "entry[19] AllergyIntolerance",
        ])
        #expect(report.skipped.last?.reason == "states that there is no known allergy, which is not an allergy to list")

        let medications = try MedicationStore(vault: vault, profile: profile, time: Self.time).list(all: true)
        #expect(Self.codes(medications.map(\.codes), system: Coding.System.snomed) == ["108774000", "412588001"])
        #expect(Self.codes(medications.map(\.codes), system: Coding.System.atc) == ["G02CX04", "L02BG03"])
        let anastrozole = try #require(medications.first { $0.codes.code(in: Coding.System.snomed) == "108774000" })
        #expect(anastrozole.name == "Product containing anastrozole", "without SNOMED CT's semantic tag")
        #expect(anastrozole.dose == "1 tablet" && anastrozole.instructions == "once a day" && anastrozole.start?.description == "2015-03")
        #expect(anastrozole.source?.identifiers == [SourceIdentifier(system: "urn:oid:1.2.3.999", value: "b75f92cb-61d4-469a-9387-df5ef70d25f0")])
        #expect(medications.first { $0.codes.code(in: Coding.System.snomed) == "412588001" }?.name == "Black Cohosh Extract herbal supplement")

        let allergy = try #require(try AllergyStore(vault: vault, profile: profile, time: Self.time).list().first)
        #expect(allergy.codes.code(in: Coding.System.snomed) == "373270004")
        #expect(allergy.criticality == .high && allergy.category == .medication && allergy.since?.description == "2010")
        let conditions = try ConditionStore(vault: vault, profile: profile, time: Self.time).list()
        #expect(Self.codes(conditions.map(\.codes), system: Coding.System.snomed) == ["198436008", "254837009"])
        #expect(Self.codes(conditions.map(\.codes), system: Coding.System.icd10) == ["N95.1"])
        let cancer = try #require(conditions.first { $0.codes.code(in: Coding.System.snomed) == "254837009" })
        #expect(cancer.status == .remission && cancer.since?.description == "2015-01" && cancer.resolved?.description == "2015-03")
        #expect(try ImmunizationStore(vault: vault, profile: profile, time: Self.time).list().isEmpty)

        let contact = try #require(try ContactStore(vault: vault, profile: profile, time: Self.time).list().first)
        #expect(contact.name == "Martha Mum" && contact.relation == "mother" && contact.phone == "+33-555-20036" && !contact.emergency)
        let id = try #require(try MedicalIDStore(vault: vault, profile: profile, time: Self.time).get())
        #expect(id.name == "Martha DeLarosa" && id.sex == .female && id.bloodType == "A+")
        let a1c = try #require(try ObservationStore(vault: vault, profile: profile).list(code: "17856-6").first)
        #expect(a1c.valueNumber == 7.5 && a1c.valueUnit == "%" && a1c.notes == "Above stated goal of 7.0 %")
        #expect(a1c.effective == "2017-11-10T08:20:00+01:00")

        let again = try RecordImport.run(path: Self.ips, vault: vault, profileName: nil, time: Self.time)
        #expect(again.changedCount == 0)
    }

    @Test(.corpus) func aCorruptedEntryIsRefusedByNameAndTheRestIsImported() throws {
        let (vault, profile, directory) = try F.vault("fhir")
        defer { TestSupport.remove(directory) }
        var input = MedicationStore.Input()
        input.name = "Already here"
        try MedicationStore(vault: vault, profile: profile, time: Self.time).add(input)
        let before = try Self.fingerprint(vault)
        let text = try String(contentsOfFile: Self.synthea, encoding: .utf8)

        // One immunization (entry 92) with an impossible date, far into the bundle.
        let badDate = "\(directory)/bad-date.json"
        var json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        var entries = try #require(json["entry"] as? [[String: Any]])
        var resource = try #require(entries[92]["resource"] as? [String: Any])
        resource["occurrenceDateTime"] = "2016-13-45T14:10:09+00:00"
        entries[92]["resource"] = resource
        json["entry"] = entries
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: badDate))
        // A date phr cannot read costs the vaccination its date, not the vaccination (issue 26, item 7).
        let dateReport = try RecordImport.run(path: badDate, vault: vault, profileName: nil, time: Self.time, dryRun: true)
        #expect(dateReport.skipped.filter(\.rejected).isEmpty)
        #expect(dateReport.repaired.map { "\($0.entry) \($0.type): \($0.reason.description)" }
                == ["entry[92] Immunization: occurrenceDateTime: '2016-13-45T14:10:09+00:00' is not a FHIR date or dateTime; left out"])
        #expect(dateReport.added["immunizations"] == 8 && dateReport.added["observations"] == 44, "everything would be imported")
        #expect(InteropError.partlyImported(path: "", rejected: 1, dryRun: false).exitStatus == .dataError)

        // A coding whose code is a number.
        resource["occurrenceDateTime"] = "2016-06-13T14:10:09+00:00"
        resource["vaccineCode"] = ["coding": [["system": "http://hl7.org/fhir/sid/cvx", "code": 140]]]
        entries[92]["resource"] = resource
        json["entry"] = entries
        let badCode = "\(directory)/bad-code.json"
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: badCode))
        #expect(try RecordImport.run(path: badCode, vault: vault, profileName: nil, time: Self.time, dryRun: true).skipped.filter(\.rejected)
                == [ImportReport.Skip(entry: "entry[92]", type: "Immunization", reason: "vaccineCode.coding[0].code: expected a string, got a number",
                                      rejected: true)])

        // Cut off in the middle.
        let truncated = "\(directory)/truncated.json"
        try Data(text.utf8.prefix(200_000)).write(to: URL(fileURLWithPath: truncated))
        #expect(throws: InteropError.self) { _ = try RecordImport.run(path: truncated, vault: vault, profileName: nil, time: Self.time) }
        do {
            _ = try RecordImport.run(path: truncated, vault: vault, profileName: nil, time: Self.time)
        } catch let error as InteropError {
            #expect(error.errorDescription?.hasPrefix("\(truncated): JSON: not valid JSON") == true, "\(error)")
        }

        // An entry without a resource.
        json["entry"] = entries + [["fullUrl": "urn:uuid:0"]]
        let empty = "\(directory)/empty-entry.json"
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: empty))
        #expect(try RecordImport.run(path: empty, vault: vault, profileName: nil, time: Self.time, dryRun: true).skipped.filter(\.rejected)
                == [ImportReport.Skip(entry: "entry[117]", type: "entry", reason: "resource: missing", rejected: true),
                    ImportReport.Skip(entry: "entry[92]", type: "Immunization", reason: "vaccineCode.coding[0].code: expected a string, got a number",
                                      rejected: true)])
        #expect(try Self.fingerprint(vault) == before, "a dry run and a file that is not JSON change nothing")

        // For real: everything but the refused entry goes in; the undated vaccination is listed last.
        let real = try RecordImport.run(path: badCode, vault: vault, profileName: nil, time: Self.time)
        #expect(real.rejectedCount == 1 && real.added["immunizations"] == 7)
        #expect(try ImmunizationStore(vault: vault, profile: profile, time: Self.time).list().count == 7)
        let undated = try RecordImport.run(path: badDate, vault: vault, profileName: nil, time: Self.time)
        #expect(undated.rejectedCount == 0 && undated.added["immunizations"] == 1)
        #expect(try ImmunizationStore(vault: vault, profile: profile, time: Self.time).list().last?.date == nil)
    }

    @Test func oneBundleCannotMixPatients() throws {
        let (vault, _, directory) = try F.vault("fhir")
        defer { TestSupport.remove(directory) }
        let path = "\(directory)/two.json"
        try """
            {"resourceType": "Bundle", "type": "collection", "entry": [
              {"fullUrl": "urn:uuid:a", "resource": {"resourceType": "Patient", "id": "a"}},
              {"fullUrl": "urn:uuid:b", "resource": {"resourceType": "Patient", "id": "b"}}]}
            """.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: InteropError.severalPatients(path: path, entries: ["entry[0]", "entry[1]"])) {
            try RecordImport.run(path: path, vault: vault, profileName: nil, time: Self.time)
        }
        try """
            {"resourceType": "Bundle", "type": "transaction-response", "entry": []}
            """.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: InteropError.malformed(path: path, location: "Bundle",
                                               reason: "type: a transaction-response bundle holds no records to import; use a transaction, collection or document bundle")) {
            try RecordImport.run(path: path, vault: vault, profileName: nil, time: Self.time)
        }
    }

    @Test func collectionBundleWithSchedulesAppointmentsAndContainedMedication() throws {
        let (vault, profile, directory) = try F.vault("fhir")
        defer { TestSupport.remove(directory) }
        let path = "\(directory)/collection.json"
        try """
            {"resourceType": "Bundle", "type": "collection", "entry": [
              {"fullUrl": "Patient/p1", "resource": {"resourceType": "Patient", "id": "p1",
                "name": [{"use": "official", "given": ["Alex"], "family": "Example"}], "birthDate": "1984-07-22", "gender": "male",
                "contact": [{"relationship": [{"coding": [{"system": "http://terminology.hl7.org/CodeSystem/v2-0131", "code": "C"}]}],
                             "name": {"text": "Jamie Example"}, "telecom": [{"system": "phone", "value": "+1 555 0142"}]},
                            {"name": {"text": "No Phone"}}]}},
              {"resource": {"resourceType": "MedicationStatement", "id": "ms1", "status": "active",
                "contained": [{"resourceType": "Medication", "id": "m", "code": {"coding": [
                  {"system": "http://www.nlm.nih.gov/research/umls/rxnorm", "code": "860975", "display": "metformin hydrochloride 500 MG Oral Tablet"}]},
                  "form": {"text": "tablet"}}],
                "medicationReference": {"reference": "#m"}, "subject": {"reference": "Patient/p1"},
                "effectivePeriod": {"start": "2024-01-15"},
                "dosage": [{"text": "with breakfast and dinner", "timing": {"repeat": {"timeOfDay": ["20:00:00", "08:00:00"]}},
                            "doseAndRate": [{"doseQuantity": {"value": 500, "unit": "mg"}}]}]}},
              {"resource": {"resourceType": "MedicationRequest", "id": "mr1", "status": "active", "intent": "order",
                "medicationCodeableConcept": {"text": "Amoxicillin 500 mg"}, "subject": {"reference": "Patient/p1"},
                "requester": {"display": "Dr. Lee"}, "dispenseRequest": {"numberOfRepeatsAllowed": 2},
                "dosageInstruction": [{"timing": {"repeat": {"frequency": 1, "period": 8, "periodUnit": "h"}}}]}},
              {"resource": {"resourceType": "Immunization", "id": "i1", "status": "completed",
                "vaccineCode": {"coding": [{"system": "http://hl7.org/fhir/sid/cvx", "code": "115", "display": "Tdap"}]},
                "patient": {"reference": "Patient/p1"}, "occurrenceDateTime": "2025-09-01", "lotNumber": "LOT-9",
                "protocolApplied": [{"doseNumberPositiveInt": 2}]}},
              {"resource": {"resourceType": "Immunization", "id": "i2", "status": "not-done",
                "vaccineCode": {"text": "Influenza"}, "patient": {"reference": "Patient/p1"}, "occurrenceDateTime": "2025-10-01"}},
              {"resource": {"resourceType": "Appointment", "id": "a1", "status": "booked", "start": "2026-12-03T09:30:00+01:00",
                "end": "2026-12-03T10:15:00+01:00", "reasonCode": [{"text": "Annual check-up"}], "comment": "Fasting",
                "participant": [{"actor": {"reference": "Patient/p1"}}, {"actor": {"display": "Dr. Lee"}},
                                {"actor": {"reference": "Location/room2", "display": "Room 2"}}]}}
            ]}
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let report = try RecordImport.run(path: path, vault: vault, profileName: nil, time: Self.time)
        #expect(report.added == ["medical_id": 1, "contacts": 1, "medications": 2, "immunizations": 1, "appointments": 1])
        try Self.expectTheCountsAddUp(path, report)
        #expect(report.skipped.map(\.reason) == ["has no phone number", "not given (status not-done)"])

        let medications = try MedicationStore(vault: vault, profile: profile, time: Self.time).list()
        let metformin = try #require(medications.first { $0.codes.code(in: Coding.System.rxNorm) == "860975" })
        #expect(metformin.name == "metformin hydrochloride 500 MG Oral Tablet" && metformin.form == "tablet" && metformin.dose == "500 mg")
        #expect(metformin.schedule == .times([LocalTime("08:00")!, LocalTime("20:00")!]) && metformin.instructions == "with breakfast and dinner")
        #expect(metformin.source?.key == "fhir:MedicationStatement/ms1")
        let amoxicillin = try #require(medications.first { $0.name == "Amoxicillin 500 mg" })
        #expect(amoxicillin.schedule == .interval(minutes: 480) && amoxicillin.prescriber == "Dr. Lee" && amoxicillin.refills == 2)
        let tdap = try #require(try ImmunizationStore(vault: vault, profile: profile, time: Self.time).list().first)
        #expect(tdap.vaccine == "Tdap" && tdap.doseNumber == 2 && tdap.lot == "LOT-9" && tdap.codes.code(in: Coding.System.cvx) == "115")
        let visit = try #require(try AppointmentStore(vault: vault, profile: profile, time: Self.time).list().first)
        #expect(visit.with == "Dr. Lee" && visit.location == "Room 2" && visit.reason == "Annual check-up" && visit.notes == "Fasting")
        #expect(visit.startInstant == F.instant("2026-12-03T08:30:00Z") && visit.durationMinutes == 45 && visit.timeZone == "Europe/Berlin")
        let contact = try #require(try ContactStore(vault: vault, profile: profile, time: Self.time).list().first)
        #expect(contact.name == "Jamie Example" && contact.emergency && contact.relation == "emergency contact")
        #expect(try MedicalIDStore(vault: vault, profile: profile, time: Self.time).get()?.name == "Alex Example")
        #expect(try RecordImport.run(path: path, vault: vault, profileName: nil, time: Self.time).changedCount == 0)
    }

    /// Issue 26, item 11: procedures and a relative's conditions are kept (they were skipped as
    /// resources phr does not keep); each condition of a FamilyMemberHistory is an entry, and the
    /// report's counts add up: every condition is added or skipped with its reason.
    @Test func proceduresAndFamilyHistoryAreKept() throws {
        let (vault, profile, directory) = try F.vault("fhir")
        defer { TestSupport.remove(directory) }
        let path = "\(directory)/history.json"
        try """
            {"resourceType": "Bundle", "type": "collection", "entry": [
              {"fullUrl": "Patient/p1", "resource": {"resourceType": "Patient", "id": "p1", "name": [{"text": "Alex Example"}]}},
              {"resource": {"resourceType": "Procedure", "id": "pr1", "status": "completed", "subject": {"reference": "Patient/p1"},
                "code": {"coding": [{"system": "http://snomed.info/sct", "code": "80146002", "display": "Appendectomy"}]},
                "performedPeriod": {"start": "2009-04-02T10:00:00+02:00", "end": "2009-04-02T11:00:00+02:00"},
                "bodySite": [{"text": "appendix"}], "performer": [{"actor": {"display": "Dr Ortiz"}}]}},
              {"resource": {"resourceType": "Procedure", "id": "pr2", "status": "not-done", "subject": {"reference": "Patient/p1"},
                "code": {"text": "Colonoscopy"}, "performedDateTime": "2024-03-02"}},
              {"resource": {"resourceType": "Procedure", "id": "pr3", "status": "completed", "subject": {"reference": "Patient/p1"},
                "code": {"text": "Tonsillectomy"}, "performedString": "as a child"}},
              {"resource": {"resourceType": "FamilyMemberHistory", "id": "f1", "status": "completed", "patient": {"reference": "Patient/p1"},
                "relationship": {"coding": [{"system": "http://terminology.hl7.org/CodeSystem/v3-RoleCode", "code": "MTH", "display": "mother"}]},
                "condition": [
                  {"code": {"coding": [{"system": "http://snomed.info/sct", "code": "254837009", "display": "Malignant neoplasm of breast"}]},
                   "onsetAge": {"value": 52, "unit": "yr", "system": "http://unitsofmeasure.org", "code": "a"}},
                  {"code": {"text": "Hypertension"}, "contributedToDeath": false},
                  {"note": [{"text": "something, no one remembers what"}]}]}},
              {"resource": {"resourceType": "FamilyMemberHistory", "id": "f2", "status": "completed", "patient": {"reference": "Patient/p1"},
                "relationship": {"coding": [{"system": "http://terminology.hl7.org/CodeSystem/v3-RoleCode", "code": "PGRFTH"}]},
                "condition": [{"code": {"text": "Stroke"}, "contributedToDeath": true}]}},
              {"resource": {"resourceType": "FamilyMemberHistory", "id": "f3", "status": "completed", "patient": {"reference": "Patient/p1"},
                "relationship": {"text": "neighbour's cousin"}}},
              {"resource": {"resourceType": "Immunization", "id": "i1", "status": "completed", "patient": {"reference": "Patient/p1"},
                "vaccineCode": {"text": "BCG"}, "occurrenceString": "as a baby"}},
              {"resource": {"resourceType": "Immunization", "id": "i2", "status": "completed", "patient": {"reference": "Patient/p1"},
                "vaccineCode": {"text": "Yellow fever"}}},
              {"fullUrl": "Device/d1", "resource": {"resourceType": "Device", "id": "d1",
                "type": {"coding": [{"system": "http://snomed.info/sct", "code": "14106009", "display": "Cardiac pacemaker"}]}}},
              {"resource": {"resourceType": "DeviceUseStatement", "id": "du1", "status": "active", "subject": {"reference": "Patient/p1"},
                "device": {"reference": "Device/d1"}, "timingPeriod": {"start": "2019-05-02"}}},
              {"resource": {"resourceType": "Consent", "id": "c1", "status": "active", "patient": {"reference": "Patient/p1"},
                "scope": {"coding": [{"system": "http://terminology.hl7.org/CodeSystem/consentscope", "code": "adr"}]},
                "category": [{"text": "Do not resuscitate"}], "dateTime": "2024-01-10"}},
              {"resource": {"resourceType": "Consent", "id": "c2", "status": "active", "patient": {"reference": "Patient/p1"},
                "scope": {"coding": [{"system": "http://terminology.hl7.org/CodeSystem/consentscope", "code": "patient-privacy"}]}}}
            ]}
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let report = try RecordImport.run(path: path, vault: vault, profileName: nil, time: Self.time)
        #expect(report.added == ["medical_id": 1, "procedures": 2, "family_history": 3, "immunizations": 2, "medical_id_notes": 2])
        try Self.expectTheCountsAddUp(path, report)
        // A device in use and an advance directive: lines of the medical ID's notes.
        #expect(try MedicalIDStore(vault: vault, profile: profile, time: Self.time).get()?.notes
                == "Device: Cardiac pacemaker (since 2019-05-02)\nAdvance directive: Do not resuscitate (from 2024-01-10)")
        #expect(report.skipped.contains { $0.type == "Consent" && $0.reason.description == "a consent other than an advance directive (scope)" })
        // Issue 26, item 7: a vaccine given at no date phr can read is kept undated, the words kept.
        let shots = try ImmunizationStore(vault: vault, profile: profile, time: Self.time).list()
        #expect(shots.map { "\($0.vaccine) \($0.date?.description ?? "-") \($0.notes ?? "-")" } == ["BCG - given: as a baby", "Yellow fever - -"])
        #expect(report.repaired.map { "\($0.entry) \($0.type): \($0.reason.description)" } == ["entry[8] Immunization: occurrenceDateTime: none given; kept undated"])
        #expect(report.skipped.map { "\($0.entry) \($0.type): \($0.reason.description)" } == [
            "entry[2] Procedure: not done (status not-done)",
            "entry[4] condition[2] FamilyMemberHistory: names no condition (condition[2].code)",
            "entry[6] FamilyMemberHistory: lists no condition of the relative",
            "entry[9] Device: a device's description, read with the DeviceUseStatement that refers to it",
            "entry[12] Consent: a consent other than an advance directive (scope)",
        ])
        let procedures = try ProcedureStore(vault: vault, profile: profile, time: Self.time).list()
        #expect(procedures.map { "\($0.name) \($0.date?.description ?? "-") \($0.bodySite ?? "-") \($0.performer ?? "-") \($0.notes ?? "-")" }
                == ["Appendectomy 2009-04-02 appendix Dr Ortiz -", "Tonsillectomy - - - performed: as a child"])
        let family = try FamilyHistoryStore(vault: vault, profile: profile, time: Self.time).list()
        #expect(family.map { "\($0.relation) \($0.relationCode ?? "-") \($0.condition) \($0.onsetAge.map(String.init) ?? "-") \(String(describing: $0.causeOfDeath))" }
                == ["mother MTH Hypertension - Optional(false)", "mother MTH Malignant neoplasm of breast 52 nil",
                    "paternal grandfather PGRFTH Stroke - Optional(true)"])
        #expect(try RecordImport.run(path: path, vault: vault, profileName: nil, time: Self.time).changedCount == 0, "a second import adds nothing")
        // The sender adds a condition in front of the mother's: one more entry, the others known
        // again by what they are, not by their place.
        var text = try String(contentsOfFile: path, encoding: .utf8)
        let mothers = try #require(text.range(of: #""condition": ["#))
        text.insert(contentsOf: #"{"code": {"text": "Glaucoma"}}, "#, at: mothers.upperBound)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let again = try RecordImport.run(path: path, vault: vault, profileName: nil, time: Self.time)
        #expect(again.added == ["family_history": 1] && again.unchanged["family_history"] == 3, "\(again.added) \(again.unchanged)")
        #expect(try FamilyHistoryStore(vault: vault, profile: profile, time: Self.time).list().count == 4)
    }

    /// One vendor gave its order number to every medication of the order: each is its own record,
    /// and only the very same resource is "already there".
    @Test func resourcesSharingAnIdentifierAreEachImported() throws {
        let (vault, profile, directory) = try F.vault("fhir")
        defer { TestSupport.remove(directory) }
        func request(_ id: String, _ rxnorm: String, _ name: String, authored: String) -> String {
            """
            {"resource": {"resourceType": "MedicationRequest", "id": "\(id)", "status": "active", "intent": "order",
              "identifier": [{"system": "urn:oid:2.16.840.1.113883.3.999", "value": "ORDER-4711"}],
              "medicationCodeableConcept": {"coding": [{"system": "http://www.nlm.nih.gov/research/umls/rxnorm",
                "code": "\(rxnorm)", "display": "\(name)"}]}, "authoredOn": "\(authored)"}}
            """
        }
        let lisinopril = request("m1", "314076", "lisinopril 10 MG Oral Tablet", authored: "2026-03-02")
        let entries = [lisinopril,
                       request("m2", "197361", "amlodipine 5 MG Oral Tablet", authored: "2026-03-02"),
                       request("m3", "314076", "lisinopril 10 MG Oral Tablet", authored: "2025-09-14"),
                       lisinopril]
        let path = "\(directory)/order.json"
        try """
            {"resourceType": "Bundle", "type": "collection", "entry": [\(entries.joined(separator: ",\n"))]}
            """.write(toFile: path, atomically: true, encoding: .utf8)

        let report = try RecordImport.run(path: path, vault: vault, profileName: nil, time: Self.time)
        #expect(report.added == ["medications": 3], "same order number, different drugs or dates: three prescriptions")
        #expect(report.unchanged == ["medications": 1], "the entry repeated word for word is the same prescription")
        let medications = try MedicationStore(vault: vault, profile: profile, time: Self.time).list(all: true)
        #expect(medications.map { "\($0.name) \($0.start?.description ?? "")" }.sorted()
                == ["amlodipine 5 MG Oral Tablet 2026-03-02", "lisinopril 10 MG Oral Tablet 2025-09-14", "lisinopril 10 MG Oral Tablet 2026-03-02"])
        #expect(medications.allSatisfy { $0.source?.identifiers.map(\.value) == ["ORDER-4711"] }, "the order number is kept on each")

        let before = try Self.fingerprint(vault)
        let again = try RecordImport.run(path: path, vault: vault, profileName: nil, time: Self.time)
        #expect(again.added.isEmpty && again.unchanged == ["medications": 4])
        #expect(try Self.fingerprint(vault) == before, "a second import changes nothing")
    }

    /// A record imported before identity took in the resource's code and dates carries the
    /// identifier alone as its key: importing the same resource again finds it.
    @Test func recordsKeyedByIdentifierAloneAreRecognised() throws {
        let (vault, profile, directory) = try F.vault("fhir")
        defer { TestSupport.remove(directory) }
        var earlier = F.medication("", .unscheduled)
        earlier.name = "Metformin 500 mg"
        earlier.source = RecordSource(key: "fhir:MedicationStatement:identifier:urn:oid:1.2.3|MS-9",
                                      identifiers: [SourceIdentifier(system: "urn:oid:1.2.3", value: "MS-9")])
        try vault.database.write { db in _ = try RecordMerge.merge(db, earlier, profileID: profile.id, replaceIfNewer: false) }
        let path = "\(directory)/statement.json"
        try """
            {"resourceType": "Bundle", "type": "collection", "entry": [
              {"resource": {"resourceType": "MedicationStatement", "status": "active",
                "identifier": [{"system": "urn:oid:1.2.3", "value": "MS-9"}],
                "medicationCodeableConcept": {"text": "Metformin 500 mg"}, "effectiveDateTime": "2024-01-15"}}]}
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let report = try RecordImport.run(path: path, vault: vault, profileName: nil, time: Self.time)
        #expect(report.added.isEmpty && report.unchanged == ["medications": 1])
        #expect(try MedicationStore(vault: vault, profile: profile, time: Self.time).list(all: true).count == 1)
    }

    /// Only the subject's records go in: with several Patients, the Composition says who the
    /// document is about, and entries about anyone else are skipped with the reason.
    @Test func recordsOfAnotherPatientAreSkippedAndTheCompositionNamesTheSubject() throws {
        let (vault, profile, directory) = try F.vault("fhir")
        defer { TestSupport.remove(directory) }
        let path = "\(directory)/document.json"
        try """
            {"resourceType": "Bundle", "type": "document", "entry": [
              {"fullUrl": "urn:uuid:c", "resource": {"resourceType": "Composition", "status": "final", "title": "Summary",
                "subject": {"reference": "urn:uuid:alex"}}},
              {"fullUrl": "urn:uuid:alex", "resource": {"resourceType": "Patient", "id": "alex", "name": [{"text": "Alex Example"}],
                "contact": [{"name": {"text": "Sam Example"}, "telecom": [{"system": "phone", "value": "555-0101"}]}]}},
              {"fullUrl": "urn:uuid:robin", "resource": {"resourceType": "Patient", "id": "robin", "name": [{"text": "Robin Donor"}],
                "contact": [{"name": {"text": "Kim Donor"}, "telecom": [{"system": "phone", "value": "555-0199"}]}]}},
              {"fullUrl": "urn:uuid:a1", "resource": {"resourceType": "AllergyIntolerance", "code": {"text": "Penicillin"},
                "patient": {"reference": "urn:uuid:alex"}}},
              {"fullUrl": "urn:uuid:a2", "resource": {"resourceType": "AllergyIntolerance", "code": {"text": "Peanut"},
                "patient": {"reference": "urn:uuid:robin"}}},
              {"fullUrl": "urn:uuid:c1", "resource": {"resourceType": "Condition", "code": {"text": "Asthma"},
                "subject": {"reference": "Patient/someone-else"}}},
              {"fullUrl": "urn:uuid:c2", "resource": {"resourceType": "Condition", "code": {"text": "Hypertension"},
                "subject": {"reference": "Patient/alex"}}}]}
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let report = try RecordImport.run(path: path, vault: vault, profileName: nil, time: Self.time)
        #expect(report.added == ["medical_id": 1, "contacts": 1, "allergies": 1, "conditions": 1])
        #expect(report.rejectedCount == 0)
        let skipped = report.skipped.filter { $0.type != "Composition" }.map { "\($0.entry) \($0.type): \($0.reason.description)" }
        #expect(skipped == [
            "entry[2] Patient: another patient than the bundle's subject (entry[1], named by the Composition)",
            "entry[4] AllergyIntolerance: about another patient (patient is entry[2], not the bundle's subject entry[1])",
            "entry[5] Condition: about another patient (subject is Patient/someone-else, not the bundle's subject Patient/alex)",
        ])
        #expect(try AllergyStore(vault: vault, profile: profile, time: Self.time).list().map(\.substance) == ["Penicillin"])
        #expect(try ConditionStore(vault: vault, profile: profile, time: Self.time).list().map(\.name) == ["Hypertension"])
        #expect(try ContactStore(vault: vault, profile: profile, time: Self.time).list().map(\.name) == ["Sam Example"])
        #expect(try MedicalIDStore(vault: vault, profile: profile, time: Self.time).get()?.name == "Alex Example")
    }
}
