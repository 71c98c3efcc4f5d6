import GRDB

extension Schema {
    /// The change journal (issue 25, item 4): every committed change to a record a person keeps
    /// appends a row in the same transaction, written by triggers, so no code path (a command, an
    /// import, a repair, a future sync merge) can change a record without its row or leave a row
    /// without its change. A removal's row is its tombstone: the record's id and uid, `delete`.
    ///
    /// - `kind`: the record kind (RecordKind.name); `record`: its key in its table (its id; for
    ///   the one-per-profile medical ID and settings, the profile's uid; for a goal, metric/since);
    ///   `uid`: its identity across devices where it has one; `profile`: the profile's uid.
    /// - `device`: the vault's device id (`vault_info` key `device`), made here.
    /// - Profiles get `uid`, an id that does not depend on the device (their integer keys would
    ///   collide between two vaults); phr sets it on every new profile.
    /// - The records a vault already holds are journaled once, as inserts, when it migrates.
    ///
    /// Derived data is not journaled: the search index, page text, the drug-information cache,
    /// reminder channels and their delivery state (they are this device's).
    ///
    /// Migration "v4-change-journal" (Schema.migrations). The triggers are written from the
    /// literal list below, never from app types, so the text replays the same way forever.
    static let changeJournalSQL: String = {
        // (kind, table, record key, uid, profile uid) with `R.` standing for NEW. or OLD.
        let profileOf = "(SELECT uid FROM profile WHERE id = R.profile_id)"
        let journaled: [(kind: String, table: String, record: String, uid: String, profile: String)] = [
            ("profile", "profile", "R.uid", "R.uid", "R.uid"),
            ("document", "document", "R.id", "NULL", profileOf),
            ("document", "document_tag", "R.document_id", "NULL",
             "(SELECT p.uid FROM document d JOIN profile p ON p.id = d.profile_id WHERE d.id = R.document_id)"),
            ("medical_id", "medical_id", profileOf, "NULL", profileOf),
            ("medication", "medication", "R.id", "R.uid", profileOf),
            ("dose", "dose", "R.id", "R.uid",
             "(SELECT p.uid FROM medication m JOIN profile p ON p.id = m.profile_id WHERE m.id = R.medication_id)"),
            ("appointment", "appointment", "R.id", "R.uid", profileOf),
            ("contact", "contact", "R.id", "R.uid", profileOf),
            ("allergy", "allergy", "R.id", "R.uid", profileOf),
            ("condition", "condition", "R.id", "R.uid", profileOf),
            ("immunization", "immunization", "R.id", "R.uid", profileOf),
            ("observation", "observation", "R.id", "R.uid", profileOf),
            ("log_entry", "log_entry", "R.id", "R.uid", profileOf),
            ("goal", "log_goal", "R.metric || '/' || R.since", "NULL", profileOf),
            ("health_settings", "log_setting", profileOf, "NULL", profileOf),
            ("reminder", "reminder", "R.id", "R.uid", profileOf),
        ]
        var sql = """
            ALTER TABLE profile ADD COLUMN uid TEXT CHECK (uid IS NULL OR length(uid) = 32);
            UPDATE profile SET uid = lower(hex(randomblob(16)));
            CREATE UNIQUE INDEX profile_uid ON profile (uid);
            CREATE TRIGGER profile_uid_required BEFORE INSERT ON profile WHEN NEW.uid IS NULL
            BEGIN SELECT RAISE(ABORT, 'a profile needs a uid'); END;

            INSERT INTO vault_info (key, value) VALUES ('device', lower(hex(randomblob(16))));

            -- seq is the rowid: rows are never deleted, so it only grows (no AUTOINCREMENT
            -- bookkeeping on every change).
            CREATE TABLE change_journal (
                seq INTEGER PRIMARY KEY,
                kind TEXT NOT NULL,
                record TEXT NOT NULL,
                uid TEXT,
                profile TEXT,
                operation TEXT NOT NULL CHECK (operation IN ('insert', 'update', 'delete')),
                at TEXT NOT NULL,
                device TEXT NOT NULL
            ) STRICT;

            """
        // What the vault already holds goes in first, as inserts, so every record has its row.
        for entry in journaled where entry.table != "document_tag" {
            let value = { (expression: String) in expression.replacingOccurrences(of: "R.", with: "\(entry.table).") }
            sql += """
                INSERT INTO change_journal (kind, record, uid, profile, operation, at, device)
                SELECT '\(entry.kind)', \(value(entry.record)), \(value(entry.uid)), \(value(entry.profile)), 'insert',
                       strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), (SELECT value FROM vault_info WHERE key = 'device')
                FROM \(entry.table);

                """
        }
        for entry in journaled {
            sql += journalTriggersSQL(kind: entry.kind, table: entry.table, record: entry.record, uid: entry.uid, profile: entry.profile)
        }
        return sql
    }()

    /// The three triggers that journal a table's inserts, updates and deletes, with `R.`
    /// standing for NEW. or OLD. in the record, uid and profile expressions. Used by the
    /// migrations that add journaled tables; its text is part of theirs, so it never changes.
    static func journalTriggersSQL(kind: String, table: String, record: String, uid: String, profile: String) -> String {
        var sql = ""
        for (event, row, operation) in [("INSERT", "NEW", "insert"), ("UPDATE", "NEW", "update"), ("DELETE", "OLD", "delete")] {
            // A tag added to or removed from a document is a change of the document.
            let op = table == "document_tag" ? "update" : operation
            let value = { (expression: String) in expression.replacingOccurrences(of: "R.", with: "\(row).") }
            sql += """
                CREATE TRIGGER journal_\(table)_\(operation) AFTER \(event) ON \(table)
                BEGIN
                    INSERT INTO change_journal (kind, record, uid, profile, operation, at, device)
                    VALUES ('\(kind)', \(value(record)), \(value(uid)), \(value(profile)), '\(op)',
                            strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), (SELECT value FROM vault_info WHERE key = 'device'));
                END;

                """
        }
        return sql
    }
}
