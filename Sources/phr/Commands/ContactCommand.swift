import ArgumentParser
import Foundation
import PHRService

struct ContactCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contact",
        abstract: "People to call: family, doctors, pharmacies; emergency contacts go on the emergency card.",
        subcommands: [ContactAdd.self, ContactList.self, ContactEdit.self, ContactRemove.self]
    )
}

struct ContactOptions: ParsableArguments {
    @Option(help: "Who they are: mother, GP, neighbour...") var relation: String?
    @Option(help: "Email address.") var email: String?
    @Option(help: "Anything else: hours, languages, address.") var notes: String?

    func fill(_ input: inout ContactStore.Input) {
        input.relation = relation
        input.email = email
        input.notes = notes
    }
}

extension Contact {
    /// "Jane Doe (sister) +1 555 0100".
    var summaryLine: String { "\(name)\(relation.map { " (\($0))" } ?? "") \(phone)" }
}

struct ContactAdd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a contact.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "Their name.") var name: String
    @Option(help: "Phone number, e.g. \"+49 30 1234567\".") var phone: String
    @Flag(help: "An emergency contact (shown on the emergency card).") var emergency = false
    @OptionGroup var options: ContactOptions

    func run() throws {
        let context = try RecordContext(vault, profile)
        var input = ContactStore.Input()
        input.name = name
        input.phone = phone
        input.emergency = emergency
        options.fill(&input)
        let store = ContactStore(vault: context.vault, profile: context.profile, time: context.time)
        let contact = try RecordContext.options { try store.add(input) }
        if output.json { return try Console.json(contact) }
        Console.out("added \(contact.emergency ? "emergency " : "")contact \(contact.id) \(contact.summaryLine)")
    }
}

struct ContactList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List contacts, emergency contacts first.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Flag(help: "Only emergency contacts.") var emergency = false

    func run() throws {
        let context = try RecordContext(vault, profile)
        let contacts = try ContactStore(vault: context.vault, profile: context.profile, time: context.time).list(emergencyOnly: emergency)
        if output.json { return try Console.json(contacts) }
        if contacts.isEmpty { return Console.note("no contacts yet; add one with 'phr contact add NAME --phone P'") }
        Table.print(header: ["ID", "NAME", "RELATION", "PHONE", "EMAIL", "EMERGENCY"], rows: contacts.map { contact in
            [contact.id, contact.name, RecordText.or(contact.relation), contact.phone, RecordText.or(contact.email),
             contact.emergency ? "yes" : "no"]
        })
    }
}

struct ContactEdit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change a contact.",
        discussion: "Only the options given change; an empty value (--email \"\") clears a field."
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The contact's ID (any unique prefix).") var id: String
    @Option(help: "A new name.") var name: String?
    @Option(help: "A new phone number.") var phone: String?
    @Option(help: "yes: an emergency contact; no: not.") var emergency: String?
    @OptionGroup var options: ContactOptions

    func run() throws {
        let context = try RecordContext(vault, profile)
        var input = ContactStore.Input()
        input.name = name
        input.phone = phone
        input.emergency = try emergency.map { value in try RecordContext.options { try RecordFields.yesNo(value, field: Field("emergency")) } }
        options.fill(&input)
        let store = ContactStore(vault: context.vault, profile: context.profile, time: context.time)
        let contact = try RecordContext.options { try store.edit(id, input) }
        if output.json { return try Console.json(contact) }
        Console.out("updated contact \(contact.id) \(contact.summaryLine)")
    }
}

struct ContactRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove a contact (asks on a terminal unless --yes).")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @Argument(help: "The contact's ID (any unique prefix).") var id: String
    @Flag(help: "Do not ask for confirmation.") var yes = false

    func run() throws {
        let context = try RecordContext(vault, profile)
        let store = ContactStore(vault: context.vault, profile: context.profile, time: context.time)
        let contact = try store.get(id)
        guard try RecordContext.confirmRemoval("contact \(contact.id) \(contact.name)", id: contact.id, yes: yes) else { return }
        let removed = try store.remove(contact.id)
        Console.out("removed contact \(removed.id) \(removed.name)")
    }
}
