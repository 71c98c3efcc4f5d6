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

/// What every phr error tells the command line: a one-line message (lowercase, no trailing
/// period, naming the file or field), an optional hint saying how to fix it, and an exit status.
///
/// Messages never contain passphrases, keys, record contents or SQL arguments.
public protocol PHRError: Error, LocalizedError {
    var exitStatus: ExitStatus { get }
    var hint: String? { get }
}

extension PHRError {
    public var hint: String? { nil }
}
