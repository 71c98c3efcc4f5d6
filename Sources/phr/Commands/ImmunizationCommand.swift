import ArgumentParser
import Foundation
import PHRService

struct ImmunizationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "immunization",
        abstract: "Vaccinations: which vaccine, when, which dose, the lot.",
        subcommands: [ImmunizationAdd.self, ImmunizationList.self, ImmunizationEdit.self, ImmunizationRemove.self]
    )
}

struct ImmunizationOptions: ParsableArguments {
    @Option(help: "Which dose of the series (1, 2, ...).") var dose: String?
    @Option(help: "The lot number on the vaccination card.") var lot: String?
    @Option(help: "Anything else.") var notes: String?

    func fill(_ input: inout ImmunizationStore.Input) {
        input.dose = dose
        input.lot = lot
        input.notes = notes
    }
}

extension Immunization {
    /// "Tetanus, 2026-03-14, dose 2, lot AB123".
    var summaryLine: String {
        ([vaccine, date?.description ?? "date not known", doseNumber.map { "dose \($0)" }, lot.map { "lot \($0)" }] as [String?]).compactMap { $0 }
            .joined(separator: ", ")
    }
}

struct ImmunizationAdd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a vaccination.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The vaccine: tetanus, MMR, influenza...") var vaccine: String
    @Option(help: "When it was given (YYYY-MM-DD; YYYY-MM or YYYY if that is all you know; leave it out if not known).") var date: String?
    @OptionGroup var options: ImmunizationOptions

    func run() throws {
        let context = try RecordContext(vault, profile)
        var input = ImmunizationStore.Input()
        input.vaccine = vaccine
        input.date = date
        options.fill(&input)
        let store = ImmunizationStore(vault: context.vault, profile: context.profile, time: context.time)
        let immunization = try RecordContext.options { try store.add(input) }
        if output.json { return try Console.json(immunization) }
        Console.out("added immunization \(immunization.id) \(immunization.summaryLine)")
    }
}

struct ImmunizationList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List vaccinations, newest first.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let context = try RecordContext(vault, profile)
        let immunizations = try ImmunizationStore(vault: context.vault, profile: context.profile, time: context.time).list()
        if output.json { return try Console.json(immunizations) }
        if immunizations.isEmpty { return Console.note("no vaccinations recorded; add one with 'phr immunization add VACCINE --date D'") }
        Table.print(header: ["ID", "DATE", "DOSE", "LOT", "VACCINE"], rows: immunizations.map { immunization in
            [immunization.id, RecordText.or(immunization.date?.description), RecordText.or(immunization.doseNumber.map(String.init)),
             RecordText.or(immunization.lot), immunization.vaccine]
        })
    }
}

struct ImmunizationEdit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change a vaccination.",
        discussion: "Only the options given change; an empty value (--lot \"\") clears a field."
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The vaccination's ID (any unique prefix).") var id: String
    @Option(help: "A new vaccine name.") var vaccine: String?
    @Option(help: "A new date.") var date: String?
    @OptionGroup var options: ImmunizationOptions

    func run() throws {
        let context = try RecordContext(vault, profile)
        var input = ImmunizationStore.Input()
        input.vaccine = vaccine
        input.date = date
        options.fill(&input)
        let store = ImmunizationStore(vault: context.vault, profile: context.profile, time: context.time)
        let immunization = try RecordContext.options { try store.edit(id, input) }
        if output.json { return try Console.json(immunization) }
        Console.out("updated immunization \(immunization.id) \(immunization.summaryLine)")
    }
}

struct ImmunizationRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove a vaccination (asks on a terminal unless --yes).")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @Argument(help: "The vaccination's ID (any unique prefix).") var id: String
    @Flag(help: "Do not ask for confirmation.") var yes = false

    func run() throws {
        let context = try RecordContext(vault, profile)
        let store = ImmunizationStore(vault: context.vault, profile: context.profile, time: context.time)
        let immunization = try store.get(id)
        guard try RecordContext.confirmRemoval("immunization \(immunization.id) \(immunization.vaccine)", id: immunization.id, yes: yes) else { return }
        let removed = try store.remove(immunization.id)
        Console.out("removed immunization \(removed.id) \(removed.vaccine)")
    }
}
