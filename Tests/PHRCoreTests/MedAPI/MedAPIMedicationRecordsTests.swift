import Foundation
import GRDB
import Testing
@testable import PHRCore

/// Reading a profile's medications and allergies for `med check` and `med recalls`, and
/// recording `med resolve`'s answer, against the records tables of the vault schema.
@Suite("MedAPI medication records")
struct MedAPIMedicationRecordsTests {
    static func insertMedication(_ db: Database, id: String, profile: Int64, name: String, status: String = "active",
                                 start: String? = nil, end: String? = nil, codes: String = "[]") throws {
        let now = Timestamp.string(Date())
        try db.execute(sql: """
            INSERT INTO medication (id, uid, profile_id, name, schedule, status, stopped_on, start_date, end_date, codes, created_at, updated_at)
            VALUES (?, ?, ?, ?, 'unscheduled', ?, NULL, ?, ?, ?, ?, ?)
            """, arguments: [id, UUID().uuidString, profile, name, status, start, end, codes, now, now])
    }

    @Test("active medications with their RxCUIs; stopped, ended and future ones left out; allergies")
    func reads() throws {
        let (vault, _, directory) = try TestSupport.makeVault("medrecords")
        defer { TestSupport.remove(directory) }
        let profile = try vault.database.read { try Profiles.resolve($0, name: nil) }
        let other = try vault.database.write { try Profiles.create($0, name: "Kid", relation: .child) }
        try vault.database.write { db in
            try Self.insertMedication(db, id: "aaaa01", profile: profile.id, name: "Citalopram 20 mg",
                                      codes: #"[{"code":"200371","display":"citalopram 20 MG Oral Tablet","system":"http://www.nlm.nih.gov/research/umls/rxnorm"}]"#)
            try Self.insertMedication(db, id: "aaaa02", profile: profile.id, name: "ibuprofen", end: "2099")
            try Self.insertMedication(db, id: "aaaa03", profile: profile.id, name: "stopped one", status: "stopped")
            try Self.insertMedication(db, id: "aaaa04", profile: profile.id, name: "ended one", end: "2020-05")
            try Self.insertMedication(db, id: "aaaa05", profile: profile.id, name: "future one", start: "2999-01-01")
            try Self.insertMedication(db, id: "aaaa06", profile: other.id, name: "someone else's")
            try Self.insertMedication(db, id: "aaaa07", profile: profile.id, name: "snomed coded",
                                      codes: #"[{"code":"123","system":"http://snomed.info/sct"}]"#)
            let now = Timestamp.string(Date())
            try db.execute(sql: """
                INSERT INTO allergy (id, uid, profile_id, substance, reaction, severity, status, created_at, updated_at)
                VALUES ('bbbb01', 'u1', ?, 'Penicillin', 'hives', 'severe', 'active', ?, ?),
                       ('bbbb02', 'u2', ?, 'latex', NULL, NULL, 'resolved', ?, ?)
                """, arguments: [profile.id, now, now, profile.id, now, now])
        }
        let records = VaultMedicationRecords(vault: vault, profileID: profile.id, today: CalendarDate("2026-11-22")!)
        #expect(try records.activeMedications() == [
            MedicineEntry(id: "aaaa01", name: "Citalopram 20 mg", rxcui: "200371"),
            MedicineEntry(id: "aaaa02", name: "ibuprofen", rxcui: nil),
            MedicineEntry(id: "aaaa07", name: "snomed coded", rxcui: nil),
        ])
        #expect(try records.activeAllergies() == [AllergyEntry(id: "bbbb01", substance: "Penicillin", reaction: "hives", severity: "severe")])
        #expect(try records.unresolvedMedications().map(\.id) == ["aaaa04", "aaaa05", "aaaa02", "aaaa07", "aaaa03"])
        #expect(try records.medication(idPrefix: "AAAA01")?.rxcui == "200371")
        #expect(try records.medication(idPrefix: "citalopram") == nil, "a name is not an ID")
        #expect(try records.medication(idPrefix: "aaaa06") == nil, "another profile's medication")
        do {
            _ = try records.medication(idPrefix: "aaaa")
            Issue.record("a prefix of several IDs is ambiguous")
        } catch PHRCore.RecordError.ambiguous(let kind, let prefix, _) {
            #expect(kind == "medication" && prefix == "aaaa")
        }
    }

    @Test("resolving adds the RxNorm coding and keeps the others")
    func recordsResolution() throws {
        let (vault, _, directory) = try TestSupport.makeVault("medrecords")
        defer { TestSupport.remove(directory) }
        let profile = try vault.database.read { try Profiles.resolve($0, name: nil) }
        try vault.database.write { db in
            try Self.insertMedication(db, id: "cccc01", profile: profile.id, name: "citalopram",
                                      codes: #"[{"code":"123","system":"http://snomed.info/sct"}]"#)
        }
        let records = VaultMedicationRecords(vault: vault, profileID: profile.id)
        let resolved = ResolvedMedicine(query: "citalopram", concept: RxConcept(rxcui: "2556", name: "citalopram", tty: "IN"),
                                        ingredients: [], sources: [], notices: [])
        try records.recordResolution(resolved, forMedication: "cccc01")
        let codes = try vault.database.read { try String.fetchOne($0, sql: "SELECT codes FROM medication WHERE id = 'cccc01'") }
        #expect(codes == #"[{"code":"2556","display":"citalopram","system":"http://www.nlm.nih.gov/research/umls/rxnorm"},{"code":"123","system":"http://snomed.info/sct"}]"#)
        #expect(try records.unresolvedMedications().isEmpty)
        do {
            try records.recordResolution(resolved, forMedication: "zzzz99")
            Issue.record("no such medication")
        } catch PHRCore.RecordError.notFound(let kind, let id) {
            #expect(kind == "medication" && id == "zzzz99")
        }
    }
}
