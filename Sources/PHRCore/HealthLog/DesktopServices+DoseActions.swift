import Foundation
import Glibc

/// "Taken" and "Skip" on a desktop dose reminder, without phr ever listening on a port.
///
/// Where the notification daemon offers actions (its `GetCapabilities` lists "actions") and
/// notify-send can ask for them (`--action`, libnotify 0.7.10 and later), a dose reminder is
/// shown by a small detached shell that waits for the answer (`notify-send --wait` prints the
/// chosen action) and then runs `phr med take ID` (Taken, at the time of the click) or `phr med
/// take ID --skip --at SLOT` (Skip) itself, with the vault, profile and passphrase source of the
/// run that showed it. The reminder run does not wait for it; the timer's unit keeps it alive
/// (`KillMode=process`). If the dose cannot be logged then (the vault was locked meanwhile), a
/// second notification says which command to type. Elsewhere a dose reminder is shown as before.
extension DesktopServices {
    /// How the action shell runs phr.
    public struct DoseActions: Sendable, Equatable {
        /// The absolute path of `phr`.
        public var executable: String
        /// `--vault PATH` and `--profile NAME`, as the reminder run had them.
        public var arguments: [String]

        public init(executable: String, arguments: [String]) {
            self.executable = executable
            self.arguments = arguments
        }
    }

    /// The shell the action runs in: $1 notify-send, $2 phr, $3 the medication, $4 the
    /// scheduled time, $5 title, $6 body, then phr's vault options.
    static let doseActionScript = """
        n=$1 p=$2 m=$3 s=$4 t=$5 b=$6; shift 6
        a=$("$n" --app-name=phr --urgency=normal --action=take=Taken --action=skip=Skip --wait -- "$t" "$b") || exit 0
        case "$a" in
          take) "$p" med take "$m" "$@" ;;
          skip) "$p" med take "$m" --skip --at "$s" "$@" ;;
          *) exit 0 ;;
        esac >/dev/null 2>&1 || "$n" --app-name=phr -- "phr: dose not logged" "Log it with 'phr med take $m'."
        """

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
        let arguments = ["-c", doseActionScript, "phr-dose-actions", notifySend, actions.executable, medication, reminder.at, title, body]
            + actions.arguments
        var files = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&files)
        defer { posix_spawn_file_actions_destroy(&files) }
        for descriptor: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&files, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group: a terminal's Ctrl-C on the reminder run does not reach it.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        let argv: [UnsafeMutablePointer<CChar>?] = (["/bin/sh"] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        return posix_spawn(&pid, "/bin/sh", &files, &attributes, argv, environ) == 0
    }

    /// A program's stdout (at most 64 KiB), or nil when it cannot run or fails; stderr discarded.
    private static func output(_ executable: String, _ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardOutput = pipe
        do {
            try process.run()
        } catch {
            return nil
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data.prefix(64 << 10), as: UTF8.self)
    }
}
