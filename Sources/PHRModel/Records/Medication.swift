import Foundation

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

    package init(
        id: String,
        uid: String,
        name: String,
        dose: String? = nil,
        form: String? = nil,
        schedule: MedicationSchedule,
        timeZone: String? = nil,
        minIntervalMinutes: Int? = nil,
        maxPerDay: Int? = nil,
        start: PartialDate? = nil,
        end: PartialDate? = nil,
        status: Status,
        stoppedOn: CalendarDate? = nil,
        prescriber: String? = nil,
        pharmacy: String? = nil,
        refills: Int? = nil,
        documentID: String? = nil,
        instructions: String? = nil,
        notes: String? = nil,
        codes: [Coding],
        source: RecordSource? = nil,
        createdAt: String,
        updatedAt: String
    ) {
        self.id = id
        self.uid = uid
        self.name = name
        self.dose = dose
        self.form = form
        self.schedule = schedule
        self.timeZone = timeZone
        self.minIntervalMinutes = minIntervalMinutes
        self.maxPerDay = maxPerDay
        self.start = start
        self.end = end
        self.status = status
        self.stoppedOn = stoppedOn
        self.prescriber = prescriber
        self.pharmacy = pharmacy
        self.refills = refills
        self.documentID = documentID
        self.instructions = instructions
        self.notes = notes
        self.codes = codes
        self.source = source
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
