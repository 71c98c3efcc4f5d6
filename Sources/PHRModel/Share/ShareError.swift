import Foundation

/// Errors of `phr share`, `phr emergency --pdf` and `phr report`.
///
/// Messages name the option, file or document ID at fault, never a record's contents or a
/// password.
public enum ShareError: PHRError, Equatable {
    /// An option has a value that cannot be used (exit 64).
    case invalidOption(option: Field, reason: Message)
    /// The output file exists and --force was not given.
    case exists(path: String)
    /// The password file cannot be read (`code` is the errno), or its first line cannot be a
    /// PDF password.
    case passwordFile(path: String, reason: String, code: Int32?)
    /// A chosen document cannot be placed in the bundle: its original needs a password, or is
    /// damaged beyond what poppler can draw.
    case documentNotEmbeddable(id: String, reason: String)
    /// qpdf could not encrypt the bundle.
    case encryption(reason: String)
    /// cairo failed while drawing.
    case typesetting(reason: String)
    /// The sandboxed process that draws the bundle crashed, ran out of time or memory, or could
    /// not be started.
    case renderer(reason: String)
    /// An emergency card or a report could not be drawn (cairo failed, or the drawing process did).
    case drawing(what: String, reason: String)
    /// phr-render, which draws, cannot be started (`code` is the errno).
    case helperUnavailable(path: String, code: Int32)
    /// The drawing process needed more memory than a reader may use (`limit` bytes).
    case readerOutOfMemory(what: String, limit: Int)

    public var exitStatus: ExitStatus {
        switch self {
        case .invalidOption: return .usage
        case .exists, .encryption, .typesetting, .drawing: return .failure
        case .passwordFile(_, _, let code):
            switch code {
            case ENOENT?, ENOTDIR?: return .noInput
            case nil: return .dataError
            default: return .ioError
            }
        case .documentNotEmbeddable, .renderer: return .dataError
        case .helperUnavailable, .readerOutOfMemory: return .unavailable
        }
    }

    public var message: Message {
        switch self {
        case .invalidOption(let option, let reason): return "\(option): \(reason)"
        case .exists(let path): return "\(path) already exists"
        case .passwordFile(let path, let reason, _): return "\(Field.passwordFile) \(path): \(reason)"
        case .documentNotEmbeddable(let id, let reason): return "document \(id) cannot be included: \(reason)"
        case .encryption(let reason): return "cannot encrypt the bundle: \(reason)"
        case .typesetting(let reason): return "cannot draw the bundle: \(reason)"
        case .renderer(let reason): return "cannot draw the bundle: \(reason)"
        case .drawing(let what, let reason): return "cannot draw \(what): \(reason)"
        case .helperUnavailable(let path, let code):
            return "cannot start \(path): \(String(cString: strerror(code)).lowercased())"
        case .readerOutOfMemory(let what, let limit):
            return "cannot draw \(what): it needed more than the \(ReaderMemory.describe(limit)) a reader may use"
        }
    }

    public var hint: Message? {
        switch self {
        case .exists: return "choose another name, remove the file, or add \(Field.force)"
        case .passwordFile(_, _, nil): return "put the password on the first line of the file"
        case .documentNotEmbeddable:
            return "leave it out (choose documents with \(Field.doc)), or export it with '\(Action.exportDocument(toStandardOutput: false))' and send it separately"
        case .renderer:
            return "try again with fewer documents (\(Field.doc), \(Field.docType), \(Field.since)) to find the one that fails"
        case .helperUnavailable: return Message(RenderHelper.installHint)
        case .readerOutOfMemory(_, let limit): return ReaderMemory.hint(after: limit)
        default: return nil
        }
    }
}
