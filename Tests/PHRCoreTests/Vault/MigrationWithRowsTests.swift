import Foundation
import GRDB
import Testing
@testable import PHRCore

/// A vault that already holds records is upgraded by the change-journal migration without a row
/// changing: a database at the schema before it ("v3-reminder-channels") is filled with a record
/// of every kind, migrated, and compared row by row, column by column; then every record has its
/// journal row and every profile a uid of its own.
@Suite struct MigrationWithRowsTests {
    typealias F = RecordFixtures
    static let previous = "v3-reminder-channels"
    /// The kinds whose tables a later migration made (journaled from their start): not at the
    /// previous schema, so not part of this upgrade.
    static let kinds = RecordKind.all.filter { ![RecordKind.procedure, .familyHistory].contains($0) }

    /// A vault with a record of every kind of the registry but documents, written by the stores.
    static func populate(_ vault: Vault, _ profile: Profile) throws {
        let time = F.time("2026-05-10T10:00:00Z", "Europe/Berlin")
        var medication = MedicationStore.Input()
        medication.name = "Metformin"
        medication.times = "08:00,20:00"
        let metformin = try MedicationStore(vault: vault, profile: profile, time: time).add(medication)
        _ = try DoseLog(vault: vault, profile: profile, time: time).take(metformin.id, at: F.instant("2026-05-10T08:05:00+02:00"))
        var appointment = AppointmentStore.Input()
        appointment.with = "Dr. Lee"
        appointment.at = "2026-12-03 09:30"
        _ = try AppointmentStore(vault: vault, profile: profile, time: time).add(appointment)
        var contact = ContactStore.Input()
        contact.name = "Jane Doe"
        contact.phone = "+1 555 0100"
        _ = try ContactStore(vault: vault, profile: profile, time: time).add(contact)
        var allergy = AllergyStore.Input()
        allergy.substance = "Penicillin"
        allergy.severity = "severe"
        _ = try AllergyStore(vault: vault, profile: profile, time: time).add(allergy)
        var condition = ConditionStore.Input()
        condition.name = "Asthma"
        condition.since = "2010"
        _ = try ConditionStore(vault: vault, profile: profile, time: time).add(condition)
        var immunization = ImmunizationStore.Input()
        immunization.vaccine = "Tetanus"
        immunization.date = "2025-01-01"
        _ = try ImmunizationStore(vault: vault, profile: profile, time: time).add(immunization)
        var lab = LabStore.Input(name: "ferritin", value: "12", unit: "ng/mL")
        lab.range = "30-400"
        lab.date = "2024-03-18"
        _ = try LabStore(vault: vault, profile: profile, time: time).add(lab)
        var id = MedicalIDStore.Input()
        id.name = "Alex Example"
        id.bloodType = "A+"
        _ = try MedicalIDStore(vault: vault, profile: profile, time: time).set(id)
        var water = LogStore.Input()
        water.amount = "300ml"
        _ = try LogStore(vault: vault, profile: profile, time: time).add(.water, water)
        _ = try GoalStore(vault: vault, profile: profile, time: time).set("workout", "150min", per: "week")
        var settings = HealthSettingsStore.Input()
        settings.serving = "300ml"
        _ = try HealthSettingsStore(vault: vault, profile: profile, time: time).set(settings)
        var reminder = ReminderStore.Input(kind: "water")
        reminder.mode = "default"
        reminder.window = "09:00-21:00"
        _ = try ReminderStore(vault: vault, profile: profile, time: time).add(reminder)
        _ = try vault.database.write { db in try Profiles.create(db, name: "Mia", relation: .child) }
        // A document's row (its original and text do not matter to the schema), with a tag.
        try vault.database.write { db in
            let blob = String(repeating: "ab", count: 32)
            try db.execute(sql: "INSERT INTO blob (name, size, sha256, created_at) VALUES (?, 1, ?, '2026-01-01T00:00:00Z')",
                           arguments: [blob, Data(repeating: 0xab, count: 32)])
            try db.execute(sql: """
                INSERT INTO document (id, profile_id, blob_name, file_name, media_type, title, type, type_source, outcome,
                    page_count, text_pages, size, sha256, extractor, added_at, updated_at)
                VALUES ('dc0111', ?, ?, 'rx.pdf', 'application/pdf', 'Prescription', 'prescription', 'user', 'indexed', 1, 1, 1, ?,
                    'test', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')
                """, arguments: [profile.id, blob, Data(repeating: 0xab, count: 32)])
        }
    }

    /// Every row of every table the journal covers, each as its columns' values by name, in
    /// rowid order; without the profile's uid when `withoutProfileUID` (the column it adds).
    static func snapshot(_ db: Database, withoutProfileUID: Bool = false) throws -> [String: [[String: DatabaseValue]]] {
        var tables: [String: [[String: DatabaseValue]]] = [:]
        for kind in kinds {
            tables[kind.table] = try Row.fetchAll(db, sql: "SELECT * FROM \(kind.table) ORDER BY rowid").map { row in
                var values: [String: DatabaseValue] = [:]
                for column in row.columnNames where !(withoutProfileUID && kind == .profile && column == "uid") {
                    values[column] = row[column]
                }
                return values
            }
        }
        return tables
    }

    @Test func aVaultHoldingEveryKindKeepsEveryRowThroughTheJournalMigration() throws {
        // The records, written by today's stores into a vault...
        let (vault, profile, directory) = try F.vault("migrate-rows")
        defer { TestSupport.remove(directory) }
        try Self.populate(vault, profile)
        // ...copied into a database at the previous schema, table by table.
        let path = "\(directory)/previous.db"
        let old = try DatabaseQueue(path: path)
        try Schema.migrator.migrate(old, upTo: Self.previous)
        let source = try vault.database.read { db in try Self.snapshot(db) }
        let blobs = try vault.database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM blob").map { row in
                Dictionary(uniqueKeysWithValues: row.columnNames.map { ($0, row[$0] as DatabaseValue) })
            }
        }
        try old.write { db in
            // The blobs first: documents refer to them.
            for (table, rows) in [("blob", blobs)] + Self.kinds.map({ ($0.table, source[$0.table] ?? []) }) {
                let columns = try db.columns(in: table).map(\.name)
                for row in rows {
                    // profile.uid does not exist yet at the previous schema; every other column does.
                    let present = columns.filter { row[$0] != nil }
                    let placeholders = Array(repeating: "?", count: present.count).joined(separator: ", ")
                    try db.execute(sql: "INSERT INTO \(table) (\(present.joined(separator: ", "))) VALUES (\(placeholders))",
                                   arguments: StatementArguments(present.map { row[$0]! }))
                }
            }
        }
        let before = try old.read { db in try Self.snapshot(db) }
        for kind in Self.kinds {
            #expect((before[kind.table]?.count ?? 0) > 0, "no \(kind.table) row to migrate")
        }
        #expect(try old.read { db in try db.columns(in: "profile").contains { $0.name == "uid" } } == false)

        try Schema.migrator.migrate(old)

        let after = try old.read { db in try Self.snapshot(db, withoutProfileUID: true) }
        for kind in Self.kinds {
            #expect(after[kind.table] == before[kind.table], "\(kind.table) changed in the migration")
        }
        let profileUIDs = try old.read { db in try String?.fetchAll(db, sql: "SELECT uid FROM profile") }
        #expect(profileUIDs.count == 2 && profileUIDs.allSatisfy { $0?.count == 32 } && Set(profileUIDs).count == 2, "\(profileUIDs)")
        // Every row that was there is journaled once, as an insert, on this vault's device.
        let (entries, device) = try old.read { db in (try ChangeJournal.entries(db), try ChangeJournal.device(db)) }
        #expect(device?.count == 32)
        for kind in Self.kinds {
            let count = before[kind.table]?.count ?? 0
            #expect(entries.filter { $0.kind == kind.name && $0.operation == .insert }.count == count,
                    "\(kind.name): \(count) rows")
        }
        #expect(entries.allSatisfy { $0.device == device })
        // And the journal follows changes from then on.
        try old.write { db in try db.execute(sql: "DELETE FROM contact") }
        let last = try old.read { db in try ChangeJournal.entries(db) }.last
        #expect(last?.kind == "contact" && last?.operation == .delete && last?.uid != nil)
    }
}
