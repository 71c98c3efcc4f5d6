import GRDB

extension Schema {
    /// Health records: medications and doses, appointments, contacts, medical ID and history.
    static func registerRecordMigrations(_ migrator: inout DatabaseMigrator) {
    }
}
