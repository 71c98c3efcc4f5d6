extension Schema {
    /// Migration "v3-reminder-channels" (Schema.migrations): where reminders go besides the
    /// desktop (ntfy, Gotify, e-mail, a webhook, a command), and the deliveries still to make.
    ///
    /// - `reminder_channel.target` is the URL, e-mail address or command; a URL may itself be a
    ///   secret (an ntfy topic is a password, a webhook URL often carries a key). `token` is the
    ///   access token read from `--token-file`. Both live only here, in the encrypted vault:
    ///   never in unit files, argv or messages. Channels are never exported.
    /// - `reminder_delivery` is bookkeeping only: one row per reminder occurrence and channel
    ///   not yet delivered, with the reminder as JSON, retried with backoff until it is
    ///   delivered or expires (then counted in `given_up`).
    static let reminderChannelsSQL = """
        CREATE TABLE reminder_channel (
            id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 4 AND 16),
            profile_id INTEGER NOT NULL REFERENCES profile (id),
            kind TEXT NOT NULL CHECK (kind IN ('ntfy', 'gotify', 'email', 'webhook', 'command')),
            target TEXT NOT NULL CHECK (length(target) BETWEEN 1 AND 4096),
            token TEXT CHECK (token IS NULL OR length(token) BETWEEN 1 AND 4096),
            -- 1: notifications name medications, people and amounts (opt-in per channel).
            details INTEGER NOT NULL DEFAULT 0 CHECK (details IN (0, 1)),
            created_at TEXT NOT NULL,
            last_attempt_at TEXT,
            last_success_at TEXT,
            -- The latest failure, as phr words it (no URL path, token or record contents).
            last_error TEXT,
            delivered INTEGER NOT NULL DEFAULT 0 CHECK (delivered >= 0),
            given_up INTEGER NOT NULL DEFAULT 0 CHECK (given_up >= 0),
            UNIQUE (profile_id, kind, target)
        ) STRICT;
        CREATE INDEX reminder_channel_profile ON reminder_channel (profile_id);

        CREATE TABLE reminder_delivery (
            channel_id TEXT NOT NULL REFERENCES reminder_channel (id) ON DELETE CASCADE,
            -- The occurrence, as in reminder_sent.key.
            key TEXT NOT NULL CHECK (length(key) > 0),
            -- The reminder (DueReminder) as JSON; each channel words it by its own details setting.
            reminder TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
            next_attempt_at TEXT NOT NULL,
            expires_at TEXT NOT NULL,
            last_error TEXT,
            created_at TEXT NOT NULL,
            PRIMARY KEY (channel_id, key)
        ) STRICT;
        """
}
