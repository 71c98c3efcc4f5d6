import Foundation
import GRDB

/// The RxNorm side of the cache: names, concepts, ingredients, related concepts, drug classes.
extension MedAPICache {
    /// A name lookup's answer: the RxCUI it matched, or RxNav's suggestions when none.
    enum NameAnswer: Equatable {
        case matched(rxcui: String)
        case unknown(suggestions: [String])
    }

    static func storeName(_ db: Database, _ name: String, answer: NameAnswer) throws {
        try db.execute(sql: "DELETE FROM medapi_name WHERE name = ?", arguments: [name])
        try db.execute(sql: "DELETE FROM medapi_suggestion WHERE name = ?", arguments: [name])
        switch answer {
        case .matched(let rxcui):
            try db.execute(sql: "INSERT INTO medapi_name (name, rxcui) VALUES (?, ?)", arguments: [name, rxcui])
        case .unknown(let suggestions):
            for (index, suggestion) in suggestions.enumerated() {
                try db.execute(sql: "INSERT INTO medapi_suggestion (name, rank, suggestion) VALUES (?, ?, ?)",
                               arguments: [name, index + 1, suggestion])
            }
        }
    }

    static func loadName(_ db: Database, _ name: String) throws -> NameAnswer {
        if let rxcui = try String.fetchOne(db, sql: "SELECT rxcui FROM medapi_name WHERE name = ?", arguments: [name]) {
            return .matched(rxcui: rxcui)
        }
        return .unknown(suggestions: try String.fetchAll(db, sql: """
            SELECT suggestion FROM medapi_suggestion WHERE name = ? ORDER BY rank
            """, arguments: [name]))
    }

    static func storeConcepts(_ db: Database, _ concepts: [RxConcept], at date: Date) throws {
        let statement = try db.makeStatement(sql: """
            INSERT INTO medapi_concept (rxcui, name, tty, synonym, fetched_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (rxcui) DO UPDATE SET name = excluded.name, tty = excluded.tty, synonym = excluded.synonym,
                fetched_at = excluded.fetched_at
            """)
        for concept in concepts {
            try statement.execute(arguments: [concept.rxcui, concept.name, concept.tty, concept.synonym, Timestamp.string(date)])
        }
    }

    static func loadConcept(_ db: Database, _ rxcui: String) throws -> RxConcept? {
        try Row.fetchOne(db, sql: "SELECT rxcui, name, tty, synonym FROM medapi_concept WHERE rxcui = ?",
                         arguments: [rxcui]).map(concept)
    }

    /// Stores the concepts related to `rxcui`. With `termTypes` nil (an allrelated answer) every
    /// related row of the concept is replaced and its ingredients are derived; otherwise only
    /// the rows of those term types are.
    static func storeRelated(_ db: Database, _ rxcui: String, _ concepts: [RxConcept], termTypes: Set<String>?,
                             at date: Date) throws {
        try storeConcepts(db, concepts, at: date)
        if let termTypes {
            let placeholders = databaseQuestionMarks(count: termTypes.count)
            try db.execute(sql: """
                DELETE FROM medapi_related WHERE rxcui = ? AND related_rxcui IN
                    (SELECT rxcui FROM medapi_concept WHERE tty IN (\(placeholders)))
                """, arguments: StatementArguments([rxcui] + termTypes.sorted()))
        } else {
            try db.execute(sql: "DELETE FROM medapi_related WHERE rxcui = ?", arguments: [rxcui])
            try db.execute(sql: "DELETE FROM medapi_ingredient WHERE rxcui = ?", arguments: [rxcui])
            for ingredient in concepts where ingredient.tty == "IN" {
                try db.execute(sql: "INSERT OR IGNORE INTO medapi_ingredient (rxcui, ingredient_rxcui) VALUES (?, ?)",
                               arguments: [rxcui, ingredient.rxcui])
            }
        }
        for concept in concepts where termTypes?.contains(concept.tty) ?? true {
            try db.execute(sql: "INSERT OR IGNORE INTO medapi_related (rxcui, related_rxcui) VALUES (?, ?)",
                           arguments: [rxcui, concept.rxcui])
        }
    }

    /// Related concepts of `rxcui`, optionally only some term types, ordered by type then name.
    static func loadRelated(_ db: Database, _ rxcui: String, termTypes: Set<String>? = nil) throws -> [RxConcept] {
        var sql = """
            SELECT c.rxcui, c.name, c.tty, c.synonym FROM medapi_related r
            JOIN medapi_concept c ON c.rxcui = r.related_rxcui WHERE r.rxcui = ?
            """
        var arguments: [DatabaseValueConvertible] = [rxcui]
        if let termTypes {
            sql += " AND c.tty IN (\(databaseQuestionMarks(count: termTypes.count)))"
            arguments += termTypes.sorted()
        }
        return try Row.fetchAll(db, sql: sql + " ORDER BY c.tty, c.name", arguments: StatementArguments(arguments)).map(concept)
    }

    static func loadIngredients(_ db: Database, _ rxcui: String) throws -> [RxConcept] {
        try Row.fetchAll(db, sql: """
            SELECT c.rxcui, c.name, c.tty, c.synonym FROM medapi_ingredient i
            JOIN medapi_concept c ON c.rxcui = i.ingredient_rxcui WHERE i.rxcui = ? ORDER BY c.name
            """, arguments: [rxcui]).map(concept)
    }

    static func storeClasses(_ db: Database, drug: String, _ classes: [DrugClass]) throws {
        try db.execute(sql: "DELETE FROM medapi_drug_class WHERE drug = ?", arguments: [drug])
        for item in classes {
            try db.execute(sql: """
                INSERT OR IGNORE INTO medapi_drug_class (drug, class_id, class_name, class_type, relation, source)
                VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [drug, item.id, item.name, item.type, item.relation ?? "", item.source ?? ""])
        }
    }

    static func loadClasses(_ db: Database, drug: String) throws -> [DrugClass] {
        try Row.fetchAll(db, sql: """
            SELECT class_id, class_name, class_type, relation, source FROM medapi_drug_class WHERE drug = ?
            ORDER BY class_type, class_name, class_id
            """, arguments: [drug]).map { row in
            let relation: String = row["relation"]
            let source: String = row["source"]
            return DrugClass(id: row["class_id"], name: row["class_name"], type: row["class_type"],
                             relation: relation.isEmpty ? nil : relation, source: source.isEmpty ? nil : source)
        }
    }

    private static func concept(_ row: Row) -> RxConcept {
        RxConcept(rxcui: row["rxcui"], name: row["name"], tty: row["tty"], synonym: row["synonym"])
    }
}
