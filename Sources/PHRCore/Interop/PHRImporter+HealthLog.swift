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
        for entry in export.logEntries {
            report.count(try RecordMerge.merge(db, entry, profileID: profileID, replaceIfNewer: true).0, "log_entries")
        }
        for goal in export.goals {
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
        if let settings = export.healthSettings {
            let existing = try HealthSettingsStore.isSet(db, profileID: profileID) ? try HealthSettingsStore.fetch(db, profileID: profileID) : nil
            if let existing, (existing.updatedAt ?? "") >= (settings.updatedAt ?? "") {
                report.count(.unchanged, "health_settings")
            } else {
                try HealthSettingsStore.save(db, settings, profileID: profileID)
                report.count(existing == nil ? .added : .updated, "health_settings")
            }
        }
    }

    /// Checks the health log as the commands would; the first bad field is named by its path.
    func validateHealthLog() throws {
        func check(_ location: String, _ body: () throws -> Void) throws {
            do {
                try body()
            } catch RecordError.invalidField(let field, let reason) {
                throw InteropError.malformed(path: path, location: "\(location).\(field)", reason: reason)
            }
        }
        func identity(_ id: String, _ uid: String, _ stamps: [(String, String)]) throws {
            guard (4...16).contains(id.count), id.allSatisfy({ RecordID.alphabet.contains($0) }) else {
                throw RecordError.invalidField(field: "id", reason: "'\(id)' is not a phr record ID")
            }
            _ = try RecordFields.text(uid, field: "uid", limit: 255)
            for (field, stamp) in stamps where Timestamp.parse(stamp) == nil || !stamp.hasSuffix("Z") {
                throw RecordError.invalidField(field: field, reason: "'\(stamp)' is not a UTC time (YYYY-MM-DDTHH:MM:SSZ)")
            }
        }
        for (index, entry) in export.logEntries.enumerated() {
            try check("log_entries[\(index)]") {
                try identity(entry.id, entry.uid, [("created_at", entry.createdAt), ("updated_at", entry.updatedAt)])
                if let kind = entry.kind { _ = try RecordFields.text(kind, field: "kind", limit: 40) }
                if let note = entry.note { _ = try RecordFields.text(note, field: "note", limit: RecordFields.maximumTextLength) }
                if entry.metric.isInterval, let start = entry.startInstant, entry.instant.timeIntervalSince(start) > 86400 {
                    throw RecordError.invalidField(field: "start", reason: "a single \(entry.metric.rawValue) lasts at most 24 hours")
                }
                if entry.metric == .bp, let diastolic = entry.diastolic, diastolic >= entry.value {
                    throw RecordError.invalidField(field: "diastolic", reason: "is not below the systolic value")
                }
            }
        }
        for (index, goal) in export.goals.enumerated() {
            try check("goals[\(index)]") {
                if Timestamp.parse(goal.setAt) == nil || !goal.setAt.hasSuffix("Z") {
                    throw RecordError.invalidField(field: "set_at", reason: "'\(goal.setAt)' is not a UTC time (YYYY-MM-DDTHH:MM:SSZ)")
                }
            }
        }
        for (index, reminder) in export.reminders.enumerated() {
            try check("reminders[\(index)]") {
                try identity(reminder.id, reminder.uid, [("created_at", reminder.createdAt), ("updated_at", reminder.updatedAt)])
            }
        }
        if let settings = export.healthSettings {
            try check("health_settings") {
                guard settings.servingML > 0, settings.servingML <= 5000 else {
                    throw RecordError.invalidField(field: "serving_ml", reason: "use 1 to 5000 ml")
                }
                if let stamp = settings.updatedAt, Timestamp.parse(stamp) == nil || !stamp.hasSuffix("Z") {
                    throw RecordError.invalidField(field: "updated_at", reason: "'\(stamp)' is not a UTC time (YYYY-MM-DDTHH:MM:SSZ)")
                }
            }
        }
    }
}
