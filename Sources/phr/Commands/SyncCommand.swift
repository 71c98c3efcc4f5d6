import ArgumentParser
import Foundation
import PHRService

struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync the vault between your devices through a folder you already share.",
        discussion: """
            phr writes only new, encrypted, write-once files to the remote (a USB disk, or a \
            folder Syncthing or Nextcloud shares): a change log per sync per device, and each \
            document's encrypted file. It never copies vault.db, so a file syncer cannot corrupt \
            it. Changes made on two devices merge field by field; when both changed the same \
            field, the later change wins and the other value is kept as a conflict ('phr sync \
            conflicts'). See docs/sync.md.

            First device: 'phr sync init', then 'phr sync remote add NAME FOLDER', then 'phr \
            sync'. Another device: 'phr sync enroll --out FILE' here, then 'phr sync join FILE' \
            there.
            """,
        subcommands: [SyncRun.self, SyncInit.self, SyncRemoteCommand.self, SyncStatus.self, SyncConflicts.self, SyncResolve.self,
                      SyncDevices.self, SyncEnroll.self, SyncJoin.self],
        defaultSubcommand: SyncRun.self
    )
}

/// Says what a sync did, on stderr.
private func describe(_ report: SyncEngine.Report) {
    var parts = ["sent \(report.sentChanges) change(s)"]
    if report.sentBlobs > 0 { parts.append("\(report.sentBlobs) document file(s)") }
    parts.append("applied \(report.appliedChanges) change(s) from \(report.receivedLogs) log(s)")
    if report.receivedBlobs > 0 { parts.append("received \(report.receivedBlobs) document file(s)") }
    Console.note("synced with \(report.remote): " + parts.joined(separator: ", "))
    if report.mergedDoses > 0 {
        Console.note("\(report.mergedDoses) dose(s) logged on two devices for the same time counted once ('phr sync conflicts --all' lists them)")
    }
    if report.newConflicts > 0 {
        Console.warning("\(report.newConflicts) new conflict(s): both devices changed the same field; the other value is kept, see 'phr sync conflicts'")
    }
    if report.waitingLogs > 0 {
        Console.note("\(report.waitingLogs) log(s) wait for earlier ones that have not reached the remote yet; sync again later")
    }
    if report.newerLogs > 0 {
        Console.warning("\(report.newerLogs) log(s) were written by a newer phr and were left unapplied; upgrade phr on this device")
    }
}

struct SyncRun: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "now",
        abstract: "Send this device's changes and apply the other devices' (what 'phr sync' does)."
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Option(help: "The remote to sync with (default: the only one).") var remote: String?

    func run() throws {
        let opened = try VaultAccess.open(vault.location)
        let engine = SyncEngine(vault: opened, remote: try SyncEngine.remote(opened, name: remote))
        let bar = Progress("syncing")
        let report: SyncEngine.Report
        do {
            report = try engine.run { stage, done, total in
                let label: String
                switch stage {
                case .receivingBlobs: label = "receiving documents"
                case .sendingBlobs: label = "sending documents"
                case .applying: label = "applying changes"
                }
                bar.update(done: Int64(done), total: Int64(total), detail: label)
            }
        } catch {
            bar.finish()
            throw error
        }
        bar.finish()
        if output.json { try Console.json(report) } else { describe(report) }
    }
}

struct SyncInit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Set up sync on the vault's first device (the others join with 'sync enroll' and 'sync join')."
    )

    @OptionGroup var vault: VaultOptions

    func run() throws {
        let opened = try VaultAccess.open(vault.location)
        try SyncEngine.initialize(opened)
        Console.note("sync is set up for this vault; add a remote with 'phr sync remote add NAME FOLDER', then run 'phr sync'")
    }
}

struct SyncRemoteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remote",
        abstract: "Add, list or remove the places this vault syncs through.",
        subcommands: [SyncRemoteAdd.self, SyncRemoteList.self, SyncRemoteRemove.self]
    )
}

struct SyncRemoteAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a remote: a folder (a USB disk, or a folder Syncthing or Nextcloud shares) or rclone:NAME:PATH."
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "A short name for it (letters, digits, - and _).") var name: String
    @Argument(help: "A folder that exists, or rclone:NAME:PATH for a remote 'rclone config' made (S3, WebDAV, SFTP, B2...).") var target: String

    func run() throws {
        let opened = try VaultAccess.open(vault.location)
        let remote = try SyncEngine.addRemote(opened, name: name, target: target)
        if output.json { try Console.json(remote) } else { Console.note("added sync remote \(remote.name): \(remote.target)") }
    }
}

struct SyncRemoteList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the remotes.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let opened = try VaultAccess.open(vault.location)
        let remotes = try SyncEngine.remotes(opened)
        if output.json {
            try Console.json(remotes)
            return
        }
        Table.print(header: ["NAME", "TARGET", "ADDED"], rows: remotes.map { [$0.name, $0.target, String($0.addedAt.prefix(10))] })
    }
}

struct SyncRemoteRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Stop syncing through a remote (what it holds stays there)."
    )

    @OptionGroup var vault: VaultOptions

    @Argument(help: "The remote's name.") var name: String

    func run() throws {
        let opened = try VaultAccess.open(vault.location)
        try SyncEngine.removeRemote(opened, name: name)
        Console.note("removed sync remote \(name); the files it holds were left where they are")
    }
}

struct SyncStatus: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "What is waiting to be sent and received, the devices, and open conflicts."
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Option(help: "The remote to look at (default: the only one).") var remote: String?

    func run() throws {
        let opened = try VaultAccess.open(vault.location)
        let target = try? SyncEngine.remote(opened, name: remote)
        // A remote that cannot be read leaves "to receive" unknown rather than failing the status.
        let status = try (try? SyncEngine.status(opened, remote: target)) ?? SyncEngine.status(opened, remote: nil)
        if output.json {
            try Console.json(status)
            return
        }
        Console.out("this device: \(status.device)")
        Console.out("remotes: " + (status.remotes.isEmpty ? "none" : status.remotes.map { "\($0.name) (\($0.target))" }.joined(separator: ", ")))
        Console.out("last sync: \(status.lastSync ?? "never")")
        Console.out("to send: \(status.pendingChanges) changed record(s)")
        if let waiting = status.remoteLogs { Console.out("to receive: \(waiting) log(s)") }
        Console.out("open conflicts: \(status.openConflicts)")
        Console.out()
        printDevices(status.devices)
    }
}

private func printDevices(_ devices: [SyncEngine.Device]) {
    Table.print(header: ["DEVICE", "", "LOGS", "CHANGES", "LAST"], rows: devices.map { device in
        [String(device.device.prefix(12)), device.isThisDevice ? "this device" : "", String(device.logs), String(device.changes),
         device.lastApplied.map { String($0.prefix(16)).replacingOccurrences(of: "T", with: " ") } ?? "-"]
    })
}

struct SyncDevices: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "devices", abstract: "List the devices this one has synced with.")

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let opened = try VaultAccess.open(vault.location)
        let devices = try SyncEngine.devices(opened)
        if output.json { try Console.json(devices) } else { printDevices(devices) }
    }
}

struct SyncConflicts: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conflicts",
        abstract: "List the values sync kept when two devices changed the same thing."
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Flag(help: "Include settled conflicts.") var all = false

    func run() throws {
        let opened = try VaultAccess.open(vault.location)
        let conflicts = try SyncEngine.conflicts(opened, includeSettled: all)
        if output.json {
            try Console.json(conflicts)
            return
        }
        if conflicts.isEmpty {
            Console.note(all ? "no sync conflicts" : "no open sync conflicts")
            return
        }
        Table.print(header: ["ID", "RECORD", "FIELD", "NOW", "OTHER VALUE", "WHY"], rows: conflicts.map { conflict in
            let why: String
            switch conflict.reason {
            case "changed_and_removed": why = "removed on one device, changed on another: kept"
            case "duplicate": why = "the same on two devices: counted once"
            default: why = "both changed"
            }
            return [conflict.id, "\(conflict.kind) \(conflict.record ?? "(gone)")", conflict.field, conflict.kept ?? "-", conflict.lost ?? "-",
                    why + (conflict.resolution.map { " (settled: \($0))" } ?? "")]
        })
    }
}

struct SyncResolve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Settle a conflict: keep the current value, or put the other one back."
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The conflict's ID (from 'phr sync conflicts').") var id: String
    @Option(help: "current (the value the record has) or other (the value that lost).") var keep: String

    func run() throws {
        guard let choice = SyncEngine.Keep(rawValue: keep) else {
            throw ValidationError("--keep: \(keep) is not current or other")
        }
        let opened = try VaultAccess.open(vault.location)
        let conflict = try SyncEngine.resolve(opened, id: id, keep: choice)
        if output.json { try Console.json(conflict) } else {
            Console.note("settled conflict \(conflict.id): kept the \(choice == .current ? "current" : "other") value; the next sync tells the other devices")
        }
    }
}

struct SyncEnroll: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enroll",
        abstract: "Write a one-time file that lets another device join this vault's sync.",
        discussion: """
            The file is encrypted to a code shown here once; it holds the vault's key file (still \
            locked by your passphrase), the sync key and the remote's folder, and expires after a \
            day. Carry it to the new device, run 'phr sync join FILE' there, type the code and \
            the vault's passphrase, then delete the file.
            """
    )

    @OptionGroup var vault: VaultOptions

    @Option(help: "The enrolment file to write (it must not exist).") var out: String
    @Option(help: "The remote to name in it (default: the only one).") var remote: String?

    func run() throws {
        try vault.refuseOutput(out, option: "--out")
        let opened = try VaultAccess.open(vault.location)
        let remotes = try SyncEngine.remotes(opened)
        let chosen = remotes.first { remote == nil || $0.name == remote }
        if remote != nil, chosen == nil { throw SyncError.noRemote(remote) }
        let target = chosen?.target
        let code = try SyncEnrolment.write(opened, to: out, remote: target)
        Console.note("wrote \(out); on the new device run 'phr sync join \((out as NSString).lastPathComponent)' and type this code:")
        Console.message(code)
    }
}

struct SyncJoin: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Join a vault's sync on a new device with the file 'phr sync enroll' wrote.",
        discussion: """
            Asks for the code 'phr sync enroll' showed (or reads PHR_SYNC_CODE) and for the \
            vault's passphrase or recovery key, creates the vault at --vault (which must not \
            exist, or be empty) and pulls everything from the remote.
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The enrolment file.") var file: String
    @Option(help: "The shared folder as this device sees it (default: the folder named in the file).") var remote: String?

    func run() throws {
        let location = vault.location
        let code: String
        if let variable = ProcessEnvironment["PHR_SYNC_CODE"] {
            code = variable
        } else {
            guard let typed = try PassphrasePrompt.ask("Enrolment code shown by 'phr sync enroll': ") else {
                throw SyncError.wrongCode
            }
            code = typed.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        }
        let contents = try SyncEnrolment.open(file, code: code)
        guard let given = remote ?? contents.remote else {
            throw SyncError.badTarget("", reason: "the enrolment names no folder: give --remote FOLDER")
        }
        let folder = given.hasPrefix("rclone:") ? given : try SyncEngine.folder(given, apartFrom: location.root)
        let remoteTarget = try SyncEngine.remote(target: folder)
        let secret = try VaultAccess.verifiedSecret(for: location, keyFile: contents.keyFile, prompt: Unlocking.vaultPrompt)
        let keys = try Vault.unlock(keyFile: contents.keyFile, secret: secret)
        let joined = try SyncEnrolment.createVault(at: location, contents: contents, keys: keys, remote: folder)
        let report = try SyncEngine(vault: joined, remote: remoteTarget).run()
        try SyncEnrolment.chooseDefaultProfile(joined)
        if output.json { try Console.json(report) } else {
            Console.note("joined the vault's sync at \(location.root)")
            describe(report)
        }
    }
}
