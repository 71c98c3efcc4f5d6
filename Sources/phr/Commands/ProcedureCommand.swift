import ArgumentParser
import Foundation
import PHRService

struct ProcedureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "procedure",
        abstract: "Procedures: operations, scopes, biopsies; what was done, when, where on the body, by whom.",
        subcommands: [ProcedureAdd.self, ProcedureList.self, ProcedureEdit.self, ProcedureRemove.self]
    )
}

struct ProcedureOptions: ParsableArguments {
    @Option(help: "When it was done (YYYY-MM-DD; YYYY-MM or YYYY if that is all you know).") var date: String?
    @Option(help: "completed (the default), in-progress, not-done, on-hold, stopped, preparation or unknown.") var status: String?
    @Option(name: .customLong("body-site"), help: "Where on the body: left knee, colon.") var bodySite: String?
    @Option(help: "Who did it, or where: Dr Ortiz, Riverside Hospital.") var performer: String?
    @Option(help: "Anything else.") var notes: String?

    func fill(_ input: inout ProcedureStore.Input) {
        input.date = date
        input.status = status
        input.bodySite = bodySite
        input.performer = performer
        input.notes = notes
    }
}

extension Procedure {
    /// "Appendectomy, 2009, by Dr Ortiz".
    var summaryLine: String {
        ([name, date?.description, bodySite, performer.map { "by \($0)" }, status == .completed ? nil : status.rawValue] as [String?])
            .compactMap { $0 }.joined(separator: ", ")
    }
}

struct ProcedureAdd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a procedure.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "What was done: appendectomy, colonoscopy, knee arthroscopy...") var name: String
    @OptionGroup var options: ProcedureOptions

    func run() throws {
        let context = try RecordContext(vault, profile)
        var input = ProcedureStore.Input()
        input.name = name
        options.fill(&input)
        let store = ProcedureStore(vault: context.vault, profile: context.profile, time: context.time)
        let procedure = try RecordContext.options { try store.add(input) }
        if output.json { return try Console.json(procedure) }
        Console.out("added procedure \(procedure.id) \(procedure.summaryLine)")
    }
}

struct ProcedureList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List procedures, newest first.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let context = try RecordContext(vault, profile)
        let procedures = try ProcedureStore(vault: context.vault, profile: context.profile, time: context.time).list()
        if output.json { return try Console.json(procedures) }
        if procedures.isEmpty { return Console.note("no procedures recorded; add one with 'phr procedure add NAME --date D'") }
        Table.print(header: ["ID", "DATE", "STATUS", "WHERE", "PROCEDURE"], rows: procedures.map { procedure in
            [procedure.id, RecordText.or(procedure.date?.description), procedure.status.rawValue, RecordText.or(procedure.bodySite), procedure.name]
        })
    }
}

struct ProcedureEdit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change a procedure.",
        discussion: "Only the options given change; an empty value (--body-site \"\") clears a field."
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The procedure's ID (any unique prefix).") var id: String
    @Option(help: "A new name.") var name: String?
    @OptionGroup var options: ProcedureOptions

    func run() throws {
        let context = try RecordContext(vault, profile)
        var input = ProcedureStore.Input()
        input.name = name
        options.fill(&input)
        let store = ProcedureStore(vault: context.vault, profile: context.profile, time: context.time)
        let procedure = try RecordContext.options { try store.edit(id, input) }
        if output.json { return try Console.json(procedure) }
        Console.out("updated procedure \(procedure.id) \(procedure.summaryLine)")
    }
}

struct ProcedureRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove a procedure (asks on a terminal unless --yes).")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @Argument(help: "The procedure's ID (any unique prefix).") var id: String
    @Flag(help: "Do not ask for confirmation.") var yes = false

    func run() throws {
        let context = try RecordContext(vault, profile)
        let store = ProcedureStore(vault: context.vault, profile: context.profile, time: context.time)
        let procedure = try store.get(id)
        guard try RecordContext.confirmRemoval("procedure \(procedure.id) \(procedure.name)", id: procedure.id, yes: yes) else { return }
        let removed = try store.remove(procedure.id)
        Console.out("removed procedure \(removed.id) \(removed.name)")
    }
}
