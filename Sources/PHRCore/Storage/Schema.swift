import GRDB

/// The vault schema as one chronological list of migrations, `migrations` below: the only place
/// that says which migrations exist and in what order. Each feature's SQL lives in a
/// `Schema+Feature.swift` file. Migrations use literal SQL only, never app types, so they replay
/// the same way forever. Constraints live in the schema (STRICT tables, CHECKs, foreign keys).
///
/// A shipped migration is never edited, renamed, reordered or removed: a vault that already ran
/// it would never run the new text. A change to the schema is a new migration appended at the end.
/// MigrationHistoryTests pins each shipped migration's SQL by its SHA-256 and fails if one changes.
enum Schema {
    struct Migration: Sendable {
        let identifier: String
        let sql: String
    }

    /// Every migration, oldest first. Append only.
    static let migrations: [Migration] = [
        Migration(identifier: "v1-foundation", sql: foundationSQL),
        Migration(identifier: "v1-profiles", sql: profilesSQL),
        Migration(identifier: "v1-documents", sql: documentsSQL),
        Migration(identifier: "v1-search", sql: searchSQL),
        Migration(identifier: "v1-search-cjk-vocab", sql: searchCJKVocabularySQL),
        Migration(identifier: "v1-records", sql: recordsSQL),
        Migration(identifier: "v1-medapi-cache", sql: medAPICacheSQL),
        Migration(identifier: "v1-medapi-class-key-first", sql: medAPIClassKeyFirstSQL),
        Migration(identifier: "v1-health-log", sql: healthLogSQL),
        Migration(identifier: "v2-document-per-profile", sql: documentPerProfileSQL),
        Migration(identifier: "v2-document-page-staging", sql: documentPageStagingSQL),
        Migration(identifier: "v3-document-ocr", sql: documentOCRSQL),
        Migration(identifier: "v3-lab-results", sql: labResultsSQL),
        Migration(identifier: "v3-reminder-channels", sql: reminderChannelsSQL),
        Migration(identifier: "v4-change-journal", sql: changeJournalSQL),
        Migration(identifier: "v5-document-list-order", sql: documentListOrderSQL),
        Migration(identifier: "v6-procedures-family-history", sql: proceduresFamilyHistorySQL),
        Migration(identifier: "v7-undated-immunizations", sql: undatedImmunizationsSQL),
        Migration(identifier: "v8-assistant-access-log", sql: assistantAccessLogSQL),
        Migration(identifier: "v9-sync", sql: syncSQL),
    ]

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in migrations {
            migrator.registerMigration(migration.identifier) { db in
                try db.execute(sql: migration.sql)
            }
        }
        return migrator
    }

    /// Migration "v1-foundation" (Schema.migrations).
    static let foundationSQL = """
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
        """
}
