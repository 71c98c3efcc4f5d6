import Foundation
import GRDB

/// A goal the user set: from `since` on, until a later goal of the same metric replaces it.
/// Goals are kept as a history so each past day is judged by the goal it had.
public struct Goal: Codable, Sendable, Equatable {
    public var metric: LogMetric
    /// In the metric's canonical unit (ml, min, kcal), per `period`.
    public var value: Double
    public var period: GoalPeriod
    /// The first day it applies.
    public var since: CalendarDate
    /// When it was set (UTC).
    public var setAt: String

    enum CodingKeys: String, CodingKey {
        case metric, value, period, since
        case setAt = "set_at"
    }

    public init(metric: LogMetric, value: Double, period: GoalPeriod, since: CalendarDate, setAt: String) {
        self.metric = metric
        self.value = value
        self.period = period
        self.since = since
        self.setAt = setAt
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        metric = try c.decode(LogMetric.self, forKey: .metric)
        guard metric.isHabit else { throw DecodingError.dataCorruptedError(forKey: .metric, in: c, debugDescription: "\(metric.rawValue) has no goals") }
        value = try c.decode(Double.self, forKey: .value)
        guard value > 0, value.isFinite else { throw DecodingError.dataCorruptedError(forKey: .value, in: c, debugDescription: "must be positive") }
        period = try c.decode(GoalPeriod.self, forKey: .period)
        since = try c.decode(CalendarDate.self, forKey: .since)
        setAt = try c.decode(String.self, forKey: .setAt)
    }

}
/// A profile's goals over time: which goal applies on which day.
///
/// Rules:
/// - before the first goal of a metric, and for a metric never given one, the seed apps'
///   defaults apply (water 2 L, sleep 8 h, workouts 60 min a day, meals 2,500 kcal);
/// - a goal applies from its `since` day until the next goal's `since`;
/// - statistics use the period of the goal in effect at the end of the range (today); an
///   earlier goal set for the other period is converted at 7 days a week, so a change from
///   "60 min a day" to "150 min a week" judges the earlier weeks by 420 minutes.
public struct GoalBook: Sendable {
    public static let defaults: [LogMetric: (value: Double, period: GoalPeriod)] = [
        .water: (2000, .day), .sleep: (480, .day), .workout: (60, .day), .meal: (2500, .day),
    ]

    /// Each metric's goals, oldest first.
    public let history: [LogMetric: [Goal]]

    public init(_ goals: [Goal]) {
        history = Dictionary(grouping: goals, by: \.metric).mapValues { $0.sorted { $0.since < $1.since } }
    }

    /// The goal in effect on `day`.
    public func goal(_ metric: LogMetric, on day: CalendarDate) -> EffectiveGoal {
        if let goal = history[metric]?.last(where: { $0.since <= day }) {
            return EffectiveGoal(metric: metric, value: goal.value, period: goal.period, direction: metric.goalDirection,
                                 since: goal.since, isDefault: false)
        }
        let fallback = Self.defaults[metric] ?? (1, .day)
        return EffectiveGoal(metric: metric, value: fallback.value, period: fallback.period, direction: metric.goalDirection,
                             since: nil, isDefault: true)
    }

    /// The goal in effect on `day`, expressed per `period`.
    public func goal(_ metric: LogMetric, on day: CalendarDate, per period: GoalPeriod) -> EffectiveGoal {
        var goal = goal(metric, on: day)
        if goal.period != period {
            goal.value = goal.value * Double(period.days) / Double(goal.period.days)
            goal.period = period
        }
        return goal
    }

    static func load(_ db: Database, profileID: Int64) throws -> GoalBook {
        GoalBook(try Goal.all(db, profileID: profileID))
    }
}

/// Keyed by profile, metric and first day (`profile_id` added by `ProfileRow`); the columns
/// are the Codable keys, so the database and `phr export` read and write the same fields.
extension Goal: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "log_goal"

    /// Every goal of a profile, by metric and day.
    static func all(_ db: Database, profileID: Int64) throws -> [Goal] {
        try Goal.filter(Column("profile_id") == profileID).fetchAll(db)
            .sorted { ($0.metric, $0.since) < ($1.metric, $1.since) }
    }

    /// Adds the goal, or replaces the one of the same metric and first day.
    func save(_ db: Database, profileID: Int64) throws {
        try ProfileRow(record: self, profileID: profileID).upsert(db)
    }
}
