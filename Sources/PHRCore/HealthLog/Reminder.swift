import Foundation
import GRDB

/// A reminder rule: drink water inside a daily window, take scheduled medications, or an
/// appointment coming up. `phr remind due` turns rules into reminders (ReminderPlanner.swift).
public struct Reminder: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case water, med, appt
    }

    /// How often water reminders come inside the window (WaterReminderSchedule.swift).
    public enum WaterMode: String, Codable, Sendable, CaseIterable {
        /// Once, when the window opens.
        case rare
        /// Four a day, evenly spread.
        case `default`
        /// Every two hours.
        case all
    }

    public var id: String
    public var uid: String
    public var kind: Kind
    public var mode: WaterMode?
    /// Water: the daily window, start included, end excluded; an end not after the start runs
    /// past midnight.
    public var windowStart: LocalTime?
    public var windowEnd: LocalTime?
    /// Medications: the one medication reminded of, or nil for every scheduled one. Exports name
    /// it by its uid, which survives an import into another vault.
    public var medicationID: String?
    public var medicationUID: String?
    /// Appointments: how long before the start.
    public var beforeMinutes: Int?
    public var paused: Bool
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, uid, kind, mode
        case windowStart = "window_start"
        case windowEnd = "window_end"
        case medicationUID = "medication_uid"
        case beforeMinutes = "before_minutes"
        case paused
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(id: String, uid: String, kind: Kind, mode: WaterMode?, windowStart: LocalTime?, windowEnd: LocalTime?,
                medicationID: String?, medicationUID: String?, beforeMinutes: Int?, paused: Bool, createdAt: String, updatedAt: String) {
        self.id = id
        self.uid = uid
        self.kind = kind
        self.mode = mode
        self.windowStart = windowStart
        self.windowEnd = windowEnd
        self.medicationID = medicationID
        self.medicationUID = medicationUID
        self.beforeMinutes = beforeMinutes
        self.paused = paused
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        uid = try c.decode(String.self, forKey: .uid)
        kind = try c.decode(Kind.self, forKey: .kind)
        mode = try c.decodeIfPresent(WaterMode.self, forKey: .mode)
        func time(_ key: CodingKeys) throws -> LocalTime? {
            guard let text = try c.decodeIfPresent(String.self, forKey: key) else { return nil }
            guard let time = LocalTime(text), text.count == 5 else {
                throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "'\(text)' is not a time; use HH:MM")
            }
            return time
        }
        windowStart = try time(.windowStart)
        windowEnd = try time(.windowEnd)
        medicationUID = try c.decodeIfPresent(String.self, forKey: .medicationUID)
        beforeMinutes = try c.decodeIfPresent(Int.self, forKey: .beforeMinutes)
        paused = try c.decode(Bool.self, forKey: .paused)
        createdAt = try c.decode(String.self, forKey: .createdAt)
        updatedAt = try c.decode(String.self, forKey: .updatedAt)
        let water = kind == .water
        guard (mode != nil) == water, (windowStart != nil) == water, (windowEnd != nil) == water else {
            throw DecodingError.dataCorruptedError(forKey: .mode, in: c, debugDescription: "mode, window_start and window_end are for water reminders, and they need all three")
        }
        guard (beforeMinutes != nil) == (kind == .appt) else {
            throw DecodingError.dataCorruptedError(forKey: .beforeMinutes, in: c, debugDescription: "before_minutes is for appointment reminders, and they need it")
        }
        if let minutes = beforeMinutes, !(0...44640).contains(minutes) {
            throw DecodingError.dataCorruptedError(forKey: .beforeMinutes, in: c, debugDescription: "use 0 to 44640 minutes")
        }
        guard medicationUID == nil || kind == .med else {
            throw DecodingError.dataCorruptedError(forKey: .medicationUID, in: c, debugDescription: "only medication reminders name a medication")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(uid, forKey: .uid)
        try c.encode(kind, forKey: .kind)
        try c.encodeIfPresent(mode, forKey: .mode)
        try c.encodeIfPresent(windowStart?.description, forKey: .windowStart)
        try c.encodeIfPresent(windowEnd?.description, forKey: .windowEnd)
        try c.encodeIfPresent(medicationUID, forKey: .medicationUID)
        try c.encodeIfPresent(beforeMinutes, forKey: .beforeMinutes)
        try c.encode(paused, forKey: .paused)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
    }

    public init(row: Row) throws {
        id = row["id"]
        uid = row["uid"]
        kind = try StoredValue.decode(row["kind"], as: Kind.self, table: "reminder", column: "kind")
        mode = (row["mode"] as String?).flatMap(WaterMode.init(rawValue:))
        windowStart = (row["window_start"] as String?).flatMap(LocalTime.init)
        windowEnd = (row["window_end"] as String?).flatMap(LocalTime.init)
        medicationID = row["medication_id"]
        medicationUID = row["medication_uid"]
        beforeMinutes = row["before_minutes"]
        paused = row["paused"]
        createdAt = row["created_at"]
        updatedAt = row["updated_at"]
    }

    public static let databaseTableName = "reminder"

    /// `medication_uid` is read from a join (ReminderStore) and never written.
    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["uid"] = uid
        container["kind"] = kind.rawValue
        container["mode"] = mode?.rawValue
        container["window_start"] = windowStart?.description
        container["window_end"] = windowEnd?.description
        container["medication_id"] = medicationID
        container["before_minutes"] = beforeMinutes
        container["paused"] = paused
        container["created_at"] = createdAt
        container["updated_at"] = updatedAt
    }

    /// "water, 4 a day 08:00–22:00", "medications (all scheduled)", "appointments, 24h before".
    public var summary: String {
        switch kind {
        case .water:
            let times = WaterReminderSchedule.times(mode: mode ?? .default, start: windowStart!, end: windowEnd!)
            return "water \(mode?.rawValue ?? "default"): \(times.map(\.description).joined(separator: ", "))"
        case .med:
            return medicationID.map { "medication \($0)" } ?? "every scheduled medication"
        case .appt:
            return "appointments, \(beforeMinutes.map { $0 == 0 ? "at the start" : "\(TimeText.duration(TimeInterval($0 * 60))) before" } ?? "")"
        }
    }
}

extension Reminder: StoredRecord, RowBacked {
    static var table: String { databaseTableName }
    var source: RecordSource? { nil }
    static func insertRow(_ db: Database, _ record: Reminder, profileID: Int64) throws {
        try RecordFields.refuseControlCharacters(inStringsOf: record)
        try ProfileRow(record: record, profileID: profileID).insert(db)
    }
    static func updateRow(_ db: Database, _ record: Reminder, profileID: Int64) throws {
        try RecordFields.refuseControlCharacters(inStringsOf: record)
        try record.update(db)
    }
}
