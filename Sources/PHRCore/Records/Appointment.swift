import Foundation
import GRDB

extension Appointment {
    /// The CHECK constraint keeps the shape; a value no calendar has reads as the epoch rather
    /// than stopping every listing.
    public init(row: Row) throws {
        try self.init(
            id: row["id"],
            uid: row["uid"],
            with: row["with_name"],
            start: LocalDateTime(row["start_local"] as String)
                ?? LocalDateTime(date: CalendarDate(year: 1970, month: 1, day: 1)!, time: LocalTime(hour: 0, minute: 0)!),
            timeZone: row["time_zone"],
            durationMinutes: row["duration_minutes"],
            allDay: row["all_day"],
            location: row["location"],
            reason: row["reason"],
            notes: row["notes"],
            documentID: row["document_id"],
            status: StoredValue.decode(row["status"], as: Status.self, table: "appointment", column: "status"),
            remindMinutes: row["remind_minutes"],
            sequence: row["sequence"],
            source: RecordSourceColumns.read(row),
            createdAt: row["created_at"],
            updatedAt: row["updated_at"]
        )
    }

    public static let databaseTableName = "appointment"

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["uid"] = uid
        container["with_name"] = with
        container["start_local"] = start.description
        container["time_zone"] = timeZone
        // Derived, for ordering and ranges in SQL.
        container["start_utc"] = Timestamp.string(startInstant)
        container["duration_minutes"] = durationMinutes
        container["all_day"] = allDay
        container["location"] = location
        container["reason"] = reason
        container["notes"] = notes
        container["document_id"] = documentID
        container["status"] = status.rawValue
        container["remind_minutes"] = remindMinutes
        container["sequence"] = sequence
        RecordSourceColumns.write(source, to: &container)
        container["created_at"] = createdAt
        container["updated_at"] = updatedAt
    }
}
