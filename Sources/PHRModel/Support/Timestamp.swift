import Foundation

/// ISO 8601 timestamps in UTC with second precision, the one textual time format of the vault.
///
/// Both directions do the calendar arithmetic themselves (days since 1970 with
/// `CalendarDate(dayNumber:)`): every record written stamps two of these and an import reads
/// thousands, and Foundation's `Calendar` and `ISO8601DateFormatter` cost tens of microseconds
/// a call. Texts of any other shape than `YYYY-MM-DDTHH:MM:SS` with `Z` or `±HH:MM` are left to
/// `ISO8601DateFormatter` (internet date-time), so what is accepted has not changed.
public enum Timestamp {
    /// Instants whose day, in any zone, is in `CalendarDate.supportedYears`: what `parse` accepts.
    public static let supportedInstants: ClosedRange<Date> = {
        let first = CalendarDate(year: CalendarDate.supportedYears.lowerBound, month: 1, day: 1)!.dayNumber
        let last = CalendarDate(year: CalendarDate.supportedYears.upperBound, month: 12, day: 31)!.dayNumber
        return Date(timeIntervalSince1970: TimeInterval((first - 1) * 86_400))...Date(timeIntervalSince1970: TimeInterval((last + 2) * 86_400 - 1))
    }()

    public static func string(_ date: Date) -> String {
        // Clamped to years 1 to 9999 so no instant, however it was computed, traps here.
        let interval = date.timeIntervalSince1970.isFinite ? min(max(date.timeIntervalSince1970, -62_135_596_800), 253_402_300_799) : 0
        let seconds = Int(interval.rounded(.down))
        let (days, second) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let (dayNumber, secondOfDay) = second < 0 ? (days - 1, second + 86_400) : (days, second)
        let day = CalendarDate(dayNumber: dayNumber)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let year = String(day.year)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + "-" + two(day.month) + "-" + two(day.day)
            + "T" + two(secondOfDay / 3600) + ":" + two(secondOfDay / 60 % 60) + ":" + two(secondOfDay % 60) + "Z"
    }

    public static func parse(_ text: String) -> Date? {
        if let seconds = fastSeconds(text) { return Date(timeIntervalSince1970: TimeInterval(seconds)) }
        guard CalendarDate.yearProblem(text) == nil else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        guard let date = formatter.date(from: text), supportedInstants.contains(date) else { return nil }
        return date
    }

    /// Seconds since 1970 for `YYYY-MM-DDTHH:MM:SS` followed by `Z` or `±HH:MM`, with every field
    /// in range; nil for anything else (which `parse` hands to Foundation).
    static func fastSeconds(_ text: String) -> Int? {
        var text = text
        return text.withUTF8 { bytes -> Int? in
            guard bytes.count == 20 || bytes.count == 25 else { return nil }
            func number(_ start: Int, _ count: Int) -> Int? {
                var value = 0
                for index in start..<(start + count) {
                    let digit = Int(bytes[index]) - Int(UInt8(ascii: "0"))
                    guard (0...9).contains(digit) else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            func byte(_ index: Int, _ character: Unicode.Scalar) -> Bool { bytes[index] == UInt8(ascii: character) }
            guard byte(4, "-"), byte(7, "-"), byte(10, "T"), byte(13, ":"), byte(16, ":"),
                  let year = number(0, 4), let month = number(5, 2), let dayOfMonth = number(8, 2),
                  let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
                  hour < 24, minute < 60, second < 60,
                  let day = CalendarDate(year: year, month: month, day: dayOfMonth) else { return nil }
            var offset = 0
            if bytes.count == 20 {
                guard byte(19, "Z") else { return nil }
            } else {
                guard byte(19, "+") || byte(19, "-"), byte(22, ":"), let hours = number(20, 2), let minutes = number(23, 2),
                      hours < 24, minutes < 60 else { return nil }
                offset = (hours * 60 + minutes) * 60 * (byte(19, "-") ? -1 : 1)
            }
            return day.dayNumber * 86_400 + hour * 3600 + minute * 60 + second - offset
        }
    }
}
