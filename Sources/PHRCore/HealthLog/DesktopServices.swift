import Foundation
import Glibc

/// The desktop services reminders use: notify-send (libnotify) for notifications and
/// `systemctl --user` for the timer. Each runs a program found on PATH with no input and its
/// output discarded, and says whether it worked; the command line decides what to print.
public enum DesktopServices {
    /// A program found on PATH, or nil.
    public static func find(_ name: String) -> String? {
        let path = ProcessEnvironment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Runs `systemctl --user arguments`; false when systemctl is missing or fails.
    @discardableResult
    public static func systemctl(_ arguments: [String], quiet: Bool) -> Bool {
        guard let systemctl = find("systemctl") else { return false }
        return run(systemctl, ["--user"] + arguments, quietErrors: quiet) == 0
    }

    /// Reloads the user units and enables the reminder timer now.
    public static func enableReminderTimer() -> Bool {
        systemctl(["daemon-reload"], quiet: false) && systemctl(["enable", "--now", ReminderInstaller.timerName], quiet: false)
    }

    /// What `notify` managed.
    public enum NotificationOutcome: Equatable {
        case sent
        case nothingDue
        /// notify-send is not installed.
        case missing
        /// notify-send could not be started.
        case failed
    }

    /// One desktop notification per reminder, with the text the privacy rule allows
    /// (`DueReminder.notification(details:)`); with `doseActions`, dose reminders offer
    /// "Taken" and "Skip" where the desktop can (DesktopServices+DoseActions.swift).
    public static func notify(_ reminders: [DueReminder], details: Bool, spelling: any MessageSpelling,
                              doseActions: DoseActions? = nil) -> NotificationOutcome {
        guard !reminders.isEmpty else { return .nothingDue }
        guard let notifySend = find("notify-send") else { return .missing }
        var offersActions: Bool?
        for reminder in reminders {
            let (title, message) = reminder.notification(details: details)
            let body = message.rendered(spelling)
            if reminder.kind == .med, let doseActions {
                if offersActions == nil { offersActions = notificationsOfferActions(notifySend: notifySend) }
                if offersActions == true,
                   notifyWithActions(reminder, title: title, body: body, notifySend: notifySend, actions: doseActions) { continue }
            }
            let arguments = ["--app-name=phr", "--urgency=\(reminder.kind == .water ? "low" : "normal")", "--", title, body]
            // A daemon that refuses one notification is not a reason to stop; one that cannot
            // be started at all is.
            guard run(notifySend, arguments, quietErrors: true) != nil else { return .failed }
        }
        return .sent
    }

    /// One desktop notification with these words (phr's own notices: no record in them).
    @discardableResult
    public static func notice(title: String, body: String) -> NotificationOutcome {
        guard let notifySend = find("notify-send") else { return .missing }
        return run(notifySend, ["--app-name=phr", "--urgency=normal", "--", title, body], quietErrors: true) == nil ? .failed : .sent
    }

    /// The program's exit status, or nil when it could not be started.
    private static func run(_ executable: String, _ arguments: [String], quietErrors: Bool) -> Int32? {
        // systemctl and notify-send get phr's environment (the session bus, the display), but
        // no passphrase nor where to find one (LocalProgram).
        guard let result = try? LocalProgram.run(executable, arguments, stderr: quietErrors ? .devNull(flags: O_WRONLY) : LocalProgram.inheritedStderr) else {
            return nil
        }
        return result.exitStatus ?? 128 + (result.signal ?? 0)
    }
}

extension DueReminder {
    /// The notification's title and body.
    ///
    /// The privacy rule: without `details` the text names no medication, person or amount.
    /// notify-send takes it on its command line, which other local users can read in /proc, and
    /// notification daemons show it on lock screens and keep it in their history.
    public func notification(details: Bool) -> (title: String, body: Message) {
        let tipLine = tip.map { "\n\($0.text)" } ?? ""
        if details {
            // Whoever reads it away from the computer gets the next steps.
            let skip: Message = kind == .med ? recordID.map { "; skip it with '\(Action.takeDose($0, skip: true))'" } ?? "" : ""
            return ("phr: \(title)", Message(message) + skip + Message(tipLine))
        }
        switch kind {
        case .water: return ("phr: water", Message("Time for a glass of water." + tipLine))
        case .med: return ("phr: medication", "A dose is due. '\(Action.dosesDue)' shows it.")
        case .appt: return ("phr: appointment", "An appointment is coming up. '\(Action.upcomingAppointments)' shows it.")
        }
    }
}
