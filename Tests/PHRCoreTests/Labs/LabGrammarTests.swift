import Foundation
import Testing
@testable import PHRCore

/// The cell grammar of lab reports: every range, value, flag and unit form the layouts print.
@Suite struct LabGrammarTests {
    @Test(arguments: [
        ("12", 12.0), ("12.5", 12.5), ("3,6", 3.6), ("0,125", 0.125), ("10,00", 10.0), ("1,200", 1200.0), ("150 000", 150_000.0),
        ("1.234,5", 1234.5), ("1,234.5", 1234.5), (".5", 0.5), ("-2", -2.0),
    ])
    func numbersInEitherDecimalMark(text: String, expected: Double) {
        #expect(LabGrammar.number(text) == expected)
    }

    @Test(arguments: ["", "abc", "1.2.3", "12..", "1,2,3", "12 L", "1e5"])
    func notNumbers(text: String) {
        #expect(LabGrammar.number(text) == nil)
    }

    @Test func rangesInEveryForm() {
        func range(_ text: String) -> (Double?, Double?) {
            let parsed = LabGrammar.range(text)
            return (parsed?.low, parsed?.high)
        }
        #expect(range("30-400") == (30, 400))
        #expect(range("30 - 400") == (30, 400))
        #expect(range("13.2 – 16.6") == (13.2, 16.6))
        #expect(range("13,2—16,6") == (13.2, 16.6))
        #expect(range("3,6-10,0") == (3.6, 10.0))
        #expect(range("3,6 - 10,0") == (3.6, 10.0))
        #expect(range("<0.41") == (nil, 0.41))
        #expect(range("< 0,41") == (nil, 0.41))
        #expect(range("≤5") == (nil, 5))
        #expect(range("<= 5") == (nil, 5))
        #expect(range(">60") == (60, nil))
        #expect(range("≥ 60") == (60, nil))
        #expect(range(">= 60") == (60, nil))
        #expect(range("(4.0-10.5)") == (4.0, 10.5))
        #expect(range("0.5 to 1.2") == (0.5, 1.2))
        #expect(range("up to 40") == (nil, 40))
        #expect(range("150,000-400,000") == (150_000, 400_000))
        #expect(LabGrammar.range("3,6-10,0")?.text == "3,6-10,0")
        let text = LabGrammar.range("Negative")
        #expect(text == ReferenceRange(low: nil, high: nil, text: "Negative"))
        #expect(LabGrammar.range("  ") == nil)
    }

    @Test func valuesWithFlagsGluedOrApart() {
        #expect(LabGrammar.value("12") == .init(number: 12))
        #expect(LabGrammar.value("12 L") == .init(number: 12, flag: .low))
        #expect(LabGrammar.value("12L") == .init(number: 12, flag: .low))
        #expect(LabGrammar.value("240 H") == .init(number: 240, flag: .high))
        #expect(LabGrammar.value("H 13,9") == .init(number: 13.9, flag: .high))
        #expect(LabGrammar.value("12*") == .init(number: 12, marked: true))
        #expect(LabGrammar.value("3,6 HH") == .init(number: 3.6, flag: .criticalHigh))
        #expect(LabGrammar.value("12.5 (H)") == .init(number: 12.5, flag: .high))
        #expect(LabGrammar.value(">60") == .init(text: ">60"))
        #expect(LabGrammar.value("< 0.5") == .init(text: "<0.5"))
        #expect(LabGrammar.value("Negative") == .init(text: "Negative"))
        #expect(LabGrammar.value("Trace") == .init(text: "Trace"))
        #expect(LabGrammar.value("3+") == .init(text: "3+"))
        #expect(LabGrammar.value("mg/dL") == nil)
        #expect(LabGrammar.value("Hemoglobin") == nil)
        // A lower-case l beside a number is OCR's 1, not a flag: "4l" was 41 on the scan.
        #expect(LabGrammar.value("4l") == nil)
        #expect(LabGrammar.value("12 l") == nil)
        #expect(LabGrammar.value("4ll") == nil)
        #expect(LabGrammar.value("12 low") == .init(number: 12, flag: .low))
    }

    @Test func flags() {
        #expect(LabGrammar.flag("H") == .high)
        #expect(LabGrammar.flag("Low") == .low)
        #expect(LabGrammar.flag("HH") == .criticalHigh)
        #expect(LabGrammar.flag("LL") == .criticalLow)
        #expect(LabGrammar.flag("A") == .abnormal)
        #expect(LabGrammar.flag("*") == .abnormal)
        #expect(LabGrammar.flag("N") == .normal)
        #expect(LabGrammar.flag("↑") == .high)
        #expect(LabGrammar.flag("mg") == nil)
        #expect(LabFlag.computed(12, range: ReferenceRange(low: 30, high: 400, text: nil)) == .low)
        #expect(LabFlag.computed(0.5, range: ReferenceRange(low: nil, high: 0.41, text: nil)) == .high)
        #expect(LabFlag.computed(75, range: ReferenceRange(low: 60, high: nil, text: nil)) == nil)
    }

    @Test func unitsAndTheirUCUMCodes() {
        #expect(LabUnits.ucum("x10E3/uL") == "10*3/uL")
        #expect(LabUnits.ucum("×10³/µL") == "10*3/uL")
        #expect(LabUnits.ucum("10^9/L") == "10*9/L")
        #expect(LabUnits.ucum("x10E6/uL") == "10*6/uL")
        #expect(LabUnits.ucum("mL/min/1.73m2") == "mL/min/{1.73_m2}")
        #expect(LabUnits.ucum("ml/min/1,73m2") == "mL/min/{1.73_m2}")
        #expect(LabUnits.ucum("%") == "%")
        #expect(LabUnits.ucum("µmol/L") == "umol/L")
        #expect(LabUnits.ucum("mg/dl") == "mg/dL")
        #expect(LabUnits.ucum("µIU/mL") == "u[IU]/mL")
        #expect(LabUnits.ucum("IU/L") == "[IU]/L")
        #expect(LabUnits.ucum("g/l") == "g/L")
        #expect(LabUnits.ucum("furlongs") == nil)
        // UCUM's code is meq/L (mEq would be exa-equivalents), as FHIR import and IPS export say;
        // shown as labs print it; mmol/L and mEq/L are the same for a monovalent ion.
        for written in ["mEq/L", "meq/l", "MEQ/L"] { #expect(LabUnits.ucum(written) == "meq/L", "\(written)") }
        #expect(LabUnits.ucum("mEq/L") == UCUM.code(for: "mEq/L"))
        #expect(LabUnits.display("meq/L") == "mEq/L")
        #expect(LabUnits.convert(140, from: "meq/L", to: "mmol/L", analyte: nil) == 140)
        for unit in ["x10E3/uL", "10^9/L", "mL/min/1.73m2", "%", "fL", "U/L", "mmol/L", "cells/hpf", "{cells}/uL", "ml/min/1,73m2"] {
            #expect(LabGrammar.isUnit(unit), "\(unit)")
        }
        // "10%3/uL" is OCR's reading of 10^3/uL, not a unit.
        for text in ["12", "H", "Negative", "30-400", "10%3/uL", "10*%3/uL"] { #expect(!LabGrammar.isUnit(text), "\(text)") }
    }

    @Test func datesThatAreNotMonthFirst() {
        func collected(_ text: String, dayFirst: Bool = false) -> String? {
            LabReportReader.collectionDate(text, dayFirst: dayFirst)?.description
        }
        #expect(collected("Collected: 18.03.2025") == "2025-03-18")
        #expect(collected("Collected 18/03/2025") == "2025-03-18")
        #expect(collected("Collected 03/04/2025", dayFirst: true) == "2025-04-03")
        #expect(collected("Collected 03/04/2025") == "2025-03-04")
        #expect(collected("Date collected: 2025-03-18 08:12") == "2025-03-18")
        #expect(collected("Entnahme 05.11.24") == "2024-11-05")
        #expect(collected("Patient X\nProbenentnahme: 04.02.2025 07:40\nBefund: 05.02.2025", dayFirst: true) == "2025-02-04")
        #expect(collected("Collected 03/18/2025 08:12") == "2025-03-18")
        // The scanner the document date uses: accents, connectors, English month names.
        #expect(collected("Prélèvement le 04/03/2025", dayFirst: true) == "2025-03-04")
        #expect(collected("Specimen collected on March 3, 2025") == "2025-03-03")
        // Other dates are not the collection date.
        #expect(collected("Date of birth: 07/22/1984\nReported 03/19/2025") == nil)
    }
}

/// The analyte table and the unit conversions a trend relies on, against hand-worked values.
@Suite struct AnalyteCatalogTests {
    @Test func everyLOINCCodeAppearsOnce() {
        var seen: [String: String] = [:]
        for entry in AnalyteCatalog.entries {
            for code in entry.loinc {
                #expect(seen[code] == nil, "LOINC \(code) is in both \(seen[code] ?? "") and \(entry.key)")
                seen[code] = entry.key
                #expect(code.range(of: #"^[0-9]{1,6}-[0-9]$"#, options: .regularExpression) != nil, "\(code) is not a LOINC code")
            }
        }
        #expect(Set(AnalyteCatalog.entries.map(\.key)).count == AnalyteCatalog.entries.count)
        #expect(AnalyteCatalog.entries.count >= 100)
    }

    /// LOINC check digits (mod 10, as LOINC computes them) catch mistyped codes.
    @Test func everyLOINCCodeHasItsCheckDigit() {
        for code in AnalyteCatalog.entries.flatMap(\.loinc) {
            let parts = code.split(separator: "-")
            let digits = parts[0].compactMap(\.wholeNumberValue)
            var sum = 0
            for (index, digit) in digits.reversed().enumerated() {
                if index % 2 == 0 {
                    let doubled = digit * 2
                    sum += doubled / 10 + doubled % 10
                } else {
                    sum += digit
                }
            }
            #expect((10 - sum % 10) % 10 == Int(parts[1]), "LOINC \(code): check digit")
        }
    }

    @Test func namesInSeveralLanguages() {
        #expect(AnalyteCatalog.lookup("Ferritin")?.loinc.first == "2276-4")
        #expect(AnalyteCatalog.lookup("Hämoglobin")?.key == "hemoglobin")
        #expect(AnalyteCatalog.lookup("Hémoglobine")?.key == "hemoglobin")
        #expect(AnalyteCatalog.lookup("White blood cells (WBC)")?.key == "wbc")
        #expect(AnalyteCatalog.lookup("Creatinine, serum")?.key == "creatinine")
        #expect(AnalyteCatalog.lookup("Kreatinin")?.key == "creatinine")
        #expect(AnalyteCatalog.lookup("Cholestérol total")?.key == "cholesterol-total")
        #expect(AnalyteCatalog.lookup("Cholesterin gesamt")?.key == "cholesterol-total")
        #expect(AnalyteCatalog.lookup("Glucosa")?.key == "glucose")
        #expect(AnalyteCatalog.lookup("LDL Chol Calc (NIH)")?.key == "ldl")
        #expect(AnalyteCatalog.lookup("Neutrophils", unit: "%")?.key == "neutrophils-pct")
        #expect(AnalyteCatalog.lookup("Neutrophils", unit: "x10E3/uL")?.key == "neutrophils-abs")
        // A differential's absolute counts under the short names labs print (the multi-page
        // sample): the count, never the percentage, whose LOINC code would go out with it.
        for (name, key) in [("Neutrophils (Absolute)", "neutrophils"), ("Lymphs (Absolute)", "lymphocytes"),
                            ("Monocytes(Absolute)", "monocytes"), ("Eos (Absolute)", "eosinophils"), ("Baso (Absolute)", "basophils")] {
            #expect(AnalyteCatalog.lookup(name, unit: "x10E3/uL")?.key == "\(key)-abs", "\(name)")
        }
        for (name, key) in [("Lymphs", "lymphocytes"), ("Eos", "eosinophils"), ("Baso", "basophils"), ("Monos", "monocytes")] {
            #expect(AnalyteCatalog.lookup(name, unit: "%")?.key == "\(key)-pct", "\(name)")
            #expect(AnalyteCatalog.lookup(name, unit: "x10E3/uL")?.key == "\(key)-abs", "\(name)")
        }
        #expect(AnalyteCatalog.lookup("Glucose", specimen: .urine)?.key == "urine-glucose")
        #expect(AnalyteCatalog.lookup("Glucose")?.key == "glucose")
        #expect(AnalyteCatalog.lookup("Frobnicase") == nil)
    }

    @Test func conversionsAgainstHandWorkedValues() throws {
        func convert(_ value: Double, _ from: String, _ to: String, _ analyte: String) throws -> Double {
            try #require(LabUnits.convert(value, from: from, to: to, analyte: analyte))
        }
        // Glucose: 100 mg/dL / 18.016 = 5.55 mmol/L; 7.0 mmol/L × 18.016 = 126.1 mg/dL.
        #expect(abs(try convert(100, "mg/dL", "mmol/L", "glucose") - 5.551) < 0.001)
        #expect(abs(try convert(7.0, "mmol/L", "mg/dL", "glucose") - 126.11) < 0.01)
        // Cholesterol: 200 mg/dL / 38.67 = 5.17 mmol/L.
        #expect(abs(try convert(200, "mg/dL", "mmol/L", "cholesterol-total") - 5.172) < 0.001)
        #expect(abs(try convert(3.0, "mmol/L", "mg/dL", "ldl") - 116.01) < 0.01)
        // Creatinine: 1.0 mg/dL × 88.42 = 88.4 µmol/L; 62 µmol/L = 0.70 mg/dL.
        #expect(abs(try convert(1.0, "mg/dL", "umol/L", "creatinine") - 88.42) < 0.001)
        #expect(abs(try convert(62, "umol/L", "mg/dL", "creatinine") - 0.7012) < 0.001)
        // Ferritin: ng/mL and µg/L are the same number.
        #expect(try convert(12, "ng/mL", "ug/L", "ferritin") == 12)
        // HbA1c: IFCC = (NGSP − 2.15) × 10.929; 7.0 % = 53.0 mmol/mol, 48 mmol/mol = 6.54 %.
        #expect(abs(try convert(7.0, "%", "mmol/mol", "hba1c") - 53.006) < 0.001)
        #expect(abs(try convert(48, "mmol/mol", "%", "hba1c") - 6.542) < 0.001)
        #expect(LabUnits.convert(1, from: "mg/dL", to: "mmol/L", analyte: "ferritin") == nil)
        // Counts: ×10³/µL and ×10⁹/L are the same number.
        #expect(try convert(6.4, "10*3/uL", "10*9/L", "wbc") == 6.4)
    }

    @Test func unitsOCRMisreadAreReadAsTheKnownUnit() {
        #expect(LabGrammar.ocrCorrectedUnit("ulU/mL") == "uIU/mL")
        #expect(LabGrammar.ocrCorrectedUnit("X10E3/uL") == "x10E3/uL")
        #expect(LabGrammar.ocrCorrectedUnit("mlU/L") == "mIU/L")
        // Nothing known is made up.
        #expect(LabGrammar.ocrCorrectedUnit("bananas/L") == nil)
    }
}
