import Foundation

/// The process environment, read once. `ProcessInfo.processInfo.environment` builds a new
/// dictionary of every variable on each call, and a `phr search` asked for it half a dozen times.
/// phr never changes its own environment, so one copy stays right for the whole process.
///
/// A `phr serve` agent answering a command for the CLI runs it with the environment of the
/// process that asked (`forwarded`, bound for that one command), so PHR_PROFILE, NO_COLOR and
/// the rest mean there what they mean in a process of its own.
public enum ProcessEnvironment {
    private static let own: [String: String] = ProcessInfo.processInfo.environment

    @TaskLocal public static var forwarded: [String: String]?

    public static var variables: [String: String] { forwarded ?? own }

    public static subscript(name: String) -> String? { variables[name] }

    /// `environment` for a program phr starts that has no business with the vault (a
    /// notification tool, systemctl, a reminder channel's command): without any passphrase or
    /// passphrase source (PHR_PASSPHRASE, PHR_NEW_PASSPHRASE and their _FILE and _COMMAND forms).
    public static func withoutPassphrases(_ environment: [String: String]) -> [String: String] {
        environment.filter { !$0.key.hasPrefix("PHR_PASSPHRASE") && !$0.key.hasPrefix("PHR_NEW_PASSPHRASE") && $0.key != "PHR_SYNC_CODE" }
    }
}
