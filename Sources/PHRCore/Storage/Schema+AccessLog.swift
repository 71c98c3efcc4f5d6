extension Schema {
    /// Migration "v8-assistant-access-log" (Schema.migrations): what a local assistant read
    /// through `phr mcp`, one row per call, so the user can see it (`phr mcp log`).
    ///
    /// - `arguments` is what the assistant asked with (a search query, a record ID, a page range),
    ///   as JSON, cut at 1,000 characters; never what phr answered (no record text is kept here).
    /// - `client` is the name and version the client gave in `initialize` (its own words).
    /// - The log is the device's own bookkeeping: it is not a record, not exported, not synced
    ///   (no change-journal trigger), and holds the newest 20,000 calls (AssistantAccessLog).
    static let assistantAccessLogSQL = """
        CREATE TABLE assistant_access (
            id INTEGER PRIMARY KEY,
            at TEXT NOT NULL,
            client TEXT NOT NULL CHECK (length(client) <= 200),
            call TEXT NOT NULL CHECK (length(call) BETWEEN 1 AND 100),
            arguments TEXT NOT NULL CHECK (length(arguments) <= 1000),
            profile TEXT CHECK (profile IS NULL OR length(profile) <= 200),
            outcome TEXT NOT NULL CHECK (outcome IN ('answered', 'refused', 'failed')),
            results INTEGER CHECK (results IS NULL OR results >= 0),
            via TEXT NOT NULL CHECK (via IN ('agent', 'process'))
        ) STRICT;
        """
}
