import Foundation
import GRDB

/// Adds imported records to a profile so that importing the same file again changes nothing.
///
/// A record is the same as one already there when it has the same `uid` (phr exports,
/// iCalendar UIDs) or the same source key (FHIR), or else `formerKey`, the key an earlier version
/// of phr gave the same record. Then:
/// - from a phr export, a copy edited later (newer `updated_at`) replaces the one in the vault;
/// - otherwise the vault's copy stays, with any edits made to it.
/// A new record keeps its short ID when that ID is free in the vault.
enum RecordMerge {
    static func merge<R: StoredRecord>(_ db: Database, _ incoming: R, profileID: Int64, replaceIfNewer: Bool,
                                         formerKey: String? = nil) throws -> (MergeOutcome, R) {
        var record = incoming
        let found = try RecordRows.existing(db, table: R.table, profileID: profileID,
                                            uid: record.uid.isEmpty ? nil : record.uid, sourceKey: record.source?.key)
        let former = try formerKey.flatMap { key in
            try found == nil ? RecordRows.existing(db, table: R.table, profileID: profileID, uid: nil, sourceKey: key) : nil
        }
        if let existingID = found ?? former {
            let existingUpdated = try String.fetchOne(db.cachedStatement(sql: "SELECT updated_at FROM \(R.table.quotedDatabaseIdentifier) WHERE id = ?"),
                                                      arguments: [existingID]) ?? ""
            guard replaceIfNewer, record.updatedAt > existingUpdated else {
                record.id = existingID
                return (.unchanged, record)
            }
            record.id = existingID
            if record.uid.isEmpty {
                record.uid = try String.fetchOne(db, sql: "SELECT uid FROM \(R.table.quotedDatabaseIdentifier) WHERE id = ?",
                                                 arguments: [existingID]) ?? RecordID.newUID()
            }
            try R.updateRow(db, record, profileID: profileID)
            return (.updated, record)
        }
        record.id = record.id.isEmpty ? try RecordID.generate(db, table: R.table) : try RecordRows.idKeeping(db, table: R.table, wanted: record.id)
        if record.uid.isEmpty { record.uid = try RecordID.newUID() }
        try R.insertRow(db, record, profileID: profileID)
        return (.added, record)
    }
}
