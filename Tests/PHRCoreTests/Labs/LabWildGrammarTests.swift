import Foundation
import Testing
@testable import PHRCore

/// The pieces of grammar real labs' reports need (issue 27), each against expectations worked by
/// hand: flags of every spelling, comparators and qualitative results, ranges that carry a unit
/// or a label, ranges per sex and age, what an analyte can plausibly be, OCR's name confusions,
/// and results written as lines of text, with the lines that must not become results.
@Suite struct LabWildGrammarTests {
    @Test func flagsOfEverySpelling() {
        let cases: [(String, LabFlag?)] = [
            ("[H]", .high), ("(L)", .low), ("<H>", .high), ("↑", .high), ("↓", .low), ("HH", .criticalHigh), ("LL", .criticalLow),
            ("↑↑", .criticalHigh), ("Critical high", .criticalHigh), ("*", .abnormal), ("A", .abnormal), ("Normal", .normal), ("WNL", .normal),
            ("(High)", .high), ("[LL]", .criticalLow), ("Final", nil), ("Serum", nil), ("-", nil),
        ]
        for (text, flag) in cases { #expect(LabGrammar.flag(text) == flag, "\(text)") }
        // "critical" says how bad, not which way.
        for text in ["critical", "CRIT", "panic", "(critical)"] { #expect(LabGrammar.isCritical(text), "\(text)") }
        #expect(!LabGrammar.isCritical("High"))
        // German reports: "+" beside the value is above the range, "++" far above.
        #expect(LabGrammar.value("5,6 +") == LabGrammar.Value(number: 5.6, flag: .high))
        #expect(LabGrammar.value("12 ++") == LabGrammar.Value(number: 12, flag: .criticalHigh))
        // A graded urine result is not a flag.
        #expect(LabGrammar.value("1+") == LabGrammar.Value(text: "1+"))
    }

    @Test func comparatorsAndQualitativeResultsKeepTheirText() {
        #expect(LabGrammar.value("<0.5") == LabGrammar.Value(text: "<0.5"))
        #expect(LabGrammar.value("> 90") == LabGrammar.Value(text: ">90"))
        #expect(LabGrammar.value("Non-Reactive") == LabGrammar.Value(text: "Non-Reactive"))
        // Written as two words on a line: "< 0.5", "Not detected".
        let comparator = LabReportReader.valueAt(["CRP", "<", "0.5", "mg/dL"], 1)
        #expect(comparator?.0 == LabGrammar.Value(text: "<0.5") && comparator?.1 == 3)
        let detected = LabReportReader.valueAt(["HCV", "Not", "detected"], 1)
        #expect(detected?.0 == LabGrammar.Value(text: "Not detected") && detected?.1 == 3)
        #expect(LabReportReader.valueAt(["Date", "07/22/1984"], 1) == nil)
        // FHIR's comparator codes, whichever way the page wrote them.
        for (text, comparator, bound) in [("<0.5", "<", 0.5), ("≤5", "<=", 5.0), ("≤=5", "<=", 5.0), (">= 60", ">=", 60.0), ("> 90", ">", 90.0)] {
            let parsed = LabGrammar.comparison(text)
            #expect(parsed?.comparator == comparator && parsed?.value == bound, "\(text)")
        }
        #expect(LabGrammar.comparison("Negative") == nil)
    }

    @Test func rangesWithUnitsAndLabels() {
        let state = LabReportReader.State()
        let (withUnit, unit) = LabReportReader.range("13.0-17.0 g/dL", unit: nil, state: state)
        #expect(withUnit == ReferenceRange(low: 13, high: 17, text: "13.0-17.0") && unit == "g/dL")
        let (feu, feuUnit) = LabReportReader.range("< 0.50 mg/L FEU", unit: nil, state: state)
        #expect(feu == ReferenceRange(low: nil, high: 0.5, text: "< 0.50") && feuUnit == "mg/L FEU")
        // A unit in its own column is kept.
        #expect(LabReportReader.range("30 - 400 ng/mL", unit: "ug/L", state: state).1 == "ug/L")
        #expect(LabGrammar.range("Desirable: < 200") == ReferenceRange(low: nil, high: 200, text: "Desirable: < 200"))
        #expect(LabGrammar.range("Up to 5.0") == ReferenceRange(low: nil, high: 5, text: "Up to 5.0"))
        #expect(LabGrammar.range(">= 60") == ReferenceRange(low: 60, high: nil, text: ">= 60"))
        #expect(LabGrammar.rangeLabelRemoved("Ref: 13.0 - 17.0") == "13.0 - 17.0")
        #expect(LabGrammar.rangeLabelRemoved("Normal range: 4.0 - 5.6") == "4.0 - 5.6")
        // A word that only starts like a label is not one.
        #expect(LabGrammar.rangeLabelRemoved("Negative") == "Negative")
        #expect(LabGrammar.rangeLabelRemoved("Reactive") == "Reactive")
    }

    @Test func rangesBySexAndAgeAreChosenForThePatient() {
        let bySex = "Male: 13.5 - 17.5; Female: 12.0 - 15.5"
        #expect(LabGrammar.populationRange(bySex, sex: .female, age: 35) == ReferenceRange(low: 12, high: 15.5, text: bySex))
        #expect(LabGrammar.populationRange(bySex, sex: .male, age: 35) == ReferenceRange(low: 13.5, high: 17.5, text: bySex))
        // Nobody to choose for: the text of all, no bounds (no flag worked out from the wrong one).
        #expect(LabGrammar.populationRange(bySex, sex: nil, age: nil) == ReferenceRange(low: nil, high: nil, text: bySex))
        let short = "M: 30 - 400; F: 15 - 150"
        #expect(LabGrammar.populationRange(short, sex: .female, age: nil)?.high == 150)
        let words = "Men 0.67 - 1.17; Women 0.51 - 0.95"
        #expect(LabGrammar.populationRange(words, sex: .male, age: nil)?.low == 0.67)
        let byAge = "Adults: 0.6 - 1.2; Children: 0.2 - 0.7"
        #expect(LabGrammar.populationRange(byAge, sex: .female, age: 8)?.high == 0.7)
        #expect(LabGrammar.populationRange(byAge, sex: .female, age: 40)?.high == 1.2)
        let bands = "18-49 y: 10 - 20; 50-99 y: 15 - 30"
        #expect(LabGrammar.populationRange(bands, sex: nil, age: 60) == ReferenceRange(low: 15, high: 30, text: bands))
        #expect(LabGrammar.populationRange(bands, sex: nil, age: 18.5)?.low == 10)
        // Bands in months and years, sharing their ends: a child of 4 years 3 months.
        let child = "6 mo - 2 y: 10.5 - 13.5; 2 - 6 y: 11.5 - 13.5; 6 - 12 y: 11.5 - 15.5; 12 - 18 y: 13.0 - 16.0"
        #expect(LabGrammar.populationRange(child, sex: .male, age: 4.26) == ReferenceRange(low: 11.5, high: 13.5, text: child))
        #expect(LabGrammar.populationRange(child, sex: .male, age: 1)?.low == 10.5)
        #expect(LabGrammar.populationRange(child, sex: .male, age: 6.5)?.high == 15.5)
        // A bound without its own unit takes the next one's: "2 - 6 mo" is months.
        let infant = "0 - 2 mo: 13.5 - 21.5; 2 - 6 mo: 9.5 - 13.5; 6 mo - 2 y: 10.5 - 13.5"
        #expect(LabGrammar.populationRange(infant, sex: nil, age: 0.3)?.low == 9.5)
        #expect(LabGrammar.populationRange(infant, sex: nil, age: 40)?.low == nil, "no band fits an adult")
        // Cut-offs that are not ages ("≥240: High") are no population, and never a crash.
        #expect(LabGrammar.population("≥240: High") == nil)
        #expect(LabGrammar.population("240: High") == nil)
        #expect(LabGrammar.populationRange("<200: Desirable; 200-239: Borderline; ≥240: High", sex: .male, age: 40) == nil)
        #expect(LabGrammar.populationRange("<0 mo: 1 - 2; 0 - 1 y: 3 - 4", sex: .male, age: 0.5) == nil, "a band no age is in: no list, no crash")
        #expect(LabGrammar.population("999 y: 1 - 2") == nil)
        // One range only, or parts that are not populations: not such a list.
        #expect(LabGrammar.populationRange("13.5 - 17.5", sex: .male, age: 30) == nil)
        #expect(LabGrammar.populationRange("see note; fasting", sex: .male, age: 30) == nil)
        // The reader joins the lines of such a cell with "; ".
        #expect(LabGrammar.population("Female: 12.0 - 15.5") != nil)
        #expect(LabGrammar.population("Fasting 70 - 99") == nil)
    }

    @Test func whatAnAnalyteCanBe() throws {
        let hemoglobin = try #require(AnalyteCatalog.entry(key: "hemoglobin"))
        #expect(AnalytePlausibility.doubt(analyte: hemoglobin, value: 13.2, unit: "g/dL") == nil)
        #expect(AnalytePlausibility.doubt(analyte: hemoglobin, value: 132, unit: "g/dL") == "132 g/dL is not a possible Hemoglobin")
        #expect(AnalytePlausibility.doubt(analyte: hemoglobin, value: 132, unit: "g/L") == nil)
        let potassium = try #require(AnalyteCatalog.entry(key: "potassium"))
        #expect(AnalytePlausibility.doubt(analyte: potassium, value: 4.2, unit: "mg/dL") == "'mg/dL' is not a unit of Potassium")
        #expect(AnalytePlausibility.doubt(analyte: potassium, value: 4.2, unit: "mEq/L") == nil)
        // A unit phr does not know beside a test it knows: more often misread than rare.
        #expect(AnalytePlausibility.doubt(analyte: potassium, value: 4.2, unit: "mmoI/L") != nil)
        // Counts in cells per microlitre, and the French G/L (giga per litre, never grams).
        let wbc = try #require(AnalyteCatalog.entry(key: "wbc"))
        #expect(AnalytePlausibility.doubt(analyte: wbc, value: 12500, unit: "cells/uL") == nil)
        #expect(AnalytePlausibility.doubt(analyte: wbc, value: 6.2, unit: "G/L") == nil)
        #expect(LabUnits.ucum("G/L") == "10*9/L" && LabUnits.ucum("g/L") == "g/L")
        #expect(AnalytePlausibility.doubt(analyte: wbc, value: 6.2, unit: "g/dL") != nil)
        // Troponin in ng/mL measures through pg/mL = ng/L.
        let troponin = try #require(AnalyteCatalog.entry(key: "troponin-i"))
        #expect(AnalytePlausibility.doubt(analyte: troponin, value: 0.01, unit: "ng/mL") == nil)
        // No unit printed: 7.1 is a possible calcium in mg/dL, 71 is not one in any of its units.
        let calcium = try #require(AnalyteCatalog.entry(key: "calcium"))
        #expect(AnalytePlausibility.doubt(analyte: calcium, value: 71, unit: "mg/dL") != nil)
        let gravity = try #require(AnalyteCatalog.entry(key: "urine-specific-gravity"))
        #expect(AnalytePlausibility.doubt(analyte: gravity, value: 1.021, unit: nil) == nil)
        #expect(AnalytePlausibility.doubt(analyte: gravity, value: 1021, unit: nil) != nil)
    }

    /// A report that writes decimal commas groups thousands with points: "6.300 /mm³" is 6300.
    @Test func pointsGroupThousandsInADecimalCommaReport() {
        #expect(LabGrammar.number("6.300") == 6.3)
        LabGrammar.$pointsGroupThousands.withValue(true) {
            #expect(LabGrammar.number("6.300") == 6300)
            #expect(LabGrammar.number("245.000") == 245_000)
            #expect(LabGrammar.number("4,21") == 4.21)
            #expect(LabGrammar.number("6.3") == 6.3)
            #expect(LabGrammar.number("0.500") == 0.5, "a leading zero is a decimal")
        }
    }

    /// The same report printed twice in one file (a patient's and a doctor's copy): its rows are
    /// read on both pages, not taken for a running header.
    @Test func aReportPrintedTwiceIsReadTwice() {
        let page = Self.words("Test", 50, 60) + Self.words("Result", 250, 60) + Self.words("Units", 350, 60) + Self.words("Range", 450, 60)
            + Self.words("Sodium", 50, 80) + Self.words("140", 250, 80) + Self.words("mmol/L", 350, 80) + Self.words("135 - 145", 450, 80)
        #expect(LabReportReader.rows(pages: [(1, page), (2, page)]).map(\.page) == [1, 2])
    }

    @Test func namesOCRMisreadAreReadAsTheKnownName() {
        #expect(AnalyteCatalog.ocrCorrected("lron")?.name == "Iron")
        #expect(AnalyteCatalog.ocrCorrected("HbAlc")?.analyte.key == "hba1c")
        #expect(AnalyteCatalog.ocrCorrected("Hemoglobin Alc")?.name == "Hemoglobin A1c")
        #expect(AnalyteCatalog.ocrCorrected("Iron") == nil, "a known name is left alone")
        #expect(AnalyteCatalog.ocrCorrected("Lorem ipsum") == nil)
        // Words of specimen and measure at both ends of a name.
        #expect(AnalyteCatalog.lookup("Serum TSH level")?.key == "tsh")
    }

    /// The words of `text` on one line at `y`, from `x`, five points a letter, three a space.
    static func words(_ text: String, _ x: Double, _ y: Double) -> [PageWord] {
        var position = x
        return text.split(separator: " ").map { word in
            defer { position += Double(word.count) * 5 + 3 }
            return PageWord(text: String(word), x0: position, y0: y, x1: position + Double(word.count) * 5, y1: y + 10, line: Int(y))
        }
    }

    static func cells(_ text: String) -> [LabReportReader.Cell] {
        [LabReportReader.Cell(text: text, x0: 50, x1: 400, y0: 100, y1: 110)]
    }

    static func line(_ text: String) -> LabReportReader.Row? {
        LabReportReader.lineRow(cells(text), page: 1, panel: nil, heading: nil, state: LabReportReader.State())?.row
    }

    @Test func resultsWrittenAsLines() throws {
        let colon = try #require(Self.line("Haemoglobin: 13.2 g/dL (Ref: 13.0 - 17.0)"))
        #expect(colon.name == "Haemoglobin" && colon.valueNumber == 13.2 && colon.unit == "g/dL" && colon.unsure == nil)
        #expect(colon.range == ReferenceRange(low: 13, high: 17, text: "13.0 - 17.0") && colon.analyte == "hemoglobin")
        let leaders = try #require(Self.line("Glucose, fasting ............ 5.4 mmol/L  [3.9-5.5] [H]"))
        #expect(leaders.name == "Glucose, fasting" && leaders.unit == "mmol/L" && leaders.range?.high == 5.5 && leaders.flag == .high)
        #expect(leaders.unsure?.contains("disagrees") == true, "H beside a value inside its range is doubted")
        let bullet = try #require(Self.line("• TSH: 5.8 mIU/L (High)"))
        #expect(bullet.name == "TSH" && bullet.flag == .high && bullet.range == nil && bullet.unsure == nil)
        let critical = try #require(Self.line("Potassium 6.9 mmol/L critical 3.5 - 5.1"))
        #expect(critical.flag == .criticalHigh)
        let qualitative = try #require(Self.line("HIV-1/2 Antigen/Antibody: Non-Reactive"))
        #expect(qualitative.valueText == "Non-Reactive" && qualitative.analyte == "hiv-ag-ab")
        // A name the catalogue longer-matches wins over the first number: "CA 125 41 U/mL".
        let marker = try #require(Self.line("CA 125 41 U/mL < 35"))
        #expect(marker.name == "CA 125" && marker.valueNumber == 41 && marker.range?.high == 35)
        // A name phr does not know, shaped like a result: proposed, marked.
        let unknown = try #require(Self.line("Zonulin 45 ng/mL (20 - 50)"))
        #expect(unknown.unsure?.contains("not a test phr knows") == true)
        // A known test with an impossible value or a unit that is not its own: marked.
        #expect(Self.line("Hemoglobin 132 g/dL 13.0 - 17.0")?.unsure?.contains("not a possible") == true)
        #expect(Self.line("Sodium 139 mg/dL")?.unsure?.contains("not a unit of Sodium") == true)
        #expect(Self.line("Sodium 139")?.unsure?.contains("no unit") == true)
        // A note under a result, or two results on one line: what is not read is said.
        #expect(Self.line("HbA1c 6.5 % or higher: diabetes")?.unsure?.contains("words after the result not read") == true)
        #expect(Self.line("Sodium 140 mmol/L Potassium 4.1 mmol/L")?.unsure?.contains("not read") == true)
    }

    @Test func linesThatAreNotResults() {
        for text in ["Date of birth: 07/22/1984", "Page 1 of 2", "Suite 200, Springfield", "Call 555 0100 to book an appointment",
                     "Phone: 555-0100", "Dear Alex, here are your results from 04/14/2025:", "Collected 04/14/2025 07:40", "Patient ID: 12345",
                     "Room 12 Ward 4", "Please repeat in 6 weeks", "Age / Gender: 35 Years / Male", "Reg. No: MCI-78542", "Zonulin 45"] {
            #expect(Self.line(text) == nil, "\(text)")
        }
    }

    /// "Hemoglobin A1c" over "Your value: 5.4 %" over "Normal range: 4.0 - 5.6 %": one result.
    @Test func aPortalCardIsOneResult() {
        let page = Self.words("Hemoglobin A1c", 50, 100) + Self.words("Your value: 6.1 % (High)", 50, 114) + Self.words("Normal range: 4.0 - 5.6 %", 50, 128)
            + Self.words("TSH", 50, 160) + Self.words("Your value: 2.1 uIU/mL", 50, 174) + Self.words("Normal range: 0.45 - 4.5 uIU/mL", 50, 188)
        let rows = LabReportReader.rows(pages: [(1, page)])
        #expect(rows.map(\.name) == ["Hemoglobin A1c", "TSH"])
        #expect(rows.first?.range == ReferenceRange(low: 4, high: 5.6, text: "4.0 - 5.6") && rows.first?.unit == "%")
        #expect(rows.first?.flag == .high && rows.first?.panel == nil)
        #expect(rows.last?.valueNumber == 2.1 && rows.last?.range?.high == 4.5 && rows.allSatisfy { $0.unsure == nil })
    }

    /// A line printed on every page (the lab's letterhead, "Page 1 of 3") is never a panel; a
    /// heading at the foot of a page names the rows at the top of the next.
    @Test func pageFurnitureIsNotAPanel() {
        func header(_ y: Double) -> [PageWord] { Self.words("Test", 50, y) + Self.words("Result", 250, y) + Self.words("Units", 350, y) + Self.words("Range", 450, y) }
        let letterhead = Self.words("Example Laboratory Services", 50, 20)
        let page1 = letterhead + header(60) + Self.words("Sodium", 50, 80) + Self.words("140", 250, 80) + Self.words("mmol/L", 350, 80) + Self.words("135 - 145", 450, 80)
            + Self.words("LIPID PANEL", 50, 700) + Self.words("Page 1 of 2", 250, 780)
        let page2 = letterhead + header(60) + Self.words("Triglycerides", 50, 80) + Self.words("120", 250, 80) + Self.words("mg/dL", 350, 80)
            + Self.words("< 150", 450, 80) + Self.words("Page 2 of 2", 250, 780)
        let rows = LabReportReader.rows(pages: [(1, page1), (2, page2)])
        #expect(rows.map(\.name) == ["Sodium", "Triglycerides"])
        #expect(rows.first?.panel == nil)
        #expect(rows.last?.panel == "LIPID PANEL")
    }
}
