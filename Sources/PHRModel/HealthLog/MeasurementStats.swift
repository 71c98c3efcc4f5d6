import Foundation

/// What `phr stats` shows for a measurement (weight, blood pressure, glucose) over a period:
/// the average of all readings, the range, the latest reading, and the trend.
///
/// The **trend** is the least-squares line through the daily means (each day one point, so a
/// day with many readings does not outweigh the others), given per week; "steady" when the
/// line moves less than 0.25% of the average over the whole period (0.2 kg of 80 kg).
public struct MeasurementStats: Codable, Sendable {
    public var metric: LogMetric
    public var period: StatsPeriod
    public var readings: Int
    public var daysLogged: Int
    /// The mean of all readings (systolic, for blood pressure).
    public var average: Double?
    public var minimum: Double?
    public var maximum: Double?
    public var diastolicAverage: Double?
    public var diastolicMinimum: Double?
    public var diastolicMaximum: Double?
    public var pulseAverage: Double?
    /// The newest reading up to the period's end (possibly before the period).
    public var latest: LogEntry?
    public var previousAverage: Double?
    public var previousDiastolicAverage: Double?
    /// average − previous average, in canonical units.
    public var change: Double?
    /// The slope of the trend line, canonical units per week.
    public var slopePerWeek: Double?
    public var trend: HabitStats.Trend?
    public var days: [MeasurementSeries.Day]

    enum CodingKeys: String, CodingKey {
        case metric, period, readings
        case daysLogged = "days_logged"
        case average, minimum, maximum
        case diastolicAverage = "diastolic_average"
        case diastolicMinimum = "diastolic_minimum"
        case diastolicMaximum = "diastolic_maximum"
        case pulseAverage = "pulse_average"
        case latest
        case previousAverage = "previous_average"
        case previousDiastolicAverage = "previous_diastolic_average"
        case change
        case slopePerWeek = "slope_per_week"
        case trend, days
    }

    /// The share of the average the trend line must move over the period to be "up" or "down".
    public static let steadyShare = 0.0025

    /// `series` must cover the period and the one before it.
    public static func compute(_ series: MeasurementSeries, period: StatsPeriod) -> MeasurementStats {
        let inside = series.days.filter { period.contains($0.day) }
        let before = series.days.filter { period.previous.contains($0.day) }
        func mean(_ days: [MeasurementSeries.Day], _ value: (MeasurementSeries.Day) -> Double?) -> Double? {
            var sum = 0.0
            var count = 0
            for day in days {
                guard let v = value(day) else { continue }
                sum += v * Double(day.readings)
                count += day.readings
            }
            return count > 0 ? sum / Double(count) : nil
        }
        var stats = MeasurementStats(
            metric: series.metric, period: period, readings: inside.reduce(0) { $0 + $1.readings }, daysLogged: inside.count,
            average: mean(inside, \.mean), minimum: inside.map(\.min).min(), maximum: inside.map(\.max).max(),
            diastolicAverage: mean(inside, \.diastolicMean), diastolicMinimum: inside.compactMap(\.diastolicMin).min(),
            diastolicMaximum: inside.compactMap(\.diastolicMax).max(), pulseAverage: nil, latest: series.latest,
            previousAverage: mean(before, \.mean), previousDiastolicAverage: mean(before, \.diastolicMean), change: nil, slopePerWeek: nil, trend: nil, days: inside)
        // The pulse is optional per reading, so its mean is over the days that have one.
        let pulses = inside.compactMap(\.pulseMean)
        stats.pulseAverage = pulses.isEmpty ? nil : pulses.reduce(0, +) / Double(pulses.count)
        if let average = stats.average, let previous = stats.previousAverage { stats.change = average - previous }
        if inside.count >= 2, let average = stats.average {
            let xs = inside.map { Double($0.day.dayNumber - period.from.dayNumber) }
            let ys = inside.map(\.mean)
            let mx = xs.reduce(0, +) / Double(xs.count)
            let my = ys.reduce(0, +) / Double(ys.count)
            let sxx = xs.reduce(0) { $0 + ($1 - mx) * ($1 - mx) }
            let sxy = zip(xs, ys).reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) }
            if sxx > 0 {
                let perDay = sxy / sxx
                stats.slopePerWeek = perDay * 7
                let movement = perDay * Double(period.days - 1)
                stats.trend = abs(movement) < abs(average) * Self.steadyShare ? .steady : movement > 0 ? .up : .down
            }
        }
        return stats
    }
}
