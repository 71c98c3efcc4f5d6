import Foundation
import Testing

/// `phr sync` through the real binary: two vaults (two devices) syncing through a folder, as a
/// person sets them up (`sync init`, `remote add`, `enroll`, `join`), with merges, conflicts,
/// tampering, privacy and kills at the named pause points.
@Suite struct SyncCommandTests {
    static let passphrase = "correct horse battery staple"
    static let env = ["PHR_PASSPHRASE": passphrase, "TZ": "Europe/Berlin"]

    /// Two devices of one vault and the folder they share.
    struct Devices {
        let cli: CLI
        var a: String { cli.vault }
        var b: String { "\(cli.directory)/vault-b" }
        var remote: String { "\(cli.directory)/shared" }

        /// `phr ARGUMENTS --vault VAULT`, which must succeed; its stdout.
        @discardableResult
        func run(_ vault: String, _ arguments: [String], _ extra: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
            let result = try cli.run(arguments + ["--vault", vault], SyncCommandTests.env.merging(extra) { $1 })
            #expect(result.status == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
            return result.stdout
        }

        func json(_ vault: String, _ arguments: [String], _ extra: [String: String] = [:]) throws -> Any {
            try JSONSerialization.jsonObject(with: Data(try run(vault, arguments + ["--json"], extra).utf8))
        }

        /// Both devices sync until neither has anything to send or apply.
        func syncAll() throws {
            for vault in [a, b, a] { try run(vault, ["sync"]) }
        }
    }

    /// A vault with a few records on device A, synced; device B joined through an enrolment file.
    static func twoDevices(_ label: String) throws -> Devices {
        let cli = try CLI(label: label)
        let devices = Devices(cli: cli)
        _ = try cli.initVault(passphrase: passphrase)
        try FileManager.default.createDirectory(atPath: devices.remote, withIntermediateDirectories: true)
        try devices.run(devices.a, ["sync", "init"])
        try devices.run(devices.a, ["sync", "remote", "add", "shared", devices.remote])
        try devices.run(devices.a, ["sync"])
        let enrol = try cli.run(["sync", "enroll", "--out", "\(cli.directory)/enrol.phr"], env)
        #expect(enrol.status == 0, "\(enrol.stderr)")
        let code = try #require(enrol.stderr.split(separator: "\n").last.map(String.init))
        #expect(code.count == 39, "the code line: \(enrol.stderr)")
        let join = try cli.run(["sync", "join", "\(cli.directory)/enrol.phr", "--vault", devices.b], env.merging(["PHR_SYNC_CODE": code]) { $1 })
        #expect(join.status == 0, "\(join.stderr)")
        #expect(join.stderr.contains("joined the vault's sync"), "\(join.stderr)")
        return devices
    }

    static func field(_ object: Any, _ path: String...) -> Any? {
        var current: Any? = object
        for key in path { current = (current as? [String: Any])?[key] }
        return current
    }

    @Test func aJoinedDeviceGetsEveryRecordAndDocumentAndFindsItsText() throws {
        let devices = try Self.twoDevices("sync-join")
        defer { devices.cli.cleanUp() }
        let a = devices.a, b = devices.b
        try devices.run(a, ["med", "add", "Metformin", "--dose", "500 mg", "--schedule", "08:00,20:00"])
        try devices.run(a, ["allergy", "add", "Penicillin", "--reaction", "hives"])
        try devices.run(a, ["lab", "add", "ferritin", "12", "ng/mL", "--range", "30-400", "--date", "2024-03-18"])
        try devices.run(a, ["log", "water", "250ml"])
        try devices.run(a, ["profile", "add", "Mia", "--relation", "child"])
        try devices.run(a, ["condition", "add", "Asthma", "--profile", "Mia"])
        try devices.run(a, ["doc", "add", "\(CLI.packageRoot)/Samples/documents/prescription-amoxicillin.pdf"])
        try devices.syncAll()

        #expect(try devices.run(b, ["med", "list"]).contains("Metformin"))
        #expect(try devices.run(b, ["allergy", "list"]).contains("Penicillin"))
        #expect(try devices.run(b, ["lab", "list"]).contains("12"))
        #expect(try devices.run(b, ["condition", "list", "--profile", "Mia"]).contains("Asthma"))
        #expect(try devices.run(b, ["profile", "list"]).contains("* me") || devices.run(b, ["profile", "list"]).contains("*  me") ||
                devices.run(b, ["profile", "list"]).split(separator: "\n").contains { $0.hasPrefix("*") && $0.contains("me") },
                "the owner's profile is the joined device's default")
        // The document's text came with it: found without reading the file again, and its file
        // opens (authenticated) on B.
        let found = try devices.run(b, ["search", "amoxicillin"])
        #expect(found.contains("prescription") || found.lowercased().contains("amoxicillin"), "\(found)")
        let check = try devices.cli.run(["check", "--vault", b], Self.env)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let status = try devices.json(b, ["sync", "status"])
        #expect(Self.field(status, "pending_changes") as? Int == 0, "\(status)")
        #expect(Self.field(status, "remote_logs") as? Int == 0, "\(status)")
        #expect((Self.field(status, "devices") as? [Any])?.count == 2, "\(status)")
    }

    @Test func fieldsChangedOnEachSideMergeAndTheLosingValueIsKeptUntilSettled() throws {
        let devices = try Self.twoDevices("sync-merge")
        defer { devices.cli.cleanUp() }
        let a = devices.a, b = devices.b
        let added = try devices.json(a, ["allergy", "add", "Penicillin"])
        let id = try #require(Self.field(added, "id") as? String)
        try devices.syncAll()
        // Both change the reaction; each changes one field the other does not.
        try devices.run(a, ["allergy", "edit", id, "--reaction", "hives", "--severity", "mild"])
        try devices.run(b, ["allergy", "edit", id, "--reaction", "rash", "--category", "medication"])
        try devices.syncAll()
        let onA = try #require((try devices.json(a, ["allergy", "list"]) as? [[String: Any]])?.first)
        let onB = try #require((try devices.json(b, ["allergy", "list"]) as? [[String: Any]])?.first)
        #expect(onA["reaction"] as? String == onB["reaction"] as? String)
        #expect(onA["severity"] as? String == "mild" && onB["severity"] as? String == "mild")
        #expect(onA["category"] as? String == "medication" && onB["category"] as? String == "medication")
        let winner = try #require(onA["reaction"] as? String)
        let loser = winner == "hives" ? "rash" : "hives"
        // Each device lists the value that lost.
        for vault in [a, b] {
            let conflicts = try #require(try devices.json(vault, ["sync", "conflicts"]) as? [[String: Any]])
            #expect(conflicts.count == 1, "\(conflicts)")
            #expect(conflicts.first?["field"] as? String == "reaction" && conflicts.first?["lost"] as? String == loser
                    && conflicts.first?["kept"] as? String == winner, "\(conflicts)")
            #expect(conflicts.first?["record"] as? String == id)
        }
        // Settled on A by putting the other value back: B gets it, and B's conflict is settled too.
        let conflictID = try #require(((try devices.json(a, ["sync", "conflicts"]) as? [[String: Any]])?.first?["id"]) as? String)
        try devices.run(a, ["sync", "resolve", conflictID, "--keep", "other"])
        try devices.syncAll()
        for vault in [a, b] {
            let allergy = try #require((try devices.json(vault, ["allergy", "list"]) as? [[String: Any]])?.first)
            #expect(allergy["reaction"] as? String == loser)
            let open = try #require(try devices.json(vault, ["sync", "conflicts"]) as? [[String: Any]])
            #expect(open.isEmpty, "\(vault): \(open)")
        }
        let settled = try #require(try devices.json(b, ["sync", "conflicts", "--all"]) as? [[String: Any]])
        #expect(settled.first?["resolution"] as? String == "superseded", "\(settled)")
    }

    @Test func theSameDoseOnTwoDevicesIsOneDoseAndARemovalDoesNotEraseAConcurrentEdit() throws {
        let devices = try Self.twoDevices("sync-dose")
        defer { devices.cli.cleanUp() }
        let a = devices.a, b = devices.b
        // The same scheduled dose, this morning's 08:00, whatever time the test runs at.
        let now = ["PHR_TEST_NOW": "2026-05-10T10:00:00Z"]
        let med = try #require(Self.field(try devices.json(a, ["med", "add", "Metformin", "--schedule", "08:00,20:00", "--start", "2026-05-01"], now), "id") as? String)
        let contact = try #require(Self.field(try devices.json(a, ["contact", "add", "Dr. Lee", "--phone", "+49 30 1111111"]), "id") as? String)
        try devices.syncAll()
        try devices.run(a, ["med", "take", med, "--at", "08:00"], now)
        try devices.run(b, ["med", "take", med, "--at", "08:00"], now)
        // Removed on A, changed on B: kept everywhere, and said.
        try devices.run(a, ["contact", "rm", contact, "--yes"])
        try devices.run(b, ["contact", "edit", contact, "--email", "lee@example.org"])
        let said = try devices.cli.run(["sync", "--vault", a], Self.env)
        #expect(said.status == 0)
        let onB = try devices.cli.run(["sync", "--vault", b], Self.env)
        #expect(onB.stderr.contains("counted once"), "\(onB.stderr)")
        try devices.syncAll()
        for vault in [a, b] {
            let shown = try #require(try JSONSerialization.jsonObject(with: Data(try devices.run(vault, ["med", "show", med, "--json"], now).utf8)) as? [String: Any])
            let doses = (shown["doses"] as? [Any]) ?? (shown["recent_doses"] as? [Any]) ?? []
            #expect(doses.count == 1, "\(vault): \(shown)")
            let contacts = try #require(try devices.json(vault, ["contact", "list"]) as? [[String: Any]])
            #expect(contacts.count == 1 && contacts.first?["email"] as? String == "lee@example.org", "\(vault): \(contacts)")
            let conflicts = try #require(try devices.json(vault, ["sync", "conflicts", "--all"]) as? [[String: Any]])
            #expect(conflicts.contains { $0["reason"] as? String == "changed_and_removed" }, "\(vault): \(conflicts)")
            #expect(conflicts.contains { $0["reason"] as? String == "duplicate" && $0["kind"] as? String == "dose" }, "\(vault): \(conflicts)")
        }
    }

    /// A schedule is a set of fields the schema ties together (kind, times, interval): changed on
    /// both devices, it is taken whole from one change, both devices end alike, the other
    /// schedule is listed, and sync goes on.
    @Test func aScheduleChangedOnBothDevicesIsTakenWholeFromOne() throws {
        let devices = try Self.twoDevices("sync-schedule")
        defer { devices.cli.cleanUp() }
        let a = devices.a, b = devices.b
        let med = try #require(Self.field(try devices.json(a, ["med", "add", "Metformin", "--schedule", "08:00,20:00"]), "id") as? String)
        try devices.syncAll()
        try devices.run(a, ["med", "edit", med, "--every", "8h"])
        try devices.run(b, ["med", "edit", med, "--schedule", "07:00,19:00", "--notes", "with food"])
        try devices.syncAll()
        try devices.syncAll()
        let shownA = try #require(try devices.json(a, ["med", "show", med]) as? [String: Any])
        let shownB = try #require(try devices.json(b, ["med", "show", med]) as? [String: Any])
        func schedule(_ shown: [String: Any]) -> NSDictionary? {
            ((shown["medication"] as? [String: Any])?["schedule"] ?? shown["schedule"]) as? NSDictionary
        }
        let scheduleA = try #require(schedule(shownA)), scheduleB = try #require(schedule(shownB))
        #expect(scheduleA.isEqual(scheduleB), "\(scheduleA) vs \(scheduleB)")
        for vault in [a, b] {
            let conflicts = try #require(try devices.json(vault, ["sync", "conflicts"]) as? [[String: Any]])
            #expect(conflicts.contains { $0["field"] as? String == "schedule" || $0["field"] as? String == "times" }, "\(vault): \(conflicts)")
            let status = try devices.json(vault, ["sync", "status"])
            #expect(Self.field(status, "pending_changes") as? Int == 0 && Self.field(status, "remote_logs") as? Int == 0, "\(status)")
        }
        // The note, changed on one side only, is kept.
        #expect(try devices.run(a, ["med", "show", med]).contains("with food"))
    }

    @Test func theRemoteHoldsNoRecordTextNoFileNameAndOnlyBucketSizedLogs() throws {
        let devices = try Self.twoDevices("sync-privacy")
        defer { devices.cli.cleanUp() }
        let canary = "Zanzibarquux"
        let file = "\(devices.cli.directory)/\(canary)-scan.pdf"
        try FileManager.default.copyItem(atPath: "\(CLI.packageRoot)/Samples/documents/insurance-card.pdf", toPath: file)
        try devices.run(devices.a, ["allergy", "add", canary, "--notes", "\(canary) notes"])
        try devices.run(devices.a, ["doc", "add", file, "--title", "\(canary) card"])
        try devices.run(devices.a, ["profile", "add", canary])
        try devices.syncAll()
        var logs = 0
        let enumerator = FileManager.default.enumerator(atPath: devices.remote)
        while let relative = enumerator?.nextObject() as? String {
            let path = "\(devices.remote)/\(relative)"
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            #expect(!relative.contains(canary))
            for needle in [canary, canary.lowercased(), "Penicillin", "insurance"] {
                #expect(data.range(of: Data(needle.utf8)) == nil, "\(relative) holds \(needle)")
            }
            if relative.hasSuffix(".log") {
                logs += 1
                let size = data.count
                #expect(size >= 4096 && (size & (size - 1)) == 0 || size % (1 << 20) == 0, "\(relative): \(size) bytes is not a bucket")
            }
        }
        #expect(logs >= 2)
    }

    @Test func aTamperedReplayedOrMovedLogIsRefusedWithExit80AndNothingChanges() throws {
        let devices = try Self.twoDevices("sync-tamper")
        defer { devices.cli.cleanUp() }
        let a = devices.a, b = devices.b
        try devices.run(a, ["allergy", "add", "Penicillin"])
        try devices.run(a, ["sync"])
        try devices.run(a, ["allergy", "add", "Latex"])
        try devices.run(a, ["sync"])
        let deviceA = try #require(Self.field(try devices.json(a, ["sync", "status"]), "device") as? String)
        let logDirectory = "\(devices.remote)/logs/\(deviceA)"
        let names = try FileManager.default.contentsOfDirectory(atPath: logDirectory).filter { $0.hasSuffix(".log") }.sorted()
        let last = "\(logDirectory)/\(try #require(names.last))"
        let original = try Data(contentsOf: URL(fileURLWithPath: last))
        // Every file of B's vault, by content.
        func fingerprint() -> [String: String] {
            var result: [String: String] = [:]
            let enumerator = FileManager.default.enumerator(atPath: b)
            while let relative = enumerator?.nextObject() as? String {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: "\(b)/\(relative)", isDirectory: &isDirectory), !isDirectory.boolValue {
                    result[relative] = CLI.sha256("\(b)/\(relative)")
                }
            }
            return result
        }
        let before = fingerprint()
        #expect(before["vault.db"] != nil)

        func refused(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let result = try devices.cli.run(["sync", "--vault", b], Self.env)
            #expect(result.status == 80, "\(what): \(result.status) \(result.stderr)", sourceLocation: sourceLocation)
            #expect(result.stderr.contains("sync integrity check failed"), "\(what): \(result.stderr)", sourceLocation: sourceLocation)
            #expect(fingerprint() == before, "\(what) changed the vault", sourceLocation: sourceLocation)
        }
        // A flipped bit.
        var flipped = original
        flipped[flipped.count / 2] ^= 0x01
        try flipped.write(to: URL(fileURLWithPath: last))
        try refused("a flipped bit")
        // Truncated.
        try original.prefix(original.count - 100).write(to: URL(fileURLWithPath: last))
        try refused("a truncated log")
        // An older log re-uploaded as the newest.
        try Data(contentsOf: URL(fileURLWithPath: "\(logDirectory)/\(names[0])")).write(to: URL(fileURLWithPath: last))
        try refused("an old log re-uploaded")
        // The log under another device's name.
        try original.write(to: URL(fileURLWithPath: last))
        let other = "\(devices.remote)/logs/\(String(repeating: "ab", count: 16))"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        try original.write(to: URL(fileURLWithPath: "\(other)/0000000001.log"))
        try refused("a log replayed under another device")
        try FileManager.default.removeItem(atPath: other)
        // Put back, it applies.
        try devices.run(b, ["sync"])
        #expect(try devices.run(b, ["allergy", "list"]).contains("Latex"))
    }

    /// SIGKILL where a sync is most fragile, then a rerun: the same end, no change twice, none lost.
    @Test(arguments: ["sync-blobs-pushed", "sync-log-written", "sync-applying"])
    func aKilledSyncRerunEndsTheSameWithNothingLostOrTwice(point: String) throws {
        let devices = try Self.twoDevices("sync-kill")
        defer { devices.cli.cleanUp() }
        let a = devices.a, b = devices.b
        for name in ["Penicillin", "Latex", "Peanut", "Sulfa"] { try devices.run(a, ["allergy", "add", name]) }
        try devices.run(a, ["doc", "add", "\(CLI.packageRoot)/Samples/documents/insurance-card.pdf"])
        for amount in ["250ml", "300ml", "500ml"] { try devices.run(b, ["log", "water", amount]) }
        // Killed on A while sending (blobs or log), or on B while applying what A sent.
        if point == "sync-applying" { try devices.run(a, ["sync"]) }
        let victim = point == "sync-applying" ? b : a
        let running = try InterruptionTests.Running(devices.cli, ["sync", "--vault", victim], Self.env.merging(["PHR_TEST_PAUSE": point]) { $1 })
        let said = running.waitForPause()
        #expect(said.contains("paused at \(point)"), "\(said)")
        running.stop(with: SIGKILL)
        #expect(running.process.terminationReason == .uncaughtSignal)
        try devices.syncAll()
        try devices.syncAll()
        for vault in [a, b] {
            let allergies = try #require(try devices.json(vault, ["allergy", "list"]) as? [[String: Any]])
            #expect(allergies.count == 4, "\(vault): \(allergies.map { $0["substance"] ?? "" })")
            let log = try devices.run(vault, ["log", "list", "--json"])
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(log.utf8)) as? [[String: Any]])
            #expect(entries.count == 3, "\(vault): \(entries.count) water entries")
            #expect((try devices.json(vault, ["doc", "list"]) as? [Any])?.count == 1)
            let check = try devices.cli.run(["check", "--vault", vault], Self.env)
            #expect(check.status == 0, "\(vault): \(check.stdout)\(check.stderr)")
            let status = try devices.json(vault, ["sync", "status"])
            #expect(Self.field(status, "pending_changes") as? Int == 0 && Self.field(status, "remote_logs") as? Int == 0, "\(status)")
        }
    }

    @Test func syncBeforeSetupAndBadRemotesAreRefusedWithAHint() throws {
        let cli = try CLI(label: "sync-errors")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let early = try cli.run(["sync"], Self.env)
        #expect(early.status == 1 && early.stderr.contains("phr: error: sync is not set up") && early.stderr.contains("phr: hint: start with phr sync init"),
                "\(early.stderr)")
        #expect(try cli.run(["sync", "init"], Self.env).status == 0)
        let none = try cli.run(["sync"], Self.env)
        #expect(none.status == 66 && none.stderr.contains("no sync remote"), "\(none.stderr)")
        let missing = try cli.run(["sync", "remote", "add", "usb", "\(cli.directory)/nowhere"], Self.env)
        #expect(missing.status == 64 && missing.stderr.contains("no such folder"), "\(missing.stderr)")
        let inside = try cli.run(["sync", "remote", "add", "usb", "\(cli.vault)/blobs"], Self.env)
        #expect(inside.status == 64 && inside.stderr.contains("inside the vault"), "\(inside.stderr)")
        // Through a symbolic link, and the other way round: a folder that holds the vault.
        try FileManager.default.createSymbolicLink(atPath: "\(cli.directory)/link", withDestinationPath: "\(cli.vault)/blobs")
        let linked = try cli.run(["sync", "remote", "add", "usb", "\(cli.directory)/link"], Self.env)
        #expect(linked.status == 64 && linked.stderr.contains("inside the vault"), "\(linked.stderr)")
        let holding = try cli.run(["sync", "remote", "add", "usb", cli.directory], Self.env)
        #expect(holding.status == 64 && holding.stderr.contains("the vault is inside this folder"), "\(holding.stderr)")
        let wrongCode = try cli.run(["sync", "enroll", "--out", "\(cli.directory)/e.phr"], Self.env)
        #expect(wrongCode.status == 0)
        let join = try cli.run(["sync", "join", "\(cli.directory)/e.phr", "--vault", "\(cli.directory)/other", "--remote", cli.directory],
                               Self.env.merging(["PHR_SYNC_CODE": "AAAA-AAAA-AAAA-AAAA-AAAA-AAAA-AAAA-AAAA"]) { $1 })
        #expect(join.status == 77 && join.stderr.contains("code does not open"), "\(join.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(cli.directory)/other"))
    }
}

/// `phr sync` through real storage engines on loopback, started and stopped by the tests: rclone
/// as the transport to a WebDAV server (`rclone serve webdav`) and to an S3 API server (moto's,
/// from PyPI, installed by `make deps` into .build/venv-s3).
@Suite struct SyncEngineTests {
    struct ServerFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// A server process on a loopback port, stopped when the test ends.
    final class Server {
        let process = Process()
        let port: Int

        init(_ executable: String, _ arguments: (Int) -> [String], environment: [String: String], log: String, port: Int? = nil) throws {
            self.port = port ?? Loopback.freePort()
            let port = self.port
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments(port)
            process.environment = environment
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            process.standardOutput = FileHandle(forWritingAtPath: log)
            process.standardError = FileHandle(forWritingAtPath: log)
            try process.run()
            let deadline = Date().addingTimeInterval(30)
            while !Loopback.accepts(port: port), Date() < deadline, process.isRunning { usleep(50_000) }
            guard Loopback.accepts(port: port) else {
                stop()
                throw ServerFailure(description: "\(executable) did not listen on 127.0.0.1:\(port): \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            }
        }

        /// SIGTERM, and SIGKILL after five seconds (moto's server does not stop on SIGTERM).
        func stop() {
            guard process.isRunning else { return }
            process.terminate()
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning, Date() < deadline { usleep(50_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }

        deinit { stop() }
    }

    /// Two devices through `target`, with rclone configured by `config`: everything A has reaches
    /// B (a document's file too), and B's change reaches A.
    static func twoDevices(through target: String, config: String, cli: CLI) throws {
        let configFile = "\(cli.directory)/rclone.conf"
        try config.write(toFile: configFile, atomically: true, encoding: .utf8)
        let env = SyncCommandTests.env.merging(["RCLONE_CONFIG": configFile]) { $1 }
        let b = "\(cli.directory)/vault-b"
        func run(_ arguments: [String], _ extra: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation) throws -> CLI.Result {
            let result = try cli.run(arguments, env.merging(extra) { $1 })
            #expect(result.status == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
            return result
        }
        _ = try cli.initVault(passphrase: SyncCommandTests.passphrase)
        _ = try run(["allergy", "add", "Penicillin", "--reaction", "hives"])
        _ = try run(["doc", "add", "\(CLI.packageRoot)/Samples/documents/prescription-amoxicillin.pdf"])
        _ = try run(["sync", "init"])
        _ = try run(["sync", "remote", "add", "cloud", target])
        let first = try run(["sync"])
        #expect(first.stderr.contains("1 document file(s)"), "\(first.stderr)")
        let enrol = try run(["sync", "enroll", "--out", "\(cli.directory)/enrol.phr"])
        let code = try #require(enrol.stderr.split(separator: "\n").last.map(String.init))
        _ = try run(["sync", "join", "\(cli.directory)/enrol.phr", "--vault", b], ["PHR_SYNC_CODE": code])
        #expect(try run(["allergy", "list", "--vault", b]).stdout.contains("Penicillin"))
        #expect(try run(["search", "amoxicillin", "--vault", b]).stdout.lowercased().contains("amoxicillin"))
        #expect(try cli.run(["check", "--vault", b], env).status == 0)
        _ = try run(["allergy", "add", "Latex", "--vault", b])
        _ = try run(["sync", "--vault", b])
        _ = try run(["sync"])
        #expect(try run(["allergy", "list"]).stdout.contains("Latex"))
        let status = try run(["sync", "status", "--json"])
        #expect(status.stdout.contains("\"remote_logs\" : 0") && status.stdout.contains("\"pending_changes\" : 0"), "\(status.stdout)")
    }

    @Test func twoDevicesSyncThroughWebDAVWithRclone() throws {
        let rclone = try #require(["/usr/bin/rclone", "/usr/local/bin/rclone"].first { FileManager.default.isExecutableFile(atPath: $0) },
                                  "rclone is installed by make deps")
        let cli = try CLI(label: "sync-webdav")
        defer { cli.cleanUp() }
        let served = "\(cli.directory)/dav"
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        let server = try Server(rclone, { ["serve", "webdav", served, "--addr", "127.0.0.1:\($0)"] }, environment: ["HOME": cli.directory, "PATH": "/usr/bin:/bin"],
                                log: "\(cli.directory)/dav.log")
        defer { server.stop() }
        try Self.twoDevices(through: "rclone:dav:phr", config: """
            [dav]
            type = webdav
            url = http://127.0.0.1:\(server.port)
            vendor = other
            """, cli: cli)
        // What the server holds: the marker, the logs and the blob, nothing else.
        let files = FileManager.default.enumerator(atPath: "\(served)/phr")?.allObjects as? [String] ?? []
        #expect(files.contains("phr-sync.json") && files.contains { $0.hasPrefix("logs/") && $0.hasSuffix(".log") }
                && files.contains { $0.hasPrefix("blobs/") && $0.count == "blobs/ab/".count + 64 }, "\(files)")
    }

    @Test func twoDevicesSyncThroughAnS3ServerWithRclone() throws {
        let moto = "\(CLI.packageRoot)/.build/venv-s3/bin/moto_server"
        try #require(FileManager.default.isExecutableFile(atPath: moto), "moto's S3 server is installed by make deps into .build/venv-s3")
        let cli = try CLI(label: "sync-s3")
        defer { cli.cleanUp() }
        let server = try Server(moto, { ["-H", "127.0.0.1", "-p", String($0)] }, environment: ["HOME": cli.directory, "PATH": "/usr/bin:/bin"],
                                log: "\(cli.directory)/moto.log")
        defer { server.stop() }
        try Self.twoDevices(through: "rclone:s3:phr-vault/family", config: """
            [s3]
            type = s3
            provider = Other
            endpoint = http://127.0.0.1:\(server.port)
            access_key_id = test
            secret_access_key = test
            region = us-east-1
            """, cli: cli)
    }
}

/// `phr sync` through folders two Syncthing instances share on loopback (static addresses, no
/// discovery, relays or NAT): the only files phr writes there are new, whole, uniquely named
/// ones, so Syncthing carries them without a conflict copy, and each vault syncs with its own
/// folder.
@Suite struct SyncThroughSyncthingTests {
    struct Instance {
        let home: String
        let folder: String
        let id: String
        let port: Int
        let gui: Int
    }

    static func instance(_ cli: CLI, _ name: String) throws -> Instance {
        let home = "\(cli.directory)/syncthing-\(name)"
        let folder = "\(cli.directory)/shared-\(name)"
        try FileManager.default.createDirectory(atPath: "\(folder)/.stfolder", withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/syncthing")
        process.arguments = ["generate", "--home=\(home)", "--no-default-folder"]
        process.environment = ["HOME": cli.directory, "PATH": "/usr/bin:/bin"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let line = try #require(said.split(separator: "\n").first { $0.contains("Device ID:") }, "\(said)")
        let id = String(line.split(separator: " ").last ?? "")
        return Instance(home: home, folder: folder, id: id, port: Loopback.freePort(), gui: Loopback.freePort())
    }

    /// `instance`'s configuration: both devices at their static loopback addresses, one shared
    /// folder watched with a one-second delay, nothing that reaches beyond the machine.
    static func configure(_ instance: Instance, peer: Instance) throws {
        let devices = [instance, peer].map { device in
            "<device id=\"\(device.id)\" name=\"\(device.id.prefix(7))\" compression=\"metadata\"><address>tcp://127.0.0.1:\(device.port)</address></device>"
        }.joined(separator: "\n")
        let config = """
            <configuration version="36">
                <folder id="phr-vault" label="phr" path="\(instance.folder)" type="sendreceive" rescanIntervalS="2" fsWatcherEnabled="true" fsWatcherDelayS="1">
                    <device id="\(instance.id)"></device>
                    <device id="\(peer.id)"></device>
                    <minDiskFree unit="%">0</minDiskFree>
                </folder>
                \(devices)
                <gui enabled="true" tls="false"><address>127.0.0.1:\(instance.gui)</address><apikey>phr-test-\(instance.gui)</apikey></gui>
                <options>
                    <listenAddress>tcp://127.0.0.1:\(instance.port)</listenAddress>
                    <globalAnnounceEnabled>false</globalAnnounceEnabled>
                    <localAnnounceEnabled>false</localAnnounceEnabled>
                    <relaysEnabled>false</relaysEnabled>
                    <natEnabled>false</natEnabled>
                    <urAccepted>-1</urAccepted>
                    <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
                    <crashReportingEnabled>false</crashReportingEnabled>
                    <startBrowser>false</startBrowser>
                    <minHomeDiskFree unit="%">0</minHomeDiskFree>
                </options>
            </configuration>
            """
        try config.write(toFile: "\(instance.home)/config.xml", atomically: true, encoding: .utf8)
    }

    /// Waits until every file under `source` (phr's objects) is also under `destination`.
    static func carried(from source: String, to destination: String, seconds: Double = 90) -> Bool {
        func files(_ root: String) -> Set<String> {
            Set((FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).filter {
                ($0.hasPrefix("logs/") && $0.hasSuffix(".log")) || ($0.hasPrefix("blobs/") && $0.count > 60) || $0 == "phr-sync.json"
            })
        }
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if files(source).isSubset(of: files(destination)) { return true }
            usleep(200_000)
        }
        return false
    }

    @Test func editsOnOneVaultAppearInTheOtherThroughSyncthing() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/syncthing"), "Syncthing is installed by make deps")
        let cli = try CLI(label: "sync-syncthing")
        defer { cli.cleanUp() }
        let one = try Self.instance(cli, "one"), two = try Self.instance(cli, "two")
        try Self.configure(one, peer: two)
        try Self.configure(two, peer: one)
        let servers = try [one, two].map { instance in
            try SyncEngineTests.Server("/usr/bin/syncthing", { _ in
                ["serve", "--home=\(instance.home)", "--no-browser", "--no-restart", "--no-upgrade", "--skip-port-probing"]
            }, environment: ["HOME": cli.directory, "PATH": "/usr/bin:/bin", "STNOUPGRADE": "1"], log: "\(instance.home).log", port: instance.gui)
        }
        defer { servers.forEach { $0.stop() } }

        let env = SyncCommandTests.env
        func run(_ arguments: [String], _ extra: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation) throws -> CLI.Result {
            let result = try cli.run(arguments, env.merging(extra) { $1 })
            #expect(result.status == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
            return result
        }
        let b = "\(cli.directory)/vault-b"
        _ = try cli.initVault(passphrase: SyncCommandTests.passphrase)
        _ = try run(["med", "add", "Metformin", "--dose", "500 mg", "--schedule", "08:00,20:00"])
        _ = try run(["doc", "add", "\(CLI.packageRoot)/Samples/documents/insurance-card.pdf"])
        _ = try run(["sync", "init"])
        _ = try run(["sync", "remote", "add", "syncthing", one.folder])
        _ = try run(["sync"])
        #expect(Self.carried(from: one.folder, to: two.folder), "Syncthing carried A's objects to B's folder")
        let enrol = try run(["sync", "enroll", "--out", "\(cli.directory)/enrol.phr"])
        let code = try #require(enrol.stderr.split(separator: "\n").last.map(String.init))
        _ = try run(["sync", "join", "\(cli.directory)/enrol.phr", "--vault", b, "--remote", two.folder], ["PHR_SYNC_CODE": code])
        #expect(try run(["med", "list", "--vault", b]).stdout.contains("Metformin"))
        #expect(try run(["doc", "list", "--vault", b]).stdout.contains("Member ID card"))

        // An edit on B reaches A through Syncthing.
        _ = try run(["allergy", "add", "Penicillin", "--vault", b])
        _ = try run(["sync", "--vault", b])
        #expect(Self.carried(from: two.folder, to: one.folder), "Syncthing carried B's log to A's folder")
        _ = try run(["sync"])
        #expect(try run(["allergy", "list"]).stdout.contains("Penicillin"))
        // No conflict copies: every file in either folder is one phr wrote.
        for folder in [one.folder, two.folder] {
            let strays = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).filter { $0.contains("sync-conflict") }
            #expect(strays.isEmpty, "\(strays)")
        }
    }
}
