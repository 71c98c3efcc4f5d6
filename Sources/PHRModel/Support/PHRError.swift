import Foundation

/// The exit statuses of `phr` (README, EXIT STATUS). Values follow sysexits(3) where one fits.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    case ok = 0
    case failure = 1
    case usage = 64
    case dataError = 65
    case noInput = 66
    case unavailable = 69
    case ioError = 74
    case temporaryFailure = 75
    case locked = 77
    case integrity = 80
}

/// What every phr error tells a front end: a one-line message (lowercase, no trailing period,
/// naming the file or field), an optional hint saying how to fix it, and an exit status. Fields
/// and next steps are values in the message (`Message`), so the CLI can write `--range` and
/// `phr doc list` where a web page shows the field and a link.
///
/// Messages never contain passphrases, keys, record contents or SQL arguments.
public protocol PHRError: Error, LocalizedError {
    var exitStatus: ExitStatus { get }
    var message: Message { get }
    var hint: Message? { get }
}

extension PHRError {
    public var hint: Message? { nil }
    /// The plain rendering (fields by name), for callers without a spelling of their own.
    public var errorDescription: String? { message.description }
}
