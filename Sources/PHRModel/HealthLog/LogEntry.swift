import Foundation

/// One entry of the daily health log: a drink, a night's sleep (or a nap), a workout, a meal,
/// a weight, a blood pressure, a glucose reading.
///
/// **Which day it counts for** (`day`): the local date, in the zone the user was in when it
/// happened (`timeZone`), of `at` — the moment of a point entry, the end of a sleep or
/// workout. So a night from 23:10 to 06:40 counts for the morning it ends; an entry logged in
/// Berlin stays on its Berlin day after the user flies to New York; and a day with a DST
/// change is one day, 23 or 25 hours long. Durations are elapsed time (`at` − `start`), so a
/// night across the spring-forward change is an hour shorter on the clock, as it was in bed.
public struct LogEntry: Codable, Sendable, Equatable {
    public var id: String
    public var uid: String
    public var metric: LogMetric
    /// UTC, "2026-03-29T06:40:00Z": when it happened, or when a sleep or workout ended.
    public var at: String
    /// UTC: when a sleep or workout started; nil for point entries.
    public var start: String?
    /// The IANA zone the user was in.
    public var timeZone: String
    /// The day it counts for (derived from `at` and `timeZone`).
    public var day: CalendarDate
    /// In the metric's canonical unit: ml, min, kcal, kg, mmHg (systolic), mmol/L.
    public var value: Double
    /// Blood pressure: the diastolic value, mmHg.
    public var diastolic: Double?
    /// Blood pressure: the pulse, beats per minute.
    public var pulse: Int?
    /// The unit it was typed in, for showing it back.
    public var unit: HealthUnit
    /// The drink (water), workout type, meal, or glucose context.
    public var kind: String?
    /// Water: the share of the volume counted toward the water goal (HydrationFactors.swift).
    public var factor: Double?
    public var note: String?
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, uid, metric, at, start
        case timeZone = "time_zone"
        case day, value, diastolic, pulse, unit, kind, factor, note
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(id: String, uid: String, metric: LogMetric, at: String, start: String?, timeZone: String, day: CalendarDate,
                value: Double, diastolic: Double?, pulse: Int?, unit: HealthUnit, kind: String?, factor: Double?, note: String?,
                createdAt: String, updatedAt: String) {
        self.id = id
        self.uid = uid
        self.metric = metric
        self.at = at
        self.start = start
        self.timeZone = timeZone
        self.day = day
        self.value = value
        self.diastolic = diastolic
        self.pulse = pulse
        self.unit = unit
        self.kind = kind
        self.factor = factor
        self.note = note
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The instant it happened (or ended).
    public var instant: Date { Timestamp.parse(at) ?? .distantPast }
    /// When a sleep or workout started.
    public var startInstant: Date? { start.flatMap(Timestamp.parse) }
    /// The zone it was logged in (UTC if the name is unknown to this system).
    public var zone: TimeZone { TimeZone(identifier: timeZone) ?? TimeZone(identifier: "UTC")! }

    /// What counts toward the day's total: the volume times the hydration factor for water,
    /// the value itself otherwise.
    public var counted: Double { value * (factor ?? 1) }

    /// The day an entry at `instant` in `zone` counts for.
    public static func day(of instant: Date, in zone: TimeZone) -> CalendarDate { CalendarDate(instant, in: zone) }
}

extension LogEntry {
    /// Checks an entry read from a file: shapes the schema also enforces, plus the rules the
    /// commands apply (the day matches `at` in `time_zone`, units fit the metric).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        uid = try c.decode(String.self, forKey: .uid)
        metric = try c.decode(LogMetric.self, forKey: .metric)
        at = try c.decode(String.self, forKey: .at)
        guard let instant = Timestamp.parse(at), at.hasSuffix("Z") else {
            throw DecodingError.dataCorruptedError(forKey: .at, in: c, debugDescription: "'\(at)' is not a UTC time (YYYY-MM-DDTHH:MM:SSZ)")
        }
        start = try c.decodeIfPresent(String.self, forKey: .start)
        if let start {
            guard let begun = Timestamp.parse(start), start.hasSuffix("Z") else {
                throw DecodingError.dataCorruptedError(forKey: .start, in: c, debugDescription: "'\(start)' is not a UTC time (YYYY-MM-DDTHH:MM:SSZ)")
            }
            guard begun < instant else { throw DecodingError.dataCorruptedError(forKey: .start, in: c, debugDescription: "is not before at") }
        }
        guard (start != nil) == metric.isInterval else {
            throw DecodingError.dataCorruptedError(forKey: .start, in: c,
                                                   debugDescription: metric.isInterval ? "a \(metric.rawValue) entry needs a start" : "only sleep and workouts have a start")
        }
        timeZone = try c.decode(String.self, forKey: .timeZone)
        guard let zone = TimeZone(identifier: timeZone) else {
            throw DecodingError.dataCorruptedError(forKey: .timeZone, in: c, debugDescription: "'\(timeZone)' is not a time zone")
        }
        day = try c.decode(CalendarDate.self, forKey: .day)
        guard day == Self.day(of: instant, in: zone) else {
            throw DecodingError.dataCorruptedError(forKey: .day, in: c,
                                                   debugDescription: "\(day) is not the day of 'at' in \(timeZone) (\(Self.day(of: instant, in: zone)))")
        }
        value = try c.decode(Double.self, forKey: .value)
        guard value > 0, value.isFinite else { throw DecodingError.dataCorruptedError(forKey: .value, in: c, debugDescription: "must be positive") }
        diastolic = try c.decodeIfPresent(Double.self, forKey: .diastolic)
        guard (diastolic != nil) == (metric == .bp) else {
            throw DecodingError.dataCorruptedError(forKey: .diastolic, in: c, debugDescription: "only and always on blood pressure entries")
        }
        pulse = try c.decodeIfPresent(Int.self, forKey: .pulse)
        if let pulse, metric != .bp || !(20...300).contains(pulse) {
            throw DecodingError.dataCorruptedError(forKey: .pulse, in: c, debugDescription: "a pulse of 20 to 300, on blood pressure entries only")
        }
        unit = try c.decode(HealthUnit.self, forKey: .unit)
        guard unit.metrics.contains(metric) else {
            throw DecodingError.dataCorruptedError(forKey: .unit, in: c, debugDescription: "'\(unit.rawValue)' is not a unit of \(metric.rawValue)")
        }
        kind = try c.decodeIfPresent(String.self, forKey: .kind)
        factor = try c.decodeIfPresent(Double.self, forKey: .factor)
        guard (factor != nil) == (metric == .water) else {
            throw DecodingError.dataCorruptedError(forKey: .factor, in: c, debugDescription: "only and always on water entries")
        }
        if let factor, !(0...3).contains(factor) {
            throw DecodingError.dataCorruptedError(forKey: .factor, in: c, debugDescription: "use 0 to 3")
        }
        note = try c.decodeIfPresent(String.self, forKey: .note)
        createdAt = try c.decode(String.self, forKey: .createdAt)
        updatedAt = try c.decode(String.self, forKey: .updatedAt)
    }
}
