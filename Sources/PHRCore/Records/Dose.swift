import Foundation
import GRDB

extension Dose {
    public init(row: Row) throws {
        try self.init(
            id: row["id"],
            uid: row["uid"],
            status: StoredValue.decode(row["status"], as: Status.self, table: "dose", column: "status"),
            at: row["at"],
            timeZone: row["time_zone"],
            scheduledFor: (row["scheduled_for"] as String?).flatMap(LocalDateTime.init),
            forced: (row["forced"] as String?).map { $0.split(separator: ",").map(String.init) },
            note: row["note"],
            createdAt: row["created_at"]
        )
    }

    /// The log of one medication, oldest first.
    static func all(_ db: Database, medicationID: String) throws -> [Dose] {
        try Dose.filter(Column("medication_id") == medicationID).order(Column("at"), Column.rowID).fetchAll(db)
    }

    func insert(_ db: Database, medicationID: String) throws {
        try RecordFields.refuseControlCharacters(inStringsOf: self)
        try Logged(dose: self, medicationID: medicationID).insert(db)
    }
}

/// `medication_id` is not a property: a dose never moves to another medication, so only its
/// insert (`Logged`) names it.
extension Dose: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "dose"

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["uid"] = uid
        container["status"] = status.rawValue
        container["at"] = at
        container["time_zone"] = timeZone
        container["scheduled_for"] = scheduledFor?.description
        container["forced"] = forced?.joined(separator: ",")
        container["note"] = note
        container["created_at"] = createdAt
    }

    /// A dose with the medication it is logged for.
    private struct Logged: PersistableRecord {
        static var databaseTableName: String { Dose.databaseTableName }
        var dose: Dose
        var medicationID: String

        func encode(to container: inout PersistenceContainer) {
            dose.encode(to: &container)
            container["medication_id"] = medicationID
        }
    }
}
