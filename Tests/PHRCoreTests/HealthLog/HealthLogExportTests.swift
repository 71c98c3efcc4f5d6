import Foundation
import GRDB
import Testing
@testable import PHRCore

/// The health log in `phr export` / `phr import`: schema-valid, lossless (byte-identical after a
/// round trip), idempotent, and readable from exports made before it existed.
@Suite struct HealthLogExportTests {
    typealias F = RecordFixtures
    static let time = F.time("2026-05-10T10:00:00Z", "Europe/Berlin")

    /// Everything ExportImportTests populates, plus a health log with every metric, goals with a
    /// history, every kind of reminder and settings of its own. ExportImportTests.populate reads the
    /// Synthea bundle of the third-party corpus, so the tests that use it carry `.corpus`.
    static func populate(_ vault: Vault, _ profile: Profile) throws {
        try ExportImportTests.populate(vault, profile)
        func log(_ metric: LogMetric, _ amount: String?, _ at: String, zone: String = "Europe/Berlin",
                 _ change: (inout LogStore.Input) -> Void = { _ in }) throws {
            var input = LogStore.Input()
            input.amount = amount
            change(&input)
            try LogStore(vault: vault, profile: profile, time: F.time(at, zone)).add(metric, input)
        }
        try log(.water, "8floz", "2026-05-01T08:00:00Z") { $0.drink = "coffee" }
        try log(.water, "300ml", "2026-05-01T09:00:00Z") { input in
            input.drink = "milk"
            input.note = "with cereal"
        }
        try log(.water, "0.5l", "2026-05-02T09:00:00-04:00", zone: "America/New_York") { input in
            input.drink = "kombucha"
            input.factor = "0.9"
        }
        try log(.sleep, nil, "2026-05-02T06:00:00Z") { input in
            input.from = "23:10"
            input.to = "06:40"
        }
        try log(.workout, "45min", "2026-05-02T17:00:00Z") { $0.type = "run" }
        try log(.meal, "2700kJ", "2026-05-02T11:00:00Z") { $0.meal = "lunch" }
        try log(.weight, "160lb", "2026-05-03T05:00:00Z")
        try log(.bp, "121/79", "2026-05-03T05:05:00Z") { $0.pulse = "62" }
        try log(.bp, "118/76", "2026-05-03T17:05:00Z")
        try log(.glucose, "97mg/dL", "2026-05-03T05:10:00Z") { $0.context = "fasting" }
        let goals = GoalStore(vault: vault, profile: profile, time: F.time("2026-05-01T07:00:00Z", "Europe/Berlin"))
        try goals.set("water", "2.5l", since: "2026-04-01")
        try goals.set("water", "2l")
        try goals.set("workout", "150min", per: "week")
        var settings = HealthSettingsStore.Input()
        settings.serving = "300ml"
        settings.activity = "moderate"
        settings.glucoseUnit = "mg/dL"
        try HealthSettingsStore(vault: vault, profile: profile, time: time).set(settings)
        let reminders = ReminderStore(vault: vault, profile: profile, time: time)
        var water = ReminderStore.Input(kind: "water")
        water.mode = "all"
        water.window = "22:00-06:00"
        try reminders.add(water)
        let metformin = try MedicationStore(vault: vault, profile: profile, time: time).list().first { $0.name == "Metformin" }!
        var med = ReminderStore.Input(kind: "med")
        med.medication = metformin.id
        try reminders.add(med)
        try reminders.add(ReminderStore.Input(kind: "med"))
        var appointment = ReminderStore.Input(kind: "appt")
        appointment.before = "90m"
        let (paused, _) = try reminders.add(appointment)
        try reminders.setPaused(paused.id, true)
    }

    @Test(.corpus) func theHealthLogRoundTripsByteForByteAndValidates() throws {
        let (vault, profile, directory) = try F.vault("log-export")
        defer { TestSupport.remove(directory) }
        try Self.populate(vault, profile)
        let export = try VaultExport.build(vault: vault, profile: profile, time: Self.time, generator: "phr test")
        #expect(export.logEntries.count == 10 && export.goals.count == 3 && export.reminders.count == 4)
        #expect(export.healthSettings?.servingML == 300)
        #expect(export.reminders[1].medicationUID == export.medications.first { $0.medication.name == "Metformin" }?.medication.uid)
        let path = "\(directory)/export.json"
        try VaultExport.write(export, to: path, force: false)
        let validation = try Python.validateExport(path)
        #expect(validation.status == 0, "\(validation.stdout)\(validation.stderr)")
        let first = try Data(contentsOf: URL(fileURLWithPath: path))

        let (fresh, freshProfile, freshDirectory) = try F.vault("log-import")
        defer { TestSupport.remove(freshDirectory) }
        let report = try RecordImport.run(path: path, vault: fresh, profileName: nil, time: Self.time)
        #expect(report.added["log_entries"] == 10 && report.added["goals"] == 3 && report.added["reminders"] == 4
                && report.added["health_settings"] == 1)
        let second = try VaultExport.build(vault: fresh, profile: freshProfile, time: Self.time, generator: "phr test").encoded()
        #expect(second == first)

        let again = try RecordImport.run(path: path, vault: fresh, profileName: nil, time: Self.time)
        #expect(again.changedCount == 0)
        #expect(again.unchanged["log_entries"] == 10 && again.unchanged["goals"] == 3 && again.unchanged["reminders"] == 4
                && again.unchanged["health_settings"] == 1)
        // The medication reminder names the imported medication.
        let imported = try ReminderStore(vault: fresh, profile: freshProfile, time: Self.time).list()
        let medication = try MedicationStore(vault: fresh, profile: freshProfile, time: Self.time).list().first { $0.name == "Metformin" }!
        #expect(imported[1].medicationID == medication.id)
        // Entries come back searchable.
        let hits = try fresh.database.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM search_entry e JOIN search_fts f ON f.rowid = e.id WHERE search_fts MATCH 'kombucha' AND e.kind = 'log'")
        }
        #expect(hits == 1)
    }

    @Test(.corpus) func exportsWithoutAHealthLogStillImport() throws {
        let (vault, profile, directory) = try F.vault("log-old-export")
        defer { TestSupport.remove(directory) }
        try ExportImportTests.populate(vault, profile)
        let path = "\(directory)/export.json"
        try VaultExport.write(try VaultExport.build(vault: vault, profile: profile, time: Self.time, generator: "phr test"), to: path, force: false)
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        #expect((json["log_entries"] as? [Any])?.isEmpty == true && json["health_settings"] == nil)
        for key in ["log_entries", "goals", "reminders"] { json.removeValue(forKey: key) }
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
        #expect(try Python.validateExport(path).status == 0)
        let (fresh, _, freshDirectory) = try F.vault("log-old-import")
        defer { TestSupport.remove(freshDirectory) }
        let report = try RecordImport.run(path: path, vault: fresh, profileName: nil, time: Self.time)
        #expect(report.added["medications"] == 9 && report.added["log_entries"] == nil)
    }

    @Test(.corpus) func aBadHealthLogEntryIsRefusedByItsPathAndTheRestIsImported() throws {
        let (vault, profile, directory) = try F.vault("log-bad-export")
        defer { TestSupport.remove(directory) }
        try Self.populate(vault, profile)
        let path = "\(directory)/export.json"
        try VaultExport.write(try VaultExport.build(vault: vault, profile: profile, time: Self.time, generator: "phr test"), to: path, force: false)
        let (fresh, freshProfile, freshDirectory) = try F.vault("log-bad-import")
        defer { TestSupport.remove(freshDirectory) }
        func corrupt(_ change: (inout [String: Any]) -> Void) throws -> String {
            var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
            change(&json)
            let out = "\(directory)/bad-\(UUID().uuidString.prefix(6)).json"
            try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: out))
            return out
        }
        // Entries are in time order: coffee, milk, the night's sleep, lunch, the kombucha in New York...
        let wrongDay = try corrupt { json in
            var entries = json["log_entries"] as! [[String: Any]]
            #expect(entries.map { $0["metric"] as! String }.prefix(5) == ["water", "water", "sleep", "meal", "water"])
            entries[4]["day"] = "2026-05-03"
            json["log_entries"] = entries
        }
        let wrongDayReport = try RecordImport.run(path: wrongDay, vault: fresh, profileName: nil, time: Self.time, dryRun: true)
        #expect(wrongDayReport.skipped.filter(\.rejected) == [ImportReport.Skip(
            entry: "log_entries[4]", type: "log entry", reason: "day: 2026-05-03 is not the day of 'at' in America/New_York (2026-05-02)", rejected: true)])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])["log_entries"] as! [Any]
        #expect(wrongDayReport.added["log_entries"] == entries.count - 1)
        let noStart = try corrupt { json in
            var entries = json["log_entries"] as! [[String: Any]]
            entries[2].removeValue(forKey: "start")
            json["log_entries"] = entries
        }
        #expect(try RecordImport.run(path: noStart, vault: fresh, profileName: nil, time: Self.time, dryRun: true).skipped.filter(\.rejected)
                == [ImportReport.Skip(entry: "log_entries[2]", type: "log entry", reason: "start: a sleep entry needs a start", rejected: true)])
        let emptyNote = try corrupt { json in
            var entries = json["log_entries"] as! [[String: Any]]
            entries[1]["note"] = "   "
            json["log_entries"] = entries
        }
        let count = try fresh.database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM log_entry")! }
        #expect(count == 0, "dry runs import nothing")
        // An empty optional field is absent, not an error.
        let blank = try RecordImport.run(path: emptyNote, vault: fresh, profileName: nil, time: Self.time)
        #expect(blank.rejectedCount == 0 && blank.added["log_entries"] == entries.count)
        #expect(try LogStore(vault: fresh, profile: freshProfile, time: Self.time).list().allSatisfy { $0.note.map { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? true })
        _ = freshProfile
    }
}
