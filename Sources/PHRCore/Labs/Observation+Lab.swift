import Foundation
import GRDB

/// What makes an observation a lab result beyond its value: the analyte it was recognised as,
/// the unit as UCUM, the reference range, the flag, the panel, where it came from (a document's
/// page, a FHIR import, typed by hand), how sure extraction was, and whether a person reviewed it.
/// Written as the `lab` object of an observation (export schema v1) and as the `lab_*` columns
/// of the `observation` table (migration "v3-lab-results").
public struct LabDetails: Codable, Hashable, Sendable {
    /// Where a result came from.
    public enum Origin: String, Codable, Sendable, CaseIterable {
        /// `phr lab add`.
        case typed
        /// `phr lab extract` from a stored document (with `documentID` and `page`).
        case document
        /// An import of a clinical record: a FHIR bundle or a C-CDA document.
        case fhir
    }

    /// The catalog key (AnalyteCatalog) it was recognised as; nil when the name is unknown.
    public var analyte: String?
    /// The unit as UCUM (https://ucum.org), when known; `value_unit` keeps it as written.
    public var unitUCUM: String?
    public var range: ReferenceRange?
    public var flag: LabFlag?
    /// The panel or section it was reported in ("Complete blood count", "Lipid panel").
    public var panel: String?
    public var origin: Origin
    public var documentID: String?
    /// From 1.
    public var page: Int?
    /// 0...1, for extracted values: how sure the reader was of this row.
    public var confidence: Double?
    /// A person accepted it (typed values and reviewed extractions); imports are the source's word.
    public var reviewed: Bool

    enum CodingKeys: String, CodingKey {
        case analyte
        case unitUCUM = "unit_ucum"
        case range, flag, panel, origin
        case documentID = "document_id"
        case page, confidence, reviewed
    }

    public init(analyte: String? = nil, unitUCUM: String? = nil, range: ReferenceRange? = nil, flag: LabFlag? = nil, panel: String? = nil,
                origin: Origin, documentID: String? = nil, page: Int? = nil, confidence: Double? = nil, reviewed: Bool) {
        self.analyte = analyte
        self.unitUCUM = unitUCUM
        self.range = range
        self.flag = flag
        self.panel = panel
        self.origin = origin
        self.documentID = documentID
        self.page = page
        self.confidence = confidence
        self.reviewed = reviewed
    }

    /// The columns, read from an observation row (nil when the row has no lab details).
    static func read(_ row: Row) -> LabDetails? {
        guard let origin = (row["lab_origin"] as String?).flatMap(Origin.init(rawValue:)) else { return nil }
        let low: Double? = row["lab_range_low"], high: Double? = row["lab_range_high"], text: String? = row["lab_range_text"]
        return LabDetails(analyte: row["lab_analyte"], unitUCUM: row["lab_unit_ucum"],
                          range: low == nil && high == nil && text == nil ? nil : ReferenceRange(low: low, high: high, text: text),
                          flag: (row["lab_flag"] as String?).flatMap(LabFlag.init(rawValue:)), panel: row["lab_panel"], origin: origin,
                          documentID: row["lab_document_id"], page: row["lab_page"], confidence: row["lab_confidence"],
                          reviewed: (row["lab_reviewed"] as Bool?) ?? false)
    }

    static func write(_ details: LabDetails?, to container: inout PersistenceContainer) {
        container["lab_analyte"] = details?.analyte
        container["lab_unit_ucum"] = details?.unitUCUM
        container["lab_range_low"] = details?.range?.low
        container["lab_range_high"] = details?.range?.high
        container["lab_range_text"] = details?.range?.text
        container["lab_flag"] = details?.flag?.rawValue
        container["lab_panel"] = details?.panel
        container["lab_origin"] = details?.origin.rawValue
        container["lab_document_id"] = details?.documentID
        container["lab_page"] = details?.page
        container["lab_confidence"] = details?.confidence
        container["lab_reviewed"] = details.map { $0.reviewed }
    }
}

extension Observation {
    /// The analyte this result is, by its catalog key, else its LOINC codes.
    public var analyte: Analyte? {
        if let key = lab?.analyte, let entry = AnalyteCatalog.entry(key: key) { return entry }
        for coding in codes where coding.system == Coding.System.loinc {
            if let entry = AnalyteCatalog.entry(loinc: coding.code) { return entry }
        }
        return nil
    }

    /// The unit as UCUM: the recorded one, else the written unit read as UCUM.
    public var unitUCUM: String? {
        lab?.unitUCUM ?? valueUnit.flatMap(LabUnits.ucum)
    }

    /// The flag the lab gave, else the one the value earns against the range.
    public var effectiveFlag: LabFlag? {
        if let flag = lab?.flag { return flag }
        guard let valueNumber else { return nil }
        return LabFlag.computed(valueNumber, range: lab?.range)
    }

    /// A lab result: category laboratory, or lab details from a report or typed in.
    public var isLabResult: Bool {
        category == "laboratory" || lab?.origin == .document || lab?.origin == .typed
    }

    /// The words search should find it by: the catalog's name and synonyms.
    var labSearchText: String? {
        guard let analyte else { return lab?.panel }
        return ([analyte.name, lab?.panel ?? analyte.panel] + analyte.synonyms).joined(separator: " ")
    }
}

extension Observation {
    /// The format of the clinical record an imported result came from: "C-CDA" (its source key
    /// says so) or "FHIR" (a FHIR bundle, Apple's Health Records).
    public var importFormat: String {
        source?.key.hasPrefix("ccda:") == true ? "C-CDA" : "FHIR"
    }

    /// Where a lab result came from, for tables: "doc 3f2a p2", "FHIR", "C-CDA", "typed", "import".
    public var labSourceText: String {
        switch lab?.origin {
        case .document?: return "doc \(lab?.documentID ?? "?")" + (lab?.page.map { " p\($0)" } ?? "")
        case .fhir?: return importFormat
        case .typed?: return "typed"
        case nil: return source == nil ? "—" : "import"
        }
    }
}
