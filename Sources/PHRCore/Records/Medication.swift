import Foundation
import GRDB

extension Medication {
    public init(row: Row) throws {
        try self.init(
            id: row["id"],
            uid: row["uid"],
            name: row["name"],
            dose: row["dose"],
            form: row["form"],
            schedule: .from(kind: row["schedule"], times: row["times"], everyMinutes: row["every_minutes"]),
            timeZone: row["time_zone"],
            minIntervalMinutes: row["min_interval_minutes"],
            maxPerDay: row["max_per_day"],
            start: (row["start_date"] as String?).flatMap(PartialDate.init),
            end: (row["end_date"] as String?).flatMap(PartialDate.init),
            status: StoredValue.decode(row["status"], as: Status.self, table: "medication", column: "status"),
            stoppedOn: (row["stopped_on"] as String?).flatMap(CalendarDate.init),
            prescriber: row["prescriber"],
            pharmacy: row["pharmacy"],
            refills: row["refills"],
            documentID: row["document_id"],
            instructions: row["instructions"],
            notes: row["notes"],
            codes: JSONColumn.decode([Coding].self, from: row["codes"], fallback: []),
            source: RecordSourceColumns.read(row),
            createdAt: row["created_at"],
            updatedAt: row["updated_at"]
        )
    }

    public static let databaseTableName = "medication"

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["uid"] = uid
        container["name"] = name
        container["dose"] = dose
        container["form"] = form
        container["schedule"] = schedule.kind
        container["times"] = schedule.timesColumn
        container["every_minutes"] = schedule.everyMinutesColumn
        container["time_zone"] = timeZone
        container["min_interval_minutes"] = minIntervalMinutes
        container["max_per_day"] = maxPerDay
        container["start_date"] = start?.description
        container["end_date"] = end?.description
        container["status"] = status.rawValue
        container["stopped_on"] = stoppedOn?.description
        container["prescriber"] = prescriber
        container["pharmacy"] = pharmacy
        container["refills"] = refills
        container["document_id"] = documentID
        container["instructions"] = instructions
        container["notes"] = notes
        container["codes"] = JSONColumn.encode(codes)
        RecordSourceColumns.write(source, to: &container)
        container["created_at"] = createdAt
        container["updated_at"] = updatedAt
    }
}

/// Reading and writing the `source_key` and `identifiers` columns every record table has.
enum RecordSourceColumns {
    static func read(_ row: Row) -> RecordSource? {
        guard let key: String = row["source_key"] else { return nil }
        return RecordSource(key: key, identifiers: JSONColumn.decode([SourceIdentifier].self, from: row["identifiers"], fallback: []))
    }

    static func write(_ source: RecordSource?, to container: inout PersistenceContainer) {
        container["source_key"] = source?.key
        container["identifiers"] = JSONColumn.encode(source?.identifiers ?? [])
    }
}
