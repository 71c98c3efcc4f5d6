import ArgumentParser
import Foundation
import PHRService

struct IDCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "id",
        abstract: "The medical ID: name, date of birth, blood type, organ donation, height, weight, notes.",
        subcommands: [IDShow.self, IDSet.self]
    )
}

struct IDShow: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the medical ID.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let context = try RecordContext(vault, profile)
        let id = try MedicalIDStore(vault: context.vault, profile: context.profile, time: context.time).get()
        if output.json { return try Console.json(id) }
        guard let id, !id.isEmpty else {
            return Console.note("no medical ID for \(context.profile.name) yet; set one with 'phr id set --name NAME --dob YYYY-MM-DD --blood-type A+'")
        }
        Self.print(id, today: context.time.today())
    }

    static func print(_ id: MedicalID, today: CalendarDate) {
        RecordText.fields([
            ("name", id.name),
            ("born", id.dateOfBirth.map { born in "\(born)" + (id.age(on: today).map { " (age \($0))" } ?? "") }),
            ("sex", id.sex?.rawValue),
            ("blood type", id.bloodType),
            ("organ donor", id.organDonor.map { $0 ? "yes" : "no" }),
            ("height", id.heightCm.map { "\(RecordText.number($0)) cm" }),
            ("weight", id.weightKg.map { "\(RecordText.number($0)) kg" }),
            ("notes", id.notes),
            ("identifiers", id.identifiers.isEmpty ? nil : id.identifiers.map { [$0.system, $0.value].compactMap { $0 }.joined(separator: " ") }
                .joined(separator: "\n")),
            ("updated", id.updatedAt),
        ])
    }
}

struct IDSet: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Set fields of the medical ID.",
        discussion: "Only the options given change; an empty value (--notes \"\") clears a field."
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "Full name.") var name: String?
    @Option(help: "Date of birth (YYYY-MM-DD).") var dob: String?
    @Option(help: "female, male or other.") var sex: String?
    @Option(name: .customLong("blood-type"), help: "A+, A-, B+, B-, AB+, AB-, O+ or O-.") var bloodType: String?
    @Option(name: .customLong("organ-donor"), help: "yes or no.") var organDonor: String?
    @Option(help: "Height with a unit: 178cm, 1.78m, 5ft10in.") var height: String?
    @Option(help: "Weight with a unit: 72kg, 160lb.") var weight: String?
    @Option(help: "What a first responder should know: devices, conditions, wishes.") var notes: String?

    func run() throws {
        var input = MedicalIDStore.Input()
        input.name = name
        input.dateOfBirth = dob
        input.sex = sex
        input.bloodType = bloodType
        input.organDonor = organDonor
        input.height = height
        input.weight = weight
        input.notes = notes
        guard [name, dob, sex, bloodType, organDonor, height, weight, notes].contains(where: { $0 != nil }) else {
            throw RecordError.invalidOption(option: Field.path("id set"), reason: "nothing to set",
                                            hint: "give at least one of --name, --dob, --sex, --blood-type, --organ-donor, --height, --weight, --notes")
        }
        let context = try RecordContext(vault, profile)
        let store = MedicalIDStore(vault: context.vault, profile: context.profile, time: context.time)
        let id = try RecordContext.options { try store.set(input) }
        if output.json { return try Console.json(id) }
        IDShow.print(id, today: context.time.today())
    }
}
