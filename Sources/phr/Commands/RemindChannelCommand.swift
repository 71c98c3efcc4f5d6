import ArgumentParser
import Foundation
import PHRService

struct RemindChannel: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "channel",
        abstract: "Where reminders go besides the desktop: ntfy, Gotify, e-mail, a webhook or a command.",
        discussion: """
            'phr remind due --notify' (what the timer runs) sends each reminder to every channel \
            too. By default a channel's notification says only what is due ("A dose is due"), \
            never a medication, a person or an amount; --details opts a channel in. URLs and \
            tokens are kept in the vault, encrypted, never in the timer's units.
            """,
        subcommands: [RemindChannelAdd.self, RemindChannelList.self, RemindChannelRemove.self, RemindChannelTest.self]
    )
}

struct RemindChannelAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a channel: ntfy URL, gotify URL, email ADDRESS, webhook URL or command CMD.",
        discussion: """
            ntfy URL: the topic's URL (a topic is a password: pick a long random one); \
            --token-file for a protected topic. gotify URL --token-file F: the server and an \
            application token. email ADDRESS: sent through the local sendmail. webhook URL: a \
            JSON POST. command CMD: run with /bin/sh, the reminder on its stdin. URLs are https, \
            or plain http to this machine only. Give - as the URL or command to read it from \
            stdin, so a secret in it never appears on a command line.
            """)

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "ntfy, gotify, email, webhook or command.") var kind: String
    @Argument(help: "The URL, e-mail address or command; - reads it from stdin.") var target: String
    @Option(name: .customLong("token-file"), help: "A file whose first line is the access token (ntfy, gotify).") var tokenFile: String?
    @Flag(help: "Name medications, people and amounts in this channel's notifications.") var details = false

    func run() throws {
        var text = target
        if target == "-" {
            guard let line = readLine(strippingNewline: true) else {
                throw ValidationError("expected the \(kind == "command" ? "command" : kind == "email" ? "address" : "URL") on stdin")
            }
            text = line
        }
        let context = try RecordContext(vault, profile)
        let input = ReminderChannelStore.Input(kind: kind, target: text, tokenFile: tokenFile, details: details)
        let channel = try RecordContext.options {
            try ReminderChannelStore(vault: context.vault, profile: context.profile, time: context.time).add(input)
        }
        if channel.details {
            if channel.leavesTheMachine {
                Console.warning("notifications through channel \(channel.id) will name medications, people and amounts, and they leave this computer (\(channel.displayTarget))")
            } else {
                Console.note("notifications through channel \(channel.id) will name medications, people and amounts")
            }
        }
        if output.json { return try Console.json(channel) }
        Console.out("added channel \(channel.id): \(channel.kind.rawValue) \(channel.displayTarget)\(channel.details ? ", with details" : "")")
        Console.note("'phr remind channel test \(channel.id)' sends a test notification")
    }
}

struct RemindChannelList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the reminder channels (targets shortened, tokens never shown).")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let context = try RecordContext(vault, profile)
        let channels = try ReminderChannelStore(vault: context.vault, profile: context.profile, time: context.time).list()
        if output.json { return try Console.json(channels) }
        if channels.isEmpty { return Console.note("no reminder channels; add one with 'phr remind channel add ntfy URL' (or gotify, email, webhook, command)") }
        Table.print(header: ["ID", "KIND", "TARGET", "TOKEN", "TEXT"], rows: channels.map { channel in
            [channel.id, channel.kind.rawValue, channel.displayTarget, channel.token == nil ? "—" : "yes",
             channel.details ? "details" : "private"]
        })
    }
}

struct RemindChannelRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove a channel and what it still had to deliver.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @Argument(help: "The channel's ID (any unique prefix).") var id: String

    func run() throws {
        let context = try RecordContext(vault, profile)
        let channel = try ReminderChannelStore(vault: context.vault, profile: context.profile, time: context.time).remove(id)
        Console.out("removed channel \(channel.id): \(channel.kind.rawValue) \(channel.displayTarget)")
    }
}

struct RemindChannelTest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test", abstract: "Send a test notification through every channel (or one) now.",
        discussion: "Exit status 69 when a channel did not take it; 'phr remind status' keeps the reason.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The channel's ID (default: every channel).") var id: String?

    func run() throws {
        let sender = try ReminderChannelSender.fromEnvironment(ProcessEnvironment.variables)
        let context = try RecordContext(vault, profile)
        let results = try ReminderDelivery(vault: context.vault, profile: context.profile, time: context.time, sender: sender, spelling: CLISpelling()).test(id)
        if output.json {
            struct Tested: Encodable {
                let channel: String
                let ok: Bool
                let error: String?
                let held: Bool
            }
            try Console.json(results.map { channel, outcome in
                switch outcome {
                case .sent: return Tested(channel: channel.id, ok: true, error: nil, held: false)
                case .failed(let failure): return Tested(channel: channel.id, ok: false, error: failure.reason, held: false)
                case .held: return Tested(channel: channel.id, ok: false, error: ChannelHeld.reason, held: true)
                }
            })
        } else {
            for (channel, outcome) in results {
                let said: String
                switch outcome {
                case .sent: said = "sent"
                case .failed(let failure): said = "failed: \(failure.reason)"
                case .held: said = "not sent, \(ChannelHeld.reason)"
                }
                Console.out("\(channel.id)  \(channel.kind.rawValue)  \(said)")
            }
        }
        let failed = results.filter { if case .failed = $0.1 { return true } else { return false } }.count
        if failed > 0 { throw ReminderChannelError.testFailed(count: failed) }
        let held = results.filter { $0.1 == .held }.count
        if held > 0 { throw ReminderChannelError.testHeld(count: held) }
    }
}

struct RemindStatus: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "How the reminder channels are doing: last delivery, queued, last error.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let sender = try ReminderChannelSender.fromEnvironment(ProcessEnvironment.variables)
        let context = try RecordContext(vault, profile)
        let statuses = try ReminderDelivery(vault: context.vault, profile: context.profile, time: context.time, sender: sender, spelling: CLISpelling()).status()
        if output.json { return try Console.json(statuses) }
        defer { Self.sayLockedPlan(vault, profile, context.time) }
        if statuses.isEmpty { return Console.note("no reminder channels; reminders go to the desktop only") }
        defer {
            if statuses.contains(where: { $0.heldBy != nil }) {
                Console.note("\(OfflineMode.variable)=1: ntfy, Gotify and webhook channels are held; what they have queued is sent on the first 'phr remind due --notify' without it")
            }
        }
        func when(_ text: String?) -> String {
            guard let text, let date = Timestamp.parse(text) else { return "never" }
            return TimeText.short(date, context.time)
        }
        Table.print(header: ["ID", "KIND", "TARGET", "DELIVERED", "LAST", "QUEUED", "GAVE UP", "LAST ERROR"], rows: statuses.map { status in
            let channel = status.channel
            let queued = status.heldBy.map { "\(status.pending), held (\($0))" }
                ?? (status.pending == 0 ? "0" : "\(status.pending), next \(when(status.nextAttemptAt))")
            return [channel.id, channel.kind.rawValue, channel.displayTarget, String(channel.delivered), when(channel.lastSuccessAt),
                    queued, String(channel.givenUp), channel.lastError ?? "—"]
        })
    }

    /// Until when reminders are planned for while the vault is locked (issue 35, item 3).
    static func sayLockedPlan(_ vault: VaultOptions, _ profile: ProfileOptions, _ time: TimeContext) {
        guard let keyFile = try? Vault.readKeyFile(at: vault.location) else { return }
        let path = LockedReminderPlan.path(vaultID: keyFile.vaultID, profileSelector: profile.requested, environment: ProcessEnvironment.variables)
        guard let plan = LockedReminderPlan.load(path), let until = Timestamp.parse(plan.until) else {
            return Console.note("while the vault is locked no reminder is shown: a plan for it is made by 'phr remind due --notify' (the timer) with the vault open")
        }
        let left = plan.due(at: time.now).count + plan.reminders.filter { (Timestamp.parse($0.at) ?? .distantPast) > time.now }.count
        let words = "while the vault is locked, desktop reminders are planned until \(TimeText.short(until, time)) (\(left) to come; channels need the vault open)"
        if plan.runsOutSoon(at: time.now) {
            Console.warning(words + "; open the vault ('phr unlock') to plan the next two weeks")
        } else {
            Console.note(words)
        }
    }
}
