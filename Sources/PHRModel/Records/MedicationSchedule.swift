import Foundation

/// When a medication is taken.
///
/// - `times`: wall-clock times every day ("08:00,20:00"), in the zone the user is in (or the
///   medication's pinned zone). A DST change moves nothing on the wall clock: 08:00 stays 08:00.
/// - `interval`: elapsed time since the last dose ("every 8h"), so a DST change moves the wall
///   clock but never the gap between doses.
/// - `asNeeded`: no schedule; doses are logged when taken and only the guard applies.
/// - `unscheduled`: no schedule known (e.g. imported with free-text dosing only).
public enum MedicationSchedule: Hashable, Sendable {
    case times([LocalTime])
    case interval(minutes: Int)
    case asNeeded
    case unscheduled

    /// The stored name of the kind.
    public var kind: String {
        switch self {
        case .times: return "times"
        case .interval: return "interval"
        case .asNeeded: return "as_needed"
        case .unscheduled: return "unscheduled"
        }
    }

    /// "08:00 and 20:00", "every 8h", "as needed", "no schedule".
    public var summary: String {
        switch self {
        case .times(let times):
            let texts = times.map(\.description)
            if texts.count == 1 { return "daily at \(texts[0])" }
            return texts.dropLast().joined(separator: ", ") + " and " + texts.last!
        case .interval(let minutes): return "every \(TimeText.duration(TimeInterval(minutes * 60)))"
        case .asNeeded: return "as needed"
        case .unscheduled: return "no schedule"
        }
    }

    /// True when doses fall due (times or interval).
    public var isScheduled: Bool {
        switch self {
        case .times, .interval: return true
        case .asNeeded, .unscheduled: return false
        }
    }

    /// Rebuilds a schedule from its columns.
    package static func from(kind: String, times: String?, everyMinutes: Int?) -> MedicationSchedule {
        switch kind {
        case "times":
            let parsed = (times ?? "").split(separator: ",").compactMap { LocalTime(String($0)) }
            return parsed.isEmpty ? .unscheduled : .times(parsed)
        case "interval": return everyMinutes.map { .interval(minutes: $0) } ?? .unscheduled
        case "as_needed": return .asNeeded
        default: return .unscheduled
        }
    }

    /// The `times` column: "08:00,20:00".
    package var timesColumn: String? {
        if case .times(let times) = self { return times.map(\.description).joined(separator: ",") }
        return nil
    }

    package var everyMinutesColumn: Int? {
        if case .interval(let minutes) = self { return minutes }
        return nil
    }
}

extension MedicationSchedule: Codable {
    enum CodingKeys: String, CodingKey {
        case kind, times
        case everyMinutes = "every_minutes"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try c.decode(String.self, forKey: .kind)
        switch kind {
        case "times":
            let texts = try c.decode([String].self, forKey: .times)
            var times: [LocalTime] = []
            for (index, text) in texts.enumerated() {
                guard let time = LocalTime(text), !times.contains(time) else {
                    throw DecodingError.dataCorrupted(.init(
                        codingPath: c.codingPath + [CodingKeys.times, IndexKey(index)],
                        debugDescription: LocalTime(text) == nil ? "'\(text)' is not a time; use HH:MM" : "\(text) is given twice"))
                }
                times.append(time)
            }
            guard !times.isEmpty else {
                throw DecodingError.dataCorruptedError(forKey: .times, in: c, debugDescription: "needs at least one time")
            }
            self = .times(times.sorted())
        case "interval":
            let minutes = try c.decode(Int.self, forKey: .everyMinutes)
            guard minutes > 0 else {
                throw DecodingError.dataCorruptedError(forKey: .everyMinutes, in: c, debugDescription: "must be positive")
            }
            self = .interval(minutes: minutes)
        case "as_needed": self = .asNeeded
        case "unscheduled": self = .unscheduled
        default:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: c,
                                                   debugDescription: "'\(kind)' is not times, interval, as_needed or unscheduled")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        switch self {
        case .times(let times): try c.encode(times.map(\.description), forKey: .times)
        case .interval(let minutes): try c.encode(minutes, forKey: .everyMinutes)
        case .asNeeded, .unscheduled: break
        }
    }
}

/// A position in an array, for naming the element at fault in a decoding error.
struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { return nil }
}
