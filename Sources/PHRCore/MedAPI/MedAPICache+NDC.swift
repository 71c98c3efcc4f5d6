import Foundation
import GRDB

/// The NDC side of the cache: RxNav's status of a code, and openFDA's NDC directory products.
extension MedAPICache {
    static func storeNDCStatus(_ db: Database, ndc: String, _ status: NDCStatus?) throws {
        try db.execute(sql: "DELETE FROM medapi_ndc WHERE ndc = ?", arguments: [ndc])
        guard let status else { return }
        try db.execute(sql: """
            INSERT INTO medapi_ndc (ndc, status, rxcui, concept_name, concept_status) VALUES (?, ?, ?, ?, ?)
            """, arguments: [ndc, status.status, status.rxcui, status.conceptName, status.conceptStatus])
    }

    static func loadNDCStatus(_ db: Database, ndc: String) throws -> NDCStatus? {
        try Row.fetchOne(db, sql: "SELECT status, rxcui, concept_name, concept_status FROM medapi_ndc WHERE ndc = ?",
                         arguments: [ndc]).map { row in
            NDCStatus(ndc: ndc, status: row["status"], rxcui: row["rxcui"], conceptName: row["concept_name"],
                      conceptStatus: row["concept_status"])
        }
    }

    /// Stores the products that answer an NDC search, replacing the search's earlier answer.
    static func storeNDCProducts(_ db: Database, query: String, _ products: [NDCProduct], at date: Date) throws {
        try db.execute(sql: "DELETE FROM medapi_ndc_answer WHERE query = ?", arguments: [query])
        for product in products {
            try db.execute(sql: """
                INSERT INTO medapi_ndc_product (product_ndc, brand_name, generic_name, labeler, dosage_form, product_type,
                    marketing_category, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (product_ndc) DO UPDATE SET brand_name = excluded.brand_name, generic_name = excluded.generic_name,
                    labeler = excluded.labeler, dosage_form = excluded.dosage_form, product_type = excluded.product_type,
                    marketing_category = excluded.marketing_category, fetched_at = excluded.fetched_at
                """, arguments: [product.productNDC, product.brandName, product.genericName, product.labeler,
                                 product.dosageForm, product.productType, product.marketingCategory, Timestamp.string(date)])
            for table in ["medapi_ndc_ingredient", "medapi_ndc_package", "medapi_ndc_value"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE product_ndc = ?", arguments: [product.productNDC])
            }
            for (index, ingredient) in product.activeIngredients.enumerated() {
                try db.execute(sql: "INSERT INTO medapi_ndc_ingredient (product_ndc, ordinal, name, strength) VALUES (?, ?, ?, ?)",
                               arguments: [product.productNDC, index, ingredient.name, ingredient.strength])
            }
            for package in product.packages {
                try db.execute(sql: "INSERT OR IGNORE INTO medapi_ndc_package (product_ndc, package_ndc, description) VALUES (?, ?, ?)",
                               arguments: [product.productNDC, package.ndc, package.description])
            }
            for (role, values) in [("rxcui", product.rxcuis), ("route", product.routes), ("class", product.pharmacologicClasses)] {
                for (index, value) in values.enumerated() {
                    try db.execute(sql: "INSERT INTO medapi_ndc_value (product_ndc, role, ordinal, value) VALUES (?, ?, ?, ?)",
                                   arguments: [product.productNDC, role, index, value])
                }
            }
            try db.execute(sql: "INSERT OR IGNORE INTO medapi_ndc_answer (query, product_ndc) VALUES (?, ?)",
                           arguments: [query, product.productNDC])
        }
    }

    static func loadNDCProducts(_ db: Database, query: String) throws -> [NDCProduct] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT p.* FROM medapi_ndc_answer a JOIN medapi_ndc_product p ON p.product_ndc = a.product_ndc
            WHERE a.query = ? ORDER BY p.product_ndc
            """, arguments: [query])
        return try rows.map { row in
            let ndc: String = row["product_ndc"]
            let ingredients = try Row.fetchAll(db, sql: """
                SELECT name, strength FROM medapi_ndc_ingredient WHERE product_ndc = ? ORDER BY ordinal
                """, arguments: [ndc]).map { NDCProduct.Ingredient(name: $0["name"], strength: $0["strength"]) }
            let packages = try Row.fetchAll(db, sql: """
                SELECT package_ndc, description FROM medapi_ndc_package WHERE product_ndc = ? ORDER BY package_ndc
                """, arguments: [ndc]).map { NDCProduct.Package(ndc: $0["package_ndc"], description: $0["description"]) }
            var values: [String: [String]] = [:]
            for value in try Row.fetchAll(db, sql: """
                SELECT role, value FROM medapi_ndc_value WHERE product_ndc = ? ORDER BY role, ordinal
                """, arguments: [ndc]) {
                values[value["role"], default: []].append(value["value"])
            }
            return NDCProduct(productNDC: ndc, brandName: row["brand_name"], genericName: row["generic_name"],
                              labeler: row["labeler"], dosageForm: row["dosage_form"], routes: values["route"] ?? [],
                              productType: row["product_type"], marketingCategory: row["marketing_category"],
                              activeIngredients: ingredients, packages: packages, rxcuis: values["rxcui"] ?? [],
                              pharmacologicClasses: values["class"] ?? [])
        }
    }
}
