import GRDB

extension Schema {
    /// Health records: medications and doses, appointments, contacts, medical ID and history.
    ///
    /// Conventions shared by every record table:
    /// - `id` is the short typable ID (RecordID), unique in its table; `uid` is the record's
    ///   permanent identity across vaults (a UUID, or an iCalendar UID), unique per profile, which
    ///   makes imports idempotent;
    /// - `source_key` names the record it was imported from (a FHIR identifier, fullUrl or
    ///   Type/id), unique per profile, so importing the same file twice adds nothing, and
    ///   `identifiers` keeps the source's business identifiers as a JSON array;
    /// - `codes` is a JSON array of codings ({system, code, display}) exactly as imported
    ///   (RxNorm, SNOMED CT, LOINC, CVX...), for the IPS writer and the drug lookups;
    /// - dates that may be partial (FHIR's "2015" or "2015-03") are checked as YYYY[-MM[-DD]];
    ///   instants are UTC, "YYYY-MM-DDTHH:MM:SSZ".
    ///
    /// JSON columns are checked by shape only: connections run with trusted_schema=OFF, under
    /// which SQLite 3.40 refuses json_valid() inside a CHECK. The code that writes them encodes
    /// them from typed values.
    ///
    /// Migration "v1-records" (Schema.migrations).
    static let recordsSQL = """
        -- A profile's medical ID (as on a phone's emergency screen): at most one row each.
        CREATE TABLE medical_id (
            profile_id INTEGER PRIMARY KEY NOT NULL REFERENCES profile (id),
            name TEXT CHECK (name IS NULL OR length(trim(name)) > 0),
            date_of_birth TEXT CHECK (date_of_birth IS NULL
                OR date_of_birth GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
            sex TEXT CHECK (sex IN ('female', 'male', 'other')),
            blood_type TEXT CHECK (blood_type IN ('A+', 'A-', 'B+', 'B-', 'AB+', 'AB-', 'O+', 'O-')),
            organ_donor INTEGER CHECK (organ_donor IN (0, 1)),
            height_cm REAL CHECK (height_cm > 0 AND height_cm < 300),
            weight_kg REAL CHECK (weight_kg > 0 AND weight_kg < 1000),
            notes TEXT,
            identifiers TEXT NOT NULL DEFAULT '[]' CHECK (identifiers LIKE '[%]'),
            updated_at TEXT NOT NULL
        ) STRICT;

        CREATE TABLE medication (
            id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 4 AND 16),
            uid TEXT NOT NULL CHECK (length(uid) BETWEEN 1 AND 255),
            profile_id INTEGER NOT NULL REFERENCES profile (id),
            name TEXT NOT NULL CHECK (length(trim(name)) > 0),
            dose TEXT,
            form TEXT,
            -- times: wall-clock times each day; interval: elapsed time since the last
            -- dose; as_needed: when needed; unscheduled: no schedule known.
            schedule TEXT NOT NULL CHECK (schedule IN ('times', 'interval', 'as_needed', 'unscheduled')),
            times TEXT CHECK ((schedule = 'times') = (times IS NOT NULL)
                AND (times IS NULL OR times GLOB '[0-2][0-9]:[0-5][0-9]*')),
            every_minutes INTEGER CHECK ((schedule = 'interval') = (every_minutes IS NOT NULL)
                AND (every_minutes IS NULL OR every_minutes > 0)),
            -- NULL: the times follow the zone the user is in; else an IANA zone they stay in.
            time_zone TEXT CHECK (time_zone IS NULL OR length(time_zone) > 0),
            min_interval_minutes INTEGER CHECK (min_interval_minutes > 0),
            max_per_day INTEGER CHECK (max_per_day > 0),
            start_date TEXT CHECK (start_date IS NULL OR start_date GLOB '[0-9][0-9][0-9][0-9]'
                OR start_date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]'
                OR start_date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
            end_date TEXT CHECK (end_date IS NULL OR end_date GLOB '[0-9][0-9][0-9][0-9]'
                OR end_date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]'
                OR end_date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
            status TEXT NOT NULL CHECK (status IN ('active', 'stopped')),
            -- The first day without doses; NULL for a stop whose date is unknown.
            stopped_on TEXT CHECK (stopped_on IS NULL
                OR (status = 'stopped' AND stopped_on GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]')),
            prescriber TEXT,
            pharmacy TEXT,
            refills INTEGER CHECK (refills >= 0),
            document_id TEXT REFERENCES document (id) ON DELETE SET NULL,
            instructions TEXT,
            notes TEXT,
            codes TEXT NOT NULL DEFAULT '[]' CHECK (codes LIKE '[%]'),
            source_key TEXT,
            identifiers TEXT NOT NULL DEFAULT '[]' CHECK (identifiers LIKE '[%]'),
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            UNIQUE (profile_id, uid)
        ) STRICT;
        CREATE UNIQUE INDEX medication_source ON medication (profile_id, source_key) WHERE source_key IS NOT NULL;
        CREATE INDEX medication_profile ON medication (profile_id, status);

        -- The dose log: one row per dose taken or skipped.
        CREATE TABLE dose (
            id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 4 AND 16),
            uid TEXT NOT NULL CHECK (length(uid) BETWEEN 1 AND 255),
            medication_id TEXT NOT NULL REFERENCES medication (id) ON DELETE CASCADE,
            status TEXT NOT NULL CHECK (status IN ('taken', 'skipped')),
            at TEXT NOT NULL CHECK (at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'),
            -- The IANA zone the user was in: scheduled_for is a wall-clock time there.
            time_zone TEXT NOT NULL CHECK (length(time_zone) > 0),
            scheduled_for TEXT CHECK (scheduled_for IS NULL
                OR scheduled_for GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]'),
            -- Which guard rules --force overrode, comma-separated; NULL when none.
            forced TEXT CHECK (forced IS NULL OR (status = 'taken' AND length(forced) > 0)),
            note TEXT,
            created_at TEXT NOT NULL,
            UNIQUE (medication_id, uid)
        ) STRICT;
        CREATE INDEX dose_medication_at ON dose (medication_id, at);
        -- A scheduled dose is logged once: a second dose for the same time is an extra.
        CREATE UNIQUE INDEX dose_slot ON dose (medication_id, scheduled_for) WHERE scheduled_for IS NOT NULL;

        CREATE TABLE appointment (
            id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 4 AND 16),
            uid TEXT NOT NULL CHECK (length(uid) BETWEEN 1 AND 255),
            profile_id INTEGER NOT NULL REFERENCES profile (id),
            with_name TEXT NOT NULL CHECK (length(trim(with_name)) > 0),
            -- The wall-clock start where the appointment is; start_utc is derived from it
            -- and time_zone, for ordering and ranges.
            start_local TEXT NOT NULL CHECK (start_local GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]'),
            time_zone TEXT NOT NULL CHECK (length(time_zone) > 0),
            start_utc TEXT NOT NULL CHECK (start_utc GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'),
            duration_minutes INTEGER NOT NULL CHECK (duration_minutes BETWEEN 1 AND 44640),
            all_day INTEGER NOT NULL DEFAULT 0 CHECK (all_day IN (0, 1)),
            location TEXT,
            reason TEXT,
            notes TEXT,
            document_id TEXT REFERENCES document (id) ON DELETE SET NULL,
            status TEXT NOT NULL CHECK (status IN ('confirmed', 'tentative', 'cancelled')),
            remind_minutes INTEGER CHECK (remind_minutes >= 0),
            -- iCalendar SEQUENCE: raised when the time changes, so calendars update.
            sequence INTEGER NOT NULL DEFAULT 0 CHECK (sequence >= 0),
            source_key TEXT,
            identifiers TEXT NOT NULL DEFAULT '[]' CHECK (identifiers LIKE '[%]'),
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            UNIQUE (profile_id, uid)
        ) STRICT;
        CREATE UNIQUE INDEX appointment_source ON appointment (profile_id, source_key) WHERE source_key IS NOT NULL;
        CREATE INDEX appointment_profile_start ON appointment (profile_id, start_utc);

        CREATE TABLE contact (
            id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 4 AND 16),
            uid TEXT NOT NULL CHECK (length(uid) BETWEEN 1 AND 255),
            profile_id INTEGER NOT NULL REFERENCES profile (id),
            name TEXT NOT NULL CHECK (length(trim(name)) > 0),
            phone TEXT NOT NULL CHECK (length(trim(phone)) > 0),
            relation TEXT,
            email TEXT CHECK (email IS NULL OR email LIKE '%_@_%'),
            emergency INTEGER NOT NULL DEFAULT 0 CHECK (emergency IN (0, 1)),
            notes TEXT,
            source_key TEXT,
            identifiers TEXT NOT NULL DEFAULT '[]' CHECK (identifiers LIKE '[%]'),
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            UNIQUE (profile_id, uid)
        ) STRICT;
        CREATE UNIQUE INDEX contact_source ON contact (profile_id, source_key) WHERE source_key IS NOT NULL;
        CREATE INDEX contact_profile ON contact (profile_id);

        CREATE TABLE allergy (
            id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 4 AND 16),
            uid TEXT NOT NULL CHECK (length(uid) BETWEEN 1 AND 255),
            profile_id INTEGER NOT NULL REFERENCES profile (id),
            substance TEXT NOT NULL CHECK (length(trim(substance)) > 0),
            reaction TEXT,
            severity TEXT CHECK (severity IN ('mild', 'moderate', 'severe')),
            criticality TEXT CHECK (criticality IN ('low', 'high', 'unable-to-assess')),
            category TEXT CHECK (category IN ('food', 'medication', 'environment', 'biologic')),
            status TEXT NOT NULL CHECK (status IN ('active', 'inactive', 'resolved')),
            since TEXT CHECK (since IS NULL OR since GLOB '[0-9][0-9][0-9][0-9]'
                OR since GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]'
                OR since GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
            notes TEXT,
            codes TEXT NOT NULL DEFAULT '[]' CHECK (codes LIKE '[%]'),
            source_key TEXT,
            identifiers TEXT NOT NULL DEFAULT '[]' CHECK (identifiers LIKE '[%]'),
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            UNIQUE (profile_id, uid)
        ) STRICT;
        CREATE UNIQUE INDEX allergy_source ON allergy (profile_id, source_key) WHERE source_key IS NOT NULL;
        CREATE INDEX allergy_profile ON allergy (profile_id);

        CREATE TABLE condition (
            id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 4 AND 16),
            uid TEXT NOT NULL CHECK (length(uid) BETWEEN 1 AND 255),
            profile_id INTEGER NOT NULL REFERENCES profile (id),
            name TEXT NOT NULL CHECK (length(trim(name)) > 0),
            status TEXT NOT NULL CHECK (status IN ('active', 'recurrence', 'relapse', 'inactive', 'remission', 'resolved')),
            since TEXT CHECK (since IS NULL OR since GLOB '[0-9][0-9][0-9][0-9]'
                OR since GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]'
                OR since GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
            resolved TEXT CHECK (resolved IS NULL OR resolved GLOB '[0-9][0-9][0-9][0-9]'
                OR resolved GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]'
                OR resolved GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
            notes TEXT,
            codes TEXT NOT NULL DEFAULT '[]' CHECK (codes LIKE '[%]'),
            source_key TEXT,
            identifiers TEXT NOT NULL DEFAULT '[]' CHECK (identifiers LIKE '[%]'),
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            UNIQUE (profile_id, uid)
        ) STRICT;
        CREATE UNIQUE INDEX condition_source ON condition (profile_id, source_key) WHERE source_key IS NOT NULL;
        CREATE INDEX condition_profile ON condition (profile_id);

        CREATE TABLE immunization (
            id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 4 AND 16),
            uid TEXT NOT NULL CHECK (length(uid) BETWEEN 1 AND 255),
            profile_id INTEGER NOT NULL REFERENCES profile (id),
            vaccine TEXT NOT NULL CHECK (length(trim(vaccine)) > 0),
            date TEXT NOT NULL CHECK (date GLOB '[0-9][0-9][0-9][0-9]'
                OR date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]'
                OR date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
            dose_number INTEGER CHECK (dose_number >= 1),
            lot TEXT,
            notes TEXT,
            codes TEXT NOT NULL DEFAULT '[]' CHECK (codes LIKE '[%]'),
            source_key TEXT,
            identifiers TEXT NOT NULL DEFAULT '[]' CHECK (identifiers LIKE '[%]'),
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            UNIQUE (profile_id, uid)
        ) STRICT;
        CREATE UNIQUE INDEX immunization_source ON immunization (profile_id, source_key) WHERE source_key IS NOT NULL;
        CREATE INDEX immunization_profile ON immunization (profile_id, date);

        -- Measurements and results (FHIR Observation): a value, or components (blood
        -- pressure), or both.
        CREATE TABLE observation (
            id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 4 AND 16),
            uid TEXT NOT NULL CHECK (length(uid) BETWEEN 1 AND 255),
            profile_id INTEGER NOT NULL REFERENCES profile (id),
            name TEXT NOT NULL CHECK (length(trim(name)) > 0),
            category TEXT,
            status TEXT NOT NULL CHECK (status IN ('registered', 'preliminary', 'final', 'amended', 'corrected', 'unknown')),
            -- A FHIR date or dateTime as given (the offset is the local time it was taken).
            effective TEXT CHECK (effective IS NULL OR effective GLOB '[0-9][0-9][0-9][0-9]*'),
            value_number REAL,
            value_unit TEXT,
            value_text TEXT,
            value_codes TEXT CHECK (value_codes IS NULL OR value_codes LIKE '[%]'),
            components TEXT NOT NULL DEFAULT '[]' CHECK (components LIKE '[%]'),
            notes TEXT,
            codes TEXT NOT NULL DEFAULT '[]' CHECK (codes LIKE '[%]'),
            source_key TEXT,
            identifiers TEXT NOT NULL DEFAULT '[]' CHECK (identifiers LIKE '[%]'),
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            UNIQUE (profile_id, uid),
            CHECK (value_number IS NOT NULL OR value_text IS NOT NULL OR value_codes IS NOT NULL OR components != '[]')
        ) STRICT;
        CREATE UNIQUE INDEX observation_source ON observation (profile_id, source_key) WHERE source_key IS NOT NULL;
        CREATE INDEX observation_profile ON observation (profile_id, effective);
        """
}

extension Schema {
    /// Migration "v6-procedures-family-history" (Schema.migrations): procedures and family
    /// history (issue 26, item 11), with the columns every imported record kind has (codes,
    /// source key, identifiers) and the change journal's triggers, as v4 gave the other kinds.
    static let proceduresFamilyHistorySQL: String = {
        let profileOf = "(SELECT uid FROM profile WHERE id = R.profile_id)"
        return """
            CREATE TABLE procedure (
                id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 4 AND 16),
                uid TEXT NOT NULL CHECK (length(uid) BETWEEN 1 AND 255),
                profile_id INTEGER NOT NULL REFERENCES profile (id),
                name TEXT NOT NULL CHECK (length(trim(name)) > 0),
                date TEXT CHECK (date IS NULL OR date GLOB '[0-9][0-9][0-9][0-9]'
                    OR date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]'
                    OR date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
                status TEXT NOT NULL CHECK (status IN ('completed', 'in-progress', 'not-done', 'on-hold', 'stopped', 'preparation', 'unknown')),
                body_site TEXT,
                performer TEXT,
                notes TEXT,
                codes TEXT NOT NULL DEFAULT '[]' CHECK (codes LIKE '[%]'),
                source_key TEXT,
                identifiers TEXT NOT NULL DEFAULT '[]' CHECK (identifiers LIKE '[%]'),
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL,
                UNIQUE (profile_id, uid)
            ) STRICT;
            CREATE UNIQUE INDEX procedure_source ON procedure (profile_id, source_key) WHERE source_key IS NOT NULL;
            CREATE INDEX procedure_profile ON procedure (profile_id, date);

            CREATE TABLE family_history (
                id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 4 AND 16),
                uid TEXT NOT NULL CHECK (length(uid) BETWEEN 1 AND 255),
                profile_id INTEGER NOT NULL REFERENCES profile (id),
                relation TEXT NOT NULL CHECK (length(trim(relation)) > 0),
                relation_code TEXT,
                condition TEXT NOT NULL CHECK (length(trim(condition)) > 0),
                onset_age INTEGER CHECK (onset_age IS NULL OR onset_age BETWEEN 0 AND 150),
                cause_of_death INTEGER CHECK (cause_of_death IS NULL OR cause_of_death IN (0, 1)),
                notes TEXT,
                codes TEXT NOT NULL DEFAULT '[]' CHECK (codes LIKE '[%]'),
                source_key TEXT,
                identifiers TEXT NOT NULL DEFAULT '[]' CHECK (identifiers LIKE '[%]'),
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL,
                UNIQUE (profile_id, uid)
            ) STRICT;
            CREATE UNIQUE INDEX family_history_source ON family_history (profile_id, source_key) WHERE source_key IS NOT NULL;
            CREATE INDEX family_history_profile ON family_history (profile_id);

            """
            + journalTriggersSQL(kind: "procedure", table: "procedure", record: "R.id", uid: "R.uid", profile: profileOf)
            + journalTriggersSQL(kind: "family_history", table: "family_history", record: "R.id", uid: "R.uid", profile: profileOf)
    }()
}

extension Schema {
    /// Migration "v7-undated-immunizations" (Schema.migrations): an immunization may have no date
    /// (issue 26, item 7: a vaccination card or a hospital export that says a vaccine was given
    /// but not when; a patient's own record keeps it undated rather than losing it). SQLite
    /// changes a column's CHECK only by rebuilding the table: the rows are copied as they are
    /// (the copy is not a change, so it is not journaled), then the indexes and the journal's
    /// triggers are made again as v1 and v4 made them.
    static let undatedImmunizationsSQL: String = {
        let profileOf = "(SELECT uid FROM profile WHERE id = R.profile_id)"
        return """
            CREATE TABLE immunization_v7 (
                id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 4 AND 16),
                uid TEXT NOT NULL CHECK (length(uid) BETWEEN 1 AND 255),
                profile_id INTEGER NOT NULL REFERENCES profile (id),
                vaccine TEXT NOT NULL CHECK (length(trim(vaccine)) > 0),
                date TEXT CHECK (date IS NULL OR date GLOB '[0-9][0-9][0-9][0-9]'
                    OR date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]'
                    OR date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
                dose_number INTEGER CHECK (dose_number >= 1),
                lot TEXT,
                notes TEXT,
                codes TEXT NOT NULL DEFAULT '[]' CHECK (codes LIKE '[%]'),
                source_key TEXT,
                identifiers TEXT NOT NULL DEFAULT '[]' CHECK (identifiers LIKE '[%]'),
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL,
                UNIQUE (profile_id, uid)
            ) STRICT;
            INSERT INTO immunization_v7 (id, uid, profile_id, vaccine, date, dose_number, lot, notes, codes, source_key, identifiers,
                                         created_at, updated_at)
                SELECT id, uid, profile_id, vaccine, date, dose_number, lot, notes, codes, source_key, identifiers, created_at, updated_at
                FROM immunization ORDER BY rowid;
            DROP TABLE immunization;
            ALTER TABLE immunization_v7 RENAME TO immunization;
            CREATE UNIQUE INDEX immunization_source ON immunization (profile_id, source_key) WHERE source_key IS NOT NULL;
            CREATE INDEX immunization_profile ON immunization (profile_id, date);

            """ + journalTriggersSQL(kind: "immunization", table: "immunization", record: "R.id", uid: "R.uid", profile: profileOf)
    }()
}
