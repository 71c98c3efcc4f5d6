import Foundation

extension BodyMassIndex {
    /// The BMI of a profile: `weight` and `height` as typed when given, else the newest
    /// logged weight (or the medical ID's) and the medical ID's height.
    public static func forProfile(vault: Vault, profile: Profile, time: TimeContext, weight: String?, height: String?) throws -> BodyMassIndex {
        let id = try MedicalIDStore(vault: vault, profile: profile, time: time).get()
        let logged = try LogStore(vault: vault, profile: profile, time: time).latestWeight()
        var weightKg: Double
        var weightFrom: String
        if let weight {
            weightKg = try HealthQuantityParser.weight(weight, field: Field.weight).value
            weightFrom = "given"
        } else if let logged {
            (weightKg, weightFrom) = (logged.value, "logged \(logged.day)")
        } else if let kg = id?.weightKg {
            (weightKg, weightFrom) = (kg, "medical ID")
        } else {
            throw RecordError.invalidOption(option: Field.weight, reason: "no weight known for \(profile.name)",
                                            hint: "give \(Field.weight) 72kg, log one with '\(Action.logWeight(example: "72kg"))', or set it with '\(Action.setMedicalID(.weight, example: "72kg"))'")
        }
        let heightCm: Double
        let heightFrom: String
        if let height {
            (heightCm, heightFrom) = (try RecordFields.height(height, field: Field.height), "given")
        } else if let cm = id?.heightCm {
            (heightCm, heightFrom) = (cm, "medical ID")
        } else {
            throw RecordError.invalidOption(option: Field.height, reason: "no height known for \(profile.name)",
                                            hint: "give \(Field.height) 178cm, or set it with '\(Action.setMedicalID(.height, example: "178cm"))'")
        }
        weightKg = (weightKg * 1000).rounded() / 1000
        return compute(weightKg: weightKg, heightCm: heightCm, ageYears: id?.age(on: time.today()), weightFrom: weightFrom, heightFrom: heightFrom)
    }
}
