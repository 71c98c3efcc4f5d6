import Foundation

/// The two public medicine databases phr asks, with what it needs to know to be a good client of
/// each: where they live, what they are called, and how fast they may be asked.
///
/// - RxNav (NLM): RxNorm names and identifiers, related products, RxClass drug classes.
///   About 20 requests per second per IP; over that it answers 403.
///   https://lhncbc.nlm.nih.gov/RxNav/TermsofService.html
/// - openFDA (FDA): drug labels (SPL), the NDC directory, enforcement reports (recalls).
///   240 requests per minute and 1,000 per day per IP without a key, 120,000 per day with one;
///   over that it answers 429. https://open.fda.gov/apis/authentication/
public enum MedAPIService: String, Sendable, Codable, CaseIterable, Hashable {
    case rxnav
    case openFDA = "openfda"

    /// What people call it, in messages.
    public var name: String {
        switch self {
        case .rxnav: return "RxNav"
        case .openFDA: return "openFDA"
        }
    }

    /// Whose data it is, for source lines.
    public var publisher: String {
        switch self {
        case .rxnav: return "RxNorm (NLM RxNav)"
        case .openFDA: return "openFDA (U.S. FDA)"
        }
    }

    public var defaultBaseURL: String {
        switch self {
        case .rxnav: return "https://rxnav.nlm.nih.gov"
        case .openFDA: return "https://api.fda.gov"
        }
    }

    /// The environment variable that overrides `defaultBaseURL`.
    public var baseURLVariable: String {
        switch self {
        case .rxnav: return "PHR_RXNAV_URL"
        case .openFDA: return "PHR_OPENFDA_URL"
        }
    }

    /// The file a record session writes this service's interactions to, in the cassette directory.
    var cassetteFileName: String { "\(rawValue).json" }

    /// The published limits, kept with a margin: a token bucket refilling at `perSecond` with
    /// `burst` tokens never sends more than `burst + perSecond` requests in any one second (or
    /// `burst + 60 * perSecond` in a minute), so both stay under what the service allows.
    func rateLimit(hasAPIKey: Bool) -> RateLimit {
        switch self {
        case .rxnav:
            return RateLimit(perSecond: 15, burst: 5, perDay: nil)
        case .openFDA:
            return RateLimit(perSecond: 3.5, burst: 30, perDay: hasAPIKey ? 120_000 : 1_000)
        }
    }
}

/// How fast one service may be asked (see `MedAPIService.rateLimit`).
public struct RateLimit: Sendable, Equatable {
    /// Sustained requests per second.
    public var perSecond: Double
    /// Requests that may go at once after a quiet spell.
    public var burst: Double
    /// Requests per UTC day, counted in the vault across runs; nil for no daily limit.
    public var perDay: Int?

    public init(perSecond: Double, burst: Double, perDay: Int?) {
        self.perSecond = perSecond
        self.burst = burst
        self.perDay = perDay
    }
}
