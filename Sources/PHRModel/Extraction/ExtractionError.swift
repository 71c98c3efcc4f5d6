import Foundation
import Glibc

/// What can stop text extraction as a whole, as opposed to one document's outcome.
///
/// A damaged, hostile or password-protected file is never an error: it is an
/// `ExtractionOutcome` for that file alone. These errors mean the machinery itself failed (no
/// worker process could start, a worker spoke a different protocol) or a password cannot be
/// prepared. Messages are lowercase one-liners that never include document text or passwords.
public enum ExtractionError: PHRError, Equatable {
    /// posix_spawn of the worker failed (`code` is its errno).
    case workerStartFailed(executable: String, code: Int32)
    /// The worker exited or stopped talking before it said it was ready.
    case workerNotReady(executable: String, detail: String)
    /// The worker sent bytes that are not a valid frame of the worker protocol.
    case protocolViolation(detail: String)
    /// A system call of the parent failed (socket, pipe, poll).
    case system(operation: String, code: Int32)
    /// SASLprep rejected the password: it has a control, private-use or otherwise prohibited character.
    case passwordProhibitedCharacter
    /// SASLprep rejected the password: it mixes right-to-left and left-to-right text.
    case passwordBidirectionalText

    public var message: Message {
        switch self {
        case let .workerStartFailed(executable, code):
            return "cannot start the text extraction process \(executable): \(Self.describe(code))"
        case let .workerNotReady(executable, detail):
            return "the text extraction process \(executable) did not start: \(detail)"
        case let .protocolViolation(detail):
            return "the text extraction process sent an invalid message: \(detail)"
        case let .system(operation, code):
            return "text extraction: \(operation) failed: \(Self.describe(code))"
        case .passwordProhibitedCharacter:
            return "the pdf password contains a character that is not allowed (a control, private-use or non-character code point)"
        case .passwordBidirectionalText:
            return "the pdf password mixes right-to-left and left-to-right text in a way pdf passwords do not allow"
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .workerStartFailed: return .unavailable
        case .workerNotReady, .protocolViolation: return .failure
        case .system: return .ioError
        case .passwordProhibitedCharacter, .passwordBidirectionalText: return .dataError
        }
    }

    public var hint: Message? {
        switch self {
        case .workerStartFailed, .workerNotReady:
            return Message(RenderHelper.installHint)
        case .passwordProhibitedCharacter, .passwordBidirectionalText:
            return "check the file given with \(Field.pdfPasswordFile) holds only the password (one line of text)"
        case .protocolViolation, .system:
            return nil
        }
    }

    package static func describe(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }
}
