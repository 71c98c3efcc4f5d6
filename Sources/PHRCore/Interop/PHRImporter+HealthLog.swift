import Foundation
import GRDB

/// Importing the health log of a phr export: entries, goals, reminders and settings.
///
/// - entries and reminders merge by uid, as records do (a newer `updated_at` replaces);
/// - a goal is the same goal when metric and `since` day match; a newer `set_at` replaces it;
/// - settings replace the profile's when newer (or when it has none);
/// - a medication reminder names its medication by uid; when the profile has no medication
///   with that uid (after the export's medications were imported), the reminder is skipped.
extension PHRImporter {
    func importHealthLog(_ db: Database, report: inout ImportReport) throws {
        for (index, entry) in export.logEntries.enumerated() {
            var entry = entry
            guard Self.accept("log_entries[\(index)]", type: "log entry", &report, { try Self.check(&entry) }) else { continue }
            report.count(try RecordMerge.merge(db, entry, profileID: profileID, replaceIfNewer: true).0, "log_entries")
        }
        for (index, goal) in export.goals.enumerated() {
            guard Self.accept("goals[\(index)]", type: "goal", &report, {
                try Self.timestamps([(Field.path("set_at"), goal.setAt)])
                guard goal.value.isFinite, goal.value > 0, goal.value <= 1_000_000 else {
                    throw RecordError.invalidField(field: Field.path("value"), reason: "use a number above 0 and at most 1000000")
                }
            }) else { continue }
            let existing = try Goal.all(db, profileID: profileID).first { $0.metric == goal.metric && $0.since == goal.since }
            if let existing, existing.setAt >= goal.setAt {
                report.count(.unchanged, "goals")
                continue
            }
            try goal.save(db, profileID: profileID)
            report.count(existing == nil ? .added : .updated, "goals")
        }
        for (index, incoming) in export.reminders.enumerated() {
            var reminder = incoming
            guard Self.accept("reminders[\(index)]", type: "reminder", &report, {
                try Self.identity(reminder.id, reminder.uid, [("created_at", reminder.createdAt), ("updated_at", reminder.updatedAt)])
                if let minutes = reminder.beforeMinutes {
                    _ = try RecordFields.count(minutes, field: Field.path("before_minutes"), minimum: 0, maximum: RecordValidation.maximumAppointmentMinutes)
                }
            }) else { continue }
            if let uid = reminder.medicationUID {
                guard let id = try String.fetchOne(db, sql: "SELECT id FROM medication WHERE profile_id = ? AND uid = ?",
                                                   arguments: [profileID, uid]) else {
                    report.skip("reminders[\(index)]", type: "reminder", "its medication is not in this profile")
                    continue
                }
                reminder.medicationID = id
            }
            report.count(try RecordMerge.merge(db, reminder, profileID: profileID, replaceIfNewer: true).0, "reminders")
        }
        if let settings = export.healthSettings, Self.accept("health_settings", type: "log settings", &report, {
            guard settings.servingML > 0, settings.servingML <= 5000 else {
                throw RecordError.invalidField(field: Field.path("serving_ml"), reason: "use 1 to 5000 ml")
            }
            if let stamp = settings.updatedAt { try Self.timestamps([(Field.path("updated_at"), stamp)]) }
        }) {
            let existing = try HealthSettingsStore.isSet(db, profileID: profileID) ? try HealthSettingsStore.fetch(db, profileID: profileID) : nil
            if let existing, (existing.updatedAt ?? "") >= (settings.updatedAt ?? "") {
                report.count(.unchanged, "health_settings")
            } else {
                try HealthSettingsStore.save(db, settings, profileID: profileID)
                report.count(existing == nil ? .added : .updated, "health_settings")
            }
        }
    }

    /// A log entry as `phr log` checks it: the amount within the bounds typed amounts have, a
    /// sleep or workout at most 24 hours, its times in the accepted years.
    static func check(_ entry: inout LogEntry) throws {
        try identity(entry.id, entry.uid, [("created_at", entry.createdAt), ("updated_at", entry.updatedAt), ("at", entry.at)])
        if let start = entry.start { try timestamps([(Field.path("start"), start)]) }
        _ = try RecordFields.timeZone(entry.timeZone, field: Field.path("time_zone"))
        if let kind = entry.kind { entry.kind = try RecordFields.text(kind, field: Field.path("kind"), limit: 40) }
        entry.note = try RecordFields.optionalText(entry.note, field: Field.path("note"), limit: RecordFields.maximumTextLength, multiline: true)
        guard entry.value.isFinite, entry.value > 0, entry.value <= 1_000_000 else {
            throw RecordError.invalidField(field: Field.path("value"), reason: "use a number above 0 and at most 1000000")
        }
        if let range = HealthQuantityParser.bounds[entry.metric], let limits = HealthQuantityParser.boundsText[entry.metric],
           !range.contains(entry.value) {
            throw RecordError.invalidField(field: Field.path("value"), reason: "outside \(limits) for one entry")
        }
        if let factor = entry.factor, !(factor.isFinite && (0...3).contains(factor)) {
            throw RecordError.invalidField(field: Field.path("factor"), reason: "use 0 to 3")
        }
        if let pulse = entry.pulse, !(20...300).contains(pulse) { throw RecordError.invalidField(field: Field.path("pulse"), reason: "use 20 to 300") }
        if entry.metric.isInterval, let start = entry.startInstant {
            guard start <= entry.instant else { throw RecordError.invalidField(field: Field.path("start"), reason: "is after the end") }
            guard entry.instant.timeIntervalSince(start) <= 86400 else {
                throw RecordError.invalidField(field: Field.path("start"), reason: "a single \(entry.metric.rawValue) lasts at most 24 hours")
            }
        }
        if entry.metric == .bp, let diastolic = entry.diastolic, !(diastolic.isFinite && diastolic > 0 && diastolic < entry.value) {
            throw RecordError.invalidField(field: Field.path("diastolic"), reason: "is not below the systolic value")
        }
    }
}
