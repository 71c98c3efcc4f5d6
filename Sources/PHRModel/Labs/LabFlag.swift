import Foundation

/// An abnormality flag as labs and FHIR (v3 ObservationInterpretation) write it.
public enum LabFlag: String, Codable, Sendable, CaseIterable {
    case high = "H", low = "L", criticalHigh = "HH", criticalLow = "LL", abnormal = "A", normal = "N"

    /// Out of range or abnormal: everything but N.
    public var isAbnormal: Bool { self != .normal }

    public var words: String {
        switch self {
        case .high: return "high"
        case .low: return "low"
        case .criticalHigh: return "critically high"
        case .criticalLow: return "critically low"
        case .abnormal: return "abnormal"
        case .normal: return "normal"
        }
    }

    /// The flag a number earns against a range: H above, L below, nil inside or without bounds.
    public static func computed(_ value: Double, range: ReferenceRange?) -> LabFlag? {
        guard let range else { return nil }
        if let high = range.high, value > high { return .high }
        if let low = range.low, value < low { return .low }
        return nil
    }
}

/// A reference range: a low and/or high bound, and the text as the lab wrote it
/// ("3,6-10,0", "<0.41", "≥ 60", "Negative").
public struct ReferenceRange: Codable, Hashable, Sendable {
    public var low: Double?
    public var high: Double?
    public var text: String?

    public init(low: Double?, high: Double?, text: String?) {
        self.low = low
        self.high = high
        self.text = text
    }

    /// "30–400", "< 0.41", "≥ 60", or the text.
    public var display: String {
        switch (low, high) {
        case let (low?, high?): return "\(Observation.number(low))–\(Observation.number(high))"
        case let (nil, high?): return "< \(Observation.number(high))"
        case let (low?, nil): return "≥ \(Observation.number(low))"
        default: return text ?? ""
        }
    }

    /// The same range in another unit (both bounds through `convert`).
    package func converted(_ convert: (Double) -> Double?) -> ReferenceRange {
        ReferenceRange(low: low.flatMap(convert), high: high.flatMap(convert), text: text)
    }
}
