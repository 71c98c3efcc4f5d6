import Foundation

/// Whether a goal is for each day or for each week (Monday to Sunday, ISO 8601).
public enum GoalPeriod: String, Codable, Sendable, CaseIterable {
    case day, week

    public var days: Int { self == .day ? 1 : 7 }
}

/// The goal that applies to a day: the user's, or the default.
public struct EffectiveGoal: Codable, Sendable, Equatable {
    public var metric: LogMetric
    public var value: Double
    public var period: GoalPeriod
    public var direction: LogMetric.GoalDirection
    /// The day the user's goal started; nil for the default.
    public var since: CalendarDate?
    public var isDefault: Bool

    enum CodingKeys: String, CodingKey {
        case metric, value, period, direction, since
        case isDefault = "default"
    }

    /// Whether `amount` over the goal's period meets it. An at-most goal (a calorie budget)
    /// is met only on a period with something logged: an empty day is not a day on budget.
    public func isMet(by amount: Double, logged: Bool) -> Bool {
        switch direction {
        case .atLeast: return amount >= value
        case .atMost: return logged && amount <= value
        }
    }

    package init(
        metric: LogMetric,
        value: Double,
        period: GoalPeriod,
        direction: LogMetric.GoalDirection,
        since: CalendarDate? = nil,
        isDefault: Bool
    ) {
        self.metric = metric
        self.value = value
        self.period = period
        self.direction = direction
        self.since = since
        self.isDefault = isDefault
    }
}
