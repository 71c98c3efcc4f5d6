extension Schema {
    /// Migration "v9-sync" (Schema.migrations): what `phr sync` keeps about the records it shares
    /// with the vault's other devices. None of it is a record: not journaled, not exported.
    ///
    /// - `sync_remote`: where this device syncs (a folder, or an rclone remote).
    /// - `sync_record`: every record that has been synced, by its identity across devices (a
    ///   kind, and for example the profile uid and the record uid), and its key here (`local`,
    ///   the change journal's `record`); `removed` once a removal is applied or sent.
    /// - `sync_field`: each field's last value written by any device (as stored in its column:
    ///   `ANY` keeps integers, reals, text and bytes apart), with its hybrid-logical-clock
    ///   stamp and the (device, log) it came in: what the next push compares against, and what a
    ///   merge decides a winner by.
    /// - `sync_log`: each change log applied here (this device's too), with the version vector it
    ///   was written at, so a rerun applies each log once and a merge knows what its writer had seen.
    /// - `sync_conflict`: the value that lost when two devices changed one field concurrently (or
    ///   a record edited on one device and removed on another): kept, never dropped, until the
    ///   user settles it with `phr sync resolve`.
    /// - `vault_info` keys `sync_key` (the random key change logs are encrypted with, hex),
    ///   `sync_pushed` (the journal sequence pushed through) and `sync_clock` (the last stamp).
    static let syncSQL = """
        CREATE TABLE sync_remote (
            name TEXT PRIMARY KEY NOT NULL CHECK (length(name) BETWEEN 1 AND 40),
            target TEXT NOT NULL CHECK (length(target) > 0),
            added_at TEXT NOT NULL
        ) STRICT;

        CREATE TABLE sync_record (
            kind TEXT NOT NULL,
            identity TEXT NOT NULL,
            local TEXT,
            removed INTEGER NOT NULL DEFAULT 0 CHECK (removed IN (0, 1)),
            PRIMARY KEY (kind, identity)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX sync_record_local ON sync_record (kind, local);

        CREATE TABLE sync_field (
            kind TEXT NOT NULL,
            identity TEXT NOT NULL,
            field TEXT NOT NULL,
            value ANY,
            stamp TEXT NOT NULL,
            device TEXT NOT NULL,
            log INTEGER NOT NULL,
            PRIMARY KEY (kind, identity, field)
        ) STRICT, WITHOUT ROWID;

        CREATE TABLE sync_log (
            device TEXT NOT NULL,
            seq INTEGER NOT NULL CHECK (seq >= 1),
            vector TEXT NOT NULL,
            changes INTEGER NOT NULL,
            applied_at TEXT NOT NULL,
            PRIMARY KEY (device, seq)
        ) STRICT;

        CREATE TABLE sync_conflict (
            id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 4 AND 16),
            kind TEXT NOT NULL,
            identity TEXT NOT NULL,
            field TEXT NOT NULL,
            reason TEXT NOT NULL CHECK (reason IN ('both_changed', 'changed_and_removed', 'duplicate')),
            kept TEXT,
            lost TEXT,
            lost_device TEXT NOT NULL,
            lost_log INTEGER NOT NULL,
            lost_stamp TEXT NOT NULL,
            at TEXT NOT NULL,
            resolved_at TEXT,
            resolution TEXT CHECK (resolution IS NULL OR resolution IN ('kept', 'other', 'superseded'))
        ) STRICT;
        CREATE INDEX sync_conflict_open ON sync_conflict (kind, identity, field) WHERE resolved_at IS NULL;
        """
}
