import Foundation
import GRDB

/// A habit's totals per day, as the statistics need them: one indexed GROUP BY over the
/// stored `day` of each entry, so a year of stats reads a few thousand rows, not the entries.
public struct HabitSeries: Sendable {
    /// One day's total of a habit, and how it splits by drink, workout type or meal.
    public struct Day: Sendable, Equatable {
        public var day: CalendarDate
        /// What counts toward the goal (water: volume × hydration factor).
        public var total: Double
        public var entries: Int
        /// By drink, workout type or meal ("" for entries without one).
        public var byKind: [String: KindAmount]

        package init(day: CalendarDate, total: Double, entries: Int, byKind: [String: KindAmount] = [:]) {
            self.day = day
            self.total = total
            self.entries = entries
            self.byKind = byKind
        }
    }

    /// What one drink, workout type or meal contributed.
    public struct KindAmount: Sendable, Equatable {
        /// Toward the goal (water: volume × hydration factor).
        public var counted: Double
        /// As logged (water: the volume drunk).
        public var raw: Double
        public var entries: Int
    }

    public let metric: LogMetric
    /// Days with entries, oldest first.
    public let days: [Day]
    let index: [CalendarDate: Int]

    public init(metric: LogMetric, days: [Day]) {
        self.metric = metric
        self.days = days.sorted { $0.day < $1.day }
        index = Dictionary(uniqueKeysWithValues: self.days.enumerated().map { ($1.day, $0) })
    }

    public subscript(day: CalendarDate) -> Day? { index[day].map { days[$0] } }

    public var firstDay: CalendarDate? { days.first?.day }

    /// The sum over `from...to`.
    public func total(from: CalendarDate, to: CalendarDate) -> (total: Double, entries: Int, daysLogged: Int) {
        var result = (total: 0.0, entries: 0, daysLogged: 0)
        for day in days where day.day >= from && day.day <= to {
            result.total += day.total
            result.entries += day.entries
            result.daysLogged += 1
        }
        return result
    }

    static func load(_ db: Database, metric: LogMetric, profileID: Int64) throws -> HabitSeries {
        var byDay: [String: Day] = [:]
        let rows = try Row.fetchCursor(db, sql: """
            SELECT day, coalesce(kind, '') AS kind, sum(value * coalesce(factor, 1)) AS counted, sum(value) AS raw, count(*) AS entries
            FROM log_entry WHERE profile_id = ? AND metric = ? GROUP BY day, kind
            """, arguments: [profileID, metric.rawValue])
        // Columns by position: by name, GRDB looks each one up per row.
        while let row = try rows.next() {
            let text: String = row[0]
            guard let date = CalendarDate(text) else { continue }
            var day = byDay[text] ?? Day(day: date, total: 0, entries: 0, byKind: [:])
            let counted: Double = row[2]
            let entries: Int = row[4]
            day.total += counted
            day.entries += entries
            day.byKind[row[1]] = KindAmount(counted: counted, raw: row[3], entries: entries)
            byDay[text] = day
        }
        return HabitSeries(metric: metric, days: Array(byDay.values))
    }
}

extension MeasurementSeries {
    static func load(_ db: Database, metric: LogMetric, profileID: Int64, from: CalendarDate, to: CalendarDate) throws -> MeasurementSeries {
        let days = try Row.fetchAll(db, sql: """
            SELECT day, count(*) AS readings, avg(value) AS mean, min(value) AS lo, max(value) AS hi,
                avg(diastolic) AS dmean, min(diastolic) AS dlo, max(diastolic) AS dhi, avg(pulse) AS pulse
            FROM log_entry WHERE profile_id = ? AND metric = ? AND day BETWEEN ? AND ? GROUP BY day ORDER BY day
            """, arguments: [profileID, metric.rawValue, from.description, to.description]).compactMap { row -> Day? in
            guard let day = CalendarDate(row["day"] as String) else { return nil }
            return Day(day: day, readings: row["readings"], mean: row["mean"], min: row["lo"], max: row["hi"], diastolicMean: row["dmean"],
                       diastolicMin: row["dlo"], diastolicMax: row["dhi"], pulseMean: row["pulse"])
        }
        let latest = try LogEntry.fetchOne(db, sql: """
            SELECT * FROM log_entry WHERE profile_id = ? AND metric = ? AND day <= ? ORDER BY at DESC, rowid DESC LIMIT 1
            """, arguments: [profileID, metric.rawValue, to.description])
        return MeasurementSeries(metric: metric, days: days, latest: latest)
    }
}
