import Foundation
import GRDB

/// Imports a phr export into one profile, inside the caller's transaction.
///
/// Every record is checked as the commands check typed input (`RecordValidation`, plus the
/// export's own fields: IDs, uids, timestamps); a record that fails is refused and reported by
/// its path (`medications[2]`, "dose: at most 300 characters"), the others are imported.
/// Documents are listed as skipped: an export holds their details but not their files. A
/// medication or appointment linked to a document keeps the link when a document with the same
/// content (SHA-256) is in the profile, e.g. after `phr doc add` of the same file.
struct PHRImporter {
    let export: PHRExport
    let path: String
    let profileID: Int64
    let time: TimeContext

    func run(_ db: Database, report: inout ImportReport) throws {
        report.skipped += export.unreadable
        let documents = try documentMap(db)
        func link(_ id: String?, _ location: String, _ report: inout ImportReport) -> String? {
            guard let id else { return nil }
            if let target = documents[id] { return target }
            report.notes.append("\(location): document \(id) is not in this profile; the link was dropped")
            return nil
        }

        if var medicalID = export.medicalID,
           Self.accept("medical_id", type: "medical ID", &report, { try Self.check(&medicalID) }) {
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
            let location = "medications[\(index)]"
            guard Self.accept(location, type: "medication", &report, {
                try Self.identity(medication.id, medication.uid, [("created_at", medication.createdAt), ("updated_at", medication.updatedAt)])
                try RecordValidation.check(&medication)
            }) else { continue }
            medication.documentID = link(medication.documentID, location, &report)
            let (outcome, stored) = try RecordMerge.merge(db, medication, profileID: profileID, replaceIfNewer: true)
            report.count(outcome, "medications")
            try importDoses(db, entry.doses, medicationID: stored.id, location: location, report: &report)
        }
        for (index, var appointment) in export.appointments.enumerated() {
            let location = "appointments[\(index)]"
            guard Self.accept(location, type: "appointment", &report, {
                try Self.identity(appointment.id, appointment.uid, [("created_at", appointment.createdAt), ("updated_at", appointment.updatedAt)])
                try RecordValidation.check(&appointment)
            }) else { continue }
            appointment.documentID = link(appointment.documentID, location, &report)
            report.count(try RecordMerge.merge(db, appointment, profileID: profileID, replaceIfNewer: true).0, "appointments")
        }
        try merge(export.contacts, key: "contacts", type: "contact", created: \.createdAt, check: RecordValidation.check, db, &report)
        try merge(export.allergies, key: "allergies", type: "allergy", created: \.createdAt, check: RecordValidation.check, db, &report)
        try merge(export.conditions, key: "conditions", type: "condition", created: \.createdAt, check: RecordValidation.check, db, &report)
        try merge(export.immunizations, key: "immunizations", type: "immunization", created: \.createdAt, check: RecordValidation.check, db, &report)
        try merge(export.procedures, key: "procedures", type: "procedure", created: \.createdAt, check: RecordValidation.check, db, &report)
        try merge(export.familyHistory, key: "family_history", type: "family history", created: \.createdAt, check: RecordValidation.check, db, &report)
        try merge(export.observations, key: "observations", type: "observation", created: \.createdAt, check: RecordValidation.check, db, &report)
        try importHealthLog(db, report: &report)
        for (index, _) in export.documents.enumerated() {
            report.skip("documents[\(index)]", type: "document",
                        "an export holds document details but not their files; move documents with '\(Action.backup)' and '\(Action.restore(partial: false))', or add the files with '\(Action.addDocuments)'")
        }
    }

    /// Checks and merges each record of one kind; a record that fails is refused and reported.
    private func merge<R: StoredRecord>(_ records: [R], key: String, type: String, created: KeyPath<R, String>, check: (inout R) throws -> Void,
                                        _ db: Database, _ report: inout ImportReport) throws {
        for (index, var record) in records.enumerated() {
            guard Self.accept("\(key)[\(index)]", type: type, &report, {
                try Self.identity(record.id, record.uid, [("created_at", record[keyPath: created]), ("updated_at", record.updatedAt)])
                try check(&record)
                try ImportedRecords.refuseFuture(record, now: time.now)
            }) else { continue }
            report.count(try RecordMerge.merge(db, record, profileID: profileID, replaceIfNewer: true).0, key)
        }
    }

    /// Runs `body`; a `RecordError.invalidField` it throws refuses the entry at `location`.
    static func accept(_ location: String, type: String, _ report: inout ImportReport, _ body: () throws -> Void) -> Bool {
        do {
            try body()
            return true
        } catch RecordError.invalidField(let field, let reason) {
            report.reject(location, type: type, "\(field.name): \(reason)")
            return false
        } catch {
            report.reject(location, type: type, "\(error.localizedDescription)")
            return false
        }
    }

    /// A record's export-only fields: a phr ID, a uid, and UTC timestamps.
    static func identity(_ id: String, _ uid: String, _ stamps: [(String, String)]) throws {
        guard (4...16).contains(id.count), id.allSatisfy({ RecordID.alphabet.contains($0) }) else {
            throw RecordError.invalidField(field: Field.path("id"), reason: "'\(id.prefix(40))' is not a phr record ID")
        }
        _ = try RecordFields.text(uid, field: Field.path("uid"), limit: 255)
        try timestamps(stamps.map { (Field.path($0.0), $0.1) })
    }

    /// UTC timestamps in the accepted years, as phr writes them.
    static func timestamps(_ stamps: [(Field, String)]) throws {
        for (field, stamp) in stamps where Timestamp.parse(stamp) == nil || !stamp.hasSuffix("Z") {
            throw RecordError.invalidField(field: field, reason: RecordFields.dateReason(
                String(stamp.prefix(40)), otherwise: "'\(stamp.prefix(40))' is not a UTC time (YYYY-MM-DDTHH:MM:SSZ)"))
        }
    }

    /// The medical ID as `phr id set` checks it.
    static func check(_ id: inout MedicalID) throws {
        id.name = try RecordFields.optionalText(id.name, field: Field.path("name"), limit: RecordFields.maximumNameLength)
        if let blood = id.bloodType, try RecordFields.bloodType(blood, field: Field.path("blood_type")) != blood {
            throw RecordError.invalidField(field: Field.path("blood_type"), reason: "'\(blood.prefix(20))' is not written as A+, A-, B+, B-, AB+, AB-, O+ or O-")
        }
        if let height = id.heightCm, !(height >= 20 && height < 300) { throw RecordError.invalidField(field: Field.path("height_cm"), reason: "use 20 to 300") }
        if let weight = id.weightKg, !(weight > 0.2 && weight < 1000) { throw RecordError.invalidField(field: Field.path("weight_kg"), reason: "use 0.2 to 1000") }
        id.notes = try RecordFields.optionalText(id.notes, field: Field.path("notes"), limit: RecordFields.maximumTextLength, multiline: true)
        guard id.identifiers.count <= 100, id.identifiers.allSatisfy({ $0.value.count <= 1000 && ($0.system?.count ?? 0) <= 1000 }) else {
            throw RecordError.invalidField(field: Field.path("identifiers"), reason: "at most 100 identifiers of at most 1000 characters")
        }
        try timestamps([(Field.path("updated_at"), id.updatedAt)])
    }

    /// Adds the doses a medication's log lacks (by uid). A dose for a scheduled time already
    /// logged in the vault is skipped: the vault's entry stays.
    private func importDoses(_ db: Database, _ doses: [Dose], medicationID: String, location: String, report: inout ImportReport) throws {
        for (index, dose) in doses.enumerated() {
            guard Self.accept("\(location).doses[\(index)]", type: "dose", &report, {
                try Self.identity(dose.id, dose.uid, [("created_at", dose.createdAt), ("at", dose.at)])
                _ = try RecordFields.timeZone(dose.timeZone, field: Field.path("time_zone"))
                if dose.forced != nil && dose.status != .taken {
                    throw RecordError.invalidField(field: Field.path("forced"), reason: "only a taken dose can be forced")
                }
                for rule in dose.forced ?? [] where DoseRefusal.Rule(rawValue: rule) == nil {
                    throw RecordError.invalidField(field: Field.path("forced"), reason: "'\(rule.prefix(40))' is not a dose-guard rule")
                }
                _ = try RecordFields.optionalText(dose.note, field: Field.path("note"), limit: RecordFields.maximumTextLength, multiline: true)
            }) else { continue }
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
            let digest = Array(row["sha256"] as Data).hex
            bySHA[digest] = row["id"]
        }
        var map: [String: String] = [:]
        for document in export.documents {
            if let id = bySHA[document.sha256.lowercased()] { map[document.id] = id }
        }
        return map
    }
}
