import ArgumentParser
import Foundation
import PHRService

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write one profile's records to a JSON file (phr export format v1, Schemas/export-v1/).",
        discussion: """
            Everything but document files: medical ID, medications with their dose logs, \
            appointments, contacts, allergies, conditions, immunizations, procedures, family \
            history, observations, and document details. The file is NOT encrypted and is \
            written with mode 0600; keep it safe. 'phr import' reads it back; 'phr backup' moves a whole vault with documents.
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @Option(help: "The JSON file to write, or - for standard output.") var out: String
    @Flag(help: "Replace the file if it exists.") var force = false

    func run() throws {
        try vault.refuseOutput(out, option: "--out")
        let context = try RecordContext(vault, profile)
        let export = try VaultExport.build(vault: context.vault, profile: context.profile, time: context.time, generator: "phr \(PHR.version)")
        if out == "-" {
            Console.writeOut(try export.encoded())
            return
        }
        try VaultExport.write(export, to: out, force: force)
        let counts: [(String, String, Int)] = [
            ("medication", "medications", export.medications.count), ("appointment", "appointments", export.appointments.count),
            ("contact", "contacts", export.contacts.count), ("allergy", "allergies", export.allergies.count),
            ("condition", "conditions", export.conditions.count), ("immunization", "immunizations", export.immunizations.count),
            ("procedure", "procedures", export.procedures.count), ("family history entry", "family history entries", export.familyHistory.count),
            ("observation", "observations", export.observations.count),
            ("document (details only)", "documents (details only)", export.documents.count),
        ]
        let summary = counts.filter { $0.2 > 0 }.map { "\($0.2) \($0.2 == 1 ? $0.0 : $0.1)" }
        Console.note("exported profile \(context.profile.name) to \(out)\(summary.isEmpty ? "" : ": " + summary.joined(separator: ", "))")
    }
}
