import Foundation
import GRDB

/// Statistics of a profile's health log: one read transaction, then pure computation
/// (HabitStats, MeasurementStats). `phr stats` and `phr report` both use it, so they print the
/// same figures.
public struct HealthStats {
    public let vault: Vault
    public let profile: Profile
    public let time: TimeContext

    public init(vault: Vault, profile: Profile, time: TimeContext) {
        self.vault = vault
        self.profile = profile
        self.time = time
    }

    /// Every metric's statistics over one period.
    public struct Summary: Codable, Sendable {
        public var period: StatsPeriod
        public var settings: HealthSettings
        /// All four habits, logged or not (a goal without entries is still a goal).
        public var habits: [HabitStats]
        /// Measurements with a reading in the period or before it.
        public var measurements: [MeasurementStats]
    }

    /// The statistics of the metrics in `metrics` (all if nil) over `period`.
    public func summary(_ period: StatsPeriod, metrics: [LogMetric]? = nil) throws -> Summary {
        let wanted = metrics ?? LogMetric.allCases
        let today = time.today()
        return try vault.database.read { db in
            let goals = try GoalBook.load(db, profileID: profile.id)
            let settings = try HealthSettingsStore.fetch(db, profileID: profile.id)
            var habits: [HabitStats] = []
            var measurements: [MeasurementStats] = []
            for metric in wanted {
                if metric.isHabit {
                    let series = try HabitSeries.load(db, metric: metric, profileID: profile.id)
                    habits.append(HabitStats.compute(series, goals: goals, period: period, today: today))
                } else {
                    let series = try MeasurementSeries.load(db, metric: metric, profileID: profile.id,
                                                            from: period.previous.from, to: period.to)
                    // Without a single reading ever, the metric is left out of summaries.
                    if metrics != nil || series.latest != nil {
                        measurements.append(MeasurementStats.compute(series, period: period))
                    }
                }
            }
            return Summary(period: period, settings: settings, habits: habits, measurements: measurements)
        }
    }

    public func habit(_ metric: LogMetric, _ period: StatsPeriod) throws -> HabitStats {
        try summary(period, metrics: [metric]).habits[0]
    }

    public func measurement(_ metric: LogMetric, _ period: StatsPeriod) throws -> MeasurementStats {
        try summary(period, metrics: [metric]).measurements[0]
    }
}
