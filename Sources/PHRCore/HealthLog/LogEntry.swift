import Foundation
import GRDB

extension LogEntry {
    public init(row: Row) throws {
        let metric = try StoredValue.decode(row["metric"], as: LogMetric.self, table: "log_entry", column: "metric")
        try self.init(
            id: row["id"],
            uid: row["uid"],
            metric: metric,
            at: row["at"],
            start: row["start_at"],
            timeZone: row["time_zone"],
            day: CalendarDate(row["day"] as String) ?? CalendarDate(year: 1970, month: 1, day: 1)!,
            value: row["value"],
            diastolic: row["diastolic"],
            pulse: row["pulse"],
            unit: StoredValue.decode(row["unit"], as: HealthUnit.self, table: "log_entry", column: "unit"),
            kind: row["kind"],
            factor: row["factor"],
            note: row["note"],
            createdAt: row["created_at"],
            updatedAt: row["updated_at"]
        )
    }

    public static let databaseTableName = "log_entry"

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["uid"] = uid
        container["metric"] = metric.rawValue
        container["at"] = at
        container["start_at"] = start
        container["time_zone"] = timeZone
        container["day"] = day.description
        container["value"] = value
        container["diastolic"] = diastolic
        container["pulse"] = pulse
        container["unit"] = unit.rawValue
        container["kind"] = kind
        container["factor"] = factor
        container["note"] = note
        container["created_at"] = createdAt
        container["updated_at"] = updatedAt
    }
}
