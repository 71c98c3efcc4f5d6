import Foundation

/// Errors about records: IDs, profiles and field values.
public enum RecordError: PHRError, Equatable {
    /// No record of `kind` has an ID starting with `id`.
    case notFound(kind: String, id: String)
    /// Several records share the typed prefix.
    case ambiguous(kind: String, prefix: String, matches: [String])
    case profileNotFound(String)
    case profileExists(String)
    /// A field has a value phr cannot use; `reason` says what it expects.
    case invalidField(field: String, reason: String)

    public var exitStatus: ExitStatus {
        switch self {
        case .notFound, .profileNotFound: return .noInput
        case .ambiguous: return .usage
        case .profileExists: return .failure
        case .invalidField: return .dataError
        }
    }

    public var errorDescription: String? {
        switch self {
        case .notFound(let kind, let id): return "no \(kind) with ID '\(id)'"
        case .ambiguous(let kind, let prefix, let matches):
            return "'\(prefix)' matches several \(kind)s: \(matches.joined(separator: ", "))"
        case .profileNotFound(let name): return "no profile named '\(name)'"
        case .profileExists(let name): return "a profile named '\(name)' already exists"
        case .invalidField(let field, let reason): return "\(field): \(reason)"
        }
    }

    public var hint: String? {
        switch self {
        case .notFound(let kind, _): return "list them with 'phr \(kind == "document" ? "doc" : kind) list'"
        case .ambiguous: return "type more characters of the ID"
        case .profileNotFound: return "list profiles with 'phr profile list'"
        default: return nil
        }
    }
}
