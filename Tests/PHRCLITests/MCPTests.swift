import Foundation
import Glibc
import Testing

/// `phr mcp`: the official MCP Python SDK as the client (Tests/MCP/mcp_client.py), the scope,
/// the phr serve agent, the access log, and a hostile client speaking raw bytes.
@Suite(.serialized) struct MCPTests {
    static let python = "\(CLI.packageRoot)/.build/venv-mcp/bin/python3"
    static let sdkReady = FileManager.default.isExecutableFile(atPath: python)
    static let env = ServeTests.env

    struct Seeded {
        var canary: String
        var document: String
    }

    /// A vault with records of every kind for the default profile "me", and a profile "Sam" whose
    /// medication and condition carry a canary that must never reach an assistant scoped to "me".
    static func seed(_ cli: CLI) throws -> Seeded {
        _ = try cli.initVault(passphrase: ServeTests.passphrase)
        let canary = "Zyxqw" + UUID().uuidString.prefix(8).lowercased().filter(\.isLetter) + "canary"
        let commands: [[String]] = [
            ["id", "set", "--name", "Alex Example", "--blood-type", "A+"],
            ["med", "add", "Levothyroxine", "--dose", "50 µg", "--schedule", "08:00"],
            ["med", "add", "Ibuprofen", "--dose", "400 mg", "--as-needed"],
            ["allergy", "add", "Penicillin", "--severity", "severe"],
            ["condition", "add", "Hypothyroidism", "--since", "2019-04-01"],
            ["immunization", "add", "Tetanus", "--date", "2021-05-03"],
            ["procedure", "add", "Appendectomy", "--date", "2008-07-14"],
            ["family", "add", "mother", "type 2 diabetes", "--age", "52"],
            ["contact", "add", "Dr. Lee", "--phone", "555-0100", "--emergency"],
            ["appt", "add", "--with", "Dr. Lee", "--at", "2031-03-04 10:30"],
            ["lab", "add", "ferritin", "25", "ng/mL", "--range", "30-400", "--date", "2025-06-01"],
            ["lab", "add", "ferritin", "48", "ng/mL", "--range", "30-400", "--date", "2025-09-01"],
            ["log", "water", "500ml", "--at", "2026-11-01 09:00"],
            ["log", "water", "250ml", "--at", "2026-11-02 09:00"],
            ["log", "water", "750ml", "--at", "2026-11-03 09:00"],
            ["doc", "add", "\(CLI.packageRoot)/Samples/documents/lab-report-cbc-ferritin.pdf"],
            ["profile", "add", "Sam", "--relation", "child"],
            ["med", "add", "\(canary) tablets", "--dose", "5 mg", "--every", "8h", "--profile", "Sam"],
            ["condition", "add", "\(canary) syndrome", "--profile", "Sam"],
        ]
        for command in commands {
            let result = try cli.run(command, env)
            #expect(result.status == 0, "phr \(command.joined(separator: " ")): \(result.output)")
        }
        let documents = try JSONSerialization.jsonObject(with: Data(try cli.run(["doc", "list", "--json"], env).stdout.utf8)) as? [[String: Any]]
        return Seeded(canary: canary, document: try #require(documents?.first?["id"] as? String))
    }

    /// Runs the Python client's `check` against `phr mcp`; its exit status, what it said and how
    /// many logged calls it made.
    static func client(_ cli: CLI, check: String, environment: [String: String], seeded: Seeded) throws -> (status: Int32, said: String, calls: Int) {
        let config: [String: Any] = ["phr": CLI.phr, "env": environment, "check": check, "canary": seeded.canary, "document": seeded.document]
        let (status, said) = try cli.runPython(python, ["\(CLI.packageRoot)/Tests/MCP/mcp_client.py",
                                                       String(decoding: try JSONSerialization.data(withJSONObject: config), as: UTF8.self)])
        let calls = said.split(separator: "\n").last { $0.hasPrefix("calls ") }.flatMap { Int($0.dropFirst("calls ".count)) } ?? -1
        return (status, said, calls)
    }

    /// What `phr mcp log --json` holds.
    static func accessLog(_ cli: CLI, _ extra: [String: String] = env) throws -> [[String: Any]] {
        let result = try cli.run(["mcp", "log", "--json", "--limit", "20000"], extra)
        #expect(result.status == 0, "\(result.output)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    }

    /// The records, as a phr export (which holds no access log).
    static func records(_ cli: CLI) throws -> String {
        var texts: [String] = []
        for profile in ["me", "Sam"] {
            let file = "\(cli.directory)/export-\(profile)-\(UUID().uuidString.prefix(6)).json"
            #expect(try cli.run(["export", "--profile", profile, "--out", file], env).status == 0)
            var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
            object["exported_at"] = nil
            texts.append(String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self))
            try FileManager.default.removeItem(atPath: file)
        }
        return texts.joined(separator: "\n")
    }

    @Test(.enabled(if: sdkReady, "needs the MCP Python SDK in .build/venv-mcp (make deps sets it up)"))
    func theOfficialClientReadsWhatTheCLIWouldSayAndNothingOutsideTheScope() throws {
        let cli = try CLI(label: "mcp")
        defer { cli.cleanUp() }
        let seeded = try Self.seed(cli)
        let before = try Self.records(cli)
        var environment = cli.environment
        environment.merge(Self.env) { _, new in new }
        environment["PHR_NO_AGENT"] = "1"
        var calls = 0
        for check in ["full", "scoped", "all-profiles"] {
            let run = try Self.client(cli, check: check, environment: environment, seeded: seeded)
            #expect(run.status == 0 && !run.said.contains("FAIL") && run.calls > 0, "\(check):\n\(run.said)")
            calls += max(run.calls, 0)
        }
        // Every call is in the access log: what was asked, never what was answered.
        let log = try Self.accessLog(cli)
        #expect(log.count == calls, "\(log.count) logged, \(calls) made")
        let tools = Set(log.compactMap { $0["call"] as? String })
        for tool in ["search", "list_records", "get_record", "document_text", "lab_trend", "medications", "due_doses", "log_stats",
                     "appointments", "emergency_summary", "medical_id", "drug_information", "interaction_warnings", "list_profiles",
                     "resources/list", "resources/read", "med_add"] {
            #expect(tools.contains(tool), "\(tool) is not in the access log")
        }
        #expect(log.contains { $0["client"] as? String == "phr-test-auto 1.0" && $0["via"] as? String == "process" })
        #expect(log.contains { $0["call"] as? String == "med_add" && $0["outcome"] as? String == "refused" })
        #expect(log.contains { ($0["arguments"] as? String)?.contains("ferritin") == true })
        let logText = try cli.run(["mcp", "log", "--limit", "20000"], Self.env).stdout
        #expect(!logText.contains("Laboratory Report") && !logText.contains("Sample Reference Laboratory"), "record text in the access log")
        #expect(try Self.records(cli) == before, "the records changed")
    }

    @Test(.enabled(if: sdkReady, "needs the MCP Python SDK in .build/venv-mcp (make deps sets it up)"))
    func throughTheServeAgentWithoutASecondUnlock() throws {
        let cli = try CLI(label: "mcp-agent")
        defer { cli.cleanUp() }
        let seeded = try Self.seed(cli)
        var environment = cli.environment
        environment["XDG_RUNTIME_DIR"] = cli.runtimeDirectory
        // Unlocked for a while ('phr unlock'): readable until 'phr lock'; the log then holds one
        // call (the second found the vault locked, with nothing to log it in).
        #expect(try cli.run(["unlock", "--for", "10m"], Self.env.merging(["XDG_RUNTIME_DIR": cli.runtimeDirectory]) { _, new in new }).status == 0)
        let unlocked = try Self.client(cli, check: "unlocked", environment: environment, seeded: seeded)
        #expect(unlocked.status == 0 && !unlocked.said.contains("FAIL"), "\(unlocked.said)")
        #expect(try Self.accessLog(cli).count == 1)
        // No passphrase, no unlock cache: locked to phr mcp itself.
        let locked = try Self.client(cli, check: "locked", environment: environment, seeded: seeded)
        #expect(locked.status == 0 && !locked.said.contains("FAIL"), "\(locked.said)")
        let agent = try ServeTests.Agent(cli)
        defer { agent.stop() }
        let run = try Self.client(cli, check: "agent", environment: environment, seeded: seeded)
        #expect(run.status == 0 && !run.said.contains("FAIL"), "\(run.said)")
        let log = try Self.accessLog(cli, ["XDG_RUNTIME_DIR": cli.runtimeDirectory, "PHR_PASSPHRASE": ""])
        #expect(log.count == run.calls + 1 && log.dropLast().allSatisfy { $0["via"] as? String == "agent" }, "\(log)")
    }

    /// A running `phr mcp` fed raw bytes.
    final class RawServer {
        let process = Process()
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()

        init(_ cli: CLI, arguments: [String] = []) throws {
            process.executableURL = URL(fileURLWithPath: CLI.phr)
            process.arguments = ["mcp"] + arguments
            var environment = cli.environment
            environment.merge(MCPTests.env) { _, new in new }
            environment["PHR_NO_AGENT"] = "1"
            process.environment = environment
            process.standardInput = input
            process.standardOutput = output
            process.standardError = errors
            try process.run()
        }

        func send(_ text: String) throws { try input.fileHandleForWriting.write(contentsOf: Data(text.utf8)) }

        /// The next message, parsed.
        func receive() throws -> [String: Any] {
            var line = Data()
            while true {
                let byte = try output.fileHandleForReading.read(upToCount: 1) ?? Data()
                guard let first = byte.first else { break }
                if first == UInt8(ascii: "\n") { break }
                line.append(first)
            }
            return try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any], "not JSON: \(String(decoding: line.prefix(300), as: UTF8.self))")
        }

        func errorCode(_ message: [String: Any]) -> Int? { (message["error"] as? [String: Any])?["code"] as? Int }

        /// Waits at most `seconds` for the process to end; its status, or nil (a hang).
        func exit(within seconds: Double) -> (status: Int32, reason: Process.TerminationReason)? {
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning {
                process.terminate()
                return nil
            }
            return (process.terminationStatus, process.terminationReason)
        }
    }

    static let initialize = #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"# + "\n"

    @Test func aHostileClientGetsProtocolErrorsNeverATrapOrAHang() throws {
        let cli = try CLI(label: "mcp-hostile")
        defer { cli.cleanUp() }
        _ = try Self.seed(cli)
        let before = try Self.records(cli)
        let server = try RawServer(cli)
        // Before initialize: refused.
        try server.send(#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"# + "\n")
        #expect(server.errorCode(try server.receive()) == -32600)
        try server.send(Self.initialize)
        #expect((try server.receive()["result"] as? [String: Any])?["protocolVersion"] as? String == "2025-11-25")
        let cases: [(String, Int)] = [
            ("{not json", -32700),
            ("[]", -32600),
            ("42", -32600),
            (#"{"jsonrpc":"1.0","id":2,"method":"ping"}"#, -32600),
            (#"{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}"#, -32600),
            (#"{"jsonrpc":"2.0","id":3,"method":"tools/delete"}"#, -32601),
            (#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":[1,2]}"#, -32602),
            (#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"arguments":{}}}"#, -32602),
            (#"{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"file:///etc/passwd"}}"#, -32602),
            (#"{"jsonrpc":"2.0","id":8,"method":"resources/read","params":{"uri":"phr://me/documents/../../etc"}}"#, -32002),
            (String(repeating: "[", count: 5000), -32700),
        ]
        for (message, code) in cases {
            try server.send(message + "\n")
            let answer = try server.receive()
            #expect(server.errorCode(answer) == code, "\(message.prefix(80)): \(answer)")
        }
        // A tool's argument of the wrong type (2025-11-25): a result with isError naming it.
        try server.send(#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"search","arguments":{"query":7}}}"# + "\n")
        let wrongType = try #require(try server.receive()["result"] as? [String: Any])
        #expect(wrongType["isError"] as? Bool == true && "\(wrongType["content"] ?? "")".contains("arguments.query"), "\(wrongType)")
        // A message over 1 MiB is refused without being held; the next one is answered.
        try server.send(#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"search","arguments":{"query":""# +
                        String(repeating: "a", count: 2 << 20) + "\"}}}\n")
        #expect(server.errorCode(try server.receive()) == -32600)
        try server.send(#"{"jsonrpc":"2.0","id":10,"method":"ping"}"# + "\n")
        #expect(try server.receive()["id"] as? Int == 10)
        // A flood: every call answered, in order.
        let flood = (0..<500).map { #"{"jsonrpc":"2.0","id":\#(100 + $0),"method":"tools/call","params":{"name":"list_records","arguments":{"kind":"allergies"}}}"# }
        try server.send(flood.joined(separator: "\n") + "\n")
        var answered = 0
        for index in 0..<500 {
            let answer = try server.receive()
            if answer["id"] as? Int == 100 + index, answer["result"] != nil { answered += 1 }
        }
        #expect(answered == 500)
        // A closed stdin mid-stream: the request under way is answered, then a clean exit.
        try server.send(#"{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"search","arguments":{"query":"ferritin"}}}"# + "\n")
        try server.input.fileHandleForWriting.close()
        #expect(try server.receive()["id"] as? Int == 11)
        let ended = server.exit(within: 30)
        #expect(ended?.status == 0 && ended?.reason == .exit, "\(String(describing: ended))")

        // A client that stops reading and goes away mid-answer: a clean exit, not SIGPIPE.
        let gone = try RawServer(cli)
        try gone.send(Self.initialize)
        _ = try gone.receive()
        try gone.output.fileHandleForReading.close()
        try gone.send((0..<50).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"tools/call","params":{"name":"search","arguments":{"query":"ferritin"}}}"# }
            .joined(separator: "\n") + "\n")
        try? gone.input.fileHandleForWriting.close()
        let closed = gone.exit(within: 30)
        #expect(closed?.status == 0 && closed?.reason == .exit, "\(String(describing: closed))")
        #expect(try Self.records(cli) == before, "the records changed")
    }

    @Test func scopeFlagsAreCheckedBeforeAnythingIsServed() throws {
        let cli = try CLI(label: "mcp-flags")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: ServeTests.passphrase)
        let both = try cli.run(["mcp", "--all-profiles", "--profile", "me"], Self.env, stdin: "")
        #expect(both.status == 64 && both.stderr.contains("--all-profiles"), "\(both.output)")
        let kind = try cli.run(["mcp", "--only", "xrays"], Self.env, stdin: "")
        #expect(kind.status == 64 && kind.stderr.contains("'xrays' is not a kind of record"), "\(kind.output)")
        let nothing = try cli.run(["mcp", "--only", "documents", "--no-documents"], Self.env, stdin: "")
        #expect(nothing.status == 64, "\(nothing.output)")
        let missing = try cli.run(["mcp"], ["PHR_VAULT": cli.directory + "/nowhere"], stdin: "")
        #expect(missing.status != 0 && missing.stderr.hasPrefix("phr: error: "), "\(missing.output)")
        let empty = try cli.run(["mcp", "log"], Self.env)
        #expect(empty.status == 0 && empty.stderr.contains("no assistant has read anything"), "\(empty.output)")
    }
}
