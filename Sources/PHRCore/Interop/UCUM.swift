import Foundation

/// UCUM, the unit codes FHIR quantities carry (http://unitsofmeasure.org): the code of the
/// units phr sees in health records, by the spellings records use. A unit not listed is
/// written without a code (its text only), never with a guessed one.
enum UCUM {
    static let system = "http://unitsofmeasure.org"

    /// Spelling → UCUM code. Codes map to themselves.
    static let codes: [String: String] = {
        let spellings: [String: String] = [
            "mcg": "ug", "µg": "ug", "ml": "mL", "l": "L", "mmHg": "mm[Hg]", "kg/m²": "kg/m2", "beats/min": "/min", "bpm": "/min",
            "°C": "Cel", "°F": "[degF]", "in": "[in_i]", "lb": "[lb_av]", "IU/L": "[IU]/L", "IU": "[IU]", "µmol/L": "umol/L",
            "mEq/L": "meq/L", "breaths/min": "/min",
        ]
        let known = ["mg", "g", "kg", "ug", "ng", "pg", "mL", "L", "dL", "mmol/L", "umol/L", "nmol/L", "pmol/L", "mg/dL", "g/dL", "g/L",
                     "mg/L", "ng/mL", "pg/mL", "ug/L", "ug/dL", "meq/L", "mmol/mol", "%", "cm", "m", "mm", "mm[Hg]", "kg/m2", "/min",
                     "{beats}/min", "{breaths}/min", "Cel", "[degF]", "[in_i]", "[lb_av]", "U/L", "[IU]/L", "[IU]", "mU/L", "m[IU]/L",
                     "10*3/uL", "10*6/uL", "10*9/L", "10*12/L", "fL", "s", "min", "h", "d", "wk", "mo", "a",
                     "mL/min/{1.73_m2}", "mL/min", "{score}", "1"]
        return spellings.merging(Dictionary(uniqueKeysWithValues: known.map { ($0, $0) })) { first, _ in first }
    }()

    static func code(for unit: String) -> String? {
        codes[unit]
    }
}
