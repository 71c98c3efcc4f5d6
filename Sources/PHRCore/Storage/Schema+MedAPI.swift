import GRDB

extension Schema {
    /// The medicine-lookup cache: what RxNav and openFDA answered, normalised into tables, with
    /// when each question was asked. It lives in the encrypted vault database like every other
    /// record, so what a person looked up is as private as what they take.
    ///
    /// `medapi_lookup` is the index and the clock: one row per question asked (a name, an
    /// RxCUI's related concepts, a label search...), with the time and the URL, and whether it
    /// found anything (a "no match" is an answer too, kept so offline lookups can say so). The
    /// other tables hold the answers; rows for one question are replaced together.
    ///
    /// Migration "v1-medapi-cache" (Schema.migrations).
    static let medAPICacheSQL = """
        CREATE TABLE medapi_lookup (
            kind TEXT NOT NULL CHECK (kind IN ('name', 'allrelated', 'related', 'classes', 'label', 'ndc',
                'ndc_product', 'recalls')),
            key TEXT NOT NULL CHECK (length(key) > 0),
            found INTEGER NOT NULL CHECK (found IN (0, 1)),
            -- For searches: how many results the service reported in all (it sends a page).
            total INTEGER CHECK (total IS NULL OR total >= 0),
            fetched_at TEXT NOT NULL CHECK (fetched_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'),
            -- The URL asked, credentials REDACTED.
            source TEXT NOT NULL,
            PRIMARY KEY (kind, key)
        ) STRICT, WITHOUT ROWID;

        -- RxNorm concepts seen in any answer.
        CREATE TABLE medapi_concept (
            rxcui TEXT PRIMARY KEY NOT NULL CHECK (length(rxcui) BETWEEN 1 AND 10 AND rxcui NOT GLOB '*[^0-9]*'),
            name TEXT NOT NULL CHECK (length(name) > 0),
            tty TEXT NOT NULL,
            synonym TEXT,
            fetched_at TEXT NOT NULL
        ) STRICT;

        -- A name as typed (trimmed, lowercased) and the RxCUI it matched (lookup 'name').
        CREATE TABLE medapi_name (
            name TEXT PRIMARY KEY NOT NULL,
            rxcui TEXT NOT NULL CHECK (rxcui NOT GLOB '*[^0-9]*')
        ) STRICT, WITHOUT ROWID;

        -- For a name that matched nothing: RxNav's nearest names, best first.
        CREATE TABLE medapi_suggestion (
            name TEXT NOT NULL,
            rank INTEGER NOT NULL CHECK (rank >= 1),
            suggestion TEXT NOT NULL,
            PRIMARY KEY (name, rank)
        ) STRICT, WITHOUT ROWID;

        -- The ingredients (IN) of a concept (lookup 'allrelated').
        CREATE TABLE medapi_ingredient (
            rxcui TEXT NOT NULL,
            ingredient_rxcui TEXT NOT NULL REFERENCES medapi_concept (rxcui),
            PRIMARY KEY (rxcui, ingredient_rxcui)
        ) STRICT, WITHOUT ROWID;

        -- Concepts related to a concept: brands, dose forms, generic and branded products
        -- (lookups 'allrelated' and 'related').
        CREATE TABLE medapi_related (
            rxcui TEXT NOT NULL,
            related_rxcui TEXT NOT NULL REFERENCES medapi_concept (rxcui),
            PRIMARY KEY (rxcui, related_rxcui)
        ) STRICT, WITHOUT ROWID;

        -- RxClass classes of a drug, by the drug name asked (lookup 'classes').
        CREATE TABLE medapi_drug_class (
            drug TEXT NOT NULL,
            class_id TEXT NOT NULL,
            class_name TEXT NOT NULL,
            class_type TEXT NOT NULL,
            relation TEXT NOT NULL DEFAULT '',
            source TEXT NOT NULL DEFAULT '',
            PRIMARY KEY (drug, class_id, relation, source)
        ) STRICT, WITHOUT ROWID;

        -- openFDA drug labels (SPL), by set ID.
        CREATE TABLE medapi_label (
            set_id TEXT PRIMARY KEY NOT NULL,
            spl_id TEXT,
            version TEXT,
            effective_date TEXT CHECK (effective_date IS NULL OR effective_date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
            product_type TEXT,
            fetched_at TEXT NOT NULL,
            source TEXT NOT NULL
        ) STRICT;
        CREATE TABLE medapi_label_name (
            set_id TEXT NOT NULL REFERENCES medapi_label (set_id) ON DELETE CASCADE,
            role TEXT NOT NULL CHECK (role IN ('brand', 'generic', 'manufacturer', 'substance', 'route')),
            ordinal INTEGER NOT NULL,
            value TEXT NOT NULL,
            PRIMARY KEY (set_id, role, ordinal)
        ) STRICT, WITHOUT ROWID;
        CREATE TABLE medapi_label_rxcui (
            set_id TEXT NOT NULL REFERENCES medapi_label (set_id) ON DELETE CASCADE,
            rxcui TEXT NOT NULL,
            PRIMARY KEY (set_id, rxcui)
        ) STRICT, WITHOUT ROWID;
        CREATE TABLE medapi_label_section (
            set_id TEXT NOT NULL REFERENCES medapi_label (set_id) ON DELETE CASCADE,
            section TEXT NOT NULL,
            ordinal INTEGER NOT NULL,
            text TEXT NOT NULL,
            PRIMARY KEY (set_id, section, ordinal)
        ) STRICT, WITHOUT ROWID;
        -- The label chosen to answer a label search (lookup 'label').
        CREATE TABLE medapi_label_answer (
            query TEXT PRIMARY KEY NOT NULL,
            set_id TEXT NOT NULL REFERENCES medapi_label (set_id) ON DELETE CASCADE
        ) STRICT, WITHOUT ROWID;

        -- RxNav's status of an NDC (lookup 'ndc').
        CREATE TABLE medapi_ndc (
            ndc TEXT PRIMARY KEY NOT NULL,
            status TEXT,
            rxcui TEXT,
            concept_name TEXT,
            concept_status TEXT
        ) STRICT, WITHOUT ROWID;

        -- openFDA NDC directory products (lookup 'ndc_product').
        CREATE TABLE medapi_ndc_product (
            product_ndc TEXT PRIMARY KEY NOT NULL,
            brand_name TEXT,
            generic_name TEXT,
            labeler TEXT,
            dosage_form TEXT,
            product_type TEXT,
            marketing_category TEXT,
            fetched_at TEXT NOT NULL
        ) STRICT;
        CREATE TABLE medapi_ndc_ingredient (
            product_ndc TEXT NOT NULL REFERENCES medapi_ndc_product (product_ndc) ON DELETE CASCADE,
            ordinal INTEGER NOT NULL,
            name TEXT NOT NULL,
            strength TEXT,
            PRIMARY KEY (product_ndc, ordinal)
        ) STRICT, WITHOUT ROWID;
        CREATE TABLE medapi_ndc_package (
            product_ndc TEXT NOT NULL REFERENCES medapi_ndc_product (product_ndc) ON DELETE CASCADE,
            package_ndc TEXT NOT NULL,
            description TEXT,
            PRIMARY KEY (product_ndc, package_ndc)
        ) STRICT, WITHOUT ROWID;
        CREATE TABLE medapi_ndc_value (
            product_ndc TEXT NOT NULL REFERENCES medapi_ndc_product (product_ndc) ON DELETE CASCADE,
            role TEXT NOT NULL CHECK (role IN ('rxcui', 'route', 'class')),
            ordinal INTEGER NOT NULL,
            value TEXT NOT NULL,
            PRIMARY KEY (product_ndc, role, ordinal)
        ) STRICT, WITHOUT ROWID;
        CREATE TABLE medapi_ndc_answer (
            query TEXT NOT NULL,
            product_ndc TEXT NOT NULL REFERENCES medapi_ndc_product (product_ndc) ON DELETE CASCADE,
            PRIMARY KEY (query, product_ndc)
        ) STRICT, WITHOUT ROWID;

        -- FDA enforcement reports (recalls), by recall number.
        CREATE TABLE medapi_recall (
            recall_number TEXT PRIMARY KEY NOT NULL,
            classification TEXT,
            status TEXT,
            reason TEXT,
            product_description TEXT,
            recalling_firm TEXT,
            report_date TEXT,
            initiation_date TEXT,
            termination_date TEXT,
            distribution TEXT,
            code_info TEXT,
            voluntary_mandated TEXT,
            fetched_at TEXT NOT NULL
        ) STRICT;
        CREATE TABLE medapi_recall_name (
            recall_number TEXT NOT NULL REFERENCES medapi_recall (recall_number) ON DELETE CASCADE,
            role TEXT NOT NULL CHECK (role IN ('rxcui', 'generic', 'brand')),
            ordinal INTEGER NOT NULL,
            value TEXT NOT NULL,
            PRIMARY KEY (recall_number, role, ordinal)
        ) STRICT, WITHOUT ROWID;
        -- The reports that answer a recall search (lookup 'recalls'), newest first.
        CREATE TABLE medapi_recall_answer (
            query TEXT NOT NULL,
            recall_number TEXT NOT NULL REFERENCES medapi_recall (recall_number) ON DELETE CASCADE,
            ordinal INTEGER NOT NULL,
            PRIMARY KEY (query, recall_number)
        ) STRICT, WITHOUT ROWID;

        -- Requests per service and UTC day, for daily limits that hold across runs.
        CREATE TABLE medapi_usage (
            service TEXT NOT NULL CHECK (service IN ('rxnav', 'openfda')),
            day TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
            requests INTEGER NOT NULL CHECK (requests >= 0),
            PRIMARY KEY (service, day)
        ) STRICT, WITHOUT ROWID;
        """
    /// The same table with its key columns first. SQLite 3.40 (Debian 12's) misreads the
    /// columns of a WITHOUT ROWID table whose key columns are not first, in key order, and
    /// `PRAGMA integrity_check` reports "NULL value in medapi_drug_class.class_name" for
    /// every cached class: `phr check` failed on a healthy vault. The rows are kept.
    ///
    /// Migration "v1-medapi-class-key-first" (Schema.migrations).
    static let medAPIClassKeyFirstSQL = """
        CREATE TABLE medapi_drug_class_new (
            drug TEXT NOT NULL,
            class_id TEXT NOT NULL,
            relation TEXT NOT NULL DEFAULT '',
            source TEXT NOT NULL DEFAULT '',
            class_name TEXT NOT NULL,
            class_type TEXT NOT NULL,
            PRIMARY KEY (drug, class_id, relation, source)
        ) STRICT, WITHOUT ROWID;
        INSERT INTO medapi_drug_class_new (drug, class_id, relation, source, class_name, class_type)
            SELECT drug, class_id, relation, source, class_name, class_type FROM medapi_drug_class;
        DROP TABLE medapi_drug_class;
        ALTER TABLE medapi_drug_class_new RENAME TO medapi_drug_class;
        """
}
