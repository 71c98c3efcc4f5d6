import GRDB

extension Schema {
    /// Profiles, documents and the search index.
    ///
    /// Migration "v1-profiles" (Schema.migrations).
    static let profilesSQL = """
        -- The people whose records the vault keeps; every record belongs to one.
        CREATE TABLE profile (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(trim(name)) > 0),
            relation TEXT NOT NULL CHECK (relation IN ('self', 'child', 'parent', 'partner', 'other')),
            created_at TEXT NOT NULL
        ) STRICT;
        """
    /// Migration "v1-documents" (Schema.migrations).
    static let documentsSQL = """
        CREATE TABLE document (
            id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 4 AND 16),
            profile_id INTEGER NOT NULL REFERENCES profile (id),
            blob_name TEXT NOT NULL UNIQUE REFERENCES blob (name),
            file_name TEXT NOT NULL,
            media_type TEXT NOT NULL CHECK (media_type IN ('application/pdf', 'image/png', 'image/jpeg')),
            title TEXT NOT NULL CHECK (length(trim(title)) > 0),
            type TEXT NOT NULL CHECK (type IN ('prescription', 'insurance', 'lab', 'imaging', 'discharge',
                'visit', 'vaccination', 'referral', 'bill', 'other')),
            type_source TEXT NOT NULL CHECK (type_source IN ('guessed', 'user')),
            date TEXT CHECK (date IS NULL OR date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
            date_source TEXT CHECK (date_source IN ('guessed', 'metadata', 'user')),
            provider TEXT,
            note TEXT,
            outcome TEXT NOT NULL CHECK (outcome IN ('indexed', 'partial', 'no_text', 'junk_text',
                'unreadable', 'password_required')),
            outcome_detail TEXT,
            page_count INTEGER NOT NULL CHECK (page_count >= 0),
            text_pages INTEGER NOT NULL CHECK (text_pages >= 0),
            size INTEGER NOT NULL CHECK (size >= 0),
            sha256 BLOB NOT NULL CHECK (length(sha256) = 32),
            extractor TEXT NOT NULL,
            added_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        ) STRICT;
        CREATE INDEX document_profile_date ON document (profile_id, date);

        CREATE TABLE document_tag (
            document_id TEXT NOT NULL REFERENCES document (id) ON DELETE CASCADE,
            tag TEXT NOT NULL CHECK (length(tag) > 0),
            PRIMARY KEY (document_id, tag)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX document_tag_tag ON document_tag (tag);
        """
    /// Migration "v1-search" (Schema.migrations).
    static let searchSQL = """
        -- One row per searchable unit: a document page, a medication, an appointment...
        -- Its text lives here once; search_fts indexes it (external content). SearchIndex
        -- keeps the two in step: triggers cannot, because connections run with
        -- trusted_schema=OFF, which forbids virtual tables inside triggers.
        CREATE TABLE search_entry (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL,
            record_id TEXT NOT NULL,
            profile_id INTEGER NOT NULL REFERENCES profile (id),
            page INTEGER CHECK (page IS NULL OR page >= 1),
            title TEXT NOT NULL,
            tags TEXT NOT NULL,
            body TEXT NOT NULL,
            -- Other spellings indexed but never shown: right-to-left words reversed
            -- (SearchIndex.alternates).
            alternates TEXT NOT NULL DEFAULT '',
            type TEXT,
            date TEXT
        ) STRICT;
        CREATE UNIQUE INDEX search_entry_record ON search_entry (kind, record_id, ifnull(page, 0));
        CREATE INDEX search_entry_profile ON search_entry (profile_id, kind);

        CREATE VIRTUAL TABLE search_fts USING fts5(
            title, tags, body, alternates,
            content = 'search_entry', content_rowid = 'id',
            tokenize = 'unicode61 remove_diacritics 2'
        );
        -- Ranking: BM25 with the title above tags above the body (SearchEngine).
        INSERT INTO search_fts (search_fts, rank) VALUES ('rank', 'bm25(10.0, 5.0, 1.0, 1.0)');
        """
    /// Migration "v1-search-cjk-vocab" (Schema.migrations).
    static let searchCJKVocabularySQL = """
        -- Runs of Chinese, Japanese, Korean, Thai... text (ScriptRuns), indexed by trigrams so
        -- a word inside a run is found by substring; unicode61 sees a whole run as one token.
        CREATE TABLE search_cjk (
            entry_id INTEGER PRIMARY KEY REFERENCES search_entry (id),
            text TEXT NOT NULL
        ) STRICT;
        CREATE VIRTUAL TABLE search_cjk_fts USING fts5(
            text, content = 'search_cjk', content_rowid = 'entry_id', tokenize = 'trigram'
        );
        -- The vocabulary of the main index, for typo tolerance and "did you mean".
        CREATE VIRTUAL TABLE search_vocab USING fts5vocab(search_fts, 'row');
        """

    /// Migration "v2-document-per-profile" (Schema.migrations): one file, one document per
    /// profile (the same scan can belong to a parent and a child). SQLite cannot drop a UNIQUE
    /// constraint, so the table is rebuilt (sqlite.org/lang_altertable.html, "other kinds of table
    /// schema changes"), with foreign keys off and checked after (GRDB's default).
    static let documentPerProfileSQL = """
        CREATE TABLE document_new (
            id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 4 AND 16),
            profile_id INTEGER NOT NULL REFERENCES profile (id),
            blob_name TEXT NOT NULL REFERENCES blob (name),
            file_name TEXT NOT NULL,
            media_type TEXT NOT NULL CHECK (media_type IN ('application/pdf', 'image/png', 'image/jpeg')),
            title TEXT NOT NULL CHECK (length(trim(title)) > 0),
            type TEXT NOT NULL CHECK (type IN ('prescription', 'insurance', 'lab', 'imaging', 'discharge',
                'visit', 'vaccination', 'referral', 'bill', 'other')),
            type_source TEXT NOT NULL CHECK (type_source IN ('guessed', 'user')),
            date TEXT CHECK (date IS NULL OR date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
            date_source TEXT CHECK (date_source IN ('guessed', 'metadata', 'user')),
            provider TEXT,
            note TEXT,
            outcome TEXT NOT NULL CHECK (outcome IN ('indexed', 'partial', 'no_text', 'junk_text',
                'unreadable', 'password_required')),
            outcome_detail TEXT,
            page_count INTEGER NOT NULL CHECK (page_count >= 0),
            text_pages INTEGER NOT NULL CHECK (text_pages >= 0),
            size INTEGER NOT NULL CHECK (size >= 0),
            sha256 BLOB NOT NULL CHECK (length(sha256) = 32),
            extractor TEXT NOT NULL,
            added_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            UNIQUE (profile_id, blob_name)
        ) STRICT;
        INSERT INTO document_new SELECT * FROM document;
        DROP TABLE document;
        ALTER TABLE document_new RENAME TO document;
        CREATE INDEX document_profile_date ON document (profile_id, date);
        CREATE INDEX document_blob ON document (blob_name);
        """

    /// Migration "v2-document-page-staging" (Schema.migrations): text of documents being added,
    /// beyond what the adding process keeps in memory (PageSpool); empty between commands. Rows a
    /// killed command left are removed by 'phr check --repair'.
    static let documentPageStagingSQL = """
        CREATE TABLE document_page_staging (
            token TEXT NOT NULL,
            page INTEGER NOT NULL CHECK (page >= 1),
            text TEXT NOT NULL,
            PRIMARY KEY (token, page)
        ) STRICT, WITHOUT ROWID;
        """

    /// Migration "v3-document-ocr" (Schema.migrations): scans and photos become searchable.
    /// Documents may be TIFF, WebP or HEIC images; the outcome "ocr" means indexed with text
    /// from OCR; `ocr` says whether a document still waits for OCR ('waiting': stored without
    /// it, `phr doc reindex --ocr` reads it), and `document_page` keeps, for each page OCR
    /// read, how confident it was and the words with their boxes (PageWordCoding).
    /// Documents stored before OCR existed that need it start out waiting. The table is rebuilt
    /// to change its CHECK constraints, as in v2-document-per-profile.
    static let documentOCRSQL = """
        CREATE TABLE document_new (
            id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 4 AND 16),
            profile_id INTEGER NOT NULL REFERENCES profile (id),
            blob_name TEXT NOT NULL REFERENCES blob (name),
            file_name TEXT NOT NULL,
            media_type TEXT NOT NULL CHECK (media_type IN ('application/pdf', 'image/png', 'image/jpeg',
                'image/tiff', 'image/webp', 'image/heic')),
            title TEXT NOT NULL CHECK (length(trim(title)) > 0),
            type TEXT NOT NULL CHECK (type IN ('prescription', 'insurance', 'lab', 'imaging', 'discharge',
                'visit', 'vaccination', 'referral', 'bill', 'other')),
            type_source TEXT NOT NULL CHECK (type_source IN ('guessed', 'user')),
            date TEXT CHECK (date IS NULL OR date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
            date_source TEXT CHECK (date_source IN ('guessed', 'metadata', 'user')),
            provider TEXT,
            note TEXT,
            outcome TEXT NOT NULL CHECK (outcome IN ('indexed', 'ocr', 'partial', 'no_text', 'junk_text',
                'unreadable', 'password_required')),
            outcome_detail TEXT,
            page_count INTEGER NOT NULL CHECK (page_count >= 0),
            text_pages INTEGER NOT NULL CHECK (text_pages >= 0),
            size INTEGER NOT NULL CHECK (size >= 0),
            sha256 BLOB NOT NULL CHECK (length(sha256) = 32),
            extractor TEXT NOT NULL,
            added_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            ocr TEXT NOT NULL DEFAULT 'not_needed' CHECK (ocr IN ('not_needed', 'waiting', 'done')),
            UNIQUE (profile_id, blob_name)
        ) STRICT;
        INSERT INTO document_new SELECT *,
            CASE WHEN outcome IN ('no_text', 'junk_text')
                    OR (outcome = 'partial' AND (outcome_detail LIKE '%OCR%' OR outcome_detail LIKE '%unusable text%'))
                THEN 'waiting' ELSE 'not_needed' END
            FROM document;
        DROP TABLE document;
        ALTER TABLE document_new RENAME TO document;
        CREATE INDEX document_profile_date ON document (profile_id, date);
        CREATE INDEX document_blob ON document (blob_name);
        CREATE INDEX document_ocr_waiting ON document (ocr) WHERE ocr = 'waiting';

        CREATE TABLE document_page (
            document_id TEXT NOT NULL REFERENCES document (id) ON DELETE CASCADE,
            page INTEGER NOT NULL CHECK (page >= 1),
            -- 'read': text by OCR; 'low_confidence': text by OCR below the confidence floor
            -- (searchable, ranked below other hits); 'empty': OCR found no text; 'failed': OCR
            -- could not run on the page (detail says why).
            ocr TEXT NOT NULL CHECK (ocr IN ('read', 'low_confidence', 'empty', 'failed')),
            confidence REAL CHECK (confidence IS NULL OR confidence BETWEEN 0 AND 100),
            detail TEXT,
            width REAL NOT NULL DEFAULT 0 CHECK (width >= 0),
            height REAL NOT NULL DEFAULT 0 CHECK (height >= 0),
            words BLOB NOT NULL DEFAULT x'',
            PRIMARY KEY (document_id, page)
        ) STRICT, WITHOUT ROWID;
        """

    /// Migration "v5-document-list-order": the order of `DocumentStore.list` (newest first,
    /// undated last) as an index, so a page of a long list (the web UI's, 50 of 10,000) is read
    /// in order instead of sorting every document of the profile.
    static let documentListOrderSQL = """
        CREATE INDEX document_list_order ON document (profile_id, date IS NULL, date DESC, added_at DESC, id);
        """
}
