import Foundation

/// How well a medication was taken over the last days: scheduled doses taken, skipped and
/// missed (neither), and doses taken outside the schedule.
public struct Adherence: Codable, Sendable, Equatable {
    public var days: Int
    /// Scheduled doses whose time came (and, if not logged, whose window ended).
    public var scheduled: Int
    public var taken: Int
    public var skipped: Int
    public var missed: Int
    /// Doses taken that counted for no scheduled time (as needed, or extra).
    public var unscheduled: Int
    /// taken / scheduled, 0–100; nil when nothing was scheduled.
    public var percent: Int?

    /// Over the `days` before `time.now`. Only time since the medication was added to phr
    /// counts: doses before that were not logged here and are not "missed".
    ///
    /// - `times`: the slots of the current schedule, matched to the log by their wall-clock
    ///   label, so days spent in another time zone count the doses taken there.
    /// - `interval`: the doses the interval allows in that time, against the doses logged.
    public static func compute(_ medication: Medication, log: [Dose], time: TimeContext, days: Int = 30) -> Adherence {
        let now = time.now
        let created = Timestamp.parse(medication.createdAt) ?? .distantPast
        let from = max(now.addingTimeInterval(-Double(days) * 86400), created)
        let recent = log.filter { $0.instant >= now.addingTimeInterval(-Double(days) * 86400) && $0.instant <= now }
        var result = Adherence(days: days, scheduled: 0, taken: 0, skipped: 0, missed: 0, unscheduled: 0, percent: nil)
        switch medication.schedule {
        case .times:
            let slots = DoseSlots(medication: medication, userZone: time.zone)
            let byLabel = Dictionary(log.compactMap { dose in dose.scheduledFor.map { ($0, dose.status) } }, uniquingKeysWith: { a, _ in a })
            let windowStart = now.addingTimeInterval(-Double(days) * 86400)
            for slot in slots.slots(from: windowStart, through: now) {
                switch byLabel[slot.label] {
                case .taken?: result.taken += 1
                case .skipped?: result.skipped += 1
                case nil:
                    guard slot.instant >= from, slots.window(of: slot).end <= now else { continue }
                    result.missed += 1
                }
                result.scheduled += 1
            }
            result.unscheduled = recent.filter { $0.status == .taken && $0.scheduledFor == nil }.count
        case .interval(let minutes):
            let interval = TimeInterval(minutes * 60)
            result.taken = recent.filter { $0.status == .taken }.count
            result.skipped = recent.filter { $0.status == .skipped }.count
            let span = now.timeIntervalSince(from)
            result.scheduled = max(Int((span / interval).rounded(.down)), result.taken + result.skipped)
            result.missed = max(0, result.scheduled - result.taken - result.skipped)
        case .asNeeded, .unscheduled:
            result.unscheduled = recent.filter { $0.status == .taken }.count
            return result
        }
        if result.scheduled > 0 {
            result.percent = min(100, Int((Double(result.taken) * 100 / Double(result.scheduled)).rounded()))
        }
        return result
    }
}

/// One day of a medication's month, for the adherence calendar: the scheduled doses taken,
/// skipped and missed that day, and doses taken outside the schedule. The same rules as
/// `Adherence.compute`: a slot is missed once its window has ended untaken, and only time since
/// the medication was added to phr counts.
public struct AdherenceDay: Codable, Sendable, Equatable {
    public var day: CalendarDate
    public var scheduled = 0
    public var taken = 0
    public var skipped = 0
    public var missed = 0
    /// Scheduled doses whose window has not ended yet and that were not logged.
    public var pending = 0
    public var unscheduled = 0

    public init(day: CalendarDate) { self.day = day }

    /// Whether every scheduled dose of the day was taken (nil without a scheduled dose).
    public var allTaken: Bool? { scheduled == 0 ? nil : taken == scheduled }

    /// The days of the month `year`-`month` up to today (`time`), each with its doses. Today's
    /// doses still to come count as `pending`, so a day is never "all taken" before its last dose.
    public static func month(_ medication: Medication, log: [Dose], time: TimeContext, year: Int, month: Int) -> [AdherenceDay] {
        guard let first = CalendarDate(year: year, month: month, day: 1) else { return [] }
        let today = CalendarDate(time.now, in: time.zone)
        let last = min(first.plus(CalendarDate.daysIn(month: month, year: year) - 1), today)
        guard last >= first else { return [] }
        var days = (0...(last.dayNumber - first.dayNumber)).map { AdherenceDay(day: first.plus($0)) }
        func index(_ day: CalendarDate) -> Int? {
            let offset = day.dayNumber - first.dayNumber
            return offset >= 0 && offset < days.count ? offset : nil
        }
        func midnight(_ day: CalendarDate) -> Date { LocalDateTime(date: day, time: LocalTime(hour: 0, minute: 0)!).instant(in: time.zone) }
        let created = Timestamp.parse(medication.createdAt) ?? .distantPast
        // Only the month's own days (and the end of today), however far back the month is.
        let from = midnight(first.plus(-1)), through = midnight(last.plus(1))
        switch medication.schedule {
        case .times:
            let slots = DoseSlots(medication: medication, userZone: time.zone)
            let byLabel = Dictionary(log.compactMap { dose in dose.scheduledFor.map { ($0, dose.status) } }, uniquingKeysWith: { a, _ in a })
            for slot in slots.slots(from: from, through: through) {
                guard let at = index(slot.label.date) else { continue }
                switch byLabel[slot.label] {
                case .taken?: days[at].taken += 1
                case .skipped?: days[at].skipped += 1
                case nil:
                    guard slot.instant >= created else { continue }
                    if slots.window(of: slot).end <= time.now { days[at].missed += 1 } else { days[at].pending += 1 }
                }
                days[at].scheduled += 1
            }
            for dose in log where dose.status == .taken && dose.scheduledFor == nil {
                if let at = index(CalendarDate(dose.instant, in: time.zone)) { days[at].unscheduled += 1 }
            }
        case .interval(let minutes):
            // As `compute` counts them: the doses the interval allows in the day's time since the
            // medication was added (up to now), against those logged.
            let interval = TimeInterval(max(1, minutes) * 60)
            for dose in log where dose.instant <= time.now {
                guard let at = index(CalendarDate(dose.instant, in: time.zone)) else { continue }
                if dose.status == .taken { days[at].taken += 1 } else { days[at].skipped += 1 }
            }
            for at in days.indices {
                let start = max(midnight(days[at].day), created), end = min(midnight(days[at].day.plus(1)), time.now)
                let allowed = end > start ? Int((end.timeIntervalSince(start) / interval).rounded(.down)) : 0
                days[at].scheduled = max(allowed, days[at].taken + days[at].skipped)
                if days[at].day == today {
                    // Today is not over: what is left of it is still to come, not missed.
                    days[at].pending = max(0, days[at].scheduled - days[at].taken - days[at].skipped)
                } else {
                    days[at].missed = max(0, days[at].scheduled - days[at].taken - days[at].skipped)
                }
            }
        case .asNeeded, .unscheduled:
            // No doses fall due: the calendar shows what was logged each day.
            for dose in log where dose.instant <= time.now {
                guard let at = index(CalendarDate(dose.instant, in: time.zone)) else { continue }
                if dose.status == .taken { days[at].unscheduled += 1 } else { days[at].skipped += 1 }
            }
        }
        return days
    }
}
