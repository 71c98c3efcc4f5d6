import GRDB

extension Schema {
    /// The daily health log: entries (water, sleep, workouts, meals, weight, blood pressure,
    /// glucose), goals with their history, per-profile log settings, and reminders with the
    /// record of which reminder occurrences were already shown.
    ///
    /// Conventions beyond those of the record tables (Schema+Records.swift):
    /// - a log entry's `value` is in its metric's canonical unit (ml, minutes, kcal, kg, mmHg
    ///   systolic, mmol/L); `unit` is the unit it was typed in, for showing it back;
    /// - `day` is the local day the entry counts for, in the zone the user was in (`time_zone`):
    ///   the day of `at`, which for sleep and workouts is when they ended. It is stored so the
    ///   daily totals are one indexed GROUP BY;
    /// - goals are a history: a row applies from its `since` day until the next row's;
    /// - `reminder_sent` is bookkeeping only (never exported): one row per reminder occurrence
    ///   shown, which makes `phr remind due` idempotent.
    ///
    /// Migration "v1-health-log" (Schema.migrations).
    static let healthLogSQL = """
        CREATE TABLE log_entry (
            id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 4 AND 16),
            uid TEXT NOT NULL CHECK (length(uid) BETWEEN 1 AND 255),
            profile_id INTEGER NOT NULL REFERENCES profile (id),
            metric TEXT NOT NULL CHECK (metric IN ('water', 'sleep', 'workout', 'meal', 'weight', 'bp', 'glucose')),
            -- A point entry's instant, or when a sleep or workout ended (UTC).
            at TEXT NOT NULL CHECK (at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'),
            -- When a sleep or workout started (UTC); only they have one.
            start_at TEXT CHECK ((start_at IS NOT NULL) = (metric IN ('sleep', 'workout'))
                AND (start_at IS NULL OR (start_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'
                    AND start_at < at))),
            time_zone TEXT NOT NULL CHECK (length(time_zone) > 0),
            day TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
            value REAL NOT NULL CHECK (value > 0),
            -- Blood pressure only: the diastolic value (mmHg) and an optional pulse.
            diastolic REAL CHECK ((diastolic IS NOT NULL) = (metric = 'bp') AND (diastolic IS NULL OR diastolic > 0)),
            pulse INTEGER CHECK (pulse IS NULL OR (metric = 'bp' AND pulse BETWEEN 20 AND 300)),
            unit TEXT NOT NULL CHECK (length(unit) > 0),
            -- The drink (water), workout type, meal, or glucose context.
            kind TEXT CHECK (kind IS NULL OR length(kind) > 0),
            -- Water only: the share of the volume that counts toward the water goal.
            factor REAL CHECK ((factor IS NOT NULL) = (metric = 'water') AND (factor IS NULL OR (factor >= 0 AND factor <= 3))),
            note TEXT,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            UNIQUE (profile_id, uid)
        ) STRICT;
        CREATE INDEX log_entry_profile_metric_day ON log_entry (profile_id, metric, day);
        CREATE INDEX log_entry_profile_at ON log_entry (profile_id, at);

        CREATE TABLE log_goal (
            profile_id INTEGER NOT NULL REFERENCES profile (id),
            metric TEXT NOT NULL CHECK (metric IN ('water', 'sleep', 'workout', 'meal')),
            -- The first day the goal applies.
            since TEXT NOT NULL CHECK (since GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
            value REAL NOT NULL CHECK (value > 0),
            period TEXT NOT NULL CHECK (period IN ('day', 'week')),
            set_at TEXT NOT NULL,
            PRIMARY KEY (profile_id, metric, since)
        ) STRICT;

        CREATE TABLE log_setting (
            profile_id INTEGER PRIMARY KEY NOT NULL REFERENCES profile (id),
            serving_ml REAL NOT NULL CHECK (serving_ml > 0 AND serving_ml <= 5000),
            activity_level TEXT CHECK (activity_level IN ('sedentary', 'moderate', 'vigorous')),
            units TEXT NOT NULL CHECK (units IN ('metric', 'us')),
            glucose_unit TEXT NOT NULL CHECK (glucose_unit IN ('mmol/L', 'mg/dL')),
            updated_at TEXT NOT NULL
        ) STRICT;

        CREATE TABLE reminder (
            id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 4 AND 16),
            uid TEXT NOT NULL CHECK (length(uid) BETWEEN 1 AND 255),
            profile_id INTEGER NOT NULL REFERENCES profile (id),
            kind TEXT NOT NULL CHECK (kind IN ('water', 'med', 'appt')),
            -- Water: how often inside the window [window_start, window_end); a window
            -- whose end is not after its start runs past midnight.
            mode TEXT CHECK ((mode IS NOT NULL) = (kind = 'water') AND (mode IS NULL OR mode IN ('rare', 'default', 'all'))),
            window_start TEXT CHECK ((window_start IS NOT NULL) = (kind = 'water')
                AND (window_start IS NULL OR window_start GLOB '[0-2][0-9]:[0-5][0-9]')),
            window_end TEXT CHECK ((window_end IS NOT NULL) = (kind = 'water')
                AND (window_end IS NULL OR window_end GLOB '[0-2][0-9]:[0-5][0-9]')),
            -- Medications: one medication, or NULL for every scheduled one.
            medication_id TEXT REFERENCES medication (id) ON DELETE CASCADE,
            -- Appointments: how long before the start.
            before_minutes INTEGER CHECK ((before_minutes IS NOT NULL) = (kind = 'appt')
                AND (before_minutes IS NULL OR before_minutes BETWEEN 0 AND 44640)),
            paused INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1)),
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            UNIQUE (profile_id, uid),
            CHECK (medication_id IS NULL OR kind = 'med')
        ) STRICT;
        CREATE INDEX reminder_profile ON reminder (profile_id);

        CREATE TABLE reminder_sent (
            profile_id INTEGER NOT NULL REFERENCES profile (id),
            -- Names one occurrence: "water:<reminder>:<local time>", "med:<med>:<dose time>",
            -- "appt:<appointment>:<start>:<minutes before>".
            key TEXT NOT NULL CHECK (length(key) > 0),
            due_at TEXT NOT NULL,
            sent_at TEXT NOT NULL,
            PRIMARY KEY (profile_id, key)
        ) STRICT;
        """
}
