import Foundation

import Foundation

/// Body mass index, weight / height², with the WHO category for adults.
///
/// Categories (WHO, "A healthy lifestyle — WHO recommendations", and the WHO Global Database
/// on Body Mass Index for the grades of thinness): below 18.5 underweight (below 16 severe,
/// 16.0–16.9 moderate, 17.0–18.4 mild thinness), 18.5–24.9 normal weight, 25.0–29.9
/// pre-obesity, 30.0–34.9 obesity class I, 35.0–39.9 class II, 40 and above class III. The
/// category is taken from the BMI rounded to one decimal, the figure shown, so the two always
/// agree. Under 18 the adult categories do not apply: WHO uses BMI-for-age growth references,
/// which phr does not carry, so no category is given.
public struct BodyMassIndex: Codable, Sendable, Equatable {
    public enum Category: String, Codable, Sendable, CaseIterable {
        case severeThinness = "severe_thinness"
        case moderateThinness = "moderate_thinness"
        case mildThinness = "mild_thinness"
        case normal
        case preObesity = "pre_obesity"
        case obesityClassI = "obesity_class_1"
        case obesityClassII = "obesity_class_2"
        case obesityClassIII = "obesity_class_3"

        /// "Underweight (mild thinness)", "Normal weight", "Obesity class II".
        public var name: String {
            switch self {
            case .severeThinness: return "Underweight (severe thinness)"
            case .moderateThinness: return "Underweight (moderate thinness)"
            case .mildThinness: return "Underweight (mild thinness)"
            case .normal: return "Normal weight"
            case .preObesity: return "Pre-obesity (overweight)"
            case .obesityClassI: return "Obesity class I"
            case .obesityClassII: return "Obesity class II"
            case .obesityClassIII: return "Obesity class III"
            }
        }

        /// "18.5–24.9", "40 and above".
        public var range: String {
            switch self {
            case .severeThinness: return "below 16"
            case .moderateThinness: return "16.0–16.9"
            case .mildThinness: return "17.0–18.4"
            case .normal: return "18.5–24.9"
            case .preObesity: return "25.0–29.9"
            case .obesityClassI: return "30.0–34.9"
            case .obesityClassII: return "35.0–39.9"
            case .obesityClassIII: return "40 and above"
            }
        }

        /// The category of a BMI already rounded to one decimal.
        public static func of(_ bmi: Double) -> Category {
            switch bmi {
            case ..<16: return .severeThinness
            case ..<17: return .moderateThinness
            case ..<18.5: return .mildThinness
            case ..<25: return .normal
            case ..<30: return .preObesity
            case ..<35: return .obesityClassI
            case ..<40: return .obesityClassII
            default: return .obesityClassIII
            }
        }
    }

    public static let source = "WHO. A healthy lifestyle - WHO recommendations (BMI classification for adults); WHO Global Database on Body Mass Index (grades of thinness); WHO Technical Report Series 894, 2000"

    /// kg/m², to one decimal.
    public var bmi: Double
    public var weightKg: Double
    public var heightCm: Double
    /// The adult category; nil under 18.
    public var category: Category?
    /// The weights for a BMI of 18.5 to 24.9 at this height.
    public var normalWeightLowKg: Double
    public var normalWeightHighKg: Double
    /// Where the weight and height came from: "given", "log 2026-03-10", "medical ID".
    public var weightFrom: String
    public var heightFrom: String
    public var ageYears: Int?
    public var notes: [Message]

    enum CodingKeys: String, CodingKey {
        case bmi
        case weightKg = "weight_kg"
        case heightCm = "height_cm"
        case category
        case normalWeightLowKg = "normal_weight_low_kg"
        case normalWeightHighKg = "normal_weight_high_kg"
        case weightFrom = "weight_from"
        case heightFrom = "height_from"
        case ageYears = "age_years"
        case notes
    }

    /// The BMI of `weightKg` at `heightCm`, with the category when `ageYears` is 18 or more
    /// (or unknown, with a note).
    public static func compute(weightKg: Double, heightCm: Double, ageYears: Int?, weightFrom: String, heightFrom: String) -> BodyMassIndex {
        let metres = heightCm / 100
        let bmi = ((weightKg / (metres * metres)) * 10).rounded() / 10
        var notes: [Message] = []
        var category: Category? = Category.of(bmi)
        if let age = ageYears, age < 18 {
            category = nil
            notes.append("under 18 the adult categories do not apply; WHO judges children's BMI against growth references for their age and sex, so ask their doctor")
        } else if ageYears == nil {
            notes.append("the adult categories are shown; they do not apply under 18 (set the date of birth with '\(Action.setMedicalID(.dob, example: nil))')")
        }
        notes.append("BMI does not tell muscle from fat; it is a screening figure, not a diagnosis")
        return BodyMassIndex(bmi: bmi, weightKg: weightKg, heightCm: heightCm, category: category,
                             normalWeightLowKg: (18.5 * metres * metres * 10).rounded() / 10,
                             normalWeightHighKg: (24.9 * metres * metres * 10).rounded() / 10,
                             weightFrom: weightFrom, heightFrom: heightFrom, ageYears: ageYears, notes: notes)
    }

    package init(
        bmi: Double,
        weightKg: Double,
        heightCm: Double,
        category: Category? = nil,
        normalWeightLowKg: Double,
        normalWeightHighKg: Double,
        weightFrom: String,
        heightFrom: String,
        ageYears: Int? = nil,
        notes: [Message]
    ) {
        self.bmi = bmi
        self.weightKg = weightKg
        self.heightCm = heightCm
        self.category = category
        self.normalWeightLowKg = normalWeightLowKg
        self.normalWeightHighKg = normalWeightHighKg
        self.weightFrom = weightFrom
        self.heightFrom = heightFrom
        self.ageYears = ageYears
        self.notes = notes
    }
}
