import ArgumentParser
import Foundation
import Glibc
import PHRService

struct RemindCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remind",
        abstract: "Reminders: water through the day, medications from their schedules, appointments ahead.",
        discussion: """
            'remind add' sets the rules; 'remind due' shows what is due now, each reminder once \
            (run it by hand, or every few minutes from the timer 'remind install' writes). \
            Appointments added with --remind are reminded of too. Notifications go through \
            notify-send and every channel ('remind channel add': ntfy, Gotify, e-mail, a webhook, \
            a command); their text names no medication or person unless --notify-details (for \
            the desktop) or a channel's --details.
            """,
        subcommands: [RemindAdd.self, RemindList.self, RemindDue.self, RemindPause.self, RemindResume.self, RemindRemove.self,
                      RemindInstall.self, RemindUninstall.self, RemindChannel.self, RemindStatus.self]
    )
}

struct RemindAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a reminder: water [--mode --window], med [MED], appt [--before 24h].",
        discussion: """
            Water modes, inside the window (default 08:00-22:00, end excluded): rare, once when it \
            opens; default, four a day (08:00, 11:30, 15:00, 18:30); all, every two hours. A \
            profile has one water reminder: adding another changes it. 'med' without an ID \
            reminds of every scheduled medication.
            """)

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "water, med or appt.") var kind: String
    @Argument(help: "For med: the medication's ID (default: every scheduled medication).") var medication: String?
    @Option(help: "Water: rare, default or all.") var mode: String?
    @Option(help: "Water: the daily window, HH:MM-HH:MM (default 08:00-22:00).") var window: String?
    @Option(help: "Appointments: how long before, e.g. 24h, 1h, 30m (default 24h).") var before: String?

    func run() throws {
        let context = try RecordContext(vault, profile)
        var input = ReminderStore.Input(kind: kind)
        input.mode = mode
        input.window = window
        input.medication = medication
        input.before = before
        let (reminder, outcome) = try RecordContext.options {
            try ReminderStore(vault: context.vault, profile: context.profile, time: context.time).add(input)
        }
        if output.json { return try Console.json(reminder) }
        switch outcome {
        case .added: Console.out("added reminder \(reminder.id): \(reminder.summary)")
        case .updated: Console.out("updated reminder \(reminder.id): \(reminder.summary)")
        case .unchanged: Console.out("reminder \(reminder.id) already does this: \(reminder.summary)")
        }
    }
}

struct RemindList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the reminder rules.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let context = try RecordContext(vault, profile)
        let reminders = try ReminderStore(vault: context.vault, profile: context.profile, time: context.time).list()
        if output.json {
            struct Listed: Encodable {
                let reminder: Reminder
                let medicationID: String?
                enum CodingKeys: String, CodingKey { case medicationID = "medication_id" }
                func encode(to encoder: Encoder) throws {
                    try reminder.encode(to: encoder)
                    var c = encoder.container(keyedBy: CodingKeys.self)
                    try c.encodeIfPresent(medicationID, forKey: .medicationID)
                }
            }
            return try Console.json(reminders.map { Listed(reminder: $0, medicationID: $0.medicationID) })
        }
        if reminders.isEmpty { return Console.note("no reminders; add one with 'phr remind add water' (or med, appt)") }
        Table.print(header: ["ID", "KIND", "WHEN", "STATUS"], rows: reminders.map { reminder in
            [reminder.id, reminder.kind.rawValue, reminder.summary, reminder.paused ? "paused" : "active"]
        })
    }
}

struct RemindDue: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "due", abstract: "Show the reminders due now; each is shown once.",
        discussion: """
            A water reminder is current until the next one; one missed while the computer was off \
            is not shown late, and none is shown once today's water goal is met or when water was \
            logged since. --peek shows without marking them shown. --if-unlocked, for timers, \
            never asks for a passphrase; while the vault is locked, --notify shows on the desktop \
            what the last open run planned for the next two weeks (times and kinds only: "a dose \
            is due"), and warns a week before that plan runs out.
            """)

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Flag(help: "Also send each to the desktop (notify-send) and to every reminder channel.") var notify = false
    @Flag(name: .customLong("notify-details"),
          help: "Put medication names and who an appointment is with into notifications (they pass through notify-send's command line).")
    var notifyDetails = false
    @Flag(help: "Show what is due without marking it shown.") var peek = false
    @Flag(name: .customLong("if-unlocked"), help: "Do nothing when the vault is locked; never ask for a passphrase.") var ifUnlocked = false

    func run() throws {
        let vault: Vault
        let chosen: Profile
        let time = TimeContext.current()
        let keyFile = try Vault.readKeyFile(at: self.vault.location)
        let planPath = LockedReminderPlan.path(vaultID: keyFile.vaultID, profileSelector: profile.requested, environment: ProcessEnvironment.variables)
        if ifUnlocked {
            guard let opened = try VaultAccess.openWithoutPrompt(self.vault.location, profile: profile) else {
                // Locked: what the plan made while it was open says is due goes to the desktop.
                if notify && !peek, LockedReminders.remind(planPath: planPath, time: time) { return }
                if Console.stderrIsTTY { Console.note("the vault is locked; no reminders checked") }
                return
            }
            (vault, chosen) = opened
        } else {
            (vault, chosen) = try VaultAccess.open(self.vault.location, profile: profile)
        }
        // What the plan showed while the vault was locked is shown already.
        let planned = LockedReminderPlan.load(planPath)
        if !peek { try planned?.recordShown(in: vault, profile: chosen, time: time) }
        defer {
            // The timer's runs (and any run once there is a plan) plan the next two weeks anew.
            if !peek && (notify || planned != nil) {
                do {
                    try LockedReminderPlan.make(vault: vault, profile: chosen, time: time).write(to: planPath)
                } catch {
                    Console.warning("reminders could not be planned for while the vault is locked: \(VaultDatabase.describe(error))")
                }
            }
        }
        // Read before anything is marked shown: a PHR_OFFLINE phr cannot use stops the run.
        let sender = try ReminderChannelSender.fromEnvironment(ProcessEnvironment.variables)
        let due = try ReminderRunner(vault: vault, profile: chosen, time: time, spelling: CLISpelling()).due(record: !peek, queue: notify && !peek)
        if notify {
            let delivery = ReminderDelivery(vault: vault, profile: chosen, time: time, sender: sender, spelling: CLISpelling())
            let hasChannels = try !ReminderChannelStore(vault: vault, profile: chosen, time: time).list().isEmpty
            var doseActions: DesktopServices.DoseActions?
            if !peek {
                let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
                doseActions = DesktopServices.DoseActions(executable: executable, arguments: ["--vault", self.vault.location.root]
                                                            + (profile.requested.map { ["--profile", $0] } ?? []),
                                                         script: DoseActionScript.script)
            }
            Notifier.send(due, details: notifyDetails, quietWithoutNotifySend: hasChannels, doseActions: doseActions)
            if !peek && hasChannels { Notifier.report(try delivery.deliver()) }
        }
        if output.json { return try Console.json(due) }
        if due.isEmpty {
            if !notify || Console.stdoutIsTTY { Console.note("nothing due") }
            return
        }
        for reminder in due {
            let when = TimeText.short(Timestamp.parse(reminder.at) ?? time.now, time)
            Console.out("\(when)  \(reminder.kind.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0))  \(reminder.title): \(reminder.message)")
            if let tip = reminder.tip {
                Console.out(String(repeating: " ", count: Table.displayWidth(when) + 9) + "tip: \(tip.text) (\(tip.source))")
            }
        }
    }
}

struct RemindPause: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause a reminder (it stays listed).")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @Argument(help: "The reminder's ID (any unique prefix).") var id: String

    func run() throws {
        let context = try RecordContext(vault, profile)
        let reminder = try ReminderStore(vault: context.vault, profile: context.profile, time: context.time).setPaused(id, true)
        Console.out("paused reminder \(reminder.id): \(reminder.summary)")
    }
}

struct RemindResume: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "resume", abstract: "Resume a paused reminder.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @Argument(help: "The reminder's ID (any unique prefix).") var id: String

    func run() throws {
        let context = try RecordContext(vault, profile)
        let reminder = try ReminderStore(vault: context.vault, profile: context.profile, time: context.time).setPaused(id, false)
        Console.out("resumed reminder \(reminder.id): \(reminder.summary)")
    }
}

struct RemindRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove a reminder.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @Argument(help: "The reminder's ID (any unique prefix).") var id: String

    func run() throws {
        let context = try RecordContext(vault, profile)
        let reminder = try ReminderStore(vault: context.vault, profile: context.profile, time: context.time).remove(id)
        Console.out("removed reminder \(reminder.id): \(reminder.summary)")
    }
}

struct RemindInstall: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install", abstract: "Run 'phr remind due --notify' every few minutes: a systemd user timer, or a crontab line.",
        discussion: """
            The timer stores no passphrase. By default it finds the vault's keys only while 'phr \
            unlock' holds them (at most 24 hours) and does nothing otherwise. \
            --passphrase-command names a command that prints the passphrase (a password manager \
            or keyring lookup) and --passphrase-file a file only you can read; both go into the \
            unit as PHR_PASSPHRASE_COMMAND or PHR_PASSPHRASE_FILE: see SECURITY.md before using them.
            """)

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @Option(help: "How often, dividing an hour: 1m to 60m (default 5m).") var every = "5m"
    @Flag(help: "Print a crontab line instead of writing systemd units.") var cron = false
    @Flag(name: .customLong("print"), help: "Print the units instead of writing them.") var printOnly = false
    @Flag(name: .customLong("no-enable"), help: "Write the units but do not run systemctl.") var noEnable = false
    @Flag(help: "Replace existing units.") var force = false
    @Option(name: .customLong("passphrase-command"), help: "A command printing the passphrase, for when the vault is not unlocked.")
    var passphraseCommand: String?
    @Option(name: .customLong("passphrase-file"), help: "A file (mode 600) holding the passphrase, for when the vault is not unlocked.")
    var passphraseFile: String?
    @Flag(name: .customLong("notify-details"), help: "Name medications and people in notifications.") var notifyDetails = false

    func validate() throws {
        guard let minutes = DurationText.parse(every).map({ Int($0 / 60) }), ReminderInstaller.allowedMinutes.contains(minutes),
              DurationText.parse(every)!.truncatingRemainder(dividingBy: 60) == 0 else {
            throw ValidationError("--every: use one of \(ReminderInstaller.allowedMinutes.map { "\($0)m" }.joined(separator: ", "))")
        }
        if passphraseCommand != nil && passphraseFile != nil {
            throw ValidationError("choose one of --passphrase-command and --passphrase-file")
        }
    }

    func run() throws {
        let location = vault.location
        guard FileSystem.exists(location.keyFile) else { throw VaultError.notFound(path: location.root) }
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var arguments = ["remind", "due", "--notify", "--if-unlocked", "--vault", location.root]
        if let requested = profile.requested { arguments += ["--profile", requested] }
        if notifyDetails { arguments.append("--notify-details") }
        let plan = ReminderInstaller.Plan(executable: executable, arguments: arguments, everyMinutes: Int(DurationText.parse(every)! / 60),
                                          passphraseCommand: passphraseCommand, passphraseFile: passphraseFile)
        if let file = passphraseFile { try ReminderInstaller.checkPassphraseFile(file) }
        if cron {
            Console.out(ReminderInstaller.crontabLine(plan, uid: getuid()))
            Console.note("add it with 'crontab -e'")
            return noteOnUnlocking(plan)
        }
        if printOnly {
            Console.out("# \(ReminderInstaller.serviceName)")
            Console.out(ReminderInstaller.serviceUnit(plan))
            Console.out("# \(ReminderInstaller.timerName)")
            Console.out(ReminderInstaller.timerUnit(plan), terminator: "")
            return
        }
        let directory = ReminderInstaller.unitDirectory(environment: ProcessEnvironment.variables)
        for path in try ReminderInstaller.write(plan, to: directory, force: force) { Console.note("wrote \(path)") }
        if !noEnable { SystemCtl.enable() }
        noteOnUnlocking(plan)
    }

    private func noteOnUnlocking(_ plan: ReminderInstaller.Plan) {
        if plan.passphraseCommand == nil && plan.passphraseFile == nil {
            Console.note("reminders run while the vault is unlocked ('phr unlock --for 12h'); when it is locked they wait")
        }
    }
}

struct RemindUninstall: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "uninstall", abstract: "Stop and remove the reminder timer.")

    @OptionGroup var vault: VaultOptions

    func run() throws {
        // The plans for while the vault is locked go with the timer.
        if let keyFile = try? Vault.readKeyFile(at: vault.location) {
            LockedReminderPlan.removeAll(vaultID: keyFile.vaultID, environment: ProcessEnvironment.variables)
        }
        SystemCtl.run(["disable", "--now", ReminderInstaller.timerName], quiet: true)
        let removed = ReminderInstaller.remove(from: ReminderInstaller.unitDirectory(environment: ProcessEnvironment.variables))
        if removed.isEmpty { return Console.note("no reminder timer was installed") }
        for path in removed { Console.out("removed \(path)") }
        SystemCtl.run(["daemon-reload"], quiet: true)
    }
}

/// What the command line says about the desktop services (PHRCore's `DesktopServices`).
enum SystemCtl {
    static func enable() {
        guard DesktopServices.enableReminderTimer() else {
            Console.warning("could not enable the timer with systemctl")
            Console.message("phr: hint: run 'systemctl --user daemon-reload && systemctl --user enable --now \(ReminderInstaller.timerName)', or use 'phr remind install --cron'")
            return
        }
        Console.note("enabled \(ReminderInstaller.timerName)")
    }

    static func run(_ arguments: [String], quiet: Bool) {
        DesktopServices.systemctl(arguments, quiet: quiet)
    }
}

/// The dose-action shell runs phr's own command line, so the CLI writes it.
enum DoseActionScript {
    /// The shell a dose reminder's "Taken"/"Skip" runs in (DesktopServices.DoseActions): $1
    /// notify-send, $2 phr, $3 the medication, $4 the scheduled time, $5 title, $6 body, $7 and
    /// $8 the passphrase file and command for phr alone (never exported), then phr's vault
    /// options.
    static let script = """
        n=$1 p=$2 m=$3 s=$4 t=$5 b=$6 f=$7 c=$8; shift 8
        a=$("$n" --app-name=phr --urgency=normal --action=take=Taken --action=skip=Skip --wait -- "$t" "$b") || exit 0
        case "$a" in
          take) PHR_PASSPHRASE_FILE=$f PHR_PASSPHRASE_COMMAND=$c "$p" med take "$m" "$@" ;;
          skip) PHR_PASSPHRASE_FILE=$f PHR_PASSPHRASE_COMMAND=$c "$p" med take "$m" --skip --at "$s" "$@" ;;
          *) exit 0 ;;
        esac >/dev/null 2>&1 || "$n" --app-name=phr -- "phr: dose not logged" "Log it with 'phr med take $m'."
        """
}

/// Reminders while the vault is locked, from the plan its last open run made.
enum LockedReminders {
    /// Shows on the desktop what the plan at `planPath` says is due now, and a notice once a day
    /// when the plan ends within a week; false when there is no plan.
    static func remind(planPath: String, time: TimeContext) -> Bool {
        guard var plan = LockedReminderPlan.load(planPath) else { return false }
        let due = plan.due(at: time.now)
        var changed = false
        if !due.isEmpty {
            // The words the privacy rule allows (no details: the plan has none to give).
            Notifier.send(due.map(\.reminder), details: false)
            plan.shown += due.map(\.key)
            changed = true
        }
        let today = time.today().description
        if plan.runsOutSoon(at: time.now), plan.warnedOn != today {
            let end = Timestamp.parse(plan.until).map { TimeText.short($0, time) } ?? plan.until
            DesktopServices.notice(title: "phr: reminders run out",
                                   body: "Reminders are planned until \(end). Open the vault ('phr unlock') to plan the next two weeks.")
            plan.warnedOn = today
            changed = true
        }
        if changed {
            // A timer that fails every few minutes helps nobody: said, and the run goes on.
            do {
                try plan.write(to: planPath)
            } catch {
                Console.warning("what was shown could not be noted in \(planPath): \(error.localizedDescription)")
            }
        }
        return true
    }
}

enum Notifier {
    /// Desktop notifications; without notify-send that is worth a warning only when there is
    /// no channel to take the reminders instead (a server with only ntfy).
    static func send(_ reminders: [DueReminder], details: Bool, quietWithoutNotifySend: Bool = false,
                     doseActions: DesktopServices.DoseActions? = nil) {
        switch DesktopServices.notify(reminders, details: details, spelling: CLISpelling(), doseActions: doseActions) {
        case .sent, .nothingDue:
            break
        case .missing where quietWithoutNotifySend:
            break
        case .missing:
            Console.warning("notify-send was not found, so no desktop notification was sent")
            Console.message("phr: hint: install it (Debian: apt install libnotify-bin)")
        case .failed:
            Console.warning("notify-send could not run")
        }
    }

    /// One warning per channel that failed this run; what failed stays queued for the next.
    static func report(_ reports: [ReminderDelivery.ChannelReport]) {
        for report in reports {
            if let error = report.error {
                Console.warning("channel \(report.channel) (\(report.kind.rawValue)) failed: \(error); it is retried on the next runs ('phr remind status')")
            }
            if report.held > 0 {
                Console.note("channel \(report.channel) (\(report.kind.rawValue)): \(report.held) reminder\(report.held == 1 ? "" : "s") \(ChannelHeld.reason), kept to send on the first run without it")
            }
            if report.gaveUp > 0 {
                Console.warning("channel \(report.channel) (\(report.kind.rawValue)): gave up on \(report.gaveUp) reminder\(report.gaveUp == 1 ? "" : "s") too old to send")
            }
        }
    }
}

extension VaultAccess {
    /// Opens the vault with keys from `phr unlock` or a passphrase source in the environment,
    /// never from a prompt; nil when neither is there (the vault stays locked).
    static func openWithoutPrompt(_ location: VaultLocation, profile: ProfileOptions) throws -> (Vault, Profile)? {
        let unlocking = Unlocking(environment: environment, prompt: nil)
        return try Session.openIfUnlockable(location, profileName: profile.requested, unlocking: unlocking).map { ($0.vault, $0.profile) }
    }
}

extension Console {
    /// Data on stdout with a chosen line ending.
    static func out(_ text: String, terminator: String) {
        Console.writeOut(Data(((Console.stdoutIsTTY ? Console.forTerminal(text) : text) + terminator).utf8))
    }
}
