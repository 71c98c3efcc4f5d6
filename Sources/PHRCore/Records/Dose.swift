import Foundation
import GRDB

/// One entry of a medication's dose log: a dose taken, or a scheduled dose skipped.
public struct Dose: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        case taken, skipped
    }

    public var id: String
    public var uid: String
    public var status: Status
    /// When, UTC ("2026-03-29T06:05:00Z").
    public let at: String
    /// `at` as an instant, parsed once: the schedule rules compare it many times.
    public let instant: Date
    /// The IANA zone the user was in when it was logged.
    public var timeZone: String
    /// The scheduled dose it counts for, as a wall-clock time in the schedule's zone; nil for a
    /// dose of an unscheduled medication or an extra dose.
    public var scheduledFor: LocalDateTime?
    /// The dose-guard rules `--force` overrode ("min-interval", "max-per-day", "already-taken").
    public var forced: [String]?
    public var note: String?
    public var createdAt: String

    enum CodingKeys: String, CodingKey {
        case id, uid, status, at
        case timeZone = "time_zone"
        case scheduledFor = "scheduled_for"
        case forced, note
        case createdAt = "created_at"
    }

    public init(id: String, uid: String, status: Status, at: String, timeZone: String, scheduledFor: LocalDateTime?,
                forced: [String]?, note: String?, createdAt: String) {
        self.id = id
        self.uid = uid
        self.status = status
        self.at = at
        instant = Timestamp.parse(at) ?? .distantPast
        self.timeZone = timeZone
        self.scheduledFor = scheduledFor
        self.forced = forced
        self.note = note
        self.createdAt = createdAt
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        uid = try c.decode(String.self, forKey: .uid)
        status = try c.decode(Status.self, forKey: .status)
        at = try c.decode(String.self, forKey: .at)
        guard let parsed = Timestamp.parse(at), at.hasSuffix("Z") else {
            throw DecodingError.dataCorruptedError(forKey: .at, in: c, debugDescription: "'\(at)' is not a UTC time (YYYY-MM-DDTHH:MM:SSZ)")
        }
        instant = parsed
        timeZone = try c.decode(String.self, forKey: .timeZone)
        if let label = try c.decodeIfPresent(String.self, forKey: .scheduledFor) {
            guard let parsed = LocalDateTime(label), label.contains("T") else {
                throw DecodingError.dataCorruptedError(forKey: .scheduledFor, in: c, debugDescription: "'\(label)' is not YYYY-MM-DDTHH:MM")
            }
            scheduledFor = parsed
        }
        forced = try c.decodeIfPresent([String].self, forKey: .forced)
        note = try c.decodeIfPresent(String.self, forKey: .note)
        createdAt = try c.decode(String.self, forKey: .createdAt)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(uid, forKey: .uid)
        try c.encode(status, forKey: .status)
        try c.encode(at, forKey: .at)
        try c.encode(timeZone, forKey: .timeZone)
        try c.encodeIfPresent(scheduledFor?.description, forKey: .scheduledFor)
        try c.encodeIfPresent(forced, forKey: .forced)
        try c.encodeIfPresent(note, forKey: .note)
        try c.encode(createdAt, forKey: .createdAt)
    }

    public init(row: Row) {
        id = row["id"]
        uid = row["uid"]
        status = Status(rawValue: row["status"]) ?? .taken
        at = row["at"]
        instant = Timestamp.parse(at) ?? .distantPast
        timeZone = row["time_zone"]
        scheduledFor = (row["scheduled_for"] as String?).flatMap(LocalDateTime.init)
        forced = (row["forced"] as String?).map { $0.split(separator: ",").map(String.init) }
        note = row["note"]
        createdAt = row["created_at"]
    }

    /// The log of one medication, oldest first.
    static func all(_ db: Database, medicationID: String) throws -> [Dose] {
        try Dose.filter(Column("medication_id") == medicationID).order(Column("at"), Column.rowID).fetchAll(db)
    }

    func insert(_ db: Database, medicationID: String) throws {
        try RecordFields.refuseControlCharacters(inStringsOf: self)
        try Logged(dose: self, medicationID: medicationID).insert(db)
    }
}

/// `medication_id` is not a property: a dose never moves to another medication, so only its
/// insert (`Logged`) names it.
extension Dose: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "dose"

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["uid"] = uid
        container["status"] = status.rawValue
        container["at"] = at
        container["time_zone"] = timeZone
        container["scheduled_for"] = scheduledFor?.description
        container["forced"] = forced?.joined(separator: ",")
        container["note"] = note
        container["created_at"] = createdAt
    }

    /// A dose with the medication it is logged for.
    private struct Logged: PersistableRecord {
        static var databaseTableName: String { Dose.databaseTableName }
        var dose: Dose
        var medicationID: String

        func encode(to container: inout PersistenceContainer) {
            dose.encode(to: &container)
            container["medication_id"] = medicationID
        }
    }
}
