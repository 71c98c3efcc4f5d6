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
