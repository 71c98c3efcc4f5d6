import Foundation

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
}
