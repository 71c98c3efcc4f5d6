import Foundation
import GRDB
import Testing
@testable import PHRCore

/// A stored status or kind outside its set (the schema's CHECK keeps it out; damage or a newer
/// phr's vault can still hold one) is an error naming the table and column, never read as a
/// default: a stopped medication must not come back "active" (issue 25, item 5).
@Suite struct StoredValueTests {
    typealias F = RecordFixtures

    /// Writes `sql` past the CHECK constraints, as damage would.
    static func corrupt(_ vault: Vault, _ sql: String) throws {
        try vault.database.queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.execute(sql: sql)
            try db.execute(sql: "PRAGMA ignore_check_constraints = OFF")
        }
    }

    @Test func anUnknownStatusIsAnIntegrityErrorNotADefault() throws {
        let (vault, profile, directory) = try F.vault("stored-values")
        defer { TestSupport.remove(directory) }
        let time = F.time("2026-05-10T10:00:00Z", "Europe/Berlin")
        var input = MedicationStore.Input()
        input.name = "Amoxicillin"
        let medication = try MedicationStore(vault: vault, profile: profile, time: time).add(input)
        var water = LogStore.Input()
        water.amount = "250ml"
        _ = try LogStore(vault: vault, profile: profile, time: time).add(.water, water)
        #expect(try MedicationStore(vault: vault, profile: profile, time: time).list(all: true).count == 1)

        try Self.corrupt(vault, "UPDATE medication SET status = 'paused' WHERE id = '\(medication.id)'")
        #expect(throws: VaultError.integrity(["medication.status holds 'paused', which this phr does not know (damage, or a vault from a newer phr)"])) {
            _ = try MedicationStore(vault: vault, profile: profile, time: time).list(all: true)
        }
        try Self.corrupt(vault, "UPDATE log_entry SET metric = 'steps'")
        #expect(throws: VaultError.integrity(["log_entry.metric holds 'steps', which this phr does not know (damage, or a vault from a newer phr)"])) {
            _ = try vault.database.read { db in try LogEntry.fetchAll(db) }
        }
    }
}
