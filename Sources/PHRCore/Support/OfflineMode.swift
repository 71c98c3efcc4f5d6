import Foundation

/// `PHR_OFFLINE=1`: phr opens no network connection of its own.
///
/// Two parts of phr use the network: the medicine lookups (RxNav, openFDA), which then answer
/// from the vault's cache only (`MedAPIConfiguration.offline`), and the reminder channels that
/// post over HTTP(S) (ntfy, Gotify, webhooks), whose reminders are then held in the vault's
/// queue and sent on the first run without it (`ReminderChannelSender.offline`). Handing a
/// reminder to a local program (the e-mail channel's `sendmail`, the command channel) is not
/// network use by phr and still happens; what that program does next is the user's setup.
public enum OfflineMode {
    public static let variable = "PHR_OFFLINE"

    /// What a value of PHR_OFFLINE means: true, false, or nil for a value that is neither.
    public static func parse(_ text: String) -> Bool? {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off", "": return false
        default: return nil
        }
    }

    /// Whether `environment` says to stay offline; a value that means neither is refused (exit
    /// 64) rather than guessed, as every other phr setting is.
    public static func isOn(_ environment: [String: String]) throws -> Bool {
        guard let text = environment[variable] else { return false }
        guard let offline = parse(text) else {
            throw EnvironmentSettingError.invalid(variable: variable, reason: "use 1 to work offline, or 0")
        }
        return offline
    }
}

/// A setting in the environment phr cannot use (PHR_OFFLINE, the PHR_MEDAPI_* settings...).
public enum EnvironmentSettingError: PHRError, Equatable {
    case invalid(variable: String, reason: String)

    public var exitStatus: ExitStatus { .usage }

    public var message: Message {
        switch self {
        case .invalid(let variable, let reason): return "\(variable): \(reason)"
        }
    }

    public var hint: Message? {
        switch self {
        case .invalid(let variable, _): return "fix or unset \(variable)"
        }
    }
}
