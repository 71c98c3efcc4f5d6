import ArgumentParser
import Foundation
import PHRService

struct AllergyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "allergy",
        abstract: "Allergies and intolerances, with the reaction and how severe it is.",
        subcommands: [AllergyAdd.self, AllergyList.self, AllergyEdit.self, AllergyRemove.self]
    )
}

struct AllergyOptions: ParsableArguments {
    @Option(help: "What happens: hives, anaphylaxis...") var reaction: String?
    @Option(help: "mild, moderate or severe.") var severity: String?
    @Option(help: "food, medication, environment or biologic.") var category: String?
    @Option(help: "Since when (YYYY-MM-DD, YYYY-MM or YYYY).") var since: String?
    @Option(help: "Anything else.") var notes: String?

    func fill(_ input: inout AllergyStore.Input) {
        input.reaction = reaction
        input.severity = severity
        input.category = category
        input.since = since
        input.notes = notes
    }
}

extension Allergy {
    /// "penicillin: severe, anaphylaxis".
    var summaryLine: String {
        let details = [severity?.rawValue, criticality == .high && severity != .severe ? "high risk" : nil, reaction].compactMap { $0 }
        return details.isEmpty ? substance : "\(substance): \(details.joined(separator: ", "))"
    }
}

struct AllergyAdd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add an allergy.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The substance: penicillin, peanuts, bee venom...") var substance: String
    @OptionGroup var options: AllergyOptions

    func run() throws {
        let context = try RecordContext(vault, profile)
        var input = AllergyStore.Input()
        input.substance = substance
        options.fill(&input)
        let store = AllergyStore(vault: context.vault, profile: context.profile, time: context.time)
        let allergy = try RecordContext.options { try store.add(input) }
        if output.json { return try Console.json(allergy) }
        Console.out("added allergy \(allergy.id) \(allergy.summaryLine)")
    }
}

struct AllergyList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List allergies, the most dangerous first.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let context = try RecordContext(vault, profile)
        let allergies = try AllergyStore(vault: context.vault, profile: context.profile, time: context.time).list()
        if output.json { return try Console.json(allergies) }
        if allergies.isEmpty { return Console.note("no allergies recorded; add one with 'phr allergy add SUBSTANCE'") }
        Table.print(header: ["ID", "SUBSTANCE", "SEVERITY", "STATUS", "SINCE", "REACTION"], rows: allergies.map { allergy in
            [allergy.id, allergy.substance,
             RecordText.or(allergy.severity?.rawValue ?? (allergy.criticality == .high ? "high risk" : nil)),
             allergy.status.rawValue, RecordText.or(allergy.since?.description), RecordText.or(allergy.reaction)]
        })
    }
}

struct AllergyEdit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change an allergy.",
        discussion: "Only the options given change; an empty value (--reaction \"\") clears a field."
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The allergy's ID (any unique prefix).") var id: String
    @Option(help: "A new substance name.") var substance: String?
    @Option(help: "active, inactive or resolved.") var status: String?
    @OptionGroup var options: AllergyOptions

    func run() throws {
        let context = try RecordContext(vault, profile)
        var input = AllergyStore.Input()
        input.substance = substance
        input.status = status
        options.fill(&input)
        let store = AllergyStore(vault: context.vault, profile: context.profile, time: context.time)
        let allergy = try RecordContext.options { try store.edit(id, input) }
        if output.json { return try Console.json(allergy) }
        Console.out("updated allergy \(allergy.id) \(allergy.summaryLine)")
    }
}

struct AllergyRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove an allergy (asks on a terminal unless --yes).")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @Argument(help: "The allergy's ID (any unique prefix).") var id: String
    @Flag(help: "Do not ask for confirmation.") var yes = false

    func run() throws {
        let context = try RecordContext(vault, profile)
        let store = AllergyStore(vault: context.vault, profile: context.profile, time: context.time)
        let allergy = try store.get(id)
        guard try RecordContext.confirmRemoval("allergy \(allergy.id) \(allergy.substance)", id: allergy.id, yes: yes) else { return }
        let removed = try store.remove(allergy.id)
        Console.out("removed allergy \(removed.id) \(removed.substance)")
    }
}
