import Foundation
import PHRModel

/// A month as a terminal calendar, Monday first (ISO 8601), with marked days:
///
/// ```
///         December 2026
/// Mon Tue Wed Thu Fri Sat Sun
///       1   2   3*  4   5   6
/// ```
/// A marked day has a `*` after its number (four columns a day, so a mark never touches the next
/// number); on a terminal today is shown in reverse video.
enum MonthGrid {
    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                             "October", "November", "December"]

    static func lines(year: Int, month: Int, marked: Set<Int>, today: CalendarDate?, highlight: Bool) -> [String] {
        let width = 27
        let title = "\(monthNames[month - 1]) \(year)"
        var lines = [String(repeating: " ", count: (width - title.count) / 2) + title, "Mon Tue Wed Thu Fri Sat Sun"]
        let first = CalendarDate(year: year, month: month, day: 1)!
        var row = String(repeating: "    ", count: first.isoWeekday - 1)
        for day in 1...CalendarDate.daysIn(month: month, year: year) {
            var number = String(format: "%3d", day)
            if highlight, let today, today == CalendarDate(year: year, month: month, day: day) {
                number = "\u{1b}[7m\(number)\u{1b}[0m"
            }
            row += number + (marked.contains(day) ? "*" : " ")
            if CalendarDate(year: year, month: month, day: day)!.isoWeekday == 7 {
                lines.append(trimmed(row))
                row = ""
            }
        }
        if !row.isEmpty { lines.append(trimmed(row)) }
        return lines
    }

    private static func trimmed(_ row: String) -> String {
        var text = row
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
