import Foundation
import Glibc
import Testing

/// The CLI through a running `phr serve` agent: every read command the agent serves gives the
/// same bytes and exit status as the CLI alone, writes never go through it, and only the user
/// who started it can talk to it.
@Suite(.serialized) struct AgentCLITests {
    static let passphrase = "correct horse battery staple"
    static let now = "2026-11-29T10:00:00Z"

    /// A vault with one record of every kind a read command lists, and the IDs of a few.
    struct Seeded {
        let cli: CLI
        let withPassphrase: [String: String]
        let withoutPassphrase: [String: String]
        var ids: [String: String] = [:]
    }

    static func seeded(_ label: String) throws -> Seeded {
        let cli = try CLI(label: label)
        _ = try cli.initVault(passphrase: passphrase)
        let file = "\(cli.directory)/passphrase"
        let common = ["PHR_TEST_NOW": now, "XDG_RUNTIME_DIR": cli.runtimeDirectory, "TZ": "Europe/Berlin"]
        var seeded = Seeded(cli: cli, withPassphrase: common.merging(["PHR_PASSPHRASE_FILE": file]) { $1 },
                            withoutPassphrase: common.merging(["PHR_PASSPHRASE_FILE": ""]) { $1 })
        let adds: [(String, [String])] = [
            ("med", ["med", "add", "Metformin", "--dose", "500mg", "--every", "8h"]),
            ("allergy", ["allergy", "add", "Penicillin", "--severity", "severe"]),
            ("condition", ["condition", "add", "Asthma"]),
            ("immunization", ["immunization", "add", "Tetanus", "--date", "2025-01-01"]),
            ("contact", ["contact", "add", "Dr Kim Lee", "--phone", "+49 30 1234567"]),
            ("appt", ["appt", "add", "--with", "Dr Kim Lee", "--at", "2026-12-03 09:30"]),
            ("lab", ["lab", "add", "ferritin", "12", "ng/mL", "--range", "30-400", "--date", "2024-03-18"]),
            ("lab2", ["lab", "add", "ferritin", "41", "ng/mL", "--range", "30-400", "--date", "2025-06-02"]),
            ("log", ["log", "water", "+", "--drink", "coffee", "--at", "09:00"]),
            ("weight", ["log", "weight", "72.5kg", "--at", "07:10"]),
            ("doc", ["doc", "add", "\(CLI.packageRoot)/Samples/documents/prescription-amoxicillin.pdf", "--ocr", "never"]),
            ("id", ["id", "set", "--name", "Alex Doe", "--blood-type", "A+"]),
            ("goal", ["goal", "set", "water", "2.5l"]),
            ("profile", ["profile", "add", "Sam", "--relation", "child"]),
        ]
        for (name, arguments) in adds {
            let added = try cli.run(arguments + ["--json"], seeded.withPassphrase)
            #expect(added.status == 0, "\(arguments): \(added.stderr)")
            let json = try? JSONSerialization.jsonObject(with: Data(added.stdout.utf8))
            let object = (json as? [[String: Any]])?.first ?? json as? [String: Any] ?? [:]
            if let id = object["id"] as? String ?? (object["document"] as? [String: Any])?["id"] as? String
                ?? (object["entry"] as? [String: Any])?["id"] as? String {
                seeded.ids[name] = id
            }
        }
        let sams = try cli.run(["med", "add", "Salbutamol", "--as-needed", "--profile", "Sam"], seeded.withPassphrase)
        #expect(sams.status == 0, "\(sams.stderr)")
        return seeded
    }

    /// Starts `phr serve --detach` and returns its ready line.
    static func serve(_ seeded: Seeded) throws -> [String: Any] {
        // --for: an agent a failed test leaves behind locks itself soon.
        let detached = try seeded.cli.run(["serve", "--detach", "--json", "--for", "3m"], seeded.withPassphrase, timeout: 60)
        #expect(detached.status == 0, "\(detached.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(detached.stdout.utf8)) as? [String: Any])
    }

    @Test func readCommandsThroughTheAgentGiveTheSameBytesAndWritesNeverGoThroughIt() throws {
        let seeded = try Self.seeded("agent-cli")
        let cli = seeded.cli
        defer {
            _ = try? cli.run(["lock"], seeded.withoutPassphrase)
            cli.cleanUp()
        }
        let ids = seeded.ids
        #expect(ids["med"] != nil && ids["doc"] != nil && ids["appt"] != nil && ids["lab"] != nil && ids["log"] != nil, "\(ids)")
        let commands: [[String]] = [
            ["search", "metformin"], ["search", "ferritin", "--json"], ["search", "amoxicilin"], ["search", "nothing-like-this"],
            ["search", "type:lab", "--limit", "5"],
            ["doc", "list"], ["doc", "list", "--json"], ["doc", "show", ids["doc"] ?? "x", "--text"], ["doc", "show", "zzzzzz"],
            ["med", "list"], ["med", "list", "--json"], ["med", "show", ids["med"] ?? "x"], ["med", "due"], ["med", "due", "--json"],
            ["med", "list", "--profile", "Sam"], ["med", "list", "--profile", "Nobody"],
            ["appt", "list"], ["appt", "show", ids["appt"] ?? "x"], ["appt", "cal", "--month", "2026-12"],
            ["lab", "list"], ["lab", "show", ids["lab"] ?? "x"], ["lab", "trend"], ["lab", "trend", "ferritin"], ["lab", "trend", "ferritin", "--json"],
            ["log", "list"], ["log", "show", ids["log"] ?? "x"],
            ["contact", "list"], ["allergy", "list"], ["condition", "list"], ["immunization", "list"], ["observation", "list"],
            ["profile", "list"], ["id", "show"], ["goal", "list"], ["stats"], ["stats", "water", "--month"], ["emergency"],
            ["emergency", "--json"],
            // The vault named relative to the CLI's directory; another vault (none there); help
            // and a usage error, which the agent leaves to the CLI.
            ["med", "list", "--vault", "vault"], ["med", "list", "--vault=./vault/"], ["med", "list", "--vault", "/nonexistent"],
            ["search", "--help"], ["search"], ["med", "list", "--bogus"],
        ]
        var alone: [[String]: CLI.Result] = [:]
        for command in commands { alone[command] = try cli.run(command, seeded.withPassphrase) }
        // Without the agent and without a passphrase, the vault is locked: what answers below is
        // the agent.
        #expect(try cli.run(["med", "list"], seeded.withoutPassphrase).status == 77)

        let ready = try Self.serve(seeded)
        let socket = try #require(ready["socket"] as? String, "serve --json names the agent's socket")
        // phr status says an agent holds the vault open (issue 28), and where its web UI is.
        let status = try cli.run(["status"], seeded.withoutPassphrase).stdout
        #expect(status.contains("agent     phr serve (pid ") && status.contains("at \(ready["url"] as? String ?? "?") since "), "\(status)")
        let statusJSON = try #require(try JSONSerialization.jsonObject(with: Data(cli.run(["status", "--json"], seeded.withoutPassphrase).stdout.utf8)) as? [String: Any])
        #expect((statusJSON["agent"] as? [String: Any])?["url"] as? String == ready["url"] as? String)
        var info = stat()
        #expect(lstat(socket, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK && info.st_mode & 0o077 == 0, "the socket is the user's only")

        for command in commands {
            let through = try cli.run(command, seeded.withoutPassphrase)
            let expected = try #require(alone[command])
            #expect(through.status == expected.status, "\(command): \(through.status) vs \(expected.status) \(through.stderr)")
            #expect(through.stdout == expected.stdout, "\(command) stdout differs:\n\(through.stdout)\n---\n\(expected.stdout)")
            #expect(through.stderr == expected.stderr, "\(command) stderr differs:\n\(through.stderr)\n---\n\(expected.stderr)")
        }
        // Served means answered without the passphrase: the relative --vault too.
        #expect(try cli.run(["med", "list", "--vault", "vault"], seeded.withoutPassphrase).status == 0)
        // PHR_PROFILE travels with the command.
        let sam = try cli.run(["med", "list"], seeded.withoutPassphrase.merging(["PHR_PROFILE": "Sam"]) { $1 })
        #expect(sam.stdout == alone[["med", "list", "--profile", "Sam"]]?.stdout)
        #expect(sam.stdout.contains("Salbutamol") && !sam.stdout.contains("Metformin"))

        // On a terminal (colour, bold headers), the same screen, stdout and stderr in the order
        // they were written (a misspelling's note comes before the hits).
        for command in [["search", "metformin"], ["search", "metfromin"], ["lab", "trend", "ferritin"]] {
            let terminalAlone = try cli.runOnTerminal(command, seeded.withPassphrase.merging(["PHR_NO_AGENT": "1"]) { $1 }, input: "")
            let terminalThrough = try cli.runOnTerminal(command, seeded.withoutPassphrase, input: "")
            #expect(terminalAlone.status == 0 && terminalThrough.status == 0, "\(command)")
            #expect(terminalThrough.screen == terminalAlone.screen, "\(command): \(terminalThrough.screen) vs \(terminalAlone.screen)")
            #expect(terminalAlone.screen.contains("\u{1b}["), "the terminal run is coloured")
        }
        let typo = try cli.runOnTerminal(["search", "metfromin"], seeded.withoutPassphrase, input: "")
        let note = typo.screen.range(of: "did you mean"), hit = typo.screen.range(of: "Metformin")
        #expect(note != nil && hit != nil && note!.lowerBound < hit!.lowerBound, "\(typo.screen)")

        // An agent that is stopped (Ctrl-Z) does not hold the CLI: it runs the command itself.
        let pid = Int32(try #require(ready["pid"] as? Int))
        kill(pid, SIGSTOP)
        let started = Date()
        let meanwhile = try cli.run(["med", "list"], seeded.withPassphrase)
        kill(pid, SIGCONT)
        #expect(meanwhile.status == 0 && meanwhile.stdout == alone[["med", "list"]]?.stdout)
        #expect(Date().timeIntervalSince(started) < 10, "the CLI waited \(Date().timeIntervalSince(started)) s for a stopped agent")

        // A write is never answered by the agent; PHR_NO_AGENT keeps reads here too.
        let write = try cli.run(["med", "take", ids["med"] ?? "x"], seeded.withoutPassphrase)
        #expect(write.status == 77)
        #expect(write.stderr.contains("phr serve runs for this vault but answers read commands only"), "\(write.stderr)")
        #expect(try cli.run(["med", "list"], seeded.withoutPassphrase.merging(["PHR_NO_AGENT": "1"]) { $1 }).status == 77)
        #expect(try cli.run(["emergency", "--pdf", "\(cli.directory)/card.pdf"], seeded.withoutPassphrase).status == 77)
        // Once locked, the CLI is on its own again and the socket is gone.
        #expect(try cli.run(["lock"], seeded.withoutPassphrase).status == 0)
        #expect(try cli.run(["med", "list"], seeded.withoutPassphrase).status == 77)
        #expect(access(socket, F_OK) != 0, "the socket outlived the agent")
    }

    /// A client for the agent's socket in Python (the protocol of AgentSocket), run as `uid`.
    static func probe(socket: String, vaultID: String, uid: UInt32?) throws -> (status: Int32, output: String) {
        let script = """
            import json, socket, struct, sys
            request = json.dumps({"vault_id": sys.argv[2], "arguments": ["med", "list"], "environment": {},
                                  "stdout_tty": False, "stderr_tty": False, "zone": sys.argv[3]}).encode()
            s = socket.socket(socket.AF_UNIX)
            try:
                s.connect(sys.argv[1])
            except PermissionError:
                print("refused: permission"); sys.exit(0)
            answer = b""
            try:
                s.sendall(struct.pack(">I", len(request)) + request)
                while True:
                    chunk = s.recv(65536)
                    if not chunk: break
                    answer += chunk
            except (BrokenPipeError, ConnectionResetError):
                pass
            print("answered" if answer else "closed", len(answer))
            """
        let process = Process()
        var arguments = ["/usr/bin/python3", "-c", script, socket, vaultID, TimeZone(identifier: "Europe/Berlin")!.identifier]
        if let uid { arguments = ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups"] + arguments }
        process.executableURL = URL(fileURLWithPath: uid == nil ? arguments.removeFirst() : "/usr/bin/setpriv")
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test(.enabled(if: getuid() == 0 && access("/usr/bin/setpriv", X_OK) == 0,
                   "needs root and setpriv to run a client as another user"))
    func anotherUserCannotUseTheAgent() throws {
        let seeded = try Self.seeded("agent-uid")
        let cli = seeded.cli
        var agentPID: Int32 = 0
        defer {
            // The test opened the runtime directory to everyone, which phr refuses to use (so
            // `phr lock` would not find the agent): close it again, lock, and make sure.
            chmod("\(cli.runtimeDirectory)/phr", 0o700)
            _ = try? cli.run(["lock"], seeded.withoutPassphrase)
            if agentPID > 0 { kill(agentPID, SIGTERM) }
            cli.cleanUp()
        }
        let ready = try Self.serve(seeded)
        agentPID = Int32(ready["pid"] as? Int ?? 0)
        let socket = try #require(ready["socket"] as? String)
        let vaultID = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(cli.vault)/keys.json"))) as? [String: Any])["vault_id"] as? String ?? ""
        // Its own user gets an answer.
        let own = try Self.probe(socket: socket, vaultID: vaultID, uid: nil)
        #expect(own.output.hasPrefix("answered"), "\(own.output)")
        // Another user cannot even reach the socket: the runtime directory is 0700.
        for directory in [cli.directory, cli.runtimeDirectory] { chmod(directory, 0o755) }
        let stranger = try Self.probe(socket: socket, vaultID: vaultID, uid: 65534)
        #expect(stranger.output.hasPrefix("refused"), "\(stranger.output)")
        // With the directory and socket opened to everyone (a mistake phr never makes), the agent
        // still checks who is calling and closes without a word.
        chmod((socket as NSString).deletingLastPathComponent, 0o755)
        chmod(socket, 0o666)
        let through = try Self.probe(socket: socket, vaultID: vaultID, uid: 65534)
        #expect(through.output.hasPrefix("closed"), "\(through.output)")
    }
}
