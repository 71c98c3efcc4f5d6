import Foundation

/// How phr writes times and durations for people: relative to today in the user's zone
/// ("today at 14:05", "tomorrow 08:00"), with the UTC offset added where the wall-clock time
/// alone is ambiguous (the hour repeated when clocks fall back).
public enum TimeText {
    /// "4h", "1h 20m", "45m", "2d 3h", "under a minute".
    public static func duration(_ seconds: TimeInterval) -> String {
        let minutes = Int((abs(seconds) / 60).rounded(.down))
        if minutes == 0 { return "under a minute" }
        let (d, h, m) = (minutes / 1440, (minutes % 1440) / 60, minutes % 60)
        if d > 0 { return h > 0 ? "\(d)d \(h)h" : "\(d)d" }
        if h > 0 { return m > 0 ? "\(h)h \(m)m" : "\(h)h" }
        return "\(m)m"
    }

    /// For sentences: "today at 14:05", "yesterday at 22:10", "tomorrow at 08:00",
    /// "on 2026-03-27 at 08:00".
    public static func sentence(_ instant: Date, _ time: TimeContext) -> String {
        let (day, clock, relative) = parts(instant, time)
        return relative ? "\(day) at \(clock)" : "on \(day) at \(clock)"
    }

    /// For tables: "today 14:05", "tomorrow 08:00", "2026-03-27 08:00".
    public static func short(_ instant: Date, _ time: TimeContext) -> String {
        let (day, clock, _) = parts(instant, time)
        return "\(day) \(clock)"
    }

    /// The clock time alone, with the offset when ambiguous: "14:05", "01:30 (-04:00)".
    public static func clock(_ instant: Date, in zone: TimeZone) -> String {
        let wall = LocalDateTime(instant, in: zone)
        let repeated = LocalDateTime(instant.addingTimeInterval(-3600), in: zone) == wall
            || LocalDateTime(instant.addingTimeInterval(3600), in: zone) == wall
        return repeated ? "\(wall.time) (\(offset(zone.secondsFromGMT(for: instant))))" : wall.time.description
    }

    /// "+01:00", "-04:00".
    public static func offset(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(seconds) / 60
        return String(format: "%@%02d:%02d", sign, minutes / 60, minutes % 60)
    }

    /// An instant as ISO 8601 with the offset of `zone`: "2026-03-29T08:00:00+02:00".
    public static func iso(_ instant: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: instant)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
            + offset(zone.secondsFromGMT(for: instant))
    }

    private static func parts(_ instant: Date, _ time: TimeContext) -> (day: String, clock: String, relative: Bool) {
        let day = CalendarDate(instant, in: time.zone)
        let today = time.today()
        let clockText = clock(instant, in: time.zone)
        switch today.days(until: day) {
        case 0: return ("today", clockText, true)
        case 1: return ("tomorrow", clockText, true)
        case -1: return ("yesterday", clockText, true)
        default: return (day.description, clockText, false)
        }
    }
}
