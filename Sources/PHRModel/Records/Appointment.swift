import Foundation

/// A visit: with whom, when and where, and why.
///
/// The start is a wall-clock time in the zone where the appointment happens (the zone the user
/// was in when adding it, or `--tz`), as the clinic said it; the instant is derived from the two.
public struct Appointment: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable, CaseIterable {
        case confirmed, tentative, cancelled
    }

    public var id: String
    public var uid: String
    /// The clinician or clinic ("Dr. Lee").
    public var with: String
    public var start: LocalDateTime
    public var timeZone: String
    public var durationMinutes: Int
    /// A whole-day event (a date without a time); `start` is then midnight.
    public var allDay: Bool
    public var location: String?
    public var reason: String?
    public var notes: String?
    public var documentID: String?
    public var status: Status
    /// Minutes before the start to remind (written as a VALARM in .ics exports).
    public var remindMinutes: Int?
    /// iCalendar SEQUENCE: raised when the time, place or status changes.
    public var sequence: Int
    public var source: RecordSource?
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, uid, with, start
        case timeZone = "time_zone"
        case durationMinutes = "duration_minutes"
        case allDay = "all_day"
        case location, reason, notes
        case documentID = "document_id"
        case status
        case remindMinutes = "remind_minutes"
        case sequence, source
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(id: String, uid: String, with: String, start: LocalDateTime, timeZone: String, durationMinutes: Int, allDay: Bool,
                location: String?, reason: String?, notes: String?, documentID: String?, status: Status, remindMinutes: Int?,
                sequence: Int, source: RecordSource?, createdAt: String, updatedAt: String) {
        self.id = id
        self.uid = uid
        self.with = with
        self.start = start
        self.timeZone = timeZone
        self.durationMinutes = durationMinutes
        self.allDay = allDay
        self.location = location
        self.reason = reason
        self.notes = notes
        self.documentID = documentID
        self.status = status
        self.remindMinutes = remindMinutes
        self.sequence = sequence
        self.source = source
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        uid = try c.decode(String.self, forKey: .uid)
        with = try c.decode(String.self, forKey: .with)
        let startText = try c.decode(String.self, forKey: .start)
        guard let parsed = LocalDateTime(startText), startText.contains("T") else {
            throw DecodingError.dataCorruptedError(forKey: .start, in: c, debugDescription: CalendarDate.dateReason(
                String(startText.prefix(40)), otherwise: "'\(startText.prefix(40))' is not YYYY-MM-DDTHH:MM"))
        }
        start = parsed
        timeZone = try c.decode(String.self, forKey: .timeZone)
        guard TimeZone(identifier: timeZone) != nil else {
            throw DecodingError.dataCorruptedError(forKey: .timeZone, in: c, debugDescription: "'\(timeZone)' is not a time zone")
        }
        durationMinutes = try c.decode(Int.self, forKey: .durationMinutes)
        allDay = try c.decodeIfPresent(Bool.self, forKey: .allDay) ?? false
        location = try c.decodeIfPresent(String.self, forKey: .location)
        reason = try c.decodeIfPresent(String.self, forKey: .reason)
        notes = try c.decodeIfPresent(String.self, forKey: .notes)
        documentID = try c.decodeIfPresent(String.self, forKey: .documentID)
        status = try c.decode(Status.self, forKey: .status)
        remindMinutes = try c.decodeIfPresent(Int.self, forKey: .remindMinutes)
        sequence = try c.decodeIfPresent(Int.self, forKey: .sequence) ?? 0
        source = try c.decodeIfPresent(RecordSource.self, forKey: .source)
        createdAt = try c.decode(String.self, forKey: .createdAt)
        updatedAt = try c.decode(String.self, forKey: .updatedAt)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(uid, forKey: .uid)
        try c.encode(with, forKey: .with)
        try c.encode(start.description, forKey: .start)
        try c.encode(timeZone, forKey: .timeZone)
        try c.encode(durationMinutes, forKey: .durationMinutes)
        try c.encode(allDay, forKey: .allDay)
        try c.encodeIfPresent(location, forKey: .location)
        try c.encodeIfPresent(reason, forKey: .reason)
        try c.encodeIfPresent(notes, forKey: .notes)
        try c.encodeIfPresent(documentID, forKey: .documentID)
        try c.encode(status, forKey: .status)
        try c.encodeIfPresent(remindMinutes, forKey: .remindMinutes)
        try c.encode(sequence, forKey: .sequence)
        try c.encodeIfPresent(source, forKey: .source)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
    }

    public var zone: TimeZone { TimeZone(identifier: timeZone) ?? TimeZone(identifier: "UTC")! }
    public var startInstant: Date { start.instant(in: zone) }
    public var endInstant: Date { startInstant.addingTimeInterval(TimeInterval(durationMinutes * 60)) }

    /// "Dr. Lee: annual check-up".
    public var summary: String { reason.map { "\(with): \($0)" } ?? with }

}
