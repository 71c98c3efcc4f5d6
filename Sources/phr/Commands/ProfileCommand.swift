import ArgumentParser
import Foundation
import PHRService

struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Keep records for several people: add, list and choose the default profile.",
        discussion: """
            Every record belongs to one profile. Commands use --profile NAME, else PHR_PROFILE, \
            else the default profile ('phr init' creates the first one, 'me').
            """,
        subcommands: [ProfileAdd.self, ProfileList.self, ProfileDefault.self]
    )
}

struct ProfileAdd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a profile for someone in your care.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The profile's name, as you will type it after --profile.") var name: String
    @Option(help: "Who they are to you: child, parent, partner or other.") var relation: String = "other"

    func run() throws {
        let parsed = try RecordContext.options { try Profiles.relation(relation) }
        let opened = try VaultAccess.open(vault.location)
        let profile: Profile = try RecordContext.options {
            try opened.database.write { db in try Profiles.create(db, name: name, relation: parsed) }
        }
        if output.json {
            try Console.json(profile)
        } else {
            Console.out("added profile \(profile.name) (\(profile.relation.rawValue))")
        }
    }
}

struct ProfileList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List profiles; * marks the default.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let opened = try VaultAccess.open(vault.location)
        let profiles = try opened.database.read { db in try Profiles.all(db) }
        if output.json {
            try Console.json(profiles)
            return
        }
        Table.print(header: ["", "NAME", "RELATION", "SINCE"], rows: profiles.map { profile in
            [profile.isDefault ? "*" : "", profile.name, profile.relation.rawValue, String(profile.createdAt.prefix(10))]
        })
    }
}

struct ProfileDefault: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "default",
        abstract: "Make a profile the default, used when neither --profile nor PHR_PROFILE names one."
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The profile's name.") var name: String

    func run() throws {
        let opened = try VaultAccess.open(vault.location)
        let profile = try opened.database.write { db in try Profiles.makeDefault(db, name: name) }
        if output.json {
            try Console.json(profile)
        } else {
            Console.out("default profile: \(profile.name)")
        }
    }
}
