import Foundation
import GRDB

/// Imports a phr export into one profile, inside the caller's transaction.
///
/// Every field is checked as the commands check it; the first bad one fails the whole import
/// and is named by its path (`medications[2].schedule.times[0]`). Documents are listed as
/// skipped: an export holds their details but not their files. A medication or appointment
/// linked to a document keeps the link when a document with the same content (SHA-256) is in
/// the profile, e.g. after `phr doc add` of the same file.
struct PHRImporter {
    let export: PHRExport
    let path: String
    let profileID: Int64
    let time: TimeContext

    func run(_ db: Database, report: inout ImportReport) throws {
        try validate()
        try validateHealthLog()
        let documents = try documentMap(db)
        func link(_ id: String?, _ location: String, _ report: inout ImportReport) -> String? {
            guard let id else { return nil }
            if let target = documents[id] { return target }
            report.notes.append("\(location): document \(id) is not in this profile; the link was dropped")
            return nil
        }

        if let medicalID = export.medicalID {
            let existing = try MedicalIDStore.fetch(db, profileID: profileID)
            if existing == nil || medicalID.updatedAt > existing!.updatedAt {
                try MedicalIDStore.save(db, medicalID, profileID: profileID)
                report.count(existing == nil ? .added : .updated, "medical_id")
            } else {
                report.count(.unchanged, "medical_id")
            }
        }
        for (index, entry) in export.medications.enumerated() {
            var medication = entry.medication
            medication.documentID = link(medication.documentID, "medications[\(index)]", &report)
            let (outcome, stored) = try RecordMerge.merge(db, medication, profileID: profileID, replaceIfNewer: true)
            report.count(outcome, "medications")
            try importDoses(db, entry.doses, medicationID: stored.id, location: "medications[\(index)]", report: &report)
        }
        for (index, var appointment) in export.appointments.enumerated() {
            appointment.documentID = link(appointment.documentID, "appointments[\(index)]", &report)
            report.count(try RecordMerge.merge(db, appointment, profileID: profileID, replaceIfNewer: true).0, "appointments")
        }
        for record in export.contacts {
            report.count(try RecordMerge.merge(db, record, profileID: profileID, replaceIfNewer: true).0, "contacts")
        }
        for record in export.allergies {
            report.count(try RecordMerge.merge(db, record, profileID: profileID, replaceIfNewer: true).0, "allergies")
        }
        for record in export.conditions {
            report.count(try RecordMerge.merge(db, record, profileID: profileID, replaceIfNewer: true).0, "conditions")
        }
        for record in export.immunizations {
            report.count(try RecordMerge.merge(db, record, profileID: profileID, replaceIfNewer: true).0, "immunizations")
        }
        for record in export.observations {
            report.count(try RecordMerge.merge(db, record, profileID: profileID, replaceIfNewer: true).0, "observations")
        }
        try importHealthLog(db, report: &report)
        for (index, _) in export.documents.enumerated() {
            report.skip("documents[\(index)]", type: "document",
                        "an export holds document details but not their files; move documents with 'phr backup' and 'phr restore', or add the files with 'phr doc add'")
        }
    }

    /// Adds the doses a medication's log lacks (by uid). A dose for a scheduled time already
    /// logged in the vault is skipped: the vault's entry stays.
    private func importDoses(_ db: Database, _ doses: [Dose], medicationID: String, location: String, report: inout ImportReport) throws {
        for (index, dose) in doses.enumerated() {
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM dose WHERE medication_id = ? AND uid = ?)",
                                 arguments: [medicationID, dose.uid])! {
                report.count(.unchanged, "doses")
                continue
            }
            if let label = dose.scheduledFor,
               try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM dose WHERE medication_id = ? AND scheduled_for = ?)",
                                 arguments: [medicationID, label.description])! {
                report.skip("\(location).doses[\(index)]", type: "dose", "the \(label.display) dose is already logged in the vault")
                continue
            }
            var copy = dose
            copy.id = try RecordRows.idKeeping(db, table: "dose", wanted: dose.id)
            try copy.insert(db, medicationID: medicationID)
            report.count(.added, "doses")
        }
    }

    /// Export document IDs → IDs of documents with the same content in this profile.
    private func documentMap(_ db: Database) throws -> [String: String] {
        var bySHA: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, sha256 FROM document WHERE profile_id = ?", arguments: [profileID]) {
            let digest = (row["sha256"] as Data).map { String(format: "%02x", $0) }.joined()
            bySHA[digest] = row["id"]
        }
        var map: [String: String] = [:]
        for document in export.documents {
            if let id = bySHA[document.sha256.lowercased()] { map[document.id] = id }
        }
        return map
    }

    // MARK: Checking

    /// Checks every record as the commands would, naming the first bad field by its path.
    private func validate() throws {
        func check(_ location: String, _ body: () throws -> Void) throws {
            do {
                try body()
            } catch RecordError.invalidField(let field, let reason) {
                throw InteropError.malformed(path: path, location: "\(location).\(field)", reason: reason)
            }
        }
        func text(_ value: String, _ field: String, limit: Int = 300) throws { _ = try RecordFields.text(value, field: field, limit: limit) }
        func optional(_ value: String?, _ field: String, limit: Int = RecordFields.maximumTextLength) throws {
            if let value { _ = try RecordFields.text(value, field: field, limit: limit) }
        }
        func record(_ id: String, _ uid: String, _ created: String, _ updated: String, updatedField: String = "updated_at") throws {
            guard (4...16).contains(id.count), id.allSatisfy({ RecordID.alphabet.contains($0) }) else {
                throw RecordError.invalidField(field: "id", reason: "'\(id)' is not a phr record ID")
            }
            try text(uid, "uid", limit: 255)
            for (field, stamp) in [("created_at", created), (updatedField, updated)] where Timestamp.parse(stamp) == nil || !stamp.hasSuffix("Z") {
                throw RecordError.invalidField(field: field, reason: "'\(stamp)' is not a UTC time (YYYY-MM-DDTHH:MM:SSZ)")
            }
        }
        if let id = export.medicalID {
            try check("medical_id") {
                try optional(id.name, "name", limit: 200)
                if let blood = id.bloodType, try RecordFields.bloodType(blood, field: "blood_type") != blood {
                    throw RecordError.invalidField(field: "blood_type", reason: "'\(blood)' is not written as A+, A-, B+, B-, AB+, AB-, O+ or O-")
                }
                if let height = id.heightCm, !(height > 0 && height < 300) { throw RecordError.invalidField(field: "height_cm", reason: "out of range") }
                if let weight = id.weightKg, !(weight > 0 && weight < 1000) { throw RecordError.invalidField(field: "weight_kg", reason: "out of range") }
                try optional(id.notes, "notes")
            }
        }
        for (index, entry) in export.medications.enumerated() {
            let m = entry.medication
            try check("medications[\(index)]") {
                try record(m.id, m.uid, m.createdAt, m.updatedAt)
                try text(m.name, "name", limit: 200)
                try optional(m.dose, "dose", limit: 100)
                try optional(m.form, "form", limit: 100)
                if let zone = m.timeZone { _ = try RecordFields.timeZone(zone, field: "time_zone") }
                if let minutes = m.minIntervalMinutes, minutes < 1 { throw RecordError.invalidField(field: "min_interval_minutes", reason: "must be positive") }
                if let count = m.maxPerDay, count < 1 { throw RecordError.invalidField(field: "max_per_day", reason: "must be positive") }
                if let count = m.refills, count < 0 { throw RecordError.invalidField(field: "refills", reason: "cannot be negative") }
                if m.stoppedOn != nil && m.status != .stopped {
                    throw RecordError.invalidField(field: "stopped_on", reason: "only a stopped medication has a stop date")
                }
                if let s = m.start, let e = m.end, e.lastDay < s.firstDay { throw RecordError.invalidField(field: "end", reason: "is before the start") }
                try optional(m.instructions, "instructions")
                try optional(m.notes, "notes")
            }
            for (doseIndex, dose) in entry.doses.enumerated() {
                try check("medications[\(index)].doses[\(doseIndex)]") {
                    try record(dose.id, dose.uid, dose.createdAt, dose.at, updatedField: "at")
                    _ = try RecordFields.timeZone(dose.timeZone, field: "time_zone")
                    if dose.forced != nil && dose.status != .taken {
                        throw RecordError.invalidField(field: "forced", reason: "only a taken dose can be forced")
                    }
                    for rule in dose.forced ?? [] where DoseRefusal.Rule(rawValue: rule) == nil {
                        throw RecordError.invalidField(field: "forced", reason: "'\(rule)' is not a dose-guard rule")
                    }
                }
            }
        }
        for (index, a) in export.appointments.enumerated() {
            try check("appointments[\(index)]") {
                try record(a.id, a.uid, a.createdAt, a.updatedAt)
                try text(a.with, "with", limit: 200)
                guard (1...44640).contains(a.durationMinutes) else {
                    throw RecordError.invalidField(field: "duration_minutes", reason: "use 1 to 44640 minutes")
                }
                if let minutes = a.remindMinutes, minutes < 0 { throw RecordError.invalidField(field: "remind_minutes", reason: "cannot be negative") }
                if a.sequence < 0 { throw RecordError.invalidField(field: "sequence", reason: "cannot be negative") }
                try optional(a.location, "location", limit: 300)
                try optional(a.reason, "reason", limit: 300)
                try optional(a.notes, "notes")
            }
        }
        for (index, c) in export.contacts.enumerated() {
            try check("contacts[\(index)]") {
                try record(c.id, c.uid, c.createdAt, c.updatedAt)
                try text(c.name, "name", limit: 200)
                _ = try RecordFields.phone(c.phone, field: "phone")
                if let email = c.email { _ = try RecordFields.email(email, field: "email") }
                try optional(c.relation, "relation", limit: 100)
                try optional(c.notes, "notes")
            }
        }
        for (index, a) in export.allergies.enumerated() {
            try check("allergies[\(index)]") {
                try record(a.id, a.uid, a.createdAt, a.updatedAt)
                try text(a.substance, "substance", limit: 200)
                _ = try RecordFields.choice(a.status, field: "status", allowed: Allergy.statuses)
                if let value = a.category { _ = try RecordFields.choice(value, field: "category", allowed: Allergy.categories) }
                if let value = a.criticality { _ = try RecordFields.choice(value, field: "criticality", allowed: Allergy.criticalities) }
                try optional(a.reaction, "reaction", limit: 300)
                try optional(a.notes, "notes")
            }
        }
        for (index, c) in export.conditions.enumerated() {
            try check("conditions[\(index)]") {
                try record(c.id, c.uid, c.createdAt, c.updatedAt)
                try text(c.name, "name")
                _ = try RecordFields.choice(c.status, field: "status", allowed: Condition.statuses)
                try optional(c.notes, "notes")
            }
        }
        for (index, i) in export.immunizations.enumerated() {
            try check("immunizations[\(index)]") {
                try record(i.id, i.uid, i.createdAt, i.updatedAt)
                try text(i.vaccine, "vaccine", limit: 200)
                if let dose = i.doseNumber, dose < 1 { throw RecordError.invalidField(field: "dose_number", reason: "must be at least 1") }
                try optional(i.lot, "lot", limit: 100)
                try optional(i.notes, "notes")
            }
        }
        for (index, o) in export.observations.enumerated() {
            try check("observations[\(index)]") {
                try record(o.id, o.uid, o.createdAt, o.updatedAt)
                try text(o.name, "name")
                _ = try RecordFields.choice(o.status, field: "status", allowed: Observation.statuses)
                if let effective = o.effective, (try? FHIRElements.dateTime(.string(effective), field: "effective")) == nil {
                    throw RecordError.invalidField(field: "effective", reason: "'\(effective)' is not a date or date and time")
                }
                guard o.valueNumber != nil || o.valueText != nil || o.valueCodes != nil || !o.components.isEmpty else {
                    throw RecordError.invalidField(field: "value_number", reason: "an observation needs a value or components")
                }
                try optional(o.notes, "notes")
            }
        }
    }
}
