import Foundation

/// A profile's health-log settings: the size of one serving of water, the activity level the
/// calorie suggestion uses, and the units totals are shown in.
public struct HealthSettings: Codable, Sendable, Equatable {
    /// Lifestyle categories of FAO/WHO/UNU 2004 (table 5.3), which the calorie suggestion
    /// multiplies the resting energy expenditure by (GoalSuggester.swift).
    public enum ActivityLevel: String, Codable, Sendable, CaseIterable {
        case sedentary, moderate, vigorous

        public static func parse(_ text: String, field: Field) throws -> ActivityLevel {
            let synonyms: [String: ActivityLevel] = ["light": .sedentary, "low": .sedentary, "active": .moderate,
                                                     "moderately-active": .moderate, "very-active": .vigorous, "high": .vigorous]
            let typed = text.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: " ", with: "-")
            guard let level = ActivityLevel(rawValue: typed) ?? synonyms[typed] else {
                throw RecordError.invalidField(field: field, reason: "'\(text)' is not an activity level; use sedentary, moderate or vigorous")
            }
            return level
        }
    }

    /// Units for totals and averages: litres, kilograms (metric) or US fluid ounces, pounds.
    public enum Units: String, Codable, Sendable, CaseIterable {
        case metric, us
    }

    /// The water serving ("phr log water +"): 250 ml unless set, the seed apps' glass.
    public static let defaultServingML = 250.0

    public var servingML: Double
    public var activityLevel: ActivityLevel?
    public var units: Units
    /// mmol/L or mg/dL: how glucose is shown, and what a bare glucose number means.
    public var glucoseUnit: HealthUnit
    /// nil while nothing was set (the defaults apply).
    public var updatedAt: String?

    enum CodingKeys: String, CodingKey {
        case servingML = "serving_ml"
        case activityLevel = "activity_level"
        case units
        case glucoseUnit = "glucose_unit"
        case updatedAt = "updated_at"
    }

    public static let defaults = HealthSettings(servingML: defaultServingML, activityLevel: nil, units: .metric,
                                                glucoseUnit: .millimolePerLitre, updatedAt: nil)

    public init(servingML: Double, activityLevel: ActivityLevel?, units: Units, glucoseUnit: HealthUnit, updatedAt: String?) {
        self.servingML = servingML
        self.activityLevel = activityLevel
        self.units = units
        self.glucoseUnit = glucoseUnit
        self.updatedAt = updatedAt
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        servingML = try c.decode(Double.self, forKey: .servingML)
        activityLevel = try c.decodeIfPresent(ActivityLevel.self, forKey: .activityLevel)
        units = try c.decode(Units.self, forKey: .units)
        glucoseUnit = try c.decode(HealthUnit.self, forKey: .glucoseUnit)
        guard glucoseUnit.metrics == [.glucose] else {
            throw DecodingError.dataCorruptedError(forKey: .glucoseUnit, in: c, debugDescription: "use mmol/L or mg/dL")
        }
        updatedAt = try c.decodeIfPresent(String.self, forKey: .updatedAt)
    }

}
