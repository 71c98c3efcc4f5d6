import Foundation

/// Where a piece of an answer came from and how old it is: every answer lists its sources, so a
/// person can check them and knows when they are reading something fetched weeks ago.
public struct MedAPISource: Codable, Sendable, Hashable {
    /// "RxNorm (NLM RxNav)", "openFDA (U.S. FDA)".
    public var publisher: String
    /// What was asked, in words: "related concepts of RxCUI 2556".
    public var about: String
    /// The URL asked, credentials REDACTED.
    public var url: String
    /// When the service answered (UTC, ISO 8601).
    public var fetchedAt: String
    /// True when this answer came from the vault's cache rather than the service just now.
    public var cached: Bool

    public init(publisher: String, about: String, url: String, fetchedAt: String, cached: Bool) {
        self.publisher = publisher
        self.about = about
        self.url = url
        self.fetchedAt = fetchedAt
        self.cached = cached
    }

    /// Seconds since the service answered.
    public func age(now: Date = Date()) -> TimeInterval {
        guard let date = Timestamp.parse(fetchedAt) else { return 0 }
        return max(0, now.timeIntervalSince(date))
    }

    /// "just now", "3 minutes", "5 hours", "2 days".
    public static func describeAge(_ seconds: TimeInterval) -> String {
        let total = Int(seconds)
        func plural(_ value: Int, _ unit: String) -> String { "\(value) \(unit)\(value == 1 ? "" : "s")" }
        switch total {
        case ..<60: return "less than a minute"
        case ..<3600: return plural(total / 60, "minute")
        case ..<172_800: return plural(total / 3600, "hour")
        default: return plural(total / 86_400, "day")
        }
    }
}

/// Collects the sources and notices of one answer while it is put together.
final class LookupTrail {
    private(set) var sources: [MedAPISource] = []
    private(set) var notices: [String] = []

    func add(_ source: MedAPISource) {
        if let index = sources.firstIndex(where: { $0.url == source.url }) {
            sources[index] = source
        } else {
            sources.append(source)
        }
    }

    func notice(_ text: String) {
        if !notices.contains(text) { notices.append(text) }
    }
}

/// Said with every answer about medicines.
public enum MedAPIDisclaimer {
    public static let text = "This is information from public drug databases (NLM RxNorm, U.S. FDA labels and "
        + "enforcement reports), not medical advice. Ask a pharmacist or doctor before starting, stopping or "
        + "combining medicines."
}
