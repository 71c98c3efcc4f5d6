import Foundation
import Testing
@testable import PHRCore

/// Adding, listing, editing and removing every kind of record; field validation; profiles.
@Suite struct RecordStoreTests {
    typealias F = RecordFixtures
    static let time = F.time("2026-05-10T10:00:00Z", "Europe/Berlin")

    static func searchKinds(_ vault: Vault, _ query: String, profile: Profile) throws -> [String] {
        try vault.database.read { db in
            try String.fetchAll(db, sql: """
                SELECT e.kind FROM search_fts f JOIN search_entry e ON e.id = f.rowid
                WHERE search_fts MATCH ? AND e.profile_id = ? ORDER BY e.kind
                """, arguments: [query, profile.id])
        }
    }

    @Test func medicationsAreAddedEditedStoppedAndRemoved() throws {
        let (vault, profile, directory) = try F.vault()
        defer { TestSupport.remove(directory) }
        let store = MedicationStore(vault: vault, profile: profile, time: Self.time)
        var input = MedicationStore.Input()
        input.name = "Metformin"
        input.dose = "500 mg"
        input.form = "tablet"
        input.times = "20:00, 8:00"
        input.maxPerDay = "2"
        input.refills = "3"
        input.notes = "with meals"
        let medication = try store.add(input)
        #expect(medication.schedule == .times([LocalTime("08:00")!, LocalTime("20:00")!]))
        #expect(medication.schedule.summary == "08:00 and 20:00")
        #expect(medication.start?.description == "2026-05-10", "starts today unless told")
        #expect(medication.id.count == 6)
        #expect(try store.get(String(medication.id.prefix(3))) == medication)
        #expect(try Self.searchKinds(vault, "metformin", profile: profile) == ["med"])
        #expect(try Self.searchKinds(vault, "meals", profile: profile) == ["med"])

        var change = MedicationStore.Input()
        change.every = "8h"
        change.notes = ""
        change.minInterval = "6h"
        let edited = try store.edit(medication.id, change)
        #expect(edited.schedule == .interval(minutes: 480))
        #expect(edited.notes == nil)
        #expect(edited.minIntervalMinutes == 360)
        #expect(try Self.searchKinds(vault, "meals", profile: profile) == [])

        let stopped = try store.stop(medication.id, on: nil)
        #expect(stopped.status == .stopped)
        #expect(stopped.stoppedOn?.description == "2026-05-10")
        #expect(stopped.state(today: Self.time.today()) == "stopped 2026-05-10")
        #expect(try store.list().isEmpty)
        #expect(try store.list(all: true).map(\.id) == [medication.id])
        let resumed = try store.resume(medication.id)
        #expect(resumed.status == .active && resumed.stoppedOn == nil)
        try store.remove(medication.id)
        #expect(try store.list(all: true).isEmpty)
        #expect(try Self.searchKinds(vault, "metformin", profile: profile) == [])
    }

    @Test func medicationsAreFoundByNameWhenNoIDMatches() throws {
        let (vault, profile, directory) = try F.vault()
        defer { TestSupport.remove(directory) }
        let store = MedicationStore(vault: vault, profile: profile, time: Self.time)
        var input = MedicationStore.Input()
        input.name = "Ibuprofen"
        input.asNeeded = true
        let old = try store.add(input)
        _ = try store.stop(old.id, on: nil)
        let current = try store.add(input)
        input.name = "Vitamin D3"
        let vitamin = try store.add(input)
        #expect(try store.get("ibuprofen") == current, "of two with the name, the current one")
        #expect(try store.get(" VITAMIN d3 ") == vitamin)
        #expect(try store.get("vita") == vitamin, "the start of a name")
        #expect(throws: RecordError.notFound(kind: "med", id: "aspirin")) { try store.get("aspirin") }
        _ = try store.resume(old.id)
        #expect(throws: RecordError.ambiguous(kind: "med", prefix: "Ibuprofen", matches: [old.id, current.id].sorted())) {
            try store.get("Ibuprofen")
        }
    }

    @Test func fieldsAreCheckedWithTheWordsTheUserReads() throws {
        let (vault, profile, directory) = try F.vault()
        defer { TestSupport.remove(directory) }
        let store = MedicationStore(vault: vault, profile: profile, time: Self.time)
        func add(_ change: (inout MedicationStore.Input) -> Void) throws {
            var input = MedicationStore.Input()
            input.name = "X"
            change(&input)
            try store.add(input)
        }
        #expect(throws: RecordError.invalidField(field: Field("schedule"), reason: "'25:00' is not a time; use HH:MM, e.g. 08:00,20:00")) {
            try add { $0.times = "08:00,25:00" }
        }
        #expect(throws: RecordError.invalidField(field: Field("schedule"), reason: "choose one of \(Field.schedule), \(Field.every), \(Field.asNeeded) and \(Field.noSchedule)")) {
            try add { $0.times = "08:00"; $0.asNeeded = true }
        }
        #expect(throws: RecordError.invalidField(field: Field("every"), reason: "'often' is not a duration in minutes; use something like 30m, 4h or 1h30m")) {
            try add { $0.every = "often" }
        }
        #expect(throws: RecordError.invalidField(field: Field("end"), reason: "2026-05-01 is before the start, 2026-05-10")) {
            try add { $0.end = "2026-05-01" }
        }
        #expect(throws: RecordError.invalidField(field: Field("tz"), reason: "'Mars/Olympus' is not a time zone; use an IANA name like Europe/Berlin or America/New_York")) {
            try add { $0.timeZone = "Mars/Olympus" }
        }
        #expect(throws: RecordError.notFound(kind: "document", id: "zzzz")) { try add { $0.document = "zzzz" } }
        #expect(RecordError.invalidField(field: Field("schedule"), reason: "x").asOption().exitStatus == .usage)
        #expect(try store.list(all: true).isEmpty, "nothing half-added")

        #expect(try RecordFields.height("5ft10in", field: Field("height")) == 177.8)
        #expect(try RecordFields.height("1.78m", field: Field("height")) == 178)
        #expect(try RecordFields.weight("160lb", field: Field("weight")) == 72.6)
        #expect(try RecordFields.bloodType("0 neg", field: Field("blood-type")) == "O-")
        #expect(throws: RecordError.invalidField(field: Field("blood-type"), reason: "'C+' is not a blood type; use one of A+, A-, B+, B-, AB+, AB-, O+, O-")) {
            try RecordFields.bloodType("C+", field: Field("blood-type"))
        }
        #expect(throws: RecordError.self) { _ = try RecordFields.phone("call me", field: Field("phone")) }
        #expect(try RecordFields.phone("+49 (30) 123-4567", field: Field("phone")) == "+49 (30) 123-4567")
    }

    @Test func appointmentsKeepWallClockTimesInTheirZone() throws {
        let (vault, profile, directory) = try F.vault()
        defer { TestSupport.remove(directory) }
        let store = AppointmentStore(vault: vault, profile: profile, time: Self.time)
        var input = AppointmentStore.Input()
        input.with = "Dr. Lee"
        input.at = "2026-12-03 09:30"
        input.reason = "check-up"
        input.remind = "1h"
        let berlin = try store.add(input)
        #expect(berlin.timeZone == "Europe/Berlin")
        #expect(berlin.start.description == "2026-12-03T09:30")
        #expect(berlin.startInstant == F.instant("2026-12-03T08:30:00Z"))
        #expect(berlin.durationMinutes == 30 && berlin.remindMinutes == 60 && berlin.sequence == 0)
        input = AppointmentStore.Input()
        input.with = "Dr. Dupont"
        input.at = "2026-03-29 02:30"
        input.timeZone = "Europe/Paris"
        let gap = try store.add(input)
        #expect(gap.start.description == "2026-03-29T03:30", "a time the clocks skip moves past the gap")
        input = AppointmentStore.Input()
        input.with = "Vaccination day"
        input.at = "2026-05-01"
        let allDay = try store.add(input)
        #expect(allDay.allDay && allDay.durationMinutes == 1440)

        #expect(try store.list(.upcoming).map(\.id) == [berlin.id])
        #expect(try store.list(.past).map(\.id) == [gap.id, allDay.id])
        #expect(try store.list(.on(CalendarDate("2026-12-03")!)).map(\.id) == [berlin.id])
        #expect(try store.list(.month(year: 2026, month: 3)).map(\.id) == [gap.id])

        var change = AppointmentStore.Input()
        change.notes = "bring the referral"
        let noted = try store.edit(berlin.id, change)
        #expect(noted.sequence == 0, "notes do not change the invitation")
        change = AppointmentStore.Input()
        change.at = "2026-12-04 10:00"
        let moved = try store.edit(berlin.id, change)
        #expect(moved.sequence == 1)
        #expect(moved.start.description == "2026-12-04T10:00")
        #expect(throws: RecordError.invalidField(field: Field("at"), reason: "'tomorrow' is not a date and time; use \"YYYY-MM-DD HH:MM\", e.g. \"2026-12-03 09:30\"")) {
            var bad = AppointmentStore.Input()
            bad.at = "tomorrow"
            try store.edit(berlin.id, bad)
        }
    }

    @Test func contactsMedicalIDAndHistory() throws {
        let (vault, profile, directory) = try F.vault()
        defer { TestSupport.remove(directory) }
        var contact = ContactStore.Input()
        contact.name = "Jane Doe"
        contact.phone = "+1 555 0100"
        contact.relation = "sister"
        contact.emergency = true
        let jane = try ContactStore(vault: vault, profile: profile, time: Self.time).add(contact)
        contact = ContactStore.Input()
        contact.name = "Adam GP"
        contact.phone = "555 0199"
        contact.email = "gp@example.org"
        try ContactStore(vault: vault, profile: profile, time: Self.time).add(contact)
        #expect(try ContactStore(vault: vault, profile: profile, time: Self.time).list().map(\.name) == ["Jane Doe", "Adam GP"])
        #expect(try ContactStore(vault: vault, profile: profile, time: Self.time).list(emergencyOnly: true).map(\.id) == [jane.id])

        var id = MedicalIDStore.Input()
        id.name = "Alex Example"
        id.dateOfBirth = "1984-07-22"
        id.sex = "m"
        id.bloodType = "a+"
        id.organDonor = "yes"
        id.height = "178cm"
        id.weight = "72kg"
        let medicalID = try MedicalIDStore(vault: vault, profile: profile, time: Self.time).set(id)
        #expect(medicalID.bloodType == "A+" && medicalID.sex == .male && medicalID.organDonor == true)
        #expect(medicalID.age(on: Self.time.today()) == 41)
        id = MedicalIDStore.Input()
        id.weight = ""
        #expect(try MedicalIDStore(vault: vault, profile: profile, time: Self.time).set(id).weightKg == nil)

        var allergy = AllergyStore.Input()
        allergy.substance = "Peanuts"
        allergy.severity = "moderate"
        try AllergyStore(vault: vault, profile: profile, time: Self.time).add(allergy)
        allergy.substance = "Penicillin"
        allergy.severity = "SEVERE"
        allergy.reaction = "anaphylaxis"
        let penicillin = try AllergyStore(vault: vault, profile: profile, time: Self.time).add(allergy)
        #expect(penicillin.severity == .severe)
        #expect(try AllergyStore(vault: vault, profile: profile, time: Self.time).list().map(\.substance) == ["Penicillin", "Peanuts"])

        var condition = ConditionStore.Input()
        condition.name = "Asthma"
        condition.since = "2010"
        let asthma = try ConditionStore(vault: vault, profile: profile, time: Self.time).add(condition)
        #expect(asthma.status == .active && asthma.since?.description == "2010")
        condition = ConditionStore.Input()
        condition.resolved = "2024-06"
        #expect(try ConditionStore(vault: vault, profile: profile, time: Self.time).edit(asthma.id, condition).status == .resolved)

        var vaccine = ImmunizationStore.Input()
        vaccine.vaccine = "Tetanus"
        vaccine.date = "2026-05-01"
        vaccine.dose = "2"
        vaccine.lot = "AB123"
        let tetanus = try ImmunizationStore(vault: vault, profile: profile, time: Self.time).add(vaccine)
        #expect(tetanus.doseNumber == 2)
        vaccine.date = "2027-01-01"
        #expect(throws: RecordError.invalidField(field: Field("date"), reason: "2027-01-01 is in the future")) {
            try ImmunizationStore(vault: vault, profile: profile, time: Self.time).add(vaccine)
        }

        var medication = MedicationStore.Input()
        medication.name = "Salbutamol"
        medication.dose = "2 puffs"
        medication.asNeeded = true
        try MedicationStore(vault: vault, profile: profile, time: Self.time).add(medication)
        let card = try EmergencyCard.build(vault: vault, profile: profile, time: Self.time)
        #expect(card.name == "Alex Example" && card.age == 41 && card.bloodType == "A+" && card.organDonor == true)
        #expect(card.allergies.map(\.substance) == ["Penicillin", "Peanuts"])
        #expect(card.conditions == [], "a resolved condition is not on the card")
        #expect(card.medications == [EmergencyCard.MedicationLine(name: "Salbutamol", dose: "2 puffs", schedule: "as needed")])
        #expect(card.contacts == [EmergencyCard.ContactLine(name: "Jane Doe", relation: "sister", phone: "+1 555 0100")])

        #expect(try Self.searchKinds(vault, "anaphylaxis", profile: profile) == ["allergy"])
        #expect(try Self.searchKinds(vault, "asthma", profile: profile) == ["condition"])
        #expect(try Self.searchKinds(vault, "AB123", profile: profile) == ["immunization"])
        #expect(try Self.searchKinds(vault, "sister", profile: profile) == ["contact"])
    }

    @Test func recordsOfOneProfileNeverAppearInAnother() throws {
        let (vault, me, directory) = try F.vault()
        defer { TestSupport.remove(directory) }
        let kid = try vault.database.write { try Profiles.create($0, name: "Sam", relation: .child) }
        var input = MedicationStore.Input()
        input.name = "Amoxicillin"
        input.every = "8h"
        let kidsMedication = try MedicationStore(vault: vault, profile: kid, time: Self.time).add(input)
        var allergy = AllergyStore.Input()
        allergy.substance = "Strawberries"
        try AllergyStore(vault: vault, profile: kid, time: Self.time).add(allergy)
        input.name = "Lisinopril"
        try MedicationStore(vault: vault, profile: me, time: Self.time).add(input)

        #expect(try MedicationStore(vault: vault, profile: me, time: Self.time).list().map(\.name) == ["Lisinopril"])
        #expect(try MedicationStore(vault: vault, profile: kid, time: Self.time).list().map(\.name) == ["Amoxicillin"])
        #expect(try AllergyStore(vault: vault, profile: me, time: Self.time).list().isEmpty)
        #expect(throws: RecordError.notFound(kind: "med", id: kidsMedication.id)) {
            try MedicationStore(vault: vault, profile: me, time: Self.time).get(kidsMedication.id)
        }
        #expect(throws: RecordError.self) { _ = try DoseLog(vault: vault, profile: me, time: Self.time).take(kidsMedication.id) }
        #expect(try Self.searchKinds(vault, "amoxicillin OR strawberries", profile: me) == [])
        #expect(try Self.searchKinds(vault, "amoxicillin OR strawberries", profile: kid) == ["allergy", "med"])
        let export = try VaultExport.build(vault: vault, profile: me, time: Self.time, generator: "phr test")
        #expect(export.medications.map(\.medication.name) == ["Lisinopril"])
        #expect(export.allergies.isEmpty)

        #expect(try vault.database.write { try Profiles.makeDefault($0, name: "sam") }.name == "Sam")
        #expect(try vault.database.read { try Profiles.resolve($0, name: nil) }.name == "Sam")
        #expect(throws: RecordError.profileExists("sam")) { try vault.database.write { try Profiles.create($0, name: "sam", relation: .other) } }
        #expect(throws: RecordError.invalidField(field: Field("relation"), reason: "'cousin' is not a relation; use child, parent, partner or other")) {
            try Profiles.relation("cousin")
        }
    }

    @Test func deletingADocumentUnlinksItsRecords() throws {
        let (vault, profile, directory) = try F.vault()
        defer { TestSupport.remove(directory) }
        try vault.database.write { db in
            try db.execute(sql: "INSERT INTO blob (name, size, sha256, created_at) VALUES (?, 1, zeroblob(32), '2026-01-01T00:00:00Z')",
                           arguments: [String(repeating: "a", count: 64)])
            try db.execute(sql: """
                INSERT INTO document (id, profile_id, blob_name, file_name, media_type, title, type, type_source, outcome,
                    page_count, text_pages, size, sha256, extractor, added_at, updated_at)
                VALUES ('dc0001', ?, ?, 'rx.pdf', 'application/pdf', 'Prescription', 'prescription', 'user', 'indexed', 1, 1, 1,
                    zeroblob(32), 'test', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')
                """, arguments: [profile.id, String(repeating: "a", count: 64)])
        }
        var input = MedicationStore.Input()
        input.name = "Amoxicillin"
        input.document = "dc00"
        let medication = try MedicationStore(vault: vault, profile: profile, time: Self.time).add(input)
        #expect(medication.documentID == "dc0001")
        try vault.database.write { try $0.execute(sql: "DELETE FROM document WHERE id = 'dc0001'") }
        #expect(try MedicationStore(vault: vault, profile: profile, time: Self.time).get(medication.id).documentID == nil)
    }
}
