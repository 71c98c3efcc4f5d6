import Foundation
import GRDB

/// What the importers of other systems' files (FHIR, C-CDA) share: storing a mapped record
/// after the checks typed input gets, and filling the medical ID's empty fields.
enum ImportedRecords {
    /// Stores a mapped record after the checks typed input gets; a record that fails them is
    /// refused and reported. Returns the record stored (or found already there).
    @discardableResult
    static func take<R: StoredRecord>(_ mapped: FHIRMapper.Mapped<R>, location: String, type: String, kind: String,
                                      formerKey: String?, check: (inout R) throws -> Void, profileID: Int64, now: Date,
                                      _ db: Database, _ report: inout ImportReport) throws -> R? {
        switch mapped {
        case .skip(let reason):
            report.skip(location, type: type, Message(reason))
            return nil
        case .record(var record):
            do {
                try check(&record)
                try refuseFuture(record, now: now)
                let (outcome, _) = try RecordMerge.merge(db, record, profileID: profileID, replaceIfNewer: false, formerKey: formerKey)
                report.count(outcome, kind)
            } catch RecordError.invalidField(let field, let reason) {
                // The importer's limits and the record stores' checks (control characters):
                // this entry is refused, by its place in the file, and the rest imported.
                report.reject(location, type: type, "\(field.name): \(reason)")
                return nil
            }
            return record
        }
    }

    /// UTC+14, where a day begins first (Kiribati's Line Islands).
    private static let aheadOfEveryone = TimeZone(secondsFromGMT: 14 * 3600)!

    /// A lab result, measurement or vaccination dated after today anywhere on Earth (UTC+14) is
    /// refused: it would become the "latest" value of its trend, and no test or shot happens in
    /// the future. (An appointment may lie ahead; the health log refuses future times itself.)
    static func refuseFuture(_ record: Any, now: Date) throws {
        let latestToday = CalendarDate(now, in: aheadOfEveryone)
        if let observation = record as? Observation, let effective = observation.effective,
           let day = CalendarDate(String(effective.prefix(10))), day > latestToday {
            throw RecordError.invalidField(field: Field.path("effective"), reason: "dated \(effective), in the future")
        }
        if let immunization = record as? Immunization, let date = immunization.date, date.firstDay > latestToday {
            throw RecordError.invalidField(field: Field.path("date"), reason: "dated \(date), in the future")
        }
        if let procedure = record as? Procedure, procedure.status == .completed, let date = procedure.date, date.firstDay > latestToday {
            throw RecordError.invalidField(field: Field.path("date"), reason: "completed and dated \(date), in the future")
        }
    }

    /// What a file says about the patient for the medical ID.
    struct PatientFacts {
        var name: String?
        var dateOfBirth: CalendarDate?
        var sex: MedicalID.Sex?
        var identifiers: [SourceIdentifier]
    }

    /// Fills the medical ID's empty fields; a field already set is kept, and a different value
    /// in the file (`source`: "the bundle", "the document") is mentioned in the report.
    /// `noteLines` (devices and advance directives) are added to the notes, each once.
    static func fillMedicalID(_ db: Database, profileID: Int64, time: TimeContext, facts: PatientFacts?,
                              measured: FHIRImporter.MeasuredFacts, source: String, noteLines: [String] = [],
                              report: inout ImportReport) throws {
        let existing = try MedicalIDStore.fetch(db, profileID: profileID)
        var id = existing ?? .empty(updatedAt: Timestamp.string(time.now))
        var filled: [String] = []
        var kept: [String] = []
        func fill<T: Equatable>(_ keyPath: WritableKeyPath<MedicalID, T?>, _ value: T?, _ label: String) {
            guard let value else { return }
            if let current = id[keyPath: keyPath] {
                if current != value { kept.append(label) }
            } else {
                id[keyPath: keyPath] = value
                filled.append(label)
            }
        }
        fill(\.name, facts?.name, "name")
        fill(\.dateOfBirth, facts?.dateOfBirth, "date of birth")
        fill(\.sex, facts?.sex, "sex")
        fill(\.bloodType, measured.bloodType?.value, "blood type")
        fill(\.heightCm, measured.height?.value, "height")
        fill(\.weightKg, measured.weight?.value, "weight")
        // Devices and advance directives: a line each in the notes, counted like records (added,
        // or already there), unless the notes are full (skipped, said so).
        var added: [String] = []
        for line in noteLines {
            if (id.notes ?? "").components(separatedBy: "\n").contains(line) {
                report.count(.unchanged, "medical_id_notes")
                continue
            }
            let notes = [id.notes, line].compactMap { $0 }.joined(separator: "\n")
            guard notes.count <= RecordFields.maximumTextLength else {
                report.skip("medical ID notes", type: "note line", "the medical ID's notes are full; not added: \(line)")
                continue
            }
            id.notes = notes
            added.append(line)
            report.count(.added, "medical_id_notes")
        }
        if !added.isEmpty { filled.append("\(added.count) note line\(added.count == 1 ? "" : "s") (\(added.joined(separator: "; ")))") }
        let newIdentifiers = (facts?.identifiers ?? []).filter { !id.identifiers.contains($0) }
        if !newIdentifiers.isEmpty {
            id.identifiers += newIdentifiers
            filled.append("\(newIdentifiers.count) identifier\(newIdentifiers.count == 1 ? "" : "s")")
        }
        if !filled.isEmpty {
            id.updatedAt = Timestamp.string(time.now)
            try MedicalIDStore.save(db, id, profileID: profileID)
            report.count(existing == nil ? .added : .updated, "medical_id")
            report.notes.append("medical ID: set \(filled.joined(separator: ", "))")
        } else if facts != nil {
            report.count(.unchanged, "medical_id")
        }
        if !kept.isEmpty {
            report.notes.append("medical ID: kept your \(kept.joined(separator: ", ")); \(source) says otherwise")
        }
    }
}

/// What was left out or mended in one entry so that the entry could be kept. An importer never
/// refuses an entry for an attribute it can do without (a start date, a dose, a reference
/// range): the attribute goes, the entry stays, and the report lists what went
/// (`ImportReport.repaired`). One per importer, emptied before each entry.
final class ImportRepairs {
    private(set) var notes: [String] = []

    func note(_ text: String) {
        notes.append(text)
    }

    func reset() {
        notes.removeAll()
    }

    /// What `read` gives, or nil, noted, when it throws a field error.
    func optional<T>(_ read: () throws -> T?) throws -> T? {
        do {
            return try read()
        } catch let error as FHIRFieldError {
            notes.append("\(error.field): \(error.reason); left out")
            return nil
        }
    }

    /// Reports the notes against a kept entry.
    func report(_ location: String, type: String, into report: inout ImportReport) {
        if !notes.isEmpty { report.repair(location, type: type, notes.joined(separator: "; ")) }
    }
}
