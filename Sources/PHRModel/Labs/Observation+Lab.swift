import Foundation

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
}

extension Observation {
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
