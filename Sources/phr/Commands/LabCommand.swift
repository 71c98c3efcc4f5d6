import ArgumentParser
import Foundation
import PHRService

struct LabCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lab",
        abstract: "Lab results: typed in, read from lab reports with review, or imported; lists, trends with reference bands.",
        subcommands: [LabAdd.self, LabExtract.self, LabList.self, LabShow.self, LabTrendCommand.self]
    )
}

/// "5y", "18m", "6w", "30d" before today, or a date.
enum LabSince {
    static func parse(_ text: String?, time: TimeContext) throws -> CalendarDate? {
        guard let text, !text.isEmpty else { return nil }
        if let date = CalendarDate(text) { return date }
        let unit = text.last.map(String.init) ?? ""
        guard let count = Int(text.dropLast()), (1...200).contains(count),
              let component: Calendar.Component = ["y": .year, "m": .month, "w": .weekOfYear, "d": .day][unit] else {
            throw RecordError.invalidOption(option: Field("since"), reason: "'\(text.prefix(20))' is not a date or a period",
                                            hint: "give YYYY-MM-DD, or a period before today: 5y, 18m, 6w, 30d")
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = time.zone
        let start = calendar.date(byAdding: component, value: -count, to: time.now) ?? time.now
        return CalendarDate(start, in: time.zone)
    }
}

struct LabAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Type in a lab result.",
        discussion: "Example: phr lab add ferritin 12 ng/mL --range 30-400 --date 2025-03-18. The flag is worked out from the range unless given.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The analyte as the lab names it: ferritin, HbA1c, TSH...") var analyte: String
    @Argument(help: "The value: 12, 3,6, >60, Negative, 2+.") var value: String
    @Argument(help: "The unit as written: ng/mL, mmol/L, x10E3/uL, %.") var unit: String?
    @Option(help: "The reference range: 30-400, 3,6-10,0, <0.41, >=60, Negative.") var range: String?
    @Option(help: "When the sample was taken (YYYY-MM-DD); today if not given.") var date: String?
    @Option(help: "The lab's flag: H, L, HH, LL, A or N.") var flag: String?
    @Option(help: "The panel it belongs to (Lipid panel...).") var panel: String?
    @Option(help: "Anything else.") var notes: String?

    func run() throws {
        let context = try RecordContext(vault, profile)
        var input = LabStore.Input(name: analyte, value: value, unit: unit)
        input.range = range
        input.date = date
        input.flag = flag
        input.panel = panel
        input.notes = notes
        let store = LabStore(vault: context.vault, profile: context.profile, time: context.time)
        let result = try RecordContext.options { try store.add(input) }
        if output.json { return try Console.json(result) }
        let flagText = result.effectiveFlag.map { " (\($0.rawValue))" } ?? ""
        Console.out("added lab result \(result.id) \(result.name) \(result.valueDescription)\(flagText) on \(result.effective ?? "")")
    }
}

struct LabList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List lab results, newest first.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "Only this analyte (ferritin, LDL, a name as the lab wrote it).") var analyte: String?
    @Option(help: "Only results taken on or after this date (YYYY-MM-DD, or 5y, 18m, 6w, 30d before today).") var since: String?
    @Flag(help: "Only results flagged high, low or abnormal.") var flagged = false

    func run() throws {
        let context = try RecordContext(vault, profile)
        var filter = LabStore.Filter()
        filter.analyte = analyte
        filter.since = try LabSince.parse(since, time: context.time)
        filter.flaggedOnly = flagged
        let results = try LabStore(vault: context.vault, profile: context.profile, time: context.time).list(filter)
        if output.json { return try Console.json(results) }
        if results.isEmpty { return Console.note("no lab results; add one with 'phr lab add' or read a report with 'phr lab extract DOC'") }
        Table.print(header: ["ID", "DATE", "ANALYTE", "VALUE", "RANGE", "FLAG", "SOURCE"], rows: results.map { result in
            [result.id, RecordText.or(result.day?.description), result.name, result.valueDescription,
             RecordText.or(result.lab?.range.map(\.listed)), result.effectiveFlag?.rawValue ?? "", result.labSourceText]
        })
    }
}

struct LabShow: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one lab result with its source.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The result's ID (any unique prefix).") var id: String

    func run() throws {
        let context = try RecordContext(vault, profile)
        let result = try LabStore(vault: context.vault, profile: context.profile, time: context.time).get(id)
        if output.json { return try Console.json(result) }
        let lab = result.lab
        RecordText.fields([
            ("ID", result.id),
            ("Analyte", result.name + (result.analyte.map { $0.name.lowercased() == result.name.lowercased() ? "" : " (\($0.name))" } ?? "")),
            ("Value", result.valueDescription),
            ("UCUM", lab?.unitUCUM),
            ("Range", lab?.range.map { range in
                range.listed == (range.text ?? range.display) ? range.listed : "\(range.listed) (the report prints \(range.text ?? ""))"
            }),
            ("Flag", result.effectiveFlag.map { "\($0.rawValue) (\($0.words))" }),
            ("Date", result.effective),
            ("Panel", lab?.panel),
            ("Codes", RecordText.codes(result.codes)),
            ("Source", sourceText(result, documents: DocumentStore(vault: context.vault, profile: context.profile))),
            ("Confidence", lab?.confidence.map { String(format: "%.0f%%", $0 * 100) }),
            ("Reviewed", lab.map { $0.reviewed ? "yes" : "no" }),
            ("Notes", result.notes),
        ])
    }

    private func sourceText(_ result: Observation, documents: DocumentStore) -> String {
        switch result.lab?.origin {
        case .document?:
            let id = result.lab?.documentID ?? "?"
            // The document may have been removed since (`phr doc rm` keeps accepted results).
            let gone = result.lab?.documentID.map { (try? documents.get($0))?.id != $0 } ?? true
            return "document \(id)" + (gone ? " (removed)" : "") + (result.lab?.page.map { ", page \($0)" } ?? "")
        case .fhir?: return "\(result.importFormat) import" + (result.source.map { " (\($0.key))" } ?? "")
        case .typed?: return "typed by hand"
        case nil: return result.source?.key ?? "—"
        }
    }
}

struct LabTrendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trend", abstract: "One analyte over time with its reference band; without one, every analyte's latest value.",
        discussion: """
            Values are shown in the unit the report printed (or you typed), as on the paper; a \
            series that came in different units is shown in its latest result's unit, converted \
            where phr knows how, and says so. --units si or conventional converts every value \
            where phr knows the conversion.
            """)

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The analyte (ferritin, HbA1c, a name as the lab wrote it).") var analyte: String?
    @Option(help: "Only results on or after this date (YYYY-MM-DD, or 5y, 18m, 6w, 30d before today).") var since: String?
    @Option(help: "printed (the default: as the report printed them), si or conventional.") var units: String?

    func run() throws {
        let context = try RecordContext(vault, profile)
        let store = LabStore(vault: context.vault, profile: context.profile, time: context.time)
        let since = try LabSince.parse(since, time: context.time)
        let choice = try LabUnitsOption.parse(units)
        guard let analyte else {
            let summaries = try store.summaries(choice: choice)
            if output.json { return try Console.json(summaries.map(LabTrendJSON.init)) }
            if summaries.isEmpty { return Console.note("no lab results; add one with 'phr lab add' or read a report with 'phr lab extract DOC'") }
            Table.print(header: ["ANALYTE", "LAST", "DATE", "FLAG", "TREND", "RESULTS"], rows: summaries.map { trend in
                let latest = trend.latest
                return [trend.displayName, latest.map { LabTrend.valueText($0, unit: trend.unit) } ?? "—", RecordText.or(latest?.day?.description),
                        latest?.flag?.rawValue ?? "", trend.direction.map { ["up": "↑ up", "down": "↓ down", "steady": "→ steady"][$0.rawValue]! } ?? "",
                        String(trend.points.count)]
            })
            return
        }
        let trend = try store.trend(analyte, since: since, choice: choice)
        if output.json { return try Console.json(LabTrendJSON(trend)) }
        Console.out("\(trend.displayName)\(trend.unit.map { " (\(LabUnits.display($0)))" } ?? "")")
        if !trend.convertedFrom.isEmpty, let unit = trend.unit {
            Console.note("results printed in \(trend.convertedFrom.map(LabUnits.display).joined(separator: ", ")) are shown converted to \(LabUnits.display(unit))")
        }
        Table.print(header: ["DATE", "VALUE", "RANGE", "FLAG", "SOURCE"], rows: trend.points.map { point in
            [RecordText.or(point.day?.description), LabTrend.valueText(point, unit: trend.unit),
             RecordText.or(point.range.map(\.display)), point.flag?.rawValue ?? "",
             point.observation.labSourceText]
        })
        let chart = LabTrendChart.lines(trend, colour: Console.stdoutColour)
        if trend.points.filter({ $0.value != nil }).count >= 2 {
            Console.out()
            for line in chart { Console.out(line) }
        }
    }
}

/// `--units`: printed (the default), si or conventional.
enum LabUnitsOption {
    static func parse(_ text: String?) throws -> LabUnitChoice {
        guard let text else { return .printed }
        guard let choice = LabUnitChoice(rawValue: text.lowercased().trimmingCharacters(in: .whitespaces)) else {
            throw ValidationError("--units: '\(text)' is not printed, si or conventional")
        }
        return choice
    }
}

/// A trend for scripts: the analyte, the unit and each point.
struct LabTrendJSON: Encodable {
    struct Point: Encodable {
        var id: String
        var date: String?
        var value: Double?
        var valueText: String?
        var range: ReferenceRange?
        var flag: LabFlag?
        enum CodingKeys: String, CodingKey { case id, date, value, valueText = "value_text", range, flag }
    }

    var analyte: String
    var loinc: String?
    var unit: String?
    var direction: String?
    var points: [Point]

    init(_ trend: LabTrend) {
        analyte = trend.displayName
        loinc = trend.analyte?.loinc.first
        unit = trend.unit
        direction = trend.direction?.rawValue
        points = trend.points.map { point in
            Point(id: point.observation.id, date: point.day?.description, value: point.value,
                  valueText: point.value == nil ? point.observation.valueDescription : nil, range: point.range, flag: point.flag)
        }
    }
}
