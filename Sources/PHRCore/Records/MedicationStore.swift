import Foundation
import GRDB

/// Adding, listing, editing, stopping and removing the medications of one profile.
/// The dose log is in `DoseLog`.
public struct MedicationStore: ProfileRecordStore {
    public let vault: Vault
    public let profile: Profile
    public let time: TimeContext

    /// The record kind in IDs, errors and the search index.
    static let kind = "med"

    public init(vault: Vault, profile: Profile, time: TimeContext) {
        self.vault = vault
        self.profile = profile
        self.time = time
    }

    /// What `med add` and `med edit` take, as typed. For `edit`, nil leaves a field as it is and
    /// "" clears an optional one.
    public struct Input: Sendable {
        public var name: String?
        public var dose: String?
        public var form: String?
        /// "08:00,20:00"
        public var times: String?
        /// "8h"
        public var every: String?
        public var asNeeded = false
        public var noSchedule = false
        /// An IANA zone the times stay in; "" makes them follow the user again.
        public var timeZone: String?
        public var minInterval: String?
        public var maxPerDay: String?
        public var start: String?
        public var end: String?
        public var prescriber: String?
        public var pharmacy: String?
        public var refills: String?
        public var document: String?
        public var instructions: String?
        public var notes: String?

        public init() {}

        /// The schedule chosen by --schedule, --every, --as-needed or --no-schedule, if any.
        func schedule() throws -> MedicationSchedule? {
            let chosen = [times != nil, every != nil, asNeeded, noSchedule].filter { $0 }.count
            guard chosen <= 1 else {
                throw RecordError.invalidField(field: Field.schedule, reason: "choose one of \(Field.schedule), \(Field.every), \(Field.asNeeded) and \(Field.noSchedule)")
            }
            if let times { return .times(try RecordFields.times(times, field: Field.schedule)) }
            if let every { return .interval(minutes: try RecordFields.minutes(every, field: Field.every, maximum: 31 * 24 * 60)) }
            if asNeeded { return .asNeeded }
            if noSchedule { return .unscheduled }
            return nil
        }
    }

    // MARK: Reading

    public func get(_ prefix: String) throws -> Medication {
        try record(prefix)
    }

    /// The medication with this ID (any unique prefix) or, failing that, this name or the start
    /// of it, in any case: `phr med take ibuprofen`, `phr med take ibu`. Of several with the
    /// name, the one current today is meant.
    func resolve(_ db: Database, _ reference: String) throws -> Medication {
        do {
            return try RecordRows.resolve(db, Medication.self, kind: Self.kind, prefix: reference, profileID: profile.id)
        } catch RecordError.notFound {
            let name = reference.trimmingCharacters(in: .whitespaces).lowercased()
            guard !name.isEmpty else { throw RecordError.notFound(kind: Self.kind, id: reference) }
            let all = try Self.all(db, profileID: profile.id)
            var named = all.filter { $0.name.lowercased() == name }
            if named.isEmpty { named = all.filter { $0.name.lowercased().hasPrefix(name) } }
            if named.count > 1 {
                let today = time.today()
                let current = named.filter { $0.isCurrent(today: today) }
                if !current.isEmpty { named = current }
            }
            if named.count == 1 { return named[0] }
            if named.isEmpty { throw RecordError.notFound(kind: Self.kind, id: reference) }
            throw RecordError.ambiguous(kind: Self.kind, prefix: reference, matches: named.map(\.id).sorted())
        }
    }

    /// Current medications (active or starting later) by name; with `all`, stopped and ended too.
    public func list(all: Bool = false) throws -> [Medication] {
        let today = time.today()
        return Self.ordered(try vault.database.read { db in try Self.all(db, profileID: profile.id) }.filter { all || $0.isCurrent(today: today) })
    }

    /// The order medications are listed in, everywhere: by name.
    static func ordered(_ medications: [Medication]) -> [Medication] {
        medications.sorted { ($0.name.lowercased(), $0.id) < ($1.name.lowercased(), $1.id) }
    }

    /// The dose log of one medication, oldest first.
    public func doses(of medication: Medication) throws -> [Dose] {
        try vault.database.read { db in try Dose.all(db, medicationID: medication.id) }
    }

    /// Every medication of the profile with its dose log.
    public func withLogs(all: Bool = false) throws -> [(Medication, [Dose])] {
        let today = time.today()
        return try vault.database.read { db in
            try Self.all(db, profileID: profile.id).filter { all || $0.isCurrent(today: today) }.map { medication in
                (medication, try Dose.all(db, medicationID: medication.id))
            }
        }
    }

    // MARK: Adding

    @discardableResult
    public func add(_ input: Input) throws -> Medication {
        let name = try RecordFields.text(input.name ?? "", field: Field.argument("name"), limit: RecordFields.maximumNameLength)
        var draft = Medication(id: "", uid: "", name: name, dose: nil, form: nil, schedule: try input.schedule() ?? .unscheduled,
                               timeZone: nil, minIntervalMinutes: nil, maxPerDay: nil, start: PartialDate(time.today()), end: nil,
                               status: .active, stoppedOn: nil, prescriber: nil, pharmacy: nil, refills: nil, documentID: nil,
                               instructions: nil, notes: nil, codes: [], source: nil, createdAt: "", updatedAt: "")
        return try vault.database.write { db in
            try apply(input, to: &draft, db)
            (draft.id, draft.uid) = try RecordRows.newIdentity(db, table: Self.table)
            draft.createdAt = Timestamp.string(time.now)
            draft.updatedAt = draft.createdAt
            try Self.insert(db, draft, profileID: profile.id)
            return draft
        }
    }

    /// Sets the fields `input` names (everything but the name and schedule on `add`).
    private func apply(_ input: Input, to medication: inout Medication, _ db: Database) throws {
        if let name = input.name { medication.name = try RecordFields.text(name, field: Field.name, limit: RecordFields.maximumNameLength) }
        medication.dose = try FieldChange.apply(input.dose, to: medication.dose, field: Field.dose, limit: RecordFields.maximumLabelLength)
        medication.form = try FieldChange.apply(input.form, to: medication.form, field: Field.form, limit: RecordFields.maximumLabelLength)
        if let schedule = try input.schedule() { medication.schedule = schedule }
        if let zone = input.timeZone {
            medication.timeZone = zone.isEmpty ? nil : try RecordFields.timeZone(zone, field: Field.tz).identifier
        }
        if let text = input.minInterval {
            medication.minIntervalMinutes = text.isEmpty ? nil : try RecordFields.minutes(text, field: Field.minInterval, maximum: 7 * 24 * 60)
        }
        if let text = input.maxPerDay {
            medication.maxPerDay = text.isEmpty ? nil : try RecordFields.count(Self.integer(text, field: Field.maxPerDay),
                                                                               field: Field.maxPerDay, minimum: 1, maximum: 100)
        }
        if let text = input.start { medication.start = text.isEmpty ? nil : try RecordFields.partialDate(text, field: Field.start) }
        if let text = input.end { medication.end = text.isEmpty ? nil : try RecordFields.partialDate(text, field: Field.end) }
        if let start = medication.start, let end = medication.end, end.lastDay < start.firstDay {
            throw RecordError.invalidField(field: Field.end, reason: "\(end) is before the start, \(start)")
        }
        medication.prescriber = try FieldChange.apply(input.prescriber, to: medication.prescriber, field: Field.prescriber)
        medication.pharmacy = try FieldChange.apply(input.pharmacy, to: medication.pharmacy, field: Field.pharmacy)
        if let text = input.refills {
            medication.refills = text.isEmpty ? nil : try RecordFields.count(Self.integer(text, field: Field.refills),
                                                                             field: Field.refills, minimum: 0, maximum: 99)
        }
        if let prefix = input.document {
            medication.documentID = prefix.isEmpty ? nil : try RecordRows.document(db, prefix: prefix, profileID: profile.id)
        }
        medication.instructions = try FieldChange.apply(input.instructions, to: medication.instructions, field: Field.instructions,
                                                        limit: RecordFields.maximumTextLength, multiline: true)
        medication.notes = try FieldChange.apply(input.notes, to: medication.notes, field: Field.notes, limit: RecordFields.maximumTextLength, multiline: true)
    }

    static func integer(_ text: String, field: Field) throws -> Int {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
            throw RecordError.invalidField(field: field, reason: "'\(text)' is not a whole number")
        }
        return value
    }

    // MARK: Changing

    @discardableResult
    public func edit(_ prefix: String, _ input: Input) throws -> Medication {
        try vault.database.write { db in
            var medication = try resolve(db, prefix)
            try apply(input, to: &medication, db)
            medication.updatedAt = Timestamp.string(time.now)
            try Self.update(db, medication, profileID: profile.id)
            return medication
        }
    }

    /// Stops a medication from `day` on (today if nil): no doses are due from that day. A day in
    /// the future schedules the stop.
    @discardableResult
    public func stop(_ prefix: String, on day: String?) throws -> Medication {
        let stopDay = try day.map { try RecordFields.date($0, field: Field.on) } ?? time.today()
        return try vault.database.write { db in
            var medication = try resolve(db, prefix)
            if let start = medication.start, stopDay < start.firstDay {
                throw RecordError.invalidField(field: Field.on, reason: "\(stopDay) is before the start, \(start)")
            }
            medication.status = .stopped
            medication.stoppedOn = stopDay
            medication.updatedAt = Timestamp.string(time.now)
            try Self.update(db, medication, profileID: profile.id)
            return medication
        }
    }

    /// Takes a stopped medication up again (a stop entered by mistake, or a new course).
    @discardableResult
    public func resume(_ prefix: String) throws -> Medication {
        try vault.database.write { db in
            var medication = try resolve(db, prefix)
            guard medication.status == .stopped else {
                throw RecordError.notApplicable(reason: "med \(medication.id) is not stopped", hint: nil)
            }
            medication.status = .active
            medication.stoppedOn = nil
            if let end = medication.end, end.lastDay < time.today() { medication.end = nil }
            medication.updatedAt = Timestamp.string(time.now)
            try Self.update(db, medication, profileID: profile.id)
            return medication
        }
    }

    /// Removes a medication with its dose log and search entry.
    @discardableResult
    public func remove(_ prefix: String) throws -> Medication {
        try removeRecord(prefix)
    }

    // MARK: Rows and search

    static func index(_ db: Database, _ medication: Medication, profileID: Int64) throws {
        let body = [medication.dose, medication.form, medication.schedule.summary, medication.prescriber.map { "prescribed by \($0)" },
                    medication.pharmacy, medication.instructions, medication.notes, CodingText.searchable(medication.codes)]
        try SearchIndex.replace(db, kind: kind, recordID: medication.id, profileID: profileID, entries: [
            SearchIndex.Entry(title: medication.name, tags: ["medication"] + (medication.form.map { [$0] } ?? []),
                              body: body.compactMap { $0 }.joined(separator: "\n"), type: medication.status.rawValue,
                              date: medication.start?.firstDay.description),
        ])
    }
}

/// Codes as search text: "RxNorm 665078 Loratadine 5 MG Chewable Tablet".
enum CodingText {
    static func searchable(_ codes: [Coding]) -> String? {
        let text = codes.map { [$0.label, $0.display].compactMap { $0 }.joined(separator: " ") }.joined(separator: "\n")
        return text.isEmpty ? nil : text
    }
}

extension Medication: RowBacked {}
