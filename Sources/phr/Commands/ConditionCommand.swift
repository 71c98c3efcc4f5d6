import ArgumentParser
import Foundation
import PHRService

struct ConditionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "condition",
        abstract: "Health conditions and diagnoses, current and past.",
        subcommands: [ConditionAdd.self, ConditionList.self, ConditionEdit.self, ConditionRemove.self]
    )
}

struct ConditionOptions: ParsableArguments {
    @Option(help: "Since when (YYYY-MM-DD, YYYY-MM or YYYY).") var since: String?
    @Option(help: "Resolved on (YYYY-MM-DD, YYYY-MM or YYYY); marks it resolved.") var resolved: String?
    @Option(help: "Anything else.") var notes: String?

    func fill(_ input: inout ConditionStore.Input) {
        input.since = since
        input.resolved = resolved
        input.notes = notes
    }
}

extension Condition {
    /// "asthma, since 2010", "sinusitis, 2017-04 to 2017-05".
    var summaryLine: String {
        switch (since, resolved) {
        case let (since?, resolved?): return "\(name), \(since) to \(resolved)"
        case let (since?, nil): return "\(name), since \(since)"
        case let (nil, resolved?): return "\(name), resolved \(resolved)"
        default: return name
        }
    }
}

struct ConditionAdd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a condition.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "Its name: asthma, type 2 diabetes...") var name: String
    @OptionGroup var options: ConditionOptions

    func run() throws {
        let context = try RecordContext(vault, profile)
        var input = ConditionStore.Input()
        input.name = name
        options.fill(&input)
        let store = ConditionStore(vault: context.vault, profile: context.profile, time: context.time)
        let condition = try RecordContext.options { try store.add(input) }
        if output.json { return try Console.json(condition) }
        Console.out("added condition \(condition.id) \(condition.summaryLine)")
    }
}

struct ConditionList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List conditions, current ones first.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let context = try RecordContext(vault, profile)
        let conditions = try ConditionStore(vault: context.vault, profile: context.profile, time: context.time).list()
        if output.json { return try Console.json(conditions) }
        if conditions.isEmpty { return Console.note("no conditions recorded; add one with 'phr condition add NAME'") }
        Table.print(header: ["ID", "STATUS", "SINCE", "RESOLVED", "NAME"], rows: conditions.map { condition in
            [condition.id, condition.status.rawValue, RecordText.or(condition.since?.description), RecordText.or(condition.resolved?.description),
             condition.name]
        })
    }
}

struct ConditionEdit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change a condition.",
        discussion: "Only the options given change; an empty value (--resolved \"\") clears a field."
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The condition's ID (any unique prefix).") var id: String
    @Option(help: "A new name.") var name: String?
    @Option(help: "active, recurrence, relapse, inactive, remission or resolved.") var status: String?
    @OptionGroup var options: ConditionOptions

    func run() throws {
        let context = try RecordContext(vault, profile)
        var input = ConditionStore.Input()
        input.name = name
        input.status = status
        options.fill(&input)
        let store = ConditionStore(vault: context.vault, profile: context.profile, time: context.time)
        let condition = try RecordContext.options { try store.edit(id, input) }
        if output.json { return try Console.json(condition) }
        Console.out("updated condition \(condition.id) \(condition.summaryLine)")
    }
}

struct ConditionRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove a condition (asks on a terminal unless --yes).")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @Argument(help: "The condition's ID (any unique prefix).") var id: String
    @Flag(help: "Do not ask for confirmation.") var yes = false

    func run() throws {
        let context = try RecordContext(vault, profile)
        let store = ConditionStore(vault: context.vault, profile: context.profile, time: context.time)
        let condition = try store.get(id)
        guard try RecordContext.confirmRemoval("condition \(condition.id) \(condition.name)", id: condition.id, yes: yes) else { return }
        let removed = try store.remove(condition.id)
        Console.out("removed condition \(removed.id) \(removed.name)")
    }
}
