import GRDB

/// The vault schema as an ordered list of migrations. A shipped migration is never edited: new
/// features append new ones, in the order they are registered here (each feature's migrations
/// live in a `Schema+Feature.swift` file). Migrations use literal SQL only, never app types, so they replay the
/// same way forever. Constraints live in the schema (STRICT tables, CHECKs, foreign keys).
enum Schema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-foundation") { db in
            try db.execute(sql: """
                CREATE TABLE vault_info (
                    key TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                ) STRICT;

                -- Encrypted files under blobs/, named by a keyed hash of their plaintext.
                CREATE TABLE blob (
                    name TEXT PRIMARY KEY NOT NULL CHECK (length(name) = 64),
                    size INTEGER NOT NULL CHECK (size >= 0),
                    sha256 BLOB NOT NULL CHECK (length(sha256) = 32),
                    created_at TEXT NOT NULL
                ) STRICT;
                """)
        }
        registerDocumentMigrations(&migrator)
        registerRecordMigrations(&migrator)
        registerMedAPIMigrations(&migrator)
        registerHealthLogMigrations(&migrator)
        registerDocumentPerProfileMigration(&migrator)
        return migrator
    }
}
