import Foundation

/// A date known to the year, month or day: "2015", "2015-03", "2015-03-14". FHIR records carry
/// such dates ("onset 2010"); people type full dates.
public struct PartialDate: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int?
    public let day: Int?

    public init?(_ text: String) {
        let trimmed = text.trimmingWhitespace()
        let parts = trimmed.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts[0].count == 4,
              parts.dropFirst().allSatisfy({ $0.count == 2 }),
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let y = Int(parts[0]), CalendarDate.supportedYears.contains(y) else { return nil }
        year = y
        month = parts.count > 1 ? Int(parts[1]) : nil
        day = parts.count > 2 ? Int(parts[2]) : nil
        if let month, !(1...12).contains(month) { return nil }
        if let day, CalendarDate(year: y, month: month!, day: day) == nil { return nil }
    }

    public init(_ date: CalendarDate) {
        year = date.year
        month = date.month
        day = date.day
    }

    /// The full date when known to the day.
    public var calendarDate: CalendarDate? {
        guard let month, let day else { return nil }
        return CalendarDate(year: year, month: month, day: day)
    }

    /// The first day the partial date can mean ("2015-03" → 2015-03-01).
    public var firstDay: CalendarDate { CalendarDate(year: year, month: month ?? 1, day: day ?? 1)! }

    /// The last day it can mean ("2015-03" → 2015-03-31).
    public var lastDay: CalendarDate {
        let m = month ?? 12
        return CalendarDate(year: year, month: m, day: day ?? CalendarDate.daysIn(month: m, year: year))!
    }

    public var description: String {
        var text = String(format: "%04d", year)
        if let month { text += String(format: "-%02d", month) }
        if let day { text += String(format: "-%02d", day) }
        return text
    }

    public static func < (a: PartialDate, b: PartialDate) -> Bool {
        (a.year, a.month ?? 0, a.day ?? 0) < (b.year, b.month ?? 0, b.day ?? 0)
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = PartialDate(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: CalendarDate.dateReason(
                String(text.prefix(40)), otherwise: "'\(text.prefix(40))' is not a date; use YYYY, YYYY-MM or YYYY-MM-DD")))
        }
        self = date
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
