import Foundation
import GRDB

/// A medication a profile takes or took: what, how much, when, and for how long.
public struct Medication: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        case active, stopped
    }

    public var id: String
    public var uid: String
    public var name: String
    /// As written on the label: "500 mg", "2 puffs".
    public var dose: String?
    /// tablet, capsule, liquid, inhaler...
    public var form: String?
    public var schedule: MedicationSchedule
    /// An IANA zone the schedule stays in when the user travels; nil: it follows the user.
    public var timeZone: String?
    /// The shortest time allowed between two doses (the dose guard).
    public var minIntervalMinutes: Int?
    /// The most doses allowed in any 24 hours (the dose guard).
    public var maxPerDay: Int?
    public var start: PartialDate?
    /// The last day of the course.
    public var end: PartialDate?
    public var status: Status
    /// The first day without doses, when stopped and the day is known.
    public var stoppedOn: CalendarDate?
    public var prescriber: String?
    public var pharmacy: String?
    public var refills: Int?
    public var documentID: String?
    /// How to take it ("with food"; imported dosage text).
    public var instructions: String?
    public var notes: String?
    public var codes: [Coding]
    public var source: RecordSource?
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, uid, name, dose, form, schedule
        case timeZone = "time_zone"
        case minIntervalMinutes = "min_interval_minutes"
        case maxPerDay = "max_per_day"
        case start, end, status
        case stoppedOn = "stopped_on"
        case prescriber, pharmacy, refills
        case documentID = "document_id"
        case instructions, notes, codes, source
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// Whether doses fall due on `day`: within start and end, and before it was stopped.
    public func isActive(on day: CalendarDate) -> Bool {
        if let start, day < start.firstDay { return false }
        if let end, day > end.lastDay { return false }
        if status == .stopped {
            guard let stoppedOn else { return false }
            return day < stoppedOn
        }
        return true
    }

    /// Active today, or due to start later (what `med list` shows without --all).
    public func isCurrent(today: CalendarDate) -> Bool {
        if isActive(on: today) { return true }
        if let start, start.firstDay > today, status == .active { return true }
        return false
    }

    /// "active", "stopped 2026-03-01", "ended 2026-02-28", "starts 2026-05-01", "until 2026-04-10".
    public func state(today: CalendarDate) -> String {
        if status == .stopped {
            if let stoppedOn, stoppedOn > today { return "stops \(stoppedOn)" }
            return stoppedOn.map { "stopped \($0)" } ?? "stopped"
        }
        if let start, start.firstDay > today { return "starts \(start)" }
        if let end {
            return end.lastDay < today ? "ended \(end)" : "until \(end)"
        }
        return "active"
    }

    /// The zone its wall-clock times are in, given the zone the user is in.
    public func scheduleZone(userZone: TimeZone) -> TimeZone {
        timeZone.flatMap { TimeZone(identifier: $0) } ?? userZone
    }

    /// The effective minimum interval: the one set, else half the interval of an "every" schedule
    /// (so two doses of an every-8h medication minutes apart are refused as a double dose).
    public var effectiveMinInterval: TimeInterval? {
        if let minIntervalMinutes { return TimeInterval(minIntervalMinutes * 60) }
        if case .interval(let minutes) = schedule { return TimeInterval(minutes * 30) }
        return nil
    }

    /// "Metformin 500 mg tablet".
    public var displayName: String {
        [name, dose, form].compactMap { $0 }.joined(separator: " ")
    }
}

extension Medication {
    public init(row: Row) {
        id = row["id"]
        uid = row["uid"]
        name = row["name"]
        dose = row["dose"]
        form = row["form"]
        schedule = .from(kind: row["schedule"], times: row["times"], everyMinutes: row["every_minutes"])
        timeZone = row["time_zone"]
        minIntervalMinutes = row["min_interval_minutes"]
        maxPerDay = row["max_per_day"]
        start = (row["start_date"] as String?).flatMap(PartialDate.init)
        end = (row["end_date"] as String?).flatMap(PartialDate.init)
        status = Status(rawValue: row["status"]) ?? .active
        stoppedOn = (row["stopped_on"] as String?).flatMap(CalendarDate.init)
        prescriber = row["prescriber"]
        pharmacy = row["pharmacy"]
        refills = row["refills"]
        documentID = row["document_id"]
        instructions = row["instructions"]
        notes = row["notes"]
        codes = JSONColumn.decode([Coding].self, from: row["codes"], fallback: [])
        source = RecordSourceColumns.read(row)
        createdAt = row["created_at"]
        updatedAt = row["updated_at"]
    }

    public static let databaseTableName = "medication"

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["uid"] = uid
        container["name"] = name
        container["dose"] = dose
        container["form"] = form
        container["schedule"] = schedule.kind
        container["times"] = schedule.timesColumn
        container["every_minutes"] = schedule.everyMinutesColumn
        container["time_zone"] = timeZone
        container["min_interval_minutes"] = minIntervalMinutes
        container["max_per_day"] = maxPerDay
        container["start_date"] = start?.description
        container["end_date"] = end?.description
        container["status"] = status.rawValue
        container["stopped_on"] = stoppedOn?.description
        container["prescriber"] = prescriber
        container["pharmacy"] = pharmacy
        container["refills"] = refills
        container["document_id"] = documentID
        container["instructions"] = instructions
        container["notes"] = notes
        container["codes"] = JSONColumn.encode(codes)
        RecordSourceColumns.write(source, to: &container)
        container["created_at"] = createdAt
        container["updated_at"] = updatedAt
    }
}

/// Reading and writing the `source_key` and `identifiers` columns every record table has.
enum RecordSourceColumns {
    static func read(_ row: Row) -> RecordSource? {
        guard let key: String = row["source_key"] else { return nil }
        return RecordSource(key: key, identifiers: JSONColumn.decode([SourceIdentifier].self, from: row["identifiers"], fallback: []))
    }

    static func write(_ source: RecordSource?, to container: inout PersistenceContainer) {
        container["source_key"] = source?.key
        container["identifiers"] = JSONColumn.encode(source?.identifiers ?? [])
    }
}
