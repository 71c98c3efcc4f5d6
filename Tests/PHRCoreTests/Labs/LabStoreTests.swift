import Foundation
import Testing
@testable import PHRCore

/// Typing results in, listing and trending them: what `phr lab add/list/trend` rely on.
@Suite struct LabStoreTests {
    static let time = RecordFixtures.time("2025-06-01T10:00:00Z", "Europe/Berlin")

    @discardableResult
    static func add(_ store: LabStore, _ name: String, _ value: String, _ unit: String?, range: String? = nil, date: String,
                    flag: String? = nil) throws -> Observation {
        var input = LabStore.Input(name: name, value: value, unit: unit)
        input.range = range
        input.date = date
        input.flag = flag
        return try store.add(input)
    }

    @Test func aTypedResultKeepsCodeUnitRangeAndFlag() throws {
        let (vault, profile, directory) = try RecordFixtures.vault("lab-add")
        defer { TestSupport.remove(directory) }
        let store = LabStore(vault: vault, profile: profile, time: Self.time)
        let added = try Self.add(store, "ferritin", "12", "ng/mL", range: "30-400", date: "2025-03-18")
        let read = try store.get(added.id)
        #expect(read == added)
        #expect(read.codes == [Coding(system: Coding.System.loinc, code: "2276-4", display: "Ferritin")])
        #expect(read.valueNumber == 12)
        #expect(read.valueUnit == "ng/mL")
        #expect(read.effective == "2025-03-18")
        #expect(read.category == "laboratory")
        #expect(read.lab == LabDetails(analyte: "ferritin", unitUCUM: "ng/mL", range: ReferenceRange(low: 30, high: 400, text: "30-400"),
                                       flag: nil, panel: "Iron studies", origin: .typed, reviewed: true))
        // The range implies L: worked out when read, not stored as if the lab had printed it.
        #expect(read.effectiveFlag == .low)
        // A flag given by hand wins over the one the range implies.
        let given = try Self.add(store, "TSH", "4.1", "mIU/L", range: "0.4-4.0", date: "2025-03-18", flag: "N")
        #expect(given.lab?.flag == .normal)
        let text = try Self.add(store, "eGFR", ">60", "mL/min/1.73m2", range: ">=60", date: "2025-03-18")
        #expect(text.valueNumber == nil && text.valueText == ">60" && text.lab?.range?.low == 60)
        #expect(text.lab?.unitUCUM == "mL/min/{1.73_m2}")
    }

    @Test func badValuesRangesAndFlagsAreRefusedByName() throws {
        let (vault, profile, directory) = try RecordFixtures.vault("lab-bad")
        defer { TestSupport.remove(directory) }
        let store = LabStore(vault: vault, profile: profile, time: Self.time)
        #expect(throws: RecordError.invalidOption(option: Field.argument("value"), reason: "'twelve' is not a result",
                                                  hint: "give a number (12, 3,6), a comparison (>60) or a word (Negative, Trace, 2+)")) {
            try Self.add(store, "ferritin", "twelve", "ng/mL", date: "2025-03-18")
        }
        #expect(throws: RecordError.self) { try Self.add(store, "ferritin", "12", "ng/mL", range: "30-", date: "2025-03-18") }
        #expect(throws: RecordError.self) { try Self.add(store, "ferritin", "12", "ng/mL", date: "2025-03-18", flag: "X") }
        #expect(throws: RecordError.self) { try Self.add(store, "ferritin", "12", "ng/mL", date: "18.03.2025x") }
        #expect(try store.list().isEmpty)
    }

    @Test func listFiltersByAnalyteSynonymDateAndFlag() throws {
        let (vault, profile, directory) = try RecordFixtures.vault("lab-list")
        defer { TestSupport.remove(directory) }
        let store = LabStore(vault: vault, profile: profile, time: Self.time)
        let low = try Self.add(store, "Ferritin", "12", "ng/mL", range: "30-400", date: "2023-03-18")
        let normal = try Self.add(store, "Ferritine", "80", "µg/L", range: "30-400", date: "2025-03-18")
        let other = try Self.add(store, "Kreatinin", "0,9", "mg/dL", range: "0,5-1,2", date: "2025-03-18")
        #expect(try store.list().map(\.id) == [other.id, normal.id, low.id].sorted { a, b in
            (a == low.id ? "2023" : "2025", a) > (b == low.id ? "2023" : "2025", b)
        })
        var filter = LabStore.Filter()
        filter.analyte = "ferritin"
        #expect(Set(try store.list(filter).map(\.id)) == [low.id, normal.id])
        filter.since = CalendarDate("2024-01-01")
        #expect(try store.list(filter).map(\.id) == [normal.id])
        var flagged = LabStore.Filter()
        flagged.flaggedOnly = true
        #expect(try store.list(flagged).map(\.id) == [low.id])
        // Search finds a result by the analyte's name in another language.
        let hits = try SearchEngine(vault: vault, profile: profile).search("creatinine")
        #expect(hits.hits.map(\.id).contains(other.id))
    }

    /// Issue 35, item 1: values keep the unit the report printed unless a conversion is asked
    /// for; a series printed in two units is shown in its latest result's unit and says from
    /// which it converted.
    @Test func aTrendKeepsThePrintedUnitAndConvertsOnlyWhenAsked() throws {
        let (vault, profile, directory) = try RecordFixtures.vault("lab-trend")
        defer { TestSupport.remove(directory) }
        let store = LabStore(vault: vault, profile: profile, time: Self.time)
        try Self.add(store, "Hemoglobin", "11.4", "g/dL", range: "12-16", date: "2025-01-10")
        let printed = try store.trend("hemoglobin")
        #expect(printed.unit == "g/dL" && printed.points.map(\.value) == [11.4] && printed.convertedFrom.isEmpty)
        #expect(try store.summaries().first?.unit == "g/dL")
        let si = try store.trend("hemoglobin", choice: .si)
        #expect(si.unit == "g/L" && si.points.map(\.value) == [114])
        try Self.add(store, "Glucose", "99", "mg/dL", range: "70-99", date: "2024-01-10")
        try Self.add(store, "Glukose", "6,1", "mmol/L", range: "3,9-5,5", date: "2025-01-10")
        let mixed = try store.trend("glucose")
        #expect(mixed.unit == "mmol/L" && mixed.convertedFrom == ["mg/dL"], "the latest result's unit")
    }

    @Test func aTrendMixesUnitsInTheUnitSystemAskedFor() throws {
        let (vault, profile, directory) = try RecordFixtures.vault("lab-trend")
        defer { TestSupport.remove(directory) }
        let store = LabStore(vault: vault, profile: profile, time: Self.time)
        try Self.add(store, "Glucose", "99", "mg/dL", range: "70-99", date: "2024-01-10")
        try Self.add(store, "Glukose", "6,1", "mmol/L", range: "3,9-5,5", date: "2025-01-10")
        let metric = try store.trend("glucose", choice: .si)
        #expect(metric.unit == "mmol/L")
        #expect(metric.points.map { ($0.value.map { ($0 * 100).rounded() / 100 }) } == [5.50, 6.1])
        #expect(metric.points.map(\.flag) == [nil, .high])
        #expect(metric.direction == .up)
        let us = try store.trend("glucose", choice: .conventional)
        #expect(us.unit == "mg/dL")
        #expect(us.points.map { $0.value.map { $0.rounded() } } == [99, 110])
        #expect(us.band?.low.map { $0.rounded() } == 70)
        #expect(throws: RecordError.noLabResults(analyte: "ferritin")) { try store.trend("ferritin") }
        let summaries = try store.summaries(choice: .si)
        #expect(summaries.map(\.displayName) == ["Glucose"])
    }

    /// A fixed series, drawn without and with colour.
    @Test func theTerminalChartMarksTheBandAndOutOfRangePoints() throws {
        func point(_ day: String, _ value: Double) -> Observation {
            Observation(id: "o\(day.prefix(4))\(day.suffix(2))", uid: day, name: "Ferritin", category: "laboratory", status: .final, effective: day,
                        valueNumber: value, valueUnit: "ng/mL", valueText: nil, valueCodes: nil, components: [], notes: nil, codes: [], source: nil,
                        lab: LabDetails(analyte: "ferritin", unitUCUM: "ng/mL", range: ReferenceRange(low: 30, high: 100, text: "30-100"),
                                        origin: .typed, reviewed: true),
                        createdAt: "2025-01-01T00:00:00Z", updatedAt: "2025-01-01T00:00:00Z")
        }
        let trend = LabTrend(results: [point("2023-01-10", 12), point("2023-07-10", 25), point("2024-01-10", 48),
                                       point("2024-07-10", 95), point("2025-01-10", 140)], units: .metric)
        let plain = LabTrendChart.lines(trend, height: 6, colour: false)
        // Issue 35, item 6: round ticks (0, 50, 100...) two rows apart, points placed by date
        // (six months apart here: evenly), 25 and 12 below the band (▼) though 25 shares its
        // edge row; 140 above (▲).
        #expect(plain == [
            "200 ┤",
            "    ┤",
            "150 ┤                                               ▲",
            "    ┤",
            "100 ┤░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░●░░░░░░░░░░░░",
            "    ┤░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░",
            " 50 ┤░░░░░░░░░░░░░░░░░░░░░░░●░░░░░░░░░░░░░░░░░░░░░░░░",
            "    ┤░░░░░░░░░░░░▼░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░",
            "  0 ┤▼",
            "    └────────────────────────────────────────────────",
            "     2023-01-10                            2025-01-10",
            "     ● in range  ▲ high  ▼ low  ░ reference 30–100 µg/L",
        ], "\(plain)")
        let coloured = LabTrendChart.lines(trend, height: 6, colour: true)
        #expect(coloured[2] == "150 ┤                                               \u{1b}[1;31m▲\u{1b}[0m")
        #expect(coloured[4] == "100 ┤\u{1b}[32m░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░●░░░░░░░░░░░░\u{1b}[0m")
        #expect(coloured[7] == "    ┤\u{1b}[32m░░░░░░░░░░░░\u{1b}[1;31m▼\u{1b}[0m\u{1b}[32m░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░\u{1b}[0m")
        #expect(coloured[8] == "  0 ┤\u{1b}[1;31m▼\u{1b}[0m")

        // Placed by date: two results a week apart stand together, the third a year on at the right.
        let uneven = LabTrend(results: [point("2024-01-03", 50), point("2024-01-10", 52), point("2025-01-10", 60)], units: .metric)
        let columns = LabTrendChart.lines(uneven, height: 6, colour: false).prefix(while: { !$0.contains("└") }).compactMap { line -> [Int]? in
            let body = line.split(separator: "┤", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
            let marks = body.enumerated().filter { $0.element == "●" }.map(\.offset)
            return marks.isEmpty ? nil : marks
        }.flatMap { $0 }.sorted()
        #expect(columns == [0, 1, 47], "\(columns)")
        // A band far above small results is clipped, not drawn to flatten them: said to go on.
        let low = LabTrend(results: [point("2024-01-03", 8), point("2024-06-10", 12), point("2025-01-10", 25)].map { observation in
            var changed = observation
            changed.lab?.range = ReferenceRange(low: 8, high: 400, text: "8-400")
            return changed
        }, units: .metric)
        let clipped = LabTrendChart.lines(low, height: 6, colour: false)
        #expect(clipped.first?.hasPrefix("30 ┤") == true && clipped.last?.hasSuffix("reference 8–400 µg/L (goes on above)") == true, "\(clipped)")
    }

    /// "<0.5" is below what the lab measures: stored as written (no number made up), drawn in the
    /// trend as a marker at its bound, exported to IPS as a quantity with its comparator, and
    /// read back from FHIR the same way.
    @Test func aResultBeyondTheLabsLimitKeepsItsComparator() throws {
        let (vault, profile, directory) = try RecordFixtures.vault("lab-comparator")
        defer { TestSupport.remove(directory) }
        let store = LabStore(vault: vault, profile: profile, time: Self.time)
        try Self.add(store, "CRP", "3.2", "mg/L", range: "<5", date: "2024-01-10")
        let below = try Self.add(store, "CRP", "<0.5", "mg/L", range: "<5", date: "2025-01-10")
        #expect(below.valueNumber == nil && below.valueText == "<0.5")
        let trend = try store.trend("crp", choice: .conventional)
        #expect(trend.points.map(\.value) == [3.2, nil])
        #expect(trend.points.last?.comparator == "<" && trend.points.last?.bound == 0.5)
        #expect(trend.direction == nil, "no direction from a bound")
        let lines = LabTrendChart.lines(trend, height: 4, colour: false)
        #expect(lines.contains { $0.hasPrefix(" 0 ┤") && $0.hasSuffix("<") }, "the bound's marker on the row of its rounded value, at the latest date: \(lines)")
        #expect(lines.last?.contains("< > beyond the lab's limit") == true)

        let json = try #require(try JSONSerialization.jsonObject(with: Data(IPSResources.observation(below, id: "o1", patient: "p1").serialized()))
            as? [String: Any])
        let quantity = try #require(json["valueQuantity"] as? [String: Any])
        #expect(quantity["comparator"] as? String == "<" && quantity["value"] as? Double == 0.5 && quantity["code"] as? String == "mg/L")
        #expect(json["valueString"] == nil)

        let bundle = "\(directory)/comparator.json"
        try Data("""
            {"resourceType": "Bundle", "type": "collection", "entry": [{"resource": {"resourceType": "Observation", "id": "crp1", "status": "final",
              "category": [{"coding": [{"system": "http://terminology.hl7.org/CodeSystem/observation-category", "code": "laboratory"}]}],
              "code": {"coding": [{"system": "http://loinc.org", "code": "1988-5"}], "text": "CRP"}, "effectiveDateTime": "2025-03-01",
              "valueQuantity": {"value": 0.5, "comparator": "<", "unit": "mg/L", "system": "http://unitsofmeasure.org", "code": "mg/L"}}},
             {"resource": {"resourceType": "Observation", "id": "tni1", "status": "final",
              "category": [{"coding": [{"system": "http://terminology.hl7.org/CodeSystem/observation-category", "code": "laboratory"}]}],
              "code": {"coding": [{"system": "http://loinc.org", "code": "10839-9"}], "text": "Troponin I"}, "effectiveDateTime": "2025-03-01",
              "valueQuantity": {"value": 0.003, "comparator": "<", "unit": "ng/mL", "system": "http://unitsofmeasure.org", "code": "ng/mL"}}}]}
            """.utf8).write(to: URL(fileURLWithPath: bundle))
        let (other, otherProfile, otherDirectory) = try RecordFixtures.vault("lab-comparator-import")
        defer { TestSupport.remove(otherDirectory) }
        _ = try RecordImport.run(path: bundle, vault: other, profileName: otherProfile.name, time: Self.time)
        let imported = try LabStore(vault: other, profile: otherProfile, time: Self.time).trend("crp", choice: .si)
        #expect(imported.points.map(\.observation.valueText) == ["<0.5"])
        #expect(imported.points.first?.observation.valueNumber == nil)
        // The bound at its full precision, not rounded to two decimals.
        let troponin = try LabStore(vault: other, profile: otherProfile, time: Self.time).trend("troponin-i", choice: .conventional)
        #expect(troponin.points.map(\.observation.valueText) == ["<0.003"])
    }
}
