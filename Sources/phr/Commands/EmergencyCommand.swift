import ArgumentParser
import Foundation
import PHRService

struct EmergencyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emergency",
        abstract: "Print the emergency card: who, blood type, allergies, conditions, medications, whom to call.",
        discussion: """
            From the medical ID ('phr id set'), active allergies (the most dangerous first), current \
            conditions, medications taken now and emergency contacts. With --pdf, writes the card to \
            print: a wallet card's front and back at their real size (85.6 x 54 mm; print at 100% and \
            cut out) and a full page with the same facts in large type.
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions

    @Option(help: ArgumentHelp("Write the card as a PDF to this file (mode 0600) instead of printing it.", valueName: "file"))
    var pdf: String?

    @Option(help: ArgumentHelp("Paper of the full page: a4 or letter (default: the locale's, else a4).", valueName: "paper"))
    var paper: String?

    @Flag(help: "Replace the PDF if it exists.")
    var force = false

    func validate() throws {
        try asUsageError {
            if let paper { _ = try Paper.parse(paper) }
        }
        if pdf == nil, paper != nil || force {
            throw ValidationError("--paper and --force apply to --pdf only")
        }
    }

    func run() throws {
        try vault.refuseOutput(pdf, option: "--pdf")
        let context = try RecordContext(vault, profile)
        let card = try EmergencyCard.build(vault: context.vault, profile: context.profile, time: context.time)
        if let pdf {
            let chosen = try paper.map { try Paper.parse($0) } ?? Paper.preferred(environment: ProcessEnvironment.variables)
            let result = try EmergencyCardPDF.write(card, to: pdf, paper: chosen, replace: force, time: context.time,
                                                    generator: "phr \(PHR.version)")
            if output.json { return try Console.json(result) }
            Console.note("wrote \(result.path): wallet card front and back, and a full \(chosen.rawValue) page (\(result.pages) pages)")
            return
        }
        if output.json { return try Console.json(card) }
        for line in Self.lines(card) { Console.out(line) }
    }

    /// The card as lines: a title, then one labelled section per fact, several lines where a
    /// section has several entries. Severe allergies are emphasised on a terminal.
    static func lines(_ card: EmergencyCard) -> [String] {
        var lines = [Console.bold("EMERGENCY INFORMATION: \(card.name ?? "profile \(card.profile) (no name set)")")]
        func section(_ label: String, _ values: [String], empty: String) {
            let shown = values.isEmpty ? [empty] : values
            for (index, value) in shown.enumerated() {
                let head = index == 0 ? Console.bold(label.padding(toLength: 15, withPad: " ", startingAt: 0)) : String(repeating: " ", count: 15)
                lines.append(head + value)
            }
        }
        var person: [String] = []
        if let age = card.age { person.append("\(age)") }
        var about = person.joined()
        if let born = card.dateOfBirth { about += about.isEmpty ? "born \(born)" : " (born \(born))" }
        if let sex = card.sex { about += about.isEmpty ? sex : ", \(sex)" }
        section("age", about.isEmpty ? [] : [about], empty: "not set")
        section("blood type", card.bloodType.map { [$0] } ?? [], empty: "not set")
        section("organ donor", card.organDonor.map { [$0 ? "yes" : "no"] } ?? [], empty: "not set")
        let body = [card.heightCm.map { "\(RecordText.number($0)) cm" }, card.weightKg.map { "\(RecordText.number($0)) kg" + (card.weightLoggedOn.map { " (logged \($0))" } ?? "") }].compactMap { $0 }
        if !body.isEmpty { section("height/weight", [body.joined(separator: ", ")], empty: "") }
        section("allergies", card.allergies.map { allergy in
            var details: [String] = []
            if let severity = allergy.severity {
                details.append(severity == "severe" ? Console.styledOut(severity.uppercased(), code: "1;31") : severity)
            } else if allergy.criticality == "high" {
                details.append(Console.styledOut("HIGH RISK", code: "1;31"))
            }
            if let reaction = allergy.reaction { details.append(reaction) }
            return details.isEmpty ? allergy.substance : "\(allergy.substance): \(details.joined(separator: ", "))"
        }, empty: "none recorded")
        section("conditions", card.conditions, empty: "none recorded")
        section("medications", card.medications.map { medication in
            [medication.name, medication.dose].compactMap { $0 }.joined(separator: " ") + ", \(medication.schedule)"
        }, empty: "none recorded")
        section("call", card.contacts.map { contact in
            "\(contact.name)\(contact.relation.map { " (\($0))" } ?? ""): \(contact.phone)"
        }, empty: "no emergency contact; add one with 'phr contact add NAME --phone P --emergency'")
        if let notes = card.notes { section("notes", notes.split(separator: "\n").map(String.init), empty: "") }
        return lines
    }
}
