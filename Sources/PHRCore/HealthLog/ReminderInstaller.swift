import Foundation
import Glibc

/// `phr remind install`: a systemd user timer (or a crontab line) that runs
/// `phr remind due --notify --if-unlocked` every few minutes.
///
/// How it stays within the vault's security design (SECURITY.md, "Reminders"):
/// - the units hold no secret: no passphrase, no key, no record contents; only the path of
///   `phr`, the vault and profile, and what the user chose as the passphrase source;
/// - by default the timer has nothing to unlock with: it finds keys only while `phr unlock`
///   holds them in the kernel keyring (at most 24 hours, gone at reboot or `phr lock`), and
///   otherwise does nothing (`--if-unlocked`), quietly;
/// - `--passphrase-command` puts a command in the unit (`PHR_PASSPHRASE_COMMAND`, e.g. a
///   password manager or Secret Service lookup that unlocks with the desktop session);
///   `--passphrase-file` names a file (mode 0600 or stricter, checked now and by systemd never);
///   both are the user's explicit choice, and the README says what each costs.
public enum ReminderInstaller {
    public struct Plan: Sendable, Equatable {
        /// The absolute path of `phr`.
        public var executable: String
        /// What the timer runs after the executable, as the front end that installs it spells
        /// its command (the CLI: `remind due --notify --if-unlocked --vault PATH ...`).
        public var arguments: [String]
        public var everyMinutes: Int
        public var passphraseCommand: String?
        public var passphraseFile: String?

        public init(executable: String, arguments: [String], everyMinutes: Int, passphraseCommand: String?, passphraseFile: String?) {
            self.executable = executable
            self.arguments = arguments
            self.everyMinutes = everyMinutes
            self.passphraseCommand = passphraseCommand
            self.passphraseFile = passphraseFile
        }
    }

    public static let serviceName = "phr-remind.service"
    public static let timerName = "phr-remind.timer"
    /// Intervals that divide an hour, so reminders land on the same minutes every hour.
    public static let allowedMinutes = [1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60]

    /// Where systemd looks for user units: $XDG_CONFIG_HOME/systemd/user, else ~/.config/systemd/user.
    public static func unitDirectory(environment: [String: String]) -> String {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return "\(config)/systemd/user" }
        return "\(environment["HOME"] ?? NSHomeDirectory())/.config/systemd/user"
    }

    public static func serviceUnit(_ plan: Plan) -> String {
        var lines = [
            "# Written by phr's reminder installer. It holds no passphrase: phr finds the vault's",
            "# keys while the vault is unlocked, or through the passphrase source named below,",
            "# and otherwise does nothing.",
            "[Unit]",
            "Description=phr reminders: water, medications, appointments",
            "",
            "[Service]",
            "Type=oneshot",
            "ExecStart=" + ([plan.executable] + plan.arguments).map(systemdQuoted).joined(separator: " "),
        ]
        if let command = plan.passphraseCommand {
            lines.append("Environment=" + systemdQuoted("PHR_PASSPHRASE_COMMAND=\(command)"))
        }
        if let file = plan.passphraseFile {
            lines.append("Environment=" + systemdQuoted("PHR_PASSPHRASE_FILE=\(file)"))
        }
        // A dose reminder's "Taken"/"Skip" shell outlives the run that showed it.
        lines += ["UMask=0077", "NoNewPrivileges=yes", "KillMode=process", ""]
        return lines.joined(separator: "\n")
    }

    public static func timerUnit(_ plan: Plan) -> String {
        let calendar = plan.everyMinutes == 60 ? "hourly" : "*:0/\(plan.everyMinutes)"
        return [
            "# Written by phr's reminder installer.",
            "[Unit]",
            "Description=Check phr reminders every \(plan.everyMinutes == 60 ? "hour" : "\(plan.everyMinutes) minutes")",
            "",
            "[Timer]",
            "OnCalendar=\(calendar)",
            "AccuracySec=30s",
            "",
            "[Install]",
            "WantedBy=timers.target",
            "",
        ].joined(separator: "\n")
    }

    /// The crontab line: cron has no session bus, so the line names the user's (for notify-send).
    public static func crontabLine(_ plan: Plan, uid: uid_t) -> String {
        let minute = plan.everyMinutes == 60 ? "0" : "*/\(plan.everyMinutes)"
        var environment = ["DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/\(uid)/bus"]
        if let command = plan.passphraseCommand { environment.append("PHR_PASSPHRASE_COMMAND=" + shellQuoted(command)) }
        if let file = plan.passphraseFile { environment.append("PHR_PASSPHRASE_FILE=" + shellQuoted(file)) }
        let command = ([plan.executable] + plan.arguments).map(shellQuoted).joined(separator: " ")
        // cron turns an unescaped % into a newline.
        return "\(minute) * * * * \(environment.joined(separator: " ")) \(command)".replacingOccurrences(of: "%", with: "\\%")
    }

    /// Writes both units into `directory`; refuses to replace different ones unless `force`.
    /// Returns the paths written.
    public static func write(_ plan: Plan, to directory: String, force: Bool) throws -> [String] {
        if let file = plan.passphraseFile { try checkPassphraseFile(file) }
        try FileSystem.makePrivateDirectories(directory)
        var written: [String] = []
        for (name, text) in [(serviceName, serviceUnit(plan)), (timerName, timerUnit(plan))] {
            let path = "\(directory)/\(name)"
            if FileSystem.exists(path), !force, (try? String(contentsOfFile: path, encoding: .utf8)) != text {
                throw ReminderInstallError.exists(path: path)
            }
            try FileSystem.atomicWrite(Array(text.utf8), to: path, mode: 0o600)
            written.append(path)
        }
        return written
    }

    /// Removes both units; returns the paths removed.
    public static func remove(from directory: String) -> [String] {
        [serviceName, timerName].map { "\(directory)/\($0)" }.filter { unlink($0) == 0 }
    }

    /// A passphrase file must be a regular file only its owner can read.
    public static func checkPassphraseFile(_ path: String) throws {
        guard path.hasPrefix("/") else { throw ReminderInstallError.passphraseFile(path: path, reason: "give an absolute path") }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw ReminderInstallError.passphraseFile(path: path, reason: "no such file")
        }
        guard info.st_uid == getuid() else { throw ReminderInstallError.passphraseFile(path: path, reason: "it belongs to another user") }
        guard info.st_mode & 0o077 == 0 else {
            throw ReminderInstallError.passphraseFile(path: path, reason: "others can read it; run 'chmod 600 \(path)'")
        }
    }

    /// A word for a systemd command line or assignment: as it is when plain, else
    /// double-quoted with backslashes, quotes, % (specifiers) and $ (variable expansion) escaped.
    static func systemdQuoted(_ word: String) -> String {
        if !word.isEmpty, word.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "/._-:+,@".contains($0)) }) { return word }
        var out = "\""
        for character in word {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "%": out += "%%"
            case "$": out += "$$"
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out + "\""
    }

    /// A word for /bin/sh: single-quoted, with single quotes closed, escaped and reopened.
    static func shellQuoted(_ word: String) -> String {
        if !word.isEmpty, word.allSatisfy({ $0.isLetter || $0.isNumber || "/._-=:+,@".contains($0) }) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// Problems writing the reminder timer.
public enum ReminderInstallError: PHRError, Equatable {
    case exists(path: String)
    case passphraseFile(path: String, reason: String)

    public var exitStatus: ExitStatus {
        switch self {
        case .exists: return .failure
        case .passphraseFile: return .usage
        }
    }

    public var message: Message {
        switch self {
        case .exists(let path): return "\(path) already exists with other contents"
        case .passphraseFile(let path, let reason): return "\(Field.passphraseFile) \(path): \(reason)"
        }
    }

    public var hint: Message? {
        switch self {
        case .exists: return "add \(Field.force) to replace it"
        case .passphraseFile: return "a passphrase file must be a regular file only you can read (mode 600)"
        }
    }
}
