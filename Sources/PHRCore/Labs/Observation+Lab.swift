import Foundation
import GRDB

extension LabDetails {
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

    /// The words search should find it by: the catalog's name and synonyms.
    var labSearchText: String? {
        guard let analyte else { return lab?.panel }
        return ([analyte.name, lab?.panel ?? analyte.panel] + analyte.synonyms).joined(separator: " ")
    }
}
