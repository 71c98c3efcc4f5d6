import Foundation
import GRDB

/// The enforcement-report side of the cache: recalls by number, and which answer which search.
extension MedAPICache {
    private static func names(_ recall: Recall) -> [(role: String, values: [String])] {
        [("rxcui", recall.rxcuis), ("generic", recall.genericNames), ("brand", recall.brandNames)]
    }

    /// Stores the reports that answer a recall search (newest first), replacing its earlier answer.
    static func storeRecalls(_ db: Database, query: String, _ recalls: [Recall], at date: Date) throws {
        try db.execute(sql: "DELETE FROM medapi_recall_answer WHERE query = ?", arguments: [query])
        for (index, recall) in recalls.enumerated() {
            try db.execute(sql: """
                INSERT INTO medapi_recall (recall_number, classification, status, reason, product_description, recalling_firm,
                    report_date, initiation_date, termination_date, distribution, code_info, voluntary_mandated, fetched_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (recall_number) DO UPDATE SET classification = excluded.classification, status = excluded.status,
                    reason = excluded.reason, product_description = excluded.product_description,
                    recalling_firm = excluded.recalling_firm, report_date = excluded.report_date,
                    initiation_date = excluded.initiation_date, termination_date = excluded.termination_date,
                    distribution = excluded.distribution, code_info = excluded.code_info,
                    voluntary_mandated = excluded.voluntary_mandated, fetched_at = excluded.fetched_at
                """, arguments: [recall.recallNumber, recall.classification, recall.status, recall.reason,
                                 recall.productDescription, recall.recallingFirm, recall.reportDate, recall.initiationDate,
                                 recall.terminationDate, recall.distribution, recall.codeInfo, recall.voluntaryMandated,
                                 Timestamp.string(date)])
            try db.execute(sql: "DELETE FROM medapi_recall_name WHERE recall_number = ?", arguments: [recall.recallNumber])
            for (role, values) in names(recall) {
                for (ordinal, value) in values.enumerated() {
                    try db.execute(sql: "INSERT INTO medapi_recall_name (recall_number, role, ordinal, value) VALUES (?, ?, ?, ?)",
                                   arguments: [recall.recallNumber, role, ordinal, value])
                }
            }
            try db.execute(sql: "INSERT OR IGNORE INTO medapi_recall_answer (query, recall_number, ordinal) VALUES (?, ?, ?)",
                           arguments: [query, recall.recallNumber, index])
        }
    }

    static func loadRecalls(_ db: Database, query: String) throws -> [Recall] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT r.* FROM medapi_recall_answer a JOIN medapi_recall r ON r.recall_number = a.recall_number
            WHERE a.query = ? ORDER BY a.ordinal
            """, arguments: [query])
        return try rows.map { row in
            let number: String = row["recall_number"]
            var names: [String: [String]] = [:]
            for name in try Row.fetchAll(db, sql: """
                SELECT role, value FROM medapi_recall_name WHERE recall_number = ? ORDER BY role, ordinal
                """, arguments: [number]) {
                names[name["role"], default: []].append(name["value"])
            }
            return Recall(recallNumber: number, classification: row["classification"], status: row["status"],
                          reason: row["reason"], productDescription: row["product_description"],
                          recallingFirm: row["recalling_firm"], reportDate: row["report_date"],
                          initiationDate: row["initiation_date"], terminationDate: row["termination_date"],
                          distribution: row["distribution"], codeInfo: row["code_info"],
                          voluntaryMandated: row["voluntary_mandated"], rxcuis: names["rxcui"] ?? [],
                          genericNames: names["generic"] ?? [], brandNames: names["brand"] ?? [])
        }
    }
}
