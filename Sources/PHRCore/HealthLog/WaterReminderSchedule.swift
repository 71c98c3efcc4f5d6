import Foundation

/// When water reminders come inside a daily window.
///
/// The window runs from `start` (included) to `end` (excluded); an end not after the start
/// runs past midnight (22:00–06:00 for a night shift), and start = end is the whole day. The
/// modes, as the hydration seed app offers them:
/// - `rare`: once, when the window opens;
/// - `default`: four a day, at the start and then every quarter of the window (08:00–22:00:
///   08:00, 11:30, 15:00, 18:30), so the last one leaves time to drink before the window ends;
/// - `all`: every two hours from the start while inside the window (08:00–22:00: 08:00, 10:00,
///   …, 20:00).
/// Times fall on whole minutes (rounded down). They are wall-clock times in the zone the user
/// is in, like medication schedules; a time the clocks skip comes when the gap ends.
public enum WaterReminderSchedule {
    public static let allModeSpacingMinutes = 120
    public static let defaultModeCount = 4

    /// The window's length in minutes (1440 when start = end).
    public static func length(start: LocalTime, end: LocalTime) -> Int {
        let span = (end.minutesSinceMidnight - start.minutesSinceMidnight + 1440) % 1440
        return span == 0 ? 1440 : span
    }

    /// Minutes after the window start of each reminder.
    public static func offsets(mode: Reminder.WaterMode, start: LocalTime, end: LocalTime) -> [Int] {
        let span = length(start: start, end: end)
        switch mode {
        case .rare:
            return [0]
        case .default:
            return (0..<defaultModeCount).map { $0 * span / defaultModeCount }.reduce(into: []) { result, offset in
                if result.last != offset { result.append(offset) }
            }
        case .all:
            return Array(stride(from: 0, to: span, by: allModeSpacingMinutes))
        }
    }

    /// The reminder times of a day, in window order (a window past midnight lists the times
    /// after midnight last).
    public static func times(mode: Reminder.WaterMode, start: LocalTime, end: LocalTime) -> [LocalTime] {
        offsets(mode: mode, start: start, end: end).map { offset in
            let minutes = (start.minutesSinceMidnight + offset) % 1440
            return LocalTime(hour: minutes / 60, minute: minutes % 60)!
        }
    }

    /// The reminders of the window that opens on `day`, as wall-clock labels (those after
    /// midnight fall on the next day).
    public static func occurrences(mode: Reminder.WaterMode, start: LocalTime, end: LocalTime, windowDay day: CalendarDate) -> [LocalDateTime] {
        offsets(mode: mode, start: start, end: end).map { offset in
            let minutes = start.minutesSinceMidnight + offset
            return LocalDateTime(date: day.adding(days: minutes / 1440),
                                 time: LocalTime(hour: (minutes % 1440) / 60, minute: minutes % 60)!)
        }
    }

    /// When the window that opens on `day` closes.
    public static func windowEnd(start: LocalTime, end: LocalTime, windowDay day: CalendarDate) -> LocalDateTime {
        let minutes = start.minutesSinceMidnight + length(start: start, end: end)
        return LocalDateTime(date: day.adding(days: minutes / 1440), time: LocalTime(hour: (minutes % 1440) / 60, minute: minutes % 60)!)
    }
}
