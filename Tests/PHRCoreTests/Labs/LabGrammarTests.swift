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
