import Foundation

/// A calendar day without a time or time zone (a document date, a date of birth), written
/// YYYY-MM-DD. Only real days in `supportedYears` are accepted (no 2025-02-30, no 9999-12-31).
public struct CalendarDate: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// The years phr accepts in any date it is given: typed, imported (FHIR, iCalendar, phr
    /// JSON) or read back. Wide enough for a date of birth and a booking decades ahead, and far
    /// enough from year 1 and 9999 that no arithmetic on an accepted date (a duration, a time
    /// zone offset, a reminder) leaves the years Foundation and the formats can write.
    public static let supportedYears = 1900...2200

    public init?(year: Int, month: Int, day: Int) {
        guard CalendarDate.supportedYears.contains(year), (1...12).contains(month), day >= 1,
              day <= CalendarDate.daysIn(month: month, year: year) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// A day computed from an accepted one (a day number, an instant in a zone): never checked
    /// against `supportedYears`, so arithmetic near the ends of the range cannot trap.
    package init(computedYear year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The reason a date or time given as `value` was refused: its year, when that is outside
    /// `supportedYears` (the same words for every way in), else `otherwise`.
    public static func dateReason(_ value: String, otherwise: String) -> String {
        yearProblem(value).map { "'\(value)': \($0)" } ?? otherwise
    }

    /// Why `text`, a date in any of the shapes phr reads (YYYY-MM-DD, YYYYMMDD, YYYY...), is not
    /// accepted when its year is the problem: "year 9999 is outside 1900 to 2200"; nil otherwise.
    public static func yearProblem(_ text: String) -> String? {
        let digits = text.trimmingWhitespace().prefix { $0.isASCII && $0.isNumber }
        guard digits.count >= 4, let year = Int(digits.prefix(4)), !supportedYears.contains(year) else { return nil }
        return "year \(digits.prefix(4)) is outside the years phr accepts (\(supportedYears.lowerBound) to \(supportedYears.upperBound))"
    }

    /// Parses exactly YYYY-MM-DD.
    /// Read from the UTF-8 bytes: stats and listings parse a date per row, and splitting
    /// Strings into Characters made that a tenth of `phr stats --year`.
    public init?(_ text: String) {
        var text = text
        let parsed: (year: Int, month: Int, day: Int)? = text.withUTF8 { bytes in
            guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
            func number(_ range: Range<Int>) -> Int? {
                var value = 0
                for index in range {
                    let digit = Int(bytes[index]) - Int(UInt8(ascii: "0"))
                    guard (0...9).contains(digit) else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
            return (year, month, day)
        }
        guard let parsed else { return nil }
        self.init(year: parsed.year, month: parsed.month, day: parsed.day)
    }

    /// The day `date` falls on in `timeZone`.
    public init(_ date: Date, in timeZone: TimeZone = .current) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        year = c.year!
        month = c.month!
        day = c.day!
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// "2026-03-14": what `String(format: "%04d-%02d-%02d")` writes, by hand for the years and
    /// days there are (listings and the search index write dates by the thousand, and
    /// String(format:) goes through CFString).
    public var description: String {
        guard (0...9999).contains(year), (0...99).contains(month), (0...99).contains(day) else {
            return String(format: "%04d-%02d-%02d", year, month, day)
        }
        let zero = UInt8(ascii: "0")
        let bytes: [UInt8] = [zero + UInt8(year / 1000), zero + UInt8(year / 100 % 10), zero + UInt8(year / 10 % 10), zero + UInt8(year % 10),
                              UInt8(ascii: "-"), zero + UInt8(month / 10), zero + UInt8(month % 10),
                              UInt8(ascii: "-"), zero + UInt8(day / 10), zero + UInt8(day % 10)]
        return String(decoding: bytes, as: UTF8.self)
    }

    public static func < (a: CalendarDate, b: CalendarDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = CalendarDate(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: CalendarDate.dateReason(
                String(text.prefix(40)), otherwise: "not a YYYY-MM-DD date")))
        }
        self = date
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
