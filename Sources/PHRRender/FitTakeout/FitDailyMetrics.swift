import Foundation
import PHRModel

/// Google Fit's `Daily activity metrics.csv`: one row a day (the `Date` column, YYYY-MM-DD, the
/// day in the account's zone), one column a measure, a cell empty when the day has none. The
/// columns present vary with what was recorded; their names are in the Google account's
/// language, and phr reads the English ones:
///
/// - `Average weight (kg)` becomes the day's weight entry, at noon of that day in phr's zone
///   (the file gives only the day), with `Min weight (kg)` and `Max weight (kg)` in its note;
/// - every other column is counted per day with a value and skipped with its reason: phr's
///   health log has no steps, distance, speed, heart rate, locations, Google's Move Minutes or
///   Heart Points, and `Calories (kcal)` is energy burned, where the log's meals are energy
///   eaten; the `... duration (ms)` columns are time Google Fit detected per activity through
///   the day, not workouts (those come from the session files, with their times).
///
/// A row whose Date is not a date, or a second row for the same day, refuses the file; a
/// weight that is not a positive number is refused alone and counted.
struct FitDailyMetrics {
    static let weightColumn = "Average weight (kg)"
    static let minimumWeightColumn = "Min weight (kg)"
    static let maximumWeightColumn = "Max weight (kg)"
    static let weightUnit = "day"

    /// Why a column other than the weight is not kept.
    static func reason(_ column: String) -> String {
        let lower = column.lowercased()
        switch column {
        case "Step count": return "phr's health log has no steps"
        case "Calories (kcal)": return "energy burned through the day; the health log's meals count energy eaten"
        case "Move Minutes count", "Heart Points", "Heart Minutes": return "Google Fit's activity scores are not kept in phr's health log"
        case "Distance (m)", "Average speed (m/s)", "Max speed (m/s)", "Min speed (m/s)": return "distance and speed are not kept in phr's health log"
        case "Average heart rate (bpm)", "Max heart rate (bpm)", "Min heart rate (bpm)": return "phr's health log has no place for heart rate"
        case minimumWeightColumn, maximumWeightColumn: return "kept only in the note of a day's average weight, and this day has none"
        default:
            if lower.contains("latitude") || lower.contains("longitude") { return "locations are not kept in phr's health log" }
            if lower.hasSuffix(" duration (ms)") {
                return "time Google Fit detected per activity through the day, not a workout; workouts come from the session files, with their times"
            }
            return "not kept in phr's health log"
        }
    }

    let zone: TimeZone

    /// The weight entries of `table`, counting every column's values in `tallies`.
    func read(_ table: CSVTable, label: String, tallies: inout [String: HealthExportTally]) throws -> [HealthExportEntry] {
        guard let dateColumn = table.header.firstIndex(of: "Date") else {
            throw ZipArchive.Refusal(reason: "\(label)has no Date column; phr reads Takeout's English column names (Date, Step count, Average weight (kg), ...)")
        }
        func column(_ name: String) -> Int? { table.header.firstIndex(of: name) }
        let weight = column(Self.weightColumn), minimum = column(Self.minimumWeightColumn), maximum = column(Self.maximumWeightColumn)
        var seen: Set<CalendarDate> = []
        var entries: [HealthExportEntry] = []
        for row in table.rows {
            let text = row.fields[dateColumn]
            guard let day = CalendarDate(text) else {
                throw ZipArchive.Refusal(reason: "\(label)line \(row.line): '\(text.prefix(40))' in the Date column is not a date (YYYY-MM-DD)")
            }
            guard seen.insert(day).inserted else {
                throw ZipArchive.Refusal(reason: "\(label)line \(row.line): a second row for \(day)")
            }
            let average = weight.map { row.fields[$0] } ?? ""
            for (index, name) in table.header.enumerated() where index != dateColumn && !row.fields[index].isEmpty {
                // The lightest and heaviest weighing go into the note of the day's average.
                if !average.isEmpty && (index == minimum || index == maximum) { continue }
                if index == weight { continue }
                tallies[name, default: HealthExportTally(type: name, unit: Self.weightUnit)].records += 1
                tallies[name]!.skipped += 1
                tallies[name]!.reason = Self.reason(name)
            }
            guard !average.isEmpty else { continue }
            tallies[Self.weightColumn, default: HealthExportTally(type: Self.weightColumn, unit: Self.weightUnit)].records += 1
            guard let kilograms = Self.number(average), kilograms > 0 else {
                tallies[Self.weightColumn]!.rejected += 1
                continue
            }
            var note = "daily average from Google Fit"
            let lightest = minimum.flatMap { Self.number(row.fields[$0]) }, heaviest = maximum.flatMap { Self.number(row.fields[$0]) }
            if let lightest, let heaviest, heaviest > lightest {
                note += " (\(Self.kilograms(lightest)) to \(Self.kilograms(heaviest)) kg)"
            }
            tallies[Self.weightColumn]!.entries += 1
            entries.append(HealthExportEntry(metric: .weight, type: Self.weightColumn, start: nil, end: noon(day), value: Self.grams(kilograms),
                                             diastolic: nil, unit: .kilogram, kind: nil, note: note, key: "weight|\(day)"))
        }
        return entries
    }

    /// 12:00 of `day` in phr's zone, as UTC text: the day stays the day the file says.
    func noon(_ day: CalendarDate) -> String {
        Timestamp.string(LocalDateTime(date: day, time: LocalTime(hour: 12, minute: 0)!).instant(in: zone))
    }

    /// A decimal number as Takeout writes it ("77.69999694824219"; a dot in every language).
    static func number(_ text: String) -> Double? {
        guard text.utf8.count <= 40, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-" || $0 == "e" || $0 == "E" || $0 == "+") }),
              let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// Kilograms to the gram: Takeout writes a float's noise ("77.69999694824219").
    static func grams(_ kilograms: Double) -> Double {
        (kilograms * 1000).rounded() / 1000
    }

    /// "71.8": kilograms to 0.1, for notes.
    static func kilograms(_ value: Double) -> String {
        String(format: "%.1f", value)
    }
}
