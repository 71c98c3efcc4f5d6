import Foundation

/// Errors about records: IDs, profiles, field values and the dose guard.
///
/// Messages name the field or the record's ID, never a record's contents, so that stderr can be
/// logged safely; the dose guard's times are the exception the user asked for.
public enum RecordError: PHRError, Equatable {
    /// No record of `kind` has an ID starting with `id`.
    case notFound(kind: String, id: String)
    /// Several records share the typed prefix.
    case ambiguous(kind: String, prefix: String, matches: [String])
    case profileNotFound(String)
    /// No lab result of the analyte asked for (a name, synonym or code, not an ID).
    case noLabResults(analyte: String)
    case profileExists(String)
    /// A field has a value phr cannot use; `reason` says what it expects (bad data, exit 65).
    case invalidField(field: Field, reason: Message)
    /// A command-line option has a value phr cannot use (usage, exit 64).
    case invalidOption(option: Field, reason: Message, hint: Message?)
    /// The dose guard refused a dose (exit 1); `--force` records it anyway.
    case doseRefused(DoseRefusal)
    /// The command does not apply to this record (exit 1), e.g. skipping a dose of an
    /// unscheduled medication.
    case notApplicable(reason: Message, hint: Message?)
    /// The record was removed by another phr process while this one read it; nothing was saved.
    case removedMeanwhile(kind: String, id: String)

    public var exitStatus: ExitStatus {
        switch self {
        case .notFound, .profileNotFound, .noLabResults, .removedMeanwhile: return .noInput
        case .ambiguous, .invalidOption: return .usage
        case .profileExists, .doseRefused, .notApplicable: return .failure
        case .invalidField: return .dataError
        }
    }

    public var message: Message {
        switch self {
        case .notFound(let kind, let id): return "no \(kind) with ID '\(id)'"
        case .ambiguous(let kind, let prefix, let matches):
            return "'\(prefix)' matches several \(kind)s: \(matches.joined(separator: ", "))"
        case .profileNotFound(let name): return "no profile named '\(name)'"
        case .noLabResults(let analyte): return "no lab results for '\(analyte)'"
        case .profileExists(let name): return "a profile named '\(name)' already exists"
        case .invalidField(let field, let reason): return "\(field): \(reason)"
        case .invalidOption(let option, let reason, _): return "\(option): \(reason)"
        case .doseRefused(let refusal): return Message(refusal.message)
        case .notApplicable(let reason, _): return reason
        case .removedMeanwhile(let kind, let id): return "\(kind) \(id) was removed while it was being read; nothing was saved"
        }
    }

    public var hint: Message? {
        switch self {
        case .notFound(let kind, _):
            switch kind {
            case "dose": return "'\(Action.showMedication(nil))' lists a medication's doses with their IDs"
            default: return "list them with '\(Action.list(kind))'"
            }
        case .ambiguous: return "type more characters of the ID"
        case .profileNotFound: return "list profiles with '\(Action.list("profile"))'"
        case .noLabResults: return "'\(Action.labTrend)' lists the analytes that have results; type one in with '\(Action.addLabResult)'"
        case .invalidOption(_, _, let hint): return hint
        case .doseRefused: return "to record it anyway, add \(Field.force); the dose is then flagged in the log"
        case .notApplicable(_, let hint): return hint
        default: return nil
        }
    }

    /// The same problem reported against a command-line option (exit 64) instead of data.
    public func asOption() -> RecordError {
        if case .invalidField(let field, let reason) = self { return .invalidOption(option: field, reason: reason, hint: nil) }
        return self
    }
}
