import Foundation

/// What a result of an analyte can be at all: the units it is measured in and an interval that
/// holds every value a living person's sample gives, pathology included (haemoglobin 1 to 25
/// g/dL, potassium 1 to 10 mmol/L). A row read from a report whose value falls outside, or
/// whose unit cannot measure the analyte, is read wrong somewhere (a misread digit, the unit of
/// the next column, an address on a letterhead): the reader marks it for a person's eye.
public enum AnalytePlausibility {
    /// Catalog key → the unit (UCUM) the interval is in, and the interval.
    static let intervals: [String: (unit: String, low: Double, high: Double)] = [
        "wbc": ("10*3/uL", 0.05, 500), "rbc": ("10*6/uL", 0.5, 10), "hemoglobin": ("g/dL", 1, 25), "hematocrit": ("%", 5, 80),
        "mcv": ("fL", 40, 160), "mch": ("pg", 10, 60), "mchc": ("g/dL", 20, 45), "rdw": ("%", 5, 40), "rdw-sd": ("fL", 20, 120),
        "platelets": ("10*3/uL", 1, 3000), "mpv": ("fL", 4, 20),
        "neutrophils-pct": ("%", 0, 100), "lymphocytes-pct": ("%", 0, 100), "monocytes-pct": ("%", 0, 100), "eosinophils-pct": ("%", 0, 100),
        "basophils-pct": ("%", 0, 100), "neutrophils-abs": ("10*3/uL", 0, 200), "lymphocytes-abs": ("10*3/uL", 0, 400),
        "monocytes-abs": ("10*3/uL", 0, 50), "eosinophils-abs": ("10*3/uL", 0, 50), "basophils-abs": ("10*3/uL", 0, 20),
        "glucose": ("mg/dL", 10, 2000), "glucose-fasting": ("mg/dL", 10, 2000), "eag": ("mg/dL", 30, 700), "bun": ("mg/dL", 1, 300),
        "urea": ("mg/dL", 2, 650), "creatinine": ("mg/dL", 0.05, 30), "egfr": ("mL/min/{1.73_m2}", 1, 250), "bun-creatinine": ("{ratio}", 1, 100),
        "cystatin-c": ("mg/L", 0.2, 10), "sodium": ("mmol/L", 90, 200), "potassium": ("mmol/L", 1, 10), "chloride": ("mmol/L", 60, 150),
        "co2": ("mmol/L", 2, 60), "calcium": ("mg/dL", 2, 20), "magnesium": ("mg/dL", 0.3, 10), "phosphate": ("mg/dL", 0.3, 20),
        "uric-acid": ("mg/dL", 0.3, 25), "anion-gap": ("mmol/L", -10, 60), "protein-total": ("g/dL", 2, 15), "albumin": ("g/dL", 0.5, 7),
        "globulin": ("g/dL", 0.5, 10), "albumin-globulin": ("{ratio}", 0.1, 5), "bilirubin-total": ("mg/dL", 0, 60), "bilirubin-direct": ("mg/dL", 0, 40),
        "alp": ("U/L", 5, 5000), "ast": ("U/L", 1, 20000), "alt": ("U/L", 1, 20000), "ggt": ("U/L", 1, 5000), "ldh": ("U/L", 20, 20000),
        "cholesterol-total": ("mg/dL", 20, 2000), "hdl": ("mg/dL", 2, 250), "ldl": ("mg/dL", 0, 1000), "triglycerides": ("mg/dL", 10, 10000),
        "non-hdl": ("mg/dL", 5, 1500), "vldl": ("mg/dL", 0, 500), "chol-hdl": ("{ratio}", 0.5, 30), "apob": ("mg/dL", 10, 400),
        "tsh": ("m[IU]/L", 0.001, 500), "free-t4": ("ng/dL", 0.05, 10), "free-t3": ("pg/mL", 0.5, 30), "t4-total": ("ug/dL", 0.5, 30),
        "t3-total": ("ng/dL", 10, 800), "tpo-ab": ("[IU]/mL", 0, 10000), "hba1c": ("%", 2, 25), "insulin": ("u[IU]/mL", 0, 1000),
        "iron": ("ug/dL", 2, 1000), "tibc": ("ug/dL", 50, 1000), "uibc": ("ug/dL", 10, 900), "transferrin": ("mg/dL", 20, 800),
        "transferrin-saturation": ("%", 1, 100), "ferritin": ("ng/mL", 0.5, 100000), "vitamin-d": ("ng/mL", 1, 300),
        "vitamin-b12": ("pg/mL", 30, 10000), "folate": ("ng/mL", 0.3, 100), "pt": ("s", 5, 200), "inr": ("{ratio}", 0.5, 20),
        "aptt": ("s", 10, 300), "fibrinogen": ("mg/dL", 10, 2000), "crp": ("mg/L", 0, 600), "hs-crp": ("mg/L", 0, 600), "esr": ("mm/h", 0, 200),
        "procalcitonin": ("ng/mL", 0, 1000), "troponin-i": ("ng/L", 0, 1_000_000), "troponin-t": ("ng/L", 0, 1_000_000), "bnp": ("pg/mL", 0, 50000),
        "nt-probnp": ("pg/mL", 0, 200_000), "ck": ("U/L", 1, 500_000), "lipase": ("U/L", 1, 50000), "amylase": ("U/L", 1, 20000),
        "psa": ("ng/mL", 0, 20000), "psa-free": ("ng/mL", 0, 1000), "testosterone": ("ng/dL", 1, 3000), "estradiol": ("pg/mL", 1, 20000),
        "lh": ("m[IU]/mL", 0, 300), "fsh": ("m[IU]/mL", 0, 300), "prolactin": ("ng/mL", 0.1, 10000), "cortisol": ("ug/dL", 0.1, 200),
        "pth": ("pg/mL", 1, 5000), "homocysteine": ("umol/L", 1, 500), "progesterone": ("ng/mL", 0, 500), "dhea-s": ("ug/dL", 1, 2000),
        "shbg": ("nmol/L", 1, 500), "hcg": ("m[IU]/mL", 0, 1_000_000), "cea": ("ng/mL", 0, 100_000), "ca-125": ("U/mL", 0, 100_000),
        "ca-19-9": ("U/mL", 0, 1_000_000), "ca-15-3": ("U/mL", 0, 100_000), "afp": ("ng/mL", 0, 1_000_000), "anti-hbs": ("m[IU]/mL", 0, 100_000),
        "urine-ph": ("[pH]", 4, 10), "urine-specific-gravity": ("1", 1.0, 1.06),
    ]

    /// Units an analyte is measured in besides those its interval's unit converts to.
    static let otherUnits: [String: Set<String>] = [
        "d-dimer": ["ug/mL", "mg/L", "ng/mL", "ug/L", "mg/L{FEU}", "ug/mL{FEU}", "ng/mL{FEU}"],
        "lpa": ["mg/dL", "nmol/L", "mg/L", "g/L"],
        "hematocrit": ["L/L"],
        "c-peptide": ["ng/mL", "nmol/L", "pmol/L", "ug/L"],
        "uacr": ["mg/g", "mg/mmol"], "microalbumin": ["mg/L", "ug/mL", "mg/dL"], "creatinine-urine": ["mg/dL", "mmol/L", "umol/L"],
        "afp": ["[IU]/mL", "ng/mL", "ug/L"], "tsh": ["u[IU]/mL", "m[IU]/L"], "urine-protein": ["mg/dL", "g/L", "mg/L"],
        "urine-glucose": ["mg/dL", "mmol/L"], "urine-ketones": ["mg/dL", "mmol/L"], "urine-urobilinogen": ["mg/dL", "umol/L", "E.U./dL"],
        "urine-wbc": ["/[HPF]", "/uL"], "urine-rbc": ["/[HPF]", "/uL"], "egfr": ["mL/min"],
    ]

    /// Whether results of the analyte are printed without a unit (INR, urine pH, specific gravity).
    static func unitless(_ analyte: Analyte) -> Bool {
        analyte.conventionalUnit == nil || ["{ratio}", "[pH]"].contains(analyte.conventionalUnit)
    }

    /// Why a result of `analyte` in `unit` with `value` cannot be right, or nil when it can:
    /// "'mg/dL' is not a unit of Hemoglobin", "1320 g/dL is not a possible Hemoglobin".
    public static func doubt(analyte: Analyte, value: Double?, unit: String?) -> String? {
        let ucum = unit.flatMap(LabUnits.ucum)
        if let unit, !unit.isEmpty {
            let known = [analyte.conventionalUnit, analyte.siUnit].compactMap { $0 }
            // A unit phr does not know, beside a test it knows, is more often misread than rare.
            guard let ucum else { return "'\(unit)' is not a unit phr knows for \(analyte.name)" }
            let measures = known.contains(ucum) || otherUnits[analyte.key]?.contains(ucum) == true
                || known.contains { LabUnits.convertThroughOne(1, from: ucum, to: $0, analyte: analyte.key) != nil }
                || intervals[analyte.key].map { LabUnits.convertThroughOne(1, from: ucum, to: $0.unit, analyte: analyte.key) != nil } == true
            if !measures { return "'\(unit)' is not a unit of \(analyte.name)" }
        }
        guard let value, let interval = intervals[analyte.key] else { return nil }
        let inUnit: Double?
        if let ucum {
            inUnit = LabUnits.convertThroughOne(value, from: ucum, to: interval.unit, analyte: analyte.key)
        } else if interval.unit == "1" || interval.unit == "[pH]" || interval.unit == "{ratio}" {
            inUnit = value
        } else {
            // No unit printed: the value holds in some unit of the analyte, or it is not one.
            let units = [analyte.conventionalUnit, analyte.siUnit].compactMap { $0 }
            let fits = units.contains { unit in
                LabUnits.convertThroughOne(value, from: unit, to: interval.unit, analyte: analyte.key).map { interval.low...interval.high ~= $0 } ?? false
            }
            return fits || units.isEmpty ? nil : "\(Observation.number(value)) is not a possible \(analyte.name)"
        }
        guard let inUnit else { return nil }
        if !(interval.low...interval.high).contains(inUnit) {
            return "\(Observation.number(value))\(unit.map { " " + $0 } ?? "") is not a possible \(analyte.name)"
        }
        return nil
    }
}
