import Foundation

/// A measurement's readings per day (weight, blood pressure, glucose), for a range of days.
public struct MeasurementSeries: Sendable {
    public struct Day: Codable, Sendable, Equatable {
        public var day: CalendarDate
        public var readings: Int
        public var mean: Double
        public var min: Double
        public var max: Double
        /// Blood pressure: the diastolic mean, min and max.
        public var diastolicMean: Double?
        public var diastolicMin: Double?
        public var diastolicMax: Double?
        public var pulseMean: Double?

        enum CodingKeys: String, CodingKey {
            case day, readings, mean, min, max
            case diastolicMean = "diastolic_mean"
            case diastolicMin = "diastolic_min"
            case diastolicMax = "diastolic_max"
            case pulseMean = "pulse_mean"
        }

        package init(day: CalendarDate, readings: Int, mean: Double, min: Double, max: Double, diastolicMean: Double?,
                     diastolicMin: Double?, diastolicMax: Double?, pulseMean: Double?) {
            self.day = day
            self.readings = readings
            self.mean = mean
            self.min = min
            self.max = max
            self.diastolicMean = diastolicMean
            self.diastolicMin = diastolicMin
            self.diastolicMax = diastolicMax
            self.pulseMean = pulseMean
        }
    }

    public let metric: LogMetric
    /// Days with readings, oldest first.
    public let days: [Day]
    /// The newest reading up to the end of the range.
    public let latest: LogEntry?

    package init(metric: LogMetric, days: [Day], latest: LogEntry?) {
        self.metric = metric
        self.days = days
        self.latest = latest
    }
}
