import Foundation

/// "Now" and the time zone the user is in: every rule about schedules, due doses and
/// appointments takes one, so tests can fix both (`TimeContext(now:zone:)`).
///
/// The zone is the process's local zone (the TZ environment variable, else /etc/localtime):
/// wall-clock schedules follow the user when they travel (README, "Time zones").
public struct TimeContext: Sendable {
    public var now: Date
    public var zone: TimeZone

    public init(now: Date, zone: TimeZone) {
        self.now = now
        self.zone = zone
    }

    /// The system clock and zone. Debug builds (the test suite) honour `PHR_TEST_NOW`, an ISO
    /// 8601 instant, so CLI tests can pin "now"; release builds ignore it.
    public static func current(environment: [String: String] = ProcessEnvironment.variables) -> TimeContext {
        var now = Date()
        #if DEBUG
        if let text = environment["PHR_TEST_NOW"], let fixed = Timestamp.parse(text) { now = fixed }
        #endif
        return TimeContext(now: now, zone: TimeZone.current)
    }

    /// A Gregorian calendar in `zone` (the user's zone unless given).
    public func calendar(in zone: TimeZone? = nil) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone ?? self.zone
        return calendar
    }

    /// Today in the user's zone (or in `zone`).
    public func today(in zone: TimeZone? = nil) -> CalendarDate {
        CalendarDate(now, in: zone ?? self.zone)
    }
}

extension CalendarDate {
    /// The day `days` after (or before, when negative) this one.
    public func adding(days: Int) -> CalendarDate {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let noon = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12))!
        return CalendarDate(calendar.date(byAdding: .day, value: days, to: noon)!, in: calendar.timeZone)
    }

    /// Days from this day to `other` (positive when `other` is later).
    public func days(until other: CalendarDate) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let a = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12))!
        let b = calendar.date(from: DateComponents(year: other.year, month: other.month, day: other.day, hour: 12))!
        return calendar.dateComponents([.day], from: a, to: b).day!
    }

    /// 1 = Monday ... 7 = Sunday (ISO 8601).
    public var isoWeekday: Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let date = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12))!
        let sundayFirst = calendar.component(.weekday, from: date)
        return sundayFirst == 1 ? 7 : sundayFirst - 1
    }
}
