import Foundation
import GRDB

/// The openFDA label side of the cache: labels by set ID, their names, RxCUIs and sections, and
/// which label answered which search.
extension MedAPICache {
    private static func names(_ label: DrugLabel) -> [(role: String, values: [String])] {
        [("brand", label.brandNames), ("generic", label.genericNames), ("manufacturer", label.manufacturers),
         ("substance", label.substanceNames), ("route", label.routes)]
    }

    /// Stores (or replaces) a label. Its children are replaced; answers pointing at it stay.
    static func storeLabel(_ db: Database, _ label: DrugLabel, source: String, at date: Date) throws {
        try db.execute(sql: """
            INSERT INTO medapi_label (set_id, spl_id, version, effective_date, product_type, fetched_at, source)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (set_id) DO UPDATE SET spl_id = excluded.spl_id, version = excluded.version,
                effective_date = excluded.effective_date, product_type = excluded.product_type,
                fetched_at = excluded.fetched_at, source = excluded.source
            """, arguments: [label.setID, label.splID, label.version, label.effectiveDate, label.productType,
                             Timestamp.string(date), source])
        for table in ["medapi_label_name", "medapi_label_rxcui", "medapi_label_section"] {
            try db.execute(sql: "DELETE FROM \(table) WHERE set_id = ?", arguments: [label.setID])
        }
        for (role, values) in names(label) {
            for (index, value) in values.enumerated() {
                try db.execute(sql: "INSERT INTO medapi_label_name (set_id, role, ordinal, value) VALUES (?, ?, ?, ?)",
                               arguments: [label.setID, role, index, value])
            }
        }
        for rxcui in Set(label.rxcuis) {
            try db.execute(sql: "INSERT INTO medapi_label_rxcui (set_id, rxcui) VALUES (?, ?)", arguments: [label.setID, rxcui])
        }
        for (section, paragraphs) in label.sections {
            for (index, text) in paragraphs.enumerated() {
                try db.execute(sql: "INSERT INTO medapi_label_section (set_id, section, ordinal, text) VALUES (?, ?, ?, ?)",
                               arguments: [label.setID, section, index, text])
            }
        }
    }

    static func loadLabel(_ db: Database, setID: String) throws -> DrugLabel? {
        guard let row = try Row.fetchOne(db, sql: """
            SELECT spl_id, version, effective_date, product_type FROM medapi_label WHERE set_id = ?
            """, arguments: [setID]) else { return nil }
        var names: [String: [String]] = [:]
        for name in try Row.fetchAll(db, sql: """
            SELECT role, value FROM medapi_label_name WHERE set_id = ? ORDER BY role, ordinal
            """, arguments: [setID]) {
            names[name["role"], default: []].append(name["value"])
        }
        var sections: [String: [String]] = [:]
        for section in try Row.fetchAll(db, sql: """
            SELECT section, text FROM medapi_label_section WHERE set_id = ? ORDER BY section, ordinal
            """, arguments: [setID]) {
            sections[section["section"], default: []].append(section["text"])
        }
        let rxcuis = try String.fetchAll(db, sql: "SELECT rxcui FROM medapi_label_rxcui WHERE set_id = ? ORDER BY rxcui",
                                         arguments: [setID])
        return DrugLabel(setID: setID, splID: row["spl_id"], version: row["version"], effectiveDate: row["effective_date"],
                         brandNames: names["brand"] ?? [], genericNames: names["generic"] ?? [],
                         manufacturers: names["manufacturer"] ?? [], substanceNames: names["substance"] ?? [],
                         productType: row["product_type"], routes: names["route"] ?? [], rxcuis: rxcuis, sections: sections)
    }

    /// Records which label answers a label search; nil records that none did.
    static func storeLabelAnswer(_ db: Database, query: String, setID: String?) throws {
        try db.execute(sql: "DELETE FROM medapi_label_answer WHERE query = ?", arguments: [query])
        if let setID {
            try db.execute(sql: "INSERT INTO medapi_label_answer (query, set_id) VALUES (?, ?)", arguments: [query, setID])
        }
    }

    static func loadLabelAnswer(_ db: Database, query: String) throws -> DrugLabel? {
        guard let setID = try String.fetchOne(db, sql: "SELECT set_id FROM medapi_label_answer WHERE query = ?",
                                              arguments: [query]) else { return nil }
        return try loadLabel(db, setID: setID)
    }
}
