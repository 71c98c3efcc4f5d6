import Foundation
import Glibc

/// "Taken" and "Skip" on a desktop dose reminder, without phr ever listening on a port.
///
/// Where the notification daemon offers actions (its `GetCapabilities` lists "actions") and
/// notify-send can ask for them (`--action`, libnotify 0.7.10 and later), a dose reminder is
/// shown by a small detached shell that waits for the answer (`notify-send --wait` prints the
/// chosen action) and then runs `phr med take ID` (Taken, at the time of the click) or `phr med
/// take ID --skip --at SLOT` (Skip) itself, with the vault and profile of the run that showed it.
/// The shell and notify-send get no passphrase variable (LocalProgram); only that `phr med take`
/// is given the run's passphrase file or command, if it had one (a path or a command, never a
/// passphrase: PHR_PASSPHRASE itself is not passed on, so such a run's actions need the unlock
/// cache). The reminder run does not wait for it; the timer's unit keeps it alive
/// (`KillMode=process`). If the dose cannot be logged then (the vault was locked meanwhile), a
/// second notification says which command to type. Elsewhere a dose reminder is shown as before.
extension DesktopServices {
    /// How the action shell runs phr.
    public struct DoseActions: Sendable, Equatable {
        /// The absolute path of `phr`.
        public var executable: String
        /// `--vault PATH` and `--profile NAME`, as the reminder run had them.
        public var arguments: [String]
        /// The run's `PHR_PASSPHRASE_FILE` and `PHR_PASSPHRASE_COMMAND` ("" when unset), for
        /// `phr med take` alone.
        public var passphraseFile: String
        public var passphraseCommand: String
        /// The shell that shows the notification and logs the answer, written by the front end
        /// that runs phr (it spells phr's command line): $1 notify-send, $2 phr, $3 the
        /// medication, $4 the scheduled time, $5 title, $6 body, $7 and $8 the passphrase file
        /// and command for phr alone (never exported), then `arguments`.
        public var script: String

        public init(executable: String, arguments: [String], script: String,
                    environment: [String: String] = ProcessEnvironment.variables) {
            self.executable = executable
            self.arguments = arguments
            self.script = script
            passphraseFile = environment["PHR_PASSPHRASE_FILE"] ?? ""
            passphraseCommand = environment["PHR_PASSPHRASE_COMMAND"] ?? ""
        }
    }

    /// Whether notify-send takes `--action` and the session's notification daemon shows actions.
    static func notificationsOfferActions(notifySend: String) -> Bool {
        guard let gdbus = find("gdbus") else { return false }
        let capabilities = output(gdbus, ["call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path",
                                          "/org/freedesktop/Notifications", "--method", "org.freedesktop.Notifications.GetCapabilities", "--timeout", "5"])
        guard capabilities?.contains("'actions'") == true else { return false }
        return output(notifySend, ["--help"])?.contains("--action") == true
    }

    /// Shows a dose reminder through the detached action shell; false when it could not start.
    static func notifyWithActions(_ reminder: DueReminder, title: String, body: String, notifySend: String, actions: DoseActions) -> Bool {
        guard let medication = reminder.recordID else { return false }
        let arguments = ["-c", actions.script, "phr-dose-actions", notifySend, actions.executable, medication, reminder.at, title, body,
                         actions.passphraseFile, actions.passphraseCommand] + actions.arguments
        // Its own process group: a terminal's Ctrl-C on the reminder run does not reach it. It
        // runs phr again (med take) from the unlock cache, never from a passphrase variable.
        return (try? LocalProgram.start("/bin/sh", arguments, ownProcessGroup: true)) != nil
    }

    /// A program's stdout (at most 64 KiB), or nil when it cannot run or fails; stderr discarded.
    private static func output(_ executable: String, _ arguments: [String]) -> String? {
        guard let result = try? LocalProgram.run(executable, arguments, captureOutput: true), result.exitStatus == 0 else { return nil }
        return String(decoding: result.output, as: UTF8.self)
    }
}
