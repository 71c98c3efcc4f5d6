import Foundation

/// A wall-clock time of day, HH:MM (24-hour), as on a medication schedule.
public struct LocalTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let hour: Int
    public let minute: Int

    public init?(hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        self.hour = hour
        self.minute = minute
    }

    /// Parses "8:00", "08:00" or "20:30"; nothing else (no am/pm, no seconds).
    public init?(_ text: String) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let h = Int(parts[0]), let m = Int(parts[1]) else { return nil }
        self.init(hour: h, minute: m)
    }

    public var minutesSinceMidnight: Int { hour * 60 + minute }
    public var description: String { String(format: "%02d:%02d", hour, minute) }

    public static func < (a: LocalTime, b: LocalTime) -> Bool { a.minutesSinceMidnight < b.minutesSinceMidnight }
}

/// A wall-clock date and time without a zone ("2026-03-29T08:00"): the label of a scheduled
/// dose, and an appointment's local start.
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let date: CalendarDate
    public let time: LocalTime

    public init(date: CalendarDate, time: LocalTime) {
        self.date = date
        self.time = time
    }

    /// Parses "YYYY-MM-DDTHH:MM" or "YYYY-MM-DD HH:MM".
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.count == 16 else { return nil }
        let separator = trimmed[trimmed.index(trimmed.startIndex, offsetBy: 10)]
        guard separator == "T" || separator == " ",
              let date = CalendarDate(String(trimmed.prefix(10))), let time = LocalTime(String(trimmed.suffix(5))),
              trimmed.suffix(5).first != " " else { return nil }
        self.init(date: date, time: time)
    }

    /// The wall-clock time of `instant` in `zone`.
    public init(_ instant: Date, in zone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: instant)
        self.init(date: CalendarDate(computedYear: c.year!, month: c.month!, day: c.day!), time: LocalTime(hour: c.hour!, minute: c.minute!)!)
    }

    /// "2026-03-29T08:00", the stored form.
    public var description: String { "\(date)T\(time)" }
    /// "2026-03-29 08:00", the displayed form.
    public var display: String { "\(date) \(time)" }

    /// The instant this wall-clock time names in `zone`.
    ///
    /// Where the clocks skip it (a spring-forward gap, 02:30 on 2026-03-29 in Europe/Berlin) the
    /// time moves forward by the gap (03:30 CEST); where it happens twice (01:30 on 2026-11-01 in
    /// America/New_York) the first occurrence counts (01:30 EDT). These are RFC 5545's rules
    /// (section 3.3.5), so an exported calendar means the same instants.
    public func instant(in zone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(year: date.year, month: date.month, day: date.day, hour: time.hour, minute: time.minute)
        // Foundation already resolves gaps forward and repeats to the first occurrence; the
        // check below keeps that promise should an implementation differ.
        let resolved = calendar.date(from: components)!
        let earlier = resolved.addingTimeInterval(-3600)
        if LocalDateTime(earlier, in: zone) == self { return earlier }
        return resolved
    }

    public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool { (a.date, a.time) < (b.date, b.time) }
}
