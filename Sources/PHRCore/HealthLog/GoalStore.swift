import Foundation
import GRDB

/// Setting and listing the goals of one profile.
public struct GoalStore {
    public let vault: Vault
    public let profile: Profile
    public let time: TimeContext

    public init(vault: Vault, profile: Profile, time: TimeContext) {
        self.vault = vault
        self.profile = profile
        self.time = time
    }

    /// A metric's goal today, with the goals it had before.
    public struct Listing: Codable, Sendable, Equatable {
        public var current: EffectiveGoal
        /// Earlier and later goals of the metric, oldest first (empty while only the default applied).
        public var history: [Goal]
    }

    /// Sets `metric`'s goal from `since` (today if nil) on. `value` is typed with a unit
    /// ("2l", "8h", "150min", "2200kcal"; a bare number is kilocalories for meals).
    @discardableResult
    public func set(_ metricText: String, _ valueText: String, per periodText: String? = nil, since sinceText: String? = nil) throws -> Goal {
        let metric = try LogMetric.parseHabit(metricText, field: Field.argument("metric"))
        let period = try periodText.map { text -> GoalPeriod in
            GoalPeriod(rawValue: try RecordFields.choice(text, field: Field.per, allowed: GoalPeriod.allCases.map(\.rawValue)))!
        } ?? .day
        let value = try Self.value(valueText, metric: metric, period: period, field: Field.argument("value"))
        let since = try sinceText.map { try RecordFields.date($0, field: Field.since) } ?? time.today()
        let goal = Goal(metric: metric, value: value, period: period, since: since, setAt: Timestamp.string(time.now))
        try vault.database.write { db in try goal.save(db, profileID: profile.id) }
        return goal
    }

    /// Puts a metric back on its default goal from today on (earlier days keep their goals).
    @discardableResult
    public func reset(_ metricText: String) throws -> Goal {
        let metric = try LogMetric.parseHabit(metricText, field: Field.argument("metric"))
        let fallback = GoalBook.defaults[metric]!
        let goal = Goal(metric: metric, value: fallback.value, period: fallback.period, since: time.today(), setAt: Timestamp.string(time.now))
        try vault.database.write { db in try goal.save(db, profileID: profile.id) }
        return goal
    }

    /// Every habit's goal today and its history.
    public func list() throws -> [Listing] {
        let book = try vault.database.read { db in try GoalBook.load(db, profileID: profile.id) }
        let today = time.today()
        return LogMetric.habits.map { metric in
            Listing(current: book.goal(metric, on: today), history: book.history[metric] ?? [])
        }
    }

    /// The person goal suggestions are computed for: age and sex from the medical ID, the
    /// newest logged weight (else the medical ID's), height from the medical ID, and the
    /// activity level given (else the profile's setting).
    public func person(activity: String? = nil) throws -> GoalSuggester.Person {
        let level = try activity.map { try HealthSettings.ActivityLevel.parse($0, field: Field.activity) }
        return try vault.database.read { db in
            let id = try MedicalIDStore.fetch(db, profileID: profile.id)
            let settings = try HealthSettingsStore.fetch(db, profileID: profile.id)
            let logged = try LogStore.latest(db, metric: .weight, profileID: profile.id)
            return GoalSuggester.Person(ageMonths: id?.dateOfBirth.flatMap { GoalSuggester.ageMonths(born: $0, today: time.today()) },
                                        sex: id?.sex, heightCm: id?.heightCm, weightKg: logged?.value ?? id?.weightKg,
                                        activity: level ?? settings.activityLevel)
        }
    }

    /// Sets every suggestion that has a value as the goal from today on.
    @discardableResult
    public func apply(_ suggestions: [GoalSuggestion]) throws -> [Goal] {
        let goals = suggestions.compactMap { suggestion in
            suggestion.value.map { Goal(metric: suggestion.metric, value: $0, period: suggestion.period, since: time.today(),
                                        setAt: Timestamp.string(time.now)) }
        }
        try vault.database.write { db in
            for goal in goals { try goal.save(db, profileID: profile.id) }
        }
        return goals
    }

    public func book() throws -> GoalBook {
        try vault.database.read { db in try GoalBook.load(db, profileID: profile.id) }
    }

    /// A goal value as typed, in canonical units, within sensible bounds for its period.
    public static func value(_ text: String, metric: LogMetric, period: GoalPeriod, field: Field) throws -> Double {
        let days = Double(period.days)
        let quantity: HealthQuantity
        let bounds: ClosedRange<Double>
        let boundsText: String
        switch metric {
        case .water:
            quantity = try HealthQuantityParser.volume(text, field: field, bounds: 1...(20_000 * days))
            bounds = (100 * days)...(20_000 * days)
            boundsText = period == .day ? "100 ml to 20 l a day" : "700 ml to 140 l a week"
        case .sleep, .workout:
            quantity = try HealthQuantityParser.durationAllowingLong(text, field: field)
            bounds = 1...(1440 * days)
            boundsText = period == .day ? "1 minute to 24 hours a day" : "1 minute to 168 hours a week"
        case .meal:
            quantity = try HealthQuantityParser.energy(text, field: field, bounds: 1...(20_000 * days))
            bounds = (500 * days)...(10_000 * days)
            boundsText = period == .day ? "500 to 10000 kcal a day" : "3500 to 70000 kcal a week"
        case .weight, .bp, .glucose:
            throw RecordError.invalidField(field: field, reason: "\(metric.rawValue) has no goal")
        }
        guard bounds.contains(quantity.value) else {
            throw RecordError.invalidField(field: field, reason: "'\(text)' is outside \(boundsText)")
        }
        return quantity.value
    }
}
