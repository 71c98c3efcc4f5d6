import Foundation

/// Reads openFDA's JSON answers (https://open.fda.gov/apis/query-syntax/).
///
/// Every result field is optional in practice: `openfda` blocks are often empty on older
/// labels and enforcement reports, texts are lists of paragraphs, dates are "YYYYMMDD" strings,
/// counts may arrive as strings. Readers keep what is there and skip what is not.
enum OpenFDAParser {
    static func document(_ data: Data, path: String) throws -> JSONValue {
        do {
            return try JSONValue.parse(data)
        } catch {
            throw MedAPIError.unreadableResponse(service: .openFDA, path: path, reason: "it is not JSON")
        }
    }

    /// The error body openFDA sends with 4xx/5xx: `{"error":{"code":"NOT_FOUND","message":"No matches found!"}}`.
    static func error(_ data: Data) -> (code: String, message: String)? {
        guard !data.isEmpty, let json = try? JSONValue.parse(data), let error = json["error"],
              let code = error["code"].text else { return nil }
        return (code, error["message"].text ?? code)
    }

    static func page<T>(_ json: JSONValue, _ read: (JSONValue) -> T?) -> OpenFDAPage<T> {
        OpenFDAPage(total: json[path: "meta", "results", "total"]?.int,
                    lastUpdated: date(json[path: "meta", "last_updated"].text),
                    results: json["results"].elements.compactMap(read))
    }

    static func label(_ result: JSONValue) -> DrugLabel? {
        guard case .object = result else { return nil }
        let openfda = result["openfda"]
        var sections: [String: [String]] = [:]
        for section in LabelSection.allCases {
            let paragraphs = result[section.rawValue].texts
            if !paragraphs.isEmpty { sections[section.rawValue] = paragraphs }
        }
        let brandNames = openfda?["brand_name"].texts ?? []
        let genericNames = openfda?["generic_name"].texts ?? []
        let manufacturers = openfda?["manufacturer_name"].texts ?? []
        guard !sections.isEmpty || !brandNames.isEmpty || !genericNames.isEmpty else { return nil }
        let setID = result["set_id"].text ?? openfda?["spl_set_id"].texts.first ?? result["id"].text
            ?? openfda?["spl_id"].texts.first ?? syntheticID(brandNames + genericNames + manufacturers)
        return DrugLabel(setID: setID, splID: result["id"].text ?? openfda?["spl_id"].texts.first,
                         version: result["version"].text, effectiveDate: date(result["effective_time"].text),
                         brandNames: brandNames, genericNames: genericNames, manufacturers: manufacturers,
                         substanceNames: openfda?["substance_name"].texts ?? [], productType: openfda?["product_type"].texts.first,
                         routes: openfda?["route"].texts ?? [], rxcuis: (openfda?["rxcui"].texts ?? []).filter(RxNavParser.isRxCUI),
                         sections: sections)
    }

    static func ndcProduct(_ result: JSONValue) -> NDCProduct? {
        guard let productNDC = result["product_ndc"].text else { return nil }
        let openfda = result["openfda"]
        let ingredients = result["active_ingredients"].elements.compactMap { item -> NDCProduct.Ingredient? in
            guard let name = item["name"].text else { return nil }
            return NDCProduct.Ingredient(name: name, strength: item["strength"].text)
        }
        let packages = result["packaging"].elements.compactMap { item -> NDCProduct.Package? in
            guard let ndc = item["package_ndc"].text else { return nil }
            return NDCProduct.Package(ndc: ndc, description: item["description"].text)
        }
        return NDCProduct(productNDC: productNDC, brandName: result["brand_name"].text, genericName: result["generic_name"].text,
                          labeler: result["labeler_name"].text, dosageForm: result["dosage_form"].text,
                          routes: result["route"].texts, productType: result["product_type"].text,
                          marketingCategory: result["marketing_category"].text, activeIngredients: ingredients,
                          packages: packages, rxcuis: (openfda?["rxcui"].texts ?? []).filter(RxNavParser.isRxCUI),
                          pharmacologicClasses: result["pharm_class"].texts)
    }

    static func recall(_ result: JSONValue) -> Recall? {
        guard let number = result["recall_number"].text else { return nil }
        let openfda = result["openfda"]
        return Recall(recallNumber: number, classification: result["classification"].text, status: result["status"].text,
                      reason: result["reason_for_recall"].text, productDescription: result["product_description"].text,
                      recallingFirm: result["recalling_firm"].text, reportDate: date(result["report_date"].text),
                      initiationDate: date(result["recall_initiation_date"].text),
                      terminationDate: date(result["termination_date"].text), distribution: result["distribution_pattern"].text,
                      codeInfo: result["code_info"].text, voluntaryMandated: result["voluntary_mandated"].text,
                      rxcuis: (openfda?["rxcui"].texts ?? []).filter(RxNavParser.isRxCUI),
                      genericNames: openfda?["generic_name"].texts ?? [], brandNames: openfda?["brand_name"].texts ?? [])
    }

    /// "20140715" or "2014-07-15" as YYYY-MM-DD; nil for anything that is not a real day.
    static func date(_ text: String?) -> String? {
        guard let text else { return nil }
        let digits = text.filter(\.isNumber)
        guard digits.count == 8, text.count == 8 || text.count == 10 else { return nil }
        let chars = Array(digits)
        let formatted = "\(String(chars[0..<4]))-\(String(chars[4..<6]))-\(String(chars[6..<8]))"
        return CalendarDate(formatted) != nil ? formatted : nil
    }

    /// A stable stand-in ID for a label openFDA sent without any identifier.
    private static func syntheticID(_ parts: [String]) -> String {
        let digest = (try? SHA256Hasher.hash(Array(parts.joined(separator: "\u{1f}").utf8)).hex) ?? "0"
        return "unidentified-" + digest.prefix(16)
    }
}
