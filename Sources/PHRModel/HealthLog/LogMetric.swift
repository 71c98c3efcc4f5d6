import Foundation

/// What the daily health log tracks.
///
/// The log grew from the seed apps' habit trackers: four **habits** (water, sleep, workouts,
/// meals) are summed per day and judged against goals; three **measurements** (weight, blood
/// pressure, glucose) are averaged per day and shown with their range and trend.
///
/// Every value is stored in the metric's canonical unit (`canonicalUnit`); the unit it was
/// typed in is kept beside it, so it is shown back as typed (HealthUnits.swift).
public enum LogMetric: String, Codable, Sendable, CaseIterable, Comparable {
    case water, sleep, workout, meal, weight, bp, glucose

    /// Whether a goal is reached by reaching it (water, sleep, workouts) or by staying within
    /// it (a calorie budget, as the seed apps and calorie counters treat meals).
    public enum GoalDirection: String, Codable, Sendable {
        case atLeast = "at_least"
        case atMost = "at_most"
    }

    /// The habits, which are summed per day and have goals.
    public static let habits: [LogMetric] = [.water, .sleep, .workout, .meal]

    public var isHabit: Bool { Self.habits.contains(self) }

    /// Sleep and workouts last a while: they have a start and an end, and count for the day
    /// they end (the night belongs to the morning you wake up, as in Apple Health and Fitbit).
    public var isInterval: Bool { self == .sleep || self == .workout }

    public var goalDirection: GoalDirection { self == .meal ? .atMost : .atLeast }

    /// ml, min, kcal, kg, mmHg (systolic; diastolic beside it), mmol/L.
    public var canonicalUnit: String {
        switch self {
        case .water: return "ml"
        case .sleep, .workout: return "min"
        case .meal: return "kcal"
        case .weight: return "kg"
        case .bp: return "mmHg"
        case .glucose: return "mmol/L"
        }
    }

    /// "Water", "Blood pressure".
    public var title: String {
        switch self {
        case .water: return "Water"
        case .sleep: return "Sleep"
        case .workout: return "Workouts"
        case .meal: return "Meals"
        case .weight: return "Weight"
        case .bp: return "Blood pressure"
        case .glucose: return "Glucose"
        }
    }

    /// What `kind` means for this metric, in messages and column headers.
    public var kindName: String? {
        switch self {
        case .water: return "drink"
        case .workout: return "type"
        case .meal: return "meal"
        case .glucose: return "context"
        case .sleep, .weight, .bp: return nil
        }
    }

    /// The order of `LogMetric.allCases`, for stable listings.
    public static func < (a: LogMetric, b: LogMetric) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// Parses a metric name as typed, with the obvious synonyms ("workouts", "blood-pressure").
    public static func parse(_ text: String, field: Field) throws -> LogMetric {
        let typed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let synonyms: [String: LogMetric] = [
            "drink": .water, "drinks": .water, "hydration": .water, "workouts": .workout, "exercise": .workout,
            "activity": .workout, "meals": .meal, "food": .meal, "calories": .meal, "kcal": .meal,
            "blood-pressure": .bp, "bloodpressure": .bp, "pressure": .bp, "sugar": .glucose, "blood-sugar": .glucose,
        ]
        if let metric = LogMetric(rawValue: typed) ?? synonyms[typed] { return metric }
        throw RecordError.invalidField(field: field, reason: "'\(text)' is not a metric; use one of \(allCases.map(\.rawValue).joined(separator: ", "))")
    }

    /// Parses a habit name (goals exist only for habits).
    public static func parseHabit(_ text: String, field: Field) throws -> LogMetric {
        let metric = try parse(text, field: field)
        guard metric.isHabit else {
            throw RecordError.invalidField(field: field, reason: "\(metric.rawValue) has no goal; goals are for \(habits.map(\.rawValue).joined(separator: ", "))")
        }
        return metric
    }
}
