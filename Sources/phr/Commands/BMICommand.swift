import ArgumentParser
import Foundation
import PHRService

struct BMICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bmi",
        abstract: "Body mass index with the WHO category.",
        discussion: """
            Weight and height default to your newest logged weight (else the medical ID's) and \
            the medical ID's height. Adult WHO categories: under 18.5 underweight, 18.5–24.9 \
            normal, 25–29.9 pre-obesity, 30 and above obesity (classes I–III). Under 18 no \
            category is given: children are judged against growth references for their age.
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "Weight with a unit: 72kg, 160lb.") var weight: String?
    @Option(help: "Height with a unit: 178cm, 1.78m, 5ft10in.") var height: String?

    func run() throws {
        let context = try RecordContext(vault, profile)
        let bmi = try RecordContext.options {
            try BodyMassIndex.forProfile(vault: context.vault, profile: context.profile, time: context.time, weight: weight, height: height)
        }
        if output.json { return try Console.json(bmi) }
        let format = HealthFormat(try HealthSettingsStore(vault: context.vault, profile: context.profile, time: context.time).get())
        RecordText.fields([
            ("BMI", "\(HealthFormat.number(bmi.bmi, decimals: 1)) kg/m²"),
            ("category", bmi.category.map { "\($0.name) (\($0.range))" }),
            ("weight", "\(format.amount(bmi.weightKg, .weight)) (\(bmi.weightFrom))"),
            ("height", "\(HealthFormat.number(bmi.heightCm, decimals: 1)) cm (\(bmi.heightFrom))"),
            ("normal range", "\(format.amount(bmi.normalWeightLowKg, .weight)) to \(format.amount(bmi.normalWeightHighKg, .weight)) at this height (BMI 18.5–24.9)"),
        ] + bmi.notes.map { ("note", $0.cli) } + [("source", BodyMassIndex.source)], width: 14)
    }
}
