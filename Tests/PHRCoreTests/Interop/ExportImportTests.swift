import Foundation
import GRDB
import Testing
@testable import PHRCore

/// `phr export` / `phr import` of phr's own format: schema-valid, lossless, idempotent, and
/// all-or-nothing on a bad file.
@Suite struct ExportImportTests {
    typealias F = RecordFixtures
    static let time = F.time("2026-05-10T10:00:00Z", "Europe/Berlin")
    static let synthea = CorpusData.path("fhir/synthea-r4-Kermit_Trantow.json")

    /// A profile with every kind of record but documents, edge cases included (the Synthea bundle
    /// of the third-party corpus, so the tests that use it carry `.corpus`).
    static func populate(_ vault: Vault, _ profile: Profile) throws {
        let time = Self.time
        _ = try RecordImport.run(path: synthea, vault: vault, profileName: profile.name, time: time)
        let medications = MedicationStore(vault: vault, profile: profile, time: F.time("2026-05-01T06:00:00Z", "Europe/Berlin"))
        var input = MedicationStore.Input()
        input.name = "Metformin"
        input.dose = "500 mg"
        input.times = "08:00,20:00"
        input.timeZone = "Europe/Berlin"
        input.maxPerDay = "2"
        input.instructions = "with meals"
        let metformin = try medications.add(input)
        input = MedicationStore.Input()
        input.name = "Ibuprofen"
        input.asNeeded = true
        input.minInterval = "4h"
        input.end = "2026-12-31"
        let ibuprofen = try medications.add(input)
        input = MedicationStore.Input()
        input.name = "Amoxicillin"
        input.every = "8h"
        input.refills = "0"
        let amoxicillin = try medications.add(input)
        _ = try medications.stop(amoxicillin.id, on: "2026-05-08")
        let log = DoseLog(vault: vault, profile: profile, time: time)
        _ = try log.take(metformin.id, at: F.instant("2026-05-10T08:05:00+02:00"))
        _ = try log.skip(metformin.id, at: F.instant("2026-05-09T20:00:00+02:00"), note: "felt sick")
        _ = try log.take(ibuprofen.id, at: F.instant("2026-05-10T09:00:00+02:00"))
        _ = try log.take(ibuprofen.id, at: F.instant("2026-05-10T10:00:00+02:00"), force: true)

        var appointment = AppointmentStore.Input()
        appointment.with = "Dr. Lee"
        appointment.at = "2026-12-03 09:30"
        appointment.location = "Praxis, Raum 2"
        appointment.remind = "1h"
        try AppointmentStore(vault: vault, profile: profile, time: time).add(appointment)
        appointment = AppointmentStore.Input()
        appointment.with = "Vaccination day"
        appointment.at = "2026-06-01"
        appointment.status = "tentative"
        try AppointmentStore(vault: vault, profile: profile, time: time).add(appointment)
        var contact = ContactStore.Input()
        contact.name = "Jane Doe"
        contact.phone = "+1 555 0100"
        contact.email = "jane@example.org"
        contact.emergency = true
        try ContactStore(vault: vault, profile: profile, time: time).add(contact)
        var allergy = AllergyStore.Input()
        allergy.substance = "Penicillin"
        allergy.severity = "severe"
        allergy.category = "medication"
        allergy.since = "2001-04"
        try AllergyStore(vault: vault, profile: profile, time: time).add(allergy)
        var condition = ConditionStore.Input()
        condition.name = "Asthma"
        condition.since = "2010"
        condition.notes = "exercise-induced"
        try ConditionStore(vault: vault, profile: profile, time: time).add(condition)
        var vaccine = ImmunizationStore.Input()
        vaccine.vaccine = "Tetanus"
        vaccine.date = "2026-05-01"
        vaccine.dose = "3"
        vaccine.lot = "T-77"
        try ImmunizationStore(vault: vault, profile: profile, time: time).add(vaccine)
        var procedure = ProcedureStore.Input()
        procedure.name = "Appendectomy"
        procedure.date = "2009"
        procedure.bodySite = "appendix"
        procedure.performer = "Dr Ortiz, Riverside Hospital"
        try ProcedureStore(vault: vault, profile: profile, time: time).add(procedure)
        procedure = ProcedureStore.Input()
        procedure.name = "Physiotherapy course"
        procedure.status = "in-progress"
        try ProcedureStore(vault: vault, profile: profile, time: time).add(procedure)
        var relative = FamilyHistoryStore.Input()
        relative.relation = "mother"
        relative.condition = "Breast cancer"
        relative.onsetAge = "52"
        try FamilyHistoryStore(vault: vault, profile: profile, time: time).add(relative)
        relative = FamilyHistoryStore.Input()
        relative.relation = "great-uncle"
        relative.condition = "Stroke"
        relative.causeOfDeath = "yes"
        relative.notes = "in his seventies"
        try FamilyHistoryStore(vault: vault, profile: profile, time: time).add(relative)
        var id = MedicalIDStore.Input()
        id.organDonor = "yes"
        id.notes = "pacemaker"
        try MedicalIDStore(vault: vault, profile: profile, time: time).set(id)
    }

    @Test(.corpus) func anExportValidatesAgainstTheSchemas() throws {
        let (vault, profile, directory) = try F.vault("export")
        defer { TestSupport.remove(directory) }
        try Self.populate(vault, profile)
        let export = try VaultExport.build(vault: vault, profile: profile, time: Self.time, generator: "phr test")
        #expect(export.medications.count == 9 && export.medications.flatMap(\.doses).count == 4)
        #expect(export.observations.count == 44 && export.immunizations.count == 9 && export.allergies.count == 4)
        #expect(export.procedures.count == 4 && export.familyHistory.count == 2, "two of the bundle's, two typed")
        let path = "\(directory)/export.json"
        try VaultExport.write(export, to: path, force: false)
        #expect((try FileManager.default.attributesOfItem(atPath: path))[.posixPermissions] as? Int == 0o600)
        let result = try Python.validateExport(path)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(throws: InteropError.exists(path: path)) { try VaultExport.write(export, to: path, force: false) }

        // The validator is not a rubber stamp.
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        var medications = try #require(json["medications"] as? [[String: Any]])
        medications[0]["schedule"] = ["kind": "times", "times": ["25:00"]]
        json["medications"] = medications
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: "\(directory)/bad.json"))
        let invalid = try Python.validateExport("\(directory)/bad.json")
        #expect(invalid.status == 1)
        #expect(invalid.stdout.hasPrefix("medications/0/schedule"))
    }

    @Test(.corpus) func exportImportIntoAnEmptyVaultExportsTheSameBytes() throws {
        let (vault, profile, directory) = try F.vault("export")
        defer { TestSupport.remove(directory) }
        try Self.populate(vault, profile)
        let first = try VaultExport.build(vault: vault, profile: profile, time: Self.time, generator: "phr test").encoded()
        let path = "\(directory)/export.json"
        try first.write(to: URL(fileURLWithPath: path))

        let (fresh, freshProfile, freshDirectory) = try F.vault("import")
        defer { TestSupport.remove(freshDirectory) }
        let report = try RecordImport.run(path: path, vault: fresh, profileName: nil, time: Self.time)
        #expect(report.profile == freshProfile.name && !report.createdProfile)
        #expect(report.added == ["medical_id": 1, "medications": 9, "doses": 4, "appointments": 2, "contacts": 1, "allergies": 4,
                                 "conditions": 7, "immunizations": 9, "observations": 44, "procedures": 4, "family_history": 2])
        let second = try VaultExport.build(vault: fresh, profile: freshProfile, time: Self.time, generator: "phr test").encoded()
        #expect(second == first)

        let again = try RecordImport.run(path: path, vault: fresh, profileName: nil, time: Self.time)
        #expect(again.changedCount == 0)
        #expect(again.unchanged["doses"] == 4 && again.unchanged["medications"] == 9)
        // Records come back searchable.
        let hits = try fresh.database.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM search_fts WHERE search_fts MATCH 'penicillin OR metformin OR loratadine'")
        }
        #expect(hits == 3)
    }

    @Test func aNewerCopyReplacesAnOlderOneAndAProfileIsCreatedByName() throws {
        let (vault, profile, directory) = try F.vault("export")
        defer { TestSupport.remove(directory) }
        let kid = try vault.database.write { try Profiles.create($0, name: "Sam", relation: .child) }
        var input = ConditionStore.Input()
        input.name = "Otitis"
        let condition = try ConditionStore(vault: vault, profile: kid, time: Self.time).add(input)
        let path = "\(directory)/sam.json"
        try VaultExport.write(try VaultExport.build(vault: vault, profile: kid, time: Self.time, generator: "phr test"), to: path, force: false)

        let (other, _, otherDirectory) = try F.vault("import")
        defer { TestSupport.remove(otherDirectory) }
        let report = try RecordImport.run(path: path, vault: other, profileName: nil, time: Self.time)
        #expect(report.createdProfile && report.profile == "Sam")
        let created = try other.database.read { try Profiles.resolve($0, name: "sam") }
        #expect(created.relation == .child)

        input = ConditionStore.Input()
        input.resolved = "2026-05-09"
        _ = try ConditionStore(vault: vault, profile: kid, time: F.time("2026-05-11T10:00:00Z", "Europe/Berlin")).edit(condition.id, input)
        try VaultExport.write(try VaultExport.build(vault: vault, profile: kid, time: Self.time, generator: "phr test"), to: path, force: true)
        let update = try RecordImport.run(path: path, vault: other, profileName: nil, time: Self.time)
        #expect(update.updated == ["conditions": 1])
        #expect(try ConditionStore(vault: other, profile: created, time: Self.time).get(condition.id).status == .resolved)
        _ = profile
    }

    @Test(.corpus) func aBadRecordIsRefusedByItsPathAndTheRestIsImported() throws {
        let (vault, profile, directory) = try F.vault("export")
        defer { TestSupport.remove(directory) }
        try Self.populate(vault, profile)
        let path = "\(directory)/export.json"
        try VaultExport.write(try VaultExport.build(vault: vault, profile: profile, time: Self.time, generator: "phr test"), to: path, force: false)
        let (fresh, _, freshDirectory) = try F.vault("import")
        defer { TestSupport.remove(freshDirectory) }

        func corrupt(_ change: (inout [String: Any]) -> Void) throws -> String {
            var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
            change(&json)
            let out = "\(directory)/bad-\(UUID().uuidString.prefix(6)).json"
            try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: out))
            return out
        }
        let badTime = try corrupt { json in
            var medications = json["medications"] as! [[String: Any]]
            medications[7]["schedule"] = ["kind": "times", "times": ["08:00", "24:00"]]
            json["medications"] = medications
        }
        let medications = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])["medications"] as! [Any]
        let timeReport = try RecordImport.run(path: badTime, vault: fresh, profileName: nil, time: Self.time, dryRun: true)
        #expect(timeReport.skipped.filter(\.rejected) == [ImportReport.Skip(entry: "medications[7]", type: "medication",
                                                                            reason: "schedule.times[1]: '24:00' is not a time; use HH:MM", rejected: true)])
        #expect(timeReport.added["medications"] == medications.count - 1, "the other medications are imported")
        let badPhone = try corrupt { json in
            var contacts = json["contacts"] as! [[String: Any]]
            contacts[0]["phone"] = "ask Jane"
            json["contacts"] = contacts
        }
        #expect(try RecordImport.run(path: badPhone, vault: fresh, profileName: nil, time: Self.time, dryRun: true).skipped.filter(\.rejected)
                == [ImportReport.Skip(entry: "contacts[0]", type: "contact", reason: "phone: 'ask Jane' is not a phone number; use digits, e.g. +49 30 1234567",
                                      rejected: true)])
        let missing = try corrupt { json in
            var allergies = json["allergies"] as! [[String: Any]]
            allergies[2].removeValue(forKey: "uid")
            json["allergies"] = allergies
        }
        #expect(try RecordImport.run(path: missing, vault: fresh, profileName: nil, time: Self.time, dryRun: true).skipped.filter(\.rejected)
                == [ImportReport.Skip(entry: "allergies[2]", type: "allergy", reason: "uid: missing", rejected: true)])
        let newer = try corrupt { $0["version"] = 2 }
        #expect(throws: InteropError.unsupportedVersion(path: newer, version: 2)) {
            try RecordImport.run(path: newer, vault: fresh, profileName: nil, time: Self.time)
        }
        let counts = try fresh.database.read { db in
            try ["medication", "dose", "observation", "allergy", "contact", "medical_id"].map { try Int.fetchOne(db, sql: "SELECT count(*) FROM \($0)")! }
        }
        #expect(counts == [0, 0, 0, 0, 0, 0], "a dry run imports nothing")
        #expect(throws: RecordImportError.noSuchFile("\(directory)/none.json")) {
            try RecordImport.run(path: "\(directory)/none.json", vault: fresh, profileName: nil, time: Self.time)
        }
        try "{\"resourceType\": \"Patient\"}".write(toFile: "\(directory)/patient.json", atomically: true, encoding: .utf8)
        #expect(throws: InteropError.unrecognized(path: "\(directory)/patient.json", reason: "a FHIR Patient, not a Bundle; phr imports Bundles (transaction, collection, document)")) {
            try RecordImport.run(path: "\(directory)/patient.json", vault: fresh, profileName: nil, time: Self.time)
        }
    }

    @Test func documentsAreListedAsSkippedAndLinksFollowTheirContent() throws {
        let (vault, profile, directory) = try F.vault("export")
        defer { TestSupport.remove(directory) }
        func addDocument(_ vault: Vault, _ profile: Profile, id: String, sha: UInt8) throws {
            try vault.database.write { db in
                let blob = String(repeating: String(format: "%02x", sha), count: 32)
                try db.execute(sql: "INSERT INTO blob (name, size, sha256, created_at) VALUES (?, 1, ?, '2026-01-01T00:00:00Z')",
                               arguments: [blob, Data(repeating: sha, count: 32)])
                try db.execute(sql: """
                    INSERT INTO document (id, profile_id, blob_name, file_name, media_type, title, type, type_source, outcome,
                        page_count, text_pages, size, sha256, extractor, added_at, updated_at)
                    VALUES (?, ?, ?, 'rx.pdf', 'application/pdf', 'Prescription', 'prescription', 'user', 'indexed', 1, 1, 1, ?,
                        'test', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')
                    """, arguments: [id, profile.id, blob, Data(repeating: sha, count: 32)])
            }
        }
        try addDocument(vault, profile, id: "dc0111", sha: 0xab)
        var input = MedicationStore.Input()
        input.name = "Amoxicillin"
        input.document = "dc0111"
        try MedicationStore(vault: vault, profile: profile, time: Self.time).add(input)
        input.name = "Ibuprofen"
        input.document = nil
        try MedicationStore(vault: vault, profile: profile, time: Self.time).add(input)
        let path = "\(directory)/export.json"
        let export = try VaultExport.build(vault: vault, profile: profile, time: Self.time, generator: "phr test")
        try VaultExport.write(export, to: path, force: false)
        #expect(try Python.validateExport(path).status == 0)
        let linkedIndex = try #require(export.medications.firstIndex { $0.medication.name == "Amoxicillin" })

        let (withDocument, target, targetDirectory) = try F.vault("import")
        defer { TestSupport.remove(targetDirectory) }
        try addDocument(withDocument, target, id: "dc0999", sha: 0xab)
        let report = try RecordImport.run(path: path, vault: withDocument, profileName: nil, time: Self.time)
        #expect(report.skipped == [ImportReport.Skip(entry: "documents[0]", type: "document",
                                                     reason: "an export holds document details but not their files; move documents with '\(Action.backup)' and '\(Action.restore(partial: false))', or add the files with '\(Action.addDocuments)'")])
        let linked = try MedicationStore(vault: withDocument, profile: target, time: Self.time).list().first { $0.name == "Amoxicillin" }
        #expect(linked?.documentID == "dc0999", "linked by content to the same file added there")

        let (without, _, withoutDirectory) = try F.vault("import")
        defer { TestSupport.remove(withoutDirectory) }
        let dropped = try RecordImport.run(path: path, vault: without, profileName: nil, time: Self.time)
        #expect(dropped.notes == ["medications[\(linkedIndex)]: document dc0111 is not in this profile; the link was dropped"])
    }
}
