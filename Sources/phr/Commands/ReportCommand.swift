import ArgumentParser
import Foundation
import PHRService

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "A PDF health report of the last days: habits, measurements, medication adherence, appointments.",
        discussion: """
            Per habit the figures 'phr stats' prints and a bar chart of each day (of each week, \
            beyond 62 days) with the goal line; per measurement a trend line; adherence from the \
            dose log; the appointments ahead; with --analyte, that lab analyte's latest results \
            (up to 24, whatever the period) and their trend against the reference range. The PDF is not encrypted: it is written with mode \
            600, through a temporary file, only where --out says.
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "How many days, ending today (default 30).") var days = 30
    @Option(help: "The PDF file to write.") var out: String
    @Option(help: "Paper size: a4 or letter (default: the locale's, else a4).") var paper: String?
    @Option(name: .customLong("analyte"),
            help: "Add a lab analyte's results and trend chart (a name, synonym or LOINC code; repeat for several).")
    var analytes: [String] = []
    @Option(name: .customLong("lab-units"), help: "The analytes' units: printed (the default: as the reports printed them), si or conventional.")
    var labUnits: String?
    @Flag(help: "Replace the file if it exists.") var force = false

    func validate() throws {
        guard (1...HealthReport.maximumDays).contains(days) else {
            throw ValidationError("--days: use 1 to \(HealthReport.maximumDays)")
        }
        try asUsageError {
            if let paper { _ = try Paper.parse(paper) }
        }
        if analytes.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            throw ValidationError("--analyte: give an analyte's name, such as ferritin, or its LOINC code")
        }
    }

    func run() throws {
        try vault.refuseOutput(out, option: "--out")
        let context = try RecordContext(vault, profile)
        let chosenPaper = try paper.map { try Paper.parse($0) } ?? Paper.preferred(environment: ProcessEnvironment.variables)
        let report = try HealthReport.build(vault: context.vault, profile: context.profile, time: context.time, days: days,
                                            analytes: analytes, labUnits: try LabUnitsOption.parse(labUnits))
        let result = try HealthReportWriter.write(report, to: out, time: context.time, paper: chosenPaper, force: force,
                                                  generator: "phr \(PHR.version)")
        if output.json { return try Console.json(result) }
        Console.note("wrote \(result.path): health report of \(report.patientName), \(report.period.from) to \(report.period.to), \(result.pages) \(result.pages == 1 ? "page" : "pages")")
        Console.note("the PDF is not encrypted; keep it private or delete it when done")
    }
}
