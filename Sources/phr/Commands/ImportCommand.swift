import ArgumentParser
import Foundation
import PHRService

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a phr export, a FHIR R4 Bundle (JSON), a C-CDA document (XML), an iCalendar (.ics) file, an Apple Health export.zip or a Google Fit Takeout.",
        discussion: """
            FHIR: Patient, MedicationRequest/MedicationStatement, AllergyIntolerance, Condition, \
            Immunization, Observation and Appointment, with their codes (RxNorm, SNOMED CT, \
            LOINC, CVX) and identifiers; other resources are listed as skipped. C-CDA (R2.1, R1.1): \
            medications, allergies, problems, immunizations, results, vital signs and encounters \
            (as past appointments), read by the sandboxed phr-render. Importing the same \
            file again adds nothing. A file that is not what it claims to be changes nothing; an entry \
            with bad data (a field over its limit, a date outside 1900-2200) is refused and named, the \
            rest is imported, and phr exits 65. \
            Apple Health (export.zip, or the export.xml inside it): water, sleep, workouts, dietary \
            energy as meals, weight, blood pressure and glucose into the health log, and the Health \
            Records in clinical-records/ as FHIR; other types are counted and skipped. Duplicates from \
            several sources count once (docs/health-log.md); a newer export adds only what is new. \
            Google Fit (a Google Takeout .zip, the folder it extracts to, or its Daily activity \
            metrics.csv): the day's average weight, sleep and workout sessions into the health log; \
            every other column, file and folder is counted and named with the reason it is skipped; \
            English file and column names only. \
            A phr export goes into the profile it came from (created if missing) unless --profile \
            or PHR_PROFILE says otherwise; other files into the default profile.
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The file (or a Google Takeout folder) to import.") var file: String
    @Flag(name: .customLong("dry-run"), help: "Say what would be imported, and change nothing.") var dryRun = false

    func run() throws {
        let opened = try VaultAccess.open(vault.location)
        let progress = Progress("reading")
        defer { progress.finish() }
        // The path as the bytes given: a name that is not UTF-8 still opens.
        let input = RawArguments.paths([file])[0]
        let report = try RecordImport.run(input: input, vault: opened, profileName: profile.requested, time: TimeContext.current(),
                                          dryRun: dryRun, progress: { progress.update(done: $0, total: $1) })
        progress.finish()
        if output.json { try Console.json(report) } else { ImportReportPrinter.print(report, file: input.display) }
        if report.rejectedCount > 0 {
            throw InteropError.partlyImported(path: input.display, rejected: report.rejectedCount, dryRun: report.dryRun)
        }
    }
}
