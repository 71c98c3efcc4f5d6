import Foundation

/// The rules that stop double doses. Pure: the medication, the dose log and the clock in; a
/// refusal or nil out.
///
/// - **Minimum interval**: no two taken doses closer than `min_interval` (set with
///   --min-interval, or half the interval of an `--every` schedule).
/// - **Daily maximum**: at most `max_per_day` taken doses in any 24 hours, a rolling window as
///   on a label's "no more than 4 doses in 24 hours", not per calendar day.
/// - **One dose per scheduled time**: a second dose for a scheduled time already taken.
///
/// Skipped doses never count. A dose logged for an earlier time (`--at`) is checked against the
/// doses on both sides of it.
public enum DoseGuard {
    public static func check(_ medication: Medication, at instant: Date, slot: DoseSlot?, log: [Dose],
                             time: TimeContext) -> DoseRefusal? {
        let taken = log.filter { $0.status == .taken }
        var rules: [DoseRefusal.Rule] = []
        var reasons: [String] = []
        var nextAllowed: [Date] = []
        var nextDue: Date?
        // By its id, never its name: error messages carry no record contents (SECURITY.md,
        // "Hygiene"; a detached "Taken" from a desktop reminder writes them to the journal).
        let who = "med \(medication.id)"
        var alreadyTakenAt: Date?

        if let slot, let earlier = taken.first(where: { $0.scheduledFor == slot.label }) {
            alreadyTakenAt = earlier.instant
            rules.append(.alreadyTaken)
            reasons.append("the \(slot.label.time) dose of \(who) was already taken \(TimeText.sentence(earlier.instant, time))")
            nextDue = DoseSlots(medication: medication, userZone: time.zone).next(after: slot.instant)?.instant
        }

        if let minimum = medication.effectiveMinInterval,
           let closest = taken.min(by: { abs($0.instant.timeIntervalSince(instant)) < abs($1.instant.timeIntervalSince(instant)) }),
           abs(closest.instant.timeIntervalSince(instant)) < minimum {
            let gap = closest.instant.timeIntervalSince(instant)
            rules.append(.minInterval)
            let side = gap <= 0 ? "\(TimeText.duration(gap)) before" : "\(TimeText.duration(gap)) after"
            if alreadyTakenAt == closest.instant {
                // The same dose as the one already taken for this time: said once.
                reasons.append("doses must be at least \(TimeText.duration(minimum)) apart")
            } else {
                reasons.append("\(who) was taken \(TimeText.sentence(closest.instant, time)), \(side) this dose; doses must be at least \(TimeText.duration(minimum)) apart")
            }
            if let last = taken.filter({ $0.instant <= instant }).max(by: { $0.instant < $1.instant }) {
                nextAllowed.append(last.instant.addingTimeInterval(minimum))
            }
        }

        if let maximum = medication.maxPerDay {
            let day: TimeInterval = 24 * 3600
            let nearby = taken.map(\.instant).filter { abs($0.timeIntervalSince(instant)) < day }
            // Every 24-hour window holding this dose starts at it or at an earlier dose.
            let starts = [instant] + nearby.filter { $0 < instant }
            let busiest = starts.map { start in nearby.filter { $0 >= start && $0 < start.addingTimeInterval(day) }.count + 1 }.max() ?? 1
            if busiest > maximum {
                rules.append(.maxPerDay)
                reasons.append("this would be dose \(busiest) of \(who) within 24 hours; at most \(maximum) are allowed in any 24 hours")
                let earlier = nearby.filter { $0 <= instant }.sorted(by: >)
                if earlier.count >= maximum { nextAllowed.append(earlier[maximum - 1].addingTimeInterval(day)) }
            }
        }

        guard !rules.isEmpty else { return nil }
        var message = "dose refused: " + reasons.joined(separator: "; ")
        let allowed = nextAllowed.max()
        if let allowed, allowed > instant {
            message += "; the next dose is allowed \(TimeText.sentence(allowed, time))"
        } else if let nextDue {
            message += "; the next dose is due \(TimeText.sentence(nextDue, time))"
        }
        return DoseRefusal(rules: rules, message: message, nextAllowed: allowed)
    }
}
