import Foundation

/// Errors of the medicine lookups, worded for people: which medicine or service, what went
/// wrong, and (in `hint`) what to do. URLs in messages never carry the openFDA API key.
public enum MedAPIError: PHRError, Equatable {
    /// RxNorm knows no medicine by this name; `suggestions` are RxNav's nearest spellings and
    /// approximate matches, best first.
    case noSuchMedicine(query: String, suggestions: [String])
    /// No medicine has this code (`kind` is "RxCUI" or "NDC").
    case unknownCode(kind: String, code: String)
    /// The service refused because of its rate limit (RxNav 403, openFDA 429), or phr's daily
    /// budget for it is spent. `retryAfter` is how long the service asked to wait, if it said.
    case rateLimited(service: MedAPIService, retryAfter: TimeInterval?)
    /// The service could not be reached: no network, no such host, refused, timed out.
    case unavailable(service: MedAPIService, reason: String)
    /// PHR_OFFLINE=1 and the vault's cache has no answer for `what`.
    case offline(what: String)
    /// The service kept failing (HTTP 5xx) after the retries.
    case serviceFailed(service: MedAPIService, status: Int, message: String?)
    /// The service refused the request itself (HTTP 4xx other than "no match" and rate limits).
    case requestRejected(service: MedAPIService, status: Int, message: String?)
    /// openFDA refused the key in PHR_OPENFDA_API_KEY.
    case invalidAPIKey(message: String?)
    /// An answer phr cannot read (not JSON, or not the documented shape).
    case unreadableResponse(service: MedAPIService, path: String, reason: String)
    /// Replay mode has no recorded interaction for this request; replay never goes to the network.
    case notRecorded(service: MedAPIService, request: String, directory: String)
    /// A cassette file that is not a phr cassette, or is damaged.
    case invalidCassette(path: String, reason: String)

    public var exitStatus: ExitStatus {
        switch self {
        case .noSuchMedicine, .unknownCode: return .noInput
        case .rateLimited: return .temporaryFailure
        case .unavailable, .offline, .serviceFailed, .unreadableResponse: return .unavailable
        case .requestRejected, .invalidAPIKey, .notRecorded: return .failure
        case .invalidCassette: return .dataError
        }
    }

    public var message: Message {
        switch self {
        case .noSuchMedicine(let query, let suggestions):
            if suggestions.isEmpty { return "no medicine called '\(query)' in RxNorm" }
            return "no medicine called '\(query)'; did you mean \(Self.list(suggestions.prefix(5)))?"
        case .unknownCode(let kind, let code):
            return "no medicine has the \(kind) \(code)"
        case .rateLimited(let service, _):
            return "\(service.name) is limiting how often phr may ask it (rate limited)"
        case .unavailable(let service, let reason):
            return "cannot reach \(service.name): \(reason)"
        case .offline(let what):
            return "offline (PHR_OFFLINE=1) and the vault has no saved answer for \(what)"
        case .serviceFailed(let service, let status, let message):
            return "\(service.name) failed (HTTP \(status)\(message.map { ": \($0)" } ?? ""))"
        case .requestRejected(let service, let status, let message):
            return "\(service.name) refused the request (HTTP \(status)\(message.map { ": \($0)" } ?? ""))"
        case .invalidAPIKey(let message):
            return "openFDA refused the key in PHR_OPENFDA_API_KEY\(message.map { ": \($0)" } ?? "")"
        case .unreadableResponse(let service, let path, let reason):
            return "cannot read \(service.name)'s answer to \(path): \(reason)"
        case .notRecorded(let service, let request, let directory):
            return "replay: no recorded \(service.name) answer for \(request) in \(directory)"
        case .invalidCassette(let path, let reason):
            return "\(path) is not a usable phr cassette: \(reason)"
        }
    }

    public var hint: Message? {
        switch self {
        case .noSuchMedicine:
            return "check the spelling, or use the name on the package or prescription"
        case .unknownCode(let kind, _):
            return kind == "NDC" ? "check the code on the package; NDCs look like 0071-0155-23" : "check the number, or look the medicine up by name"
        case .rateLimited(let service, let retryAfter):
            let wait = retryAfter.map { "try again in \(Self.duration($0))" } ?? "try again in a minute"
            if service == .openFDA {
                return "\(wait); a free key in PHR_OPENFDA_API_KEY raises openFDA's limit (https://open.fda.gov/apis/authentication/)"
            }
            return Message(wait)
        case .unavailable:
            return "check the network connection; answers phr has fetched once are kept in the vault and work offline"
        case .offline:
            return "unset PHR_OFFLINE and look it up once while online; the answer is then kept in the vault"
        case .serviceFailed:
            return "the service may be down; try again later"
        case .requestRejected:
            return "the name may contain characters the service cannot search for; try a simpler name"
        case .invalidAPIKey:
            return "check PHR_OPENFDA_API_KEY, or unset it to use openFDA's keyless limits"
        case .unreadableResponse:
            return "the service may have changed; try again later, or report it with '\(Action.showVersion)'"
        case .notRecorded:
            return "record it with PHR_MEDAPI_MODE=record (needs the network), or use PHR_MEDAPI_MODE=live"
        case .invalidCassette:
            return "record the cassette again with PHR_MEDAPI_MODE=record, or fix it against Schemas/cassette-v1.schema.json"
        }
    }

    /// Whether a cached answer may stand in for this failure. Failures of the network or the
    /// service may; mistakes in phr's setup (cassettes, keys, settings) must be seen, not hidden.
    var allowsCacheFallback: Bool {
        switch self {
        case .rateLimited, .unavailable, .offline, .serviceFailed, .unreadableResponse: return true
        default: return false
        }
    }

    static func list<S: Sequence>(_ items: S) -> String where S.Element == String {
        let array = Array(items)
        switch array.count {
        case 0: return ""
        case 1: return array[0]
        default: return array.dropLast().joined(separator: ", ") + " or " + array.last!
        }
    }

    /// "45s", "3m", "2h".
    static func duration(_ seconds: TimeInterval) -> String {
        let total = max(1, Int(seconds.rounded(.up)))
        if total < 90 { return "\(total)s" }
        if total < 5400 { return "\((total + 59) / 60)m" }
        return "\((total + 3599) / 3600)h"
    }
}
