import Foundation

/// Units as labs write them, their UCUM codes (https://ucum.org/ucum), and the conversions a
/// trend needs to put labs that report in different units on one axis.
public enum LabUnits {
    /// Written forms (compared without case and spaces, with µ, u and mc read alike) → UCUM.
    private static let written: [String: String] = {
        var table: [String: String] = [:]
        func add(_ ucum: String, _ forms: [String]) {
            for form in forms + [ucum] {
                // Forms are compared without case: two units must never meet in one key.
                assert(table[key(form)] == nil || table[key(form)] == ucum, "\(form) is written like another unit")
                table[key(form)] = ucum
            }
        }
        add("mg/dL", ["mg/dl", "mg%"])
        add("g/dL", ["g/dl", "g%"])
        add("g/L", ["g/l"])
        add("mg/L", ["mg/l"])
        add("ug/dL", ["µg/dL", "mcg/dL"])
        add("ug/L", ["µg/L", "mcg/L"])
        add("ng/mL", ["ng/ml"])
        add("ng/dL", [])
        add("ng/L", [])
        add("pg/mL", ["pg/ml"])
        add("mmol/L", ["mmol/l"])
        add("umol/L", ["µmol/L", "μmol/L", "micromol/L"])
        add("nmol/L", ["nmol/l"])
        add("pmol/L", ["pmol/l"])
        add("mmol/mol", [])
        add("meq/L", ["mEq/L"])  // UCUM is case-sensitive: meq (E would be exa); UCUM.codes agrees
        add("U/L", ["u/l", "E/L"])
        add("[IU]/L", ["IU/L", "UI/L"])
        add("U/mL", [])
        add("m[IU]/L", ["mIU/L", "mU/L", "mUI/L"])
        add("u[IU]/mL", ["µIU/mL", "uIU/mL", "µU/mL", "uU/mL", "mcIU/mL", "µUI/mL"])
        add("m[IU]/mL", ["mIU/mL"])
        add("[IU]/mL", ["IU/mL"])
        add("%", ["percent"])
        add("fL", ["fl", "µm3", "um3"])
        add("pg", ["pg/cell"])
        add("10*3/uL", ["x10E3/uL", "x10^3/uL", "10^3/uL", "×10³/µL", "x10³/µL", "K/uL", "K/µL", "thou/uL", "10e3/uL", "Tsd/µL", "/nL", "x10*3/uL", "thousand/uL", "thou/µL", "10^3/mm3", "x10^3/mm3"])
        add("10*6/uL", ["x10E6/uL", "x10^6/uL", "10^6/uL", "×10⁶/µL", "x10⁶/µL", "M/uL", "M/µL", "mill/uL", "10e6/uL", "Mio/µL", "/pL", "x10*6/uL", "million/uL", "millions/uL", "mill/µL", "million/cmm", "millions/cumm", "million/mm3", "10^6/mm3"])
        add("10*9/L", ["x10^9/L", "10^9/L", "×10⁹/L", "x10⁹/L", "10⁹/L", "x10E9/L", "10e9/L", "Giga/L", "x10*9/L"])
        add("10*12/L", ["x10^12/L", "10^12/L", "×10¹²/L", "x10¹²/L", "10¹²/L", "T/L", "x10E12/L", "10e12/L", "Tera/L", "x10*12/L"])
        add("/uL", ["cells/uL", "cells/µL", "/µL", "/mm3", "/mm³", "cells/mm3", "cells/mm³", "/cumm", "cells/cumm", "/cmm", "cells/cmm", "per uL"])
        add("mL/min/{1.73_m2}", ["mL/min/1.73m2", "mL/min/1.73 m2", "mL/min/1.73m²", "mL/min/1.73 m²", "ml/min/1,73m2", "ml/min/1,73 m²", "ml/min/1,73m²", "mL/min/1.73m^2"])
        add("mm/h", ["mm/hr", "mm/1h", "mm/Std"])
        add("s", ["sec", "seconds", "Sek"])
        add("{ratio}", ["ratio", "INR"])
        add("mg/g", ["mg/g creat", "mg/gCr"])
        add("mg/mmol", [])
        add("/[HPF]", ["/HPF", "/hpf", "per HPF"])
        add("/[LPF]", ["/LPF", "/lpf"])
        add("[pH]", ["pH"])
        add("kg/L", [])
        add("L/L", ["l/l"])
        add("ug/mL", ["µg/mL", "mcg/mL"])
        add("mm[Hg]", ["mmHg"])
        add("mg/L{FEU}", ["mg/L FEU", "mg/l FEU", "mg FEU/L"])
        add("ug/mL{FEU}", ["ug/mL FEU", "µg/mL FEU", "mcg/mL FEU"])
        return table
    }()

    private static func key(_ text: String) -> String {
        var key = String(text.compactMap { character -> Character? in
            character == " " ? nil : character == "μ" || character == "µ" ? "u" : character
        }).lowercased()
        if key.contains("mcg") { key = key.replacingOccurrences(of: "mcg", with: "ug") }
        return key
    }

    /// The UCUM code of a unit as written ("x10E3/uL" → "10*3/uL"); nil when not known.
    public static func ucum(_ written: String) -> String? {
        let trimmed = LabGrammar.trimmed(written)
        guard !trimmed.isEmpty else { return nil }
        // French and Belgian reports count cells in "G/L" (giga per litre) and "T/L": a capital
        // G is never grams, which UCUM and every lab write g.
        if trimmed == "G/L" || trimmed == "Giga/L" { return "10*9/L" }
        // Compared without case: labs write mEq/L, meq/L and MEQ/L alike, and no two units
        // in the table differ only in case.
        return Self.written[key(trimmed)]
    }

    /// How to show a UCUM code to a person: "10*3/uL" → "×10³/µL", "u[IU]/mL" → "µIU/mL".
    public static func display(_ ucum: String) -> String {
        switch ucum {
        case "10*3/uL": return "×10³/µL"
        case "10*6/uL": return "×10⁶/µL"
        case "10*9/L": return "×10⁹/L"
        case "10*12/L": return "×10¹²/L"
        case "mL/min/{1.73_m2}": return "mL/min/1.73m²"
        case "{ratio}": return "ratio"
        case "meq/L": return "mEq/L"
        case "[pH]": return ""
        default:
            return ucum.replacingOccurrences(of: "[IU]", with: "IU").replacingOccurrences(of: "[HPF]", with: "HPF")
                .replacingOccurrences(of: "[LPF]", with: "LPF").replacingOccurrences(of: "ug", with: "µg")
                .replacingOccurrences(of: "umol", with: "µmol").replacingOccurrences(of: "uIU", with: "µIU").replacingOccurrences(of: "/uL", with: "/µL")
        }
    }

    /// Conversions that hold for every analyte: the same quantity written two ways.
    fileprivate static let general: [String: [String: Double]] = [
        "ng/mL": ["ug/L": 1, "ng/dL": 100, "pg/mL": 1000],
        "ug/L": ["ng/mL": 1],
        "pg/mL": ["ng/L": 1, "ng/mL": 0.001],
        "ng/L": ["pg/mL": 1],
        "g/dL": ["g/L": 10, "mg/dL": 1000],
        "g/L": ["g/dL": 0.1],
        "mg/dL": ["mg/L": 10, "g/dL": 0.001],
        "mg/L": ["mg/dL": 0.1],
        "10*3/uL": ["10*9/L": 1, "/uL": 1000],
        "10*9/L": ["10*3/uL": 1],
        "10*6/uL": ["10*12/L": 1],
        "10*12/L": ["10*6/uL": 1],
        "U/L": ["[IU]/L": 1],
        "[IU]/L": ["U/L": 1],
        "%": ["L/L": 0.01],
        "L/L": ["%": 100],
        "m[IU]/L": ["u[IU]/mL": 1],
        "u[IU]/mL": ["m[IU]/L": 1],
        "meq/L": ["mmol/L": 1],
        "mmol/L": ["meq/L": 1],
        "umol/L": ["mmol/L": 0.001],
        "/uL": ["10*3/uL": 0.001, "10*9/L": 0.001],
        "mg/L{FEU}": ["ug/mL{FEU}": 1],
        "ug/mL{FEU}": ["mg/L{FEU}": 1],
    ]

    /// `value` in `from` expressed in `to`, for `analyte` (a catalog key) when the conversion
    /// depends on the substance (mg/dL ↔ mmol/L). nil when phr knows no conversion.
    public static func convert(_ value: Double, from: String, to: String, analyte: String?) -> Double? {
        if from == to { return value }
        if let factor = general[from]?[to] { return value * factor }
        if let analyte, let entry = AnalyteCatalog.entry(key: analyte) {
            for conversion in entry.conversions {
                if conversion.from == from && conversion.to == to { return conversion.forward(value) }
                if conversion.from == to && conversion.to == from { return conversion.backward(value) }
            }
            // Through the conversion's unit written another way: mg/L via mg/dL, nmol/L via pmol/L...
            for conversion in entry.conversions {
                if let factor = general[from]?[conversion.from], conversion.to == to { return conversion.forward(value * factor) }
                if let factor = general[conversion.to]?[to], conversion.from == from { return conversion.forward(value).map { $0 * factor } }
            }
        }
        return nil
    }
}

extension LabUnits {
    /// `convert`, or through one unit that writes the same quantity another way (troponin in
    /// ng/mL to ng/L via pg/mL): whether a unit can measure an analyte at all.
    public static func convertThroughOne(_ value: Double, from: String, to: String, analyte: String?) -> Double? {
        if let direct = convert(value, from: from, to: to, analyte: analyte) { return direct }
        for (middle, factor) in general[from] ?? [:] {
            if let converted = convert(value * factor, from: middle, to: to, analyte: analyte) { return converted }
        }
        return nil
    }
}

/// One substance-specific conversion: `to = from × factor` (or HbA1c's affine IFCC formula).
public struct UnitConversion: Sendable {
    public let from: String
    public let to: String
    let forwardFunction: @Sendable (Double) -> Double
    let backwardFunction: @Sendable (Double) -> Double

    /// A proportional conversion: to = from × factor.
    init(_ from: String, _ to: String, factor: Double) {
        self.from = from
        self.to = to
        forwardFunction = { $0 * factor }
        backwardFunction = { $0 / factor }
    }

    init(_ from: String, _ to: String, forward: @escaping @Sendable (Double) -> Double, backward: @escaping @Sendable (Double) -> Double) {
        self.from = from
        self.to = to
        forwardFunction = forward
        backwardFunction = backward
    }

    func forward(_ value: Double) -> Double? { forwardFunction(value) }
    func backward(_ value: Double) -> Double? { backwardFunction(value) }
}
