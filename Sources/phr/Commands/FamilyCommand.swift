import ArgumentParser
import Foundation
import PHRService

struct FamilyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "family",
        abstract: "Family history: which blood relative has or had which condition, and from what age.",
        discussion: """
            One entry per relative and condition: 'phr family add mother "breast cancer" --age 52'. \
            Relations in words (mother, father, sister, maternal grandmother...) are kept as \
            written; the common ones are also coded (HL7 RoleCode) for clinical systems.
            """,
        subcommands: [FamilyAdd.self, FamilyList.self, FamilyEdit.self, FamilyRemove.self]
    )
}

struct FamilyOptions: ParsableArguments {
    @Option(help: "The relative's age when it began, in years.") var age: String?
    @Option(name: .customLong("cause-of-death"), help: "yes if the relative died of it, no if not.") var causeOfDeath: String?
    @Option(help: "Anything else.") var notes: String?

    func fill(_ input: inout FamilyHistoryStore.Input) {
        input.onsetAge = age
        input.causeOfDeath = causeOfDeath
        input.notes = notes
    }
}

extension FamilyHistory {
    /// "mother: breast cancer at 52 (cause of death)".
    var summaryLine: String {
        "\(relation): \(condition)\(onsetAge.map { " at \($0)" } ?? "")\(causeOfDeath == true ? " (cause of death)" : "")"
    }
}

struct FamilyAdd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a relative's condition.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "Who: mother, father, sister, maternal grandmother...") var relation: String
    @Argument(help: "The condition: breast cancer, type 2 diabetes...") var condition: String
    @OptionGroup var options: FamilyOptions

    func run() throws {
        let context = try RecordContext(vault, profile)
        var input = FamilyHistoryStore.Input()
        input.relation = relation
        input.condition = condition
        options.fill(&input)
        let store = FamilyHistoryStore(vault: context.vault, profile: context.profile, time: context.time)
        let entry = try RecordContext.options { try store.add(input) }
        if output.json { return try Console.json(entry) }
        Console.out("added family history \(entry.id) \(entry.summaryLine)")
    }
}

struct FamilyList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the family history, nearest relatives first.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let context = try RecordContext(vault, profile)
        let entries = try FamilyHistoryStore(vault: context.vault, profile: context.profile, time: context.time).list()
        if output.json { return try Console.json(entries) }
        if entries.isEmpty { return Console.note("no family history recorded; add some with 'phr family add RELATIVE CONDITION'") }
        Table.print(header: ["ID", "RELATIVE", "AGE", "CONDITION"], rows: entries.map { entry in
            [entry.id, entry.relation, RecordText.or(entry.onsetAge.map(String.init)),
             entry.condition + (entry.causeOfDeath == true ? " (cause of death)" : "")]
        })
    }
}

struct FamilyEdit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change a family history entry.",
        discussion: "Only the options given change; an empty value (--age \"\") clears a field."
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The entry's ID (any unique prefix).") var id: String
    @Option(help: "A new relation.") var relation: String?
    @Option(help: "A new condition.") var condition: String?
    @OptionGroup var options: FamilyOptions

    func run() throws {
        let context = try RecordContext(vault, profile)
        var input = FamilyHistoryStore.Input()
        input.relation = relation
        input.condition = condition
        options.fill(&input)
        let store = FamilyHistoryStore(vault: context.vault, profile: context.profile, time: context.time)
        let entry = try RecordContext.options { try store.edit(id, input) }
        if output.json { return try Console.json(entry) }
        Console.out("updated family history \(entry.id) \(entry.summaryLine)")
    }
}

struct FamilyRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove a family history entry (asks on a terminal unless --yes).")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @Argument(help: "The entry's ID (any unique prefix).") var id: String
    @Flag(help: "Do not ask for confirmation.") var yes = false

    func run() throws {
        let context = try RecordContext(vault, profile)
        let store = FamilyHistoryStore(vault: context.vault, profile: context.profile, time: context.time)
        let entry = try store.get(id)
        guard try RecordContext.confirmRemoval("family history \(entry.id) \(entry.summaryLine)", id: entry.id, yes: yes) else { return }
        let removed = try store.remove(entry.id)
        Console.out("removed family history \(removed.id) \(removed.summaryLine)")
    }
}
