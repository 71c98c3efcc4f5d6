import Foundation
import PHRService

/// Words and short phrases the health-log commands share: when an entry happened, where a
/// habit stands against its goal.
enum HealthLogText {
    /// When an entry happened, in the zone it happened in: "today at 14:05",
    /// "23:10–06:40, ending today", with the zone named when it is not the user's.
    static func when(_ entry: LogEntry, _ time: TimeContext) -> String {
        let local = TimeContext(now: time.now, zone: entry.zone)
        let zoneNote = entry.timeZone == time.zone.identifier ? "" : " (\(entry.timeZone))"
        guard let start = entry.startInstant else { return TimeText.sentence(entry.instant, local) + zoneNote }
        let ended = CalendarDate(entry.instant, in: entry.zone)
        let today = local.today()
        let day = ended == today ? "today" : ended == today.adding(days: -1) ? "yesterday" : "on \(ended)"
        return "\(TimeText.clock(start, in: entry.zone))–\(TimeText.clock(entry.instant, in: entry.zone)), ending \(day)" + zoneNote
    }

    /// For tables: "2026-03-10 14:05", with the zone when it is not the user's.
    static func stamp(_ entry: LogEntry, _ time: TimeContext) -> String {
        let wall = LocalDateTime(entry.instant, in: entry.zone)
        return wall.display + (entry.timeZone == time.zone.identifier ? "" : " \(entry.timeZone)")
    }

    /// "today 1.25 L of 2 L (63%)", "this week 1h 30m of 2h 30m (60%)", "on 2026-03-09 2,650 kcal of 2,500 kcal, over budget".
    static func progress(_ progress: LogStore.DayProgress, _ format: HealthFormat, today: CalendarDate) -> String {
        let goal = progress.goal
        let amount: Double
        let when: String
        if goal.period == .week {
            amount = progress.weekTotal ?? progress.total
            let monday = progress.day.adding(days: 1 - progress.day.isoWeekday)
            when = monday == today.adding(days: 1 - today.isoWeekday) ? "this week" : "week of \(monday)"
        } else {
            amount = progress.total
            when = progress.day == today ? "today" : progress.day == today.adding(days: -1) ? "yesterday" : "on \(progress.day)"
        }
        var text = "\(when) \(format.amount(amount, progress.metric)) of \(format.amount(goal.value, progress.metric))"
        switch goal.direction {
        case .atLeast:
            text += progress.met ? ", goal met" : " (\(Int((amount / goal.value * 100).rounded(.down)))%)"
        case .atMost:
            text += progress.met ? ", within the goal" : ", over the goal"
        }
        return text
    }

    /// "coffee", "trail run", "before meal": a kind label for people.
    static func kind(_ kind: String?) -> String? {
        kind.map { $0.replacingOccurrences(of: "-", with: " ") }
    }
}
