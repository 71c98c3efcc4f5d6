import Foundation

/// The days statistics cover: the last 7, 30 or 365 days up to and including today (as
/// Apple Health's W, M and Y summaries), or the last N days.
public struct StatsPeriod: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        case week, month, year, days
    }

    public var kind: Kind
    public var from: CalendarDate
    public var to: CalendarDate
    public var days: Int

    /// The longest period accepted: ten years.
    public static let maximumDays = 3660

    public init(kind: Kind, days: Int, endingOn to: CalendarDate) {
        self.kind = kind
        self.days = days
        self.to = to
        from = to.plus(1 - days)
    }

    public static func week(endingOn today: CalendarDate) -> StatsPeriod { StatsPeriod(kind: .week, days: 7, endingOn: today) }
    public static func month(endingOn today: CalendarDate) -> StatsPeriod { StatsPeriod(kind: .month, days: 30, endingOn: today) }
    public static func year(endingOn today: CalendarDate) -> StatsPeriod { StatsPeriod(kind: .year, days: 365, endingOn: today) }

    /// The last `days` days (1 to ten years).
    public static func last(_ days: Int, endingOn today: CalendarDate) throws -> StatsPeriod {
        guard (1...maximumDays).contains(days) else {
            throw RecordError.invalidOption(option: Field.days, reason: "use 1 to \(maximumDays) days", hint: nil)
        }
        return StatsPeriod(kind: .days, days: days, endingOn: today)
    }

    /// The period of the same length just before this one (for the trend).
    public var previous: StatsPeriod {
        var period = self
        period.to = from.plus(-1)
        period.from = period.to.plus(1 - days)
        return period
    }

    /// Every day of the period, oldest first.
    public var allDays: [CalendarDate] { (0..<days).map { from.plus($0) } }

    public func contains(_ day: CalendarDate) -> Bool { day >= from && day <= to }

    /// "last 7 days", "last 30 days", "last 365 days", "last 12 days".
    public var title: String { days == 1 ? "today" : "last \(days) days" }
}
