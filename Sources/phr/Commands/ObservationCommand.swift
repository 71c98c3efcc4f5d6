import ArgumentParser
import Foundation
import PHRService

struct ObservationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "observation",
        abstract: "Results and measurements imported from FHIR: lab values, vital signs, blood group.",
        subcommands: [ObservationList.self, ObservationRemove.self]
    )
}

struct ObservationList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List observations, newest first.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "Only those with this code, e.g. the LOINC code 8302-2 (body height).") var code: String?

    func run() throws {
        let context = try RecordContext(vault, profile)
        let observations = try ObservationStore(vault: context.vault, profile: context.profile).list(code: code)
        if output.json { return try Console.json(observations) }
        if observations.isEmpty {
            return Console.note(code == nil ? "no observations; they come from FHIR imports ('phr import FILE')" : "no observations with code \(code!)")
        }
        Table.print(header: ["ID", "DATE", "VALUE", "NAME"], rows: observations.map { observation in
            [observation.id, RecordText.or(observation.effective.map { String($0.prefix(10)) }), observation.valueDescription, observation.name]
        })
    }
}

struct ObservationRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove an observation (asks on a terminal unless --yes).")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @Argument(help: "The observation's ID (any unique prefix).") var id: String
    @Flag(help: "Do not ask for confirmation.") var yes = false

    func run() throws {
        let context = try RecordContext(vault, profile)
        let store = ObservationStore(vault: context.vault, profile: context.profile)
        let observation = try store.get(id)
        guard try RecordContext.confirmRemoval("observation \(observation.id) \(observation.name)", id: observation.id, yes: yes) else { return }
        let removed = try store.remove(observation.id)
        Console.out("removed observation \(removed.id) \(removed.name)")
    }
}
