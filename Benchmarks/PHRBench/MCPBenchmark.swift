import Foundation
import Glibc
import PHRCore

/// Issue 30's budgets for `phr mcp`: start-up to `initialize` answered under 150 ms; a tool call
/// answered under 20 ms (median) on a vault of 10,000 documents when a `phr serve` agent runs,
/// under 100 ms without one. Beside each: the same question as a whole `phr … --json` process
/// (the baseline an assistant without MCP would have), in the same run. The vault is the screens
/// benchmark's (10,000 documents, three years of log, 200 lab results, ten medications, a hundred
/// appointments).
enum MCPBenchmark {
    static let startRuns = 20
    static let callRuns = 30
    static let passphrase = ScreensBenchmark.passphrase

    /// A `phr mcp` process and its pipes: one request written, one line read back.
    final class Server {
        let process = Process()
        private let input = Pipe()
        private let output = Pipe()
        private var buffer = Data()
        private var nextID = 1

        init(phr: String, vaultPath: String, environment: [String: String]) throws {
            process.executableURL = URL(fileURLWithPath: phr)
            process.arguments = ["mcp", "--vault", vaultPath]
            process.environment = environment
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        func request(_ method: String, _ params: String) throws -> Data {
            let id = nextID
            nextID += 1
            try input.fileHandleForWriting.write(contentsOf: Data(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#.utf8) + Data([0x0A]))
            while true {
                if let newline = buffer.firstIndex(of: 0x0A) {
                    let line = buffer[buffer.startIndex..<newline]
                    buffer = Data(buffer[(newline + 1)...])
                    return Data(line)
                }
                let chunk = output.fileHandleForReading.availableData
                guard !chunk.isEmpty else { throw BenchmarkError.failed("phr mcp closed its output") }
                buffer.append(chunk)
            }
        }

        func initialize() throws {
            let answer = try request("initialize", #"{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"phr-bench","version":"1"}}"#)
            guard String(decoding: answer, as: UTF8.self).contains("\"protocolVersion\"") else {
                throw BenchmarkError.failed("initialize: \(String(decoding: answer.prefix(300), as: UTF8.self))")
            }
        }

        func call(_ tool: String, _ arguments: String) throws -> Data {
            let answer = try request("tools/call", #"{"name":"\#(tool)","arguments":\#(arguments)}"#)
            let text = String(decoding: answer, as: UTF8.self)
            guard text.contains("\"isError\":false") else { throw BenchmarkError.failed("\(tool): \(text.prefix(300))") }
            return answer
        }

        func stop() {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
    }

    static func run() throws {
        let phr = try BenchProcess.phrExecutable()
        let directory = try Benchmark.scratchDirectory("mcp")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (vault, profile, vaultPath, filled) = try ScreensBenchmark.filledVault(in: directory)
        let time = TimeContext.current()
        let medication = try MedicationStore(vault: vault, profile: profile, time: time).list().last?.id ?? ""
        print(String(format: "vault: the screens benchmark's (10,000 documents, three years of log, 200 lab results, 10 medications, 100 appointments; filled in %.1f s)", filled))

        var environment = ProcessInfo.processInfo.environment
        environment["PHR_PASSPHRASE"] = passphrase
        environment["XDG_RUNTIME_DIR"] = "\(directory)/run"
        environment["PHR_NO_AGENT"] = nil
        try FileManager.default.createDirectory(atPath: "\(directory)/run", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])

        // The questions: each a tool call, and the `phr` command that answers the same.
        let questions: [(String, String, String, [String])] = [
            ("search 'ferritin'", "search", #"{"query":"ferritin"}"#, ["search", "ferritin", "--json"]),
            ("list_records documents (a page of 50)", "list_records", #"{"kind":"documents"}"#, ["doc", "list", "--json"]),
            ("list_records lab_results", "list_records", #"{"kind":"lab_results"}"#, ["lab", "list", "--json"]),
            ("lab_trend ferritin", "lab_trend", #"{"analyte":"ferritin"}"#, ["lab", "trend", "ferritin", "--json"]),
            ("get_record a medication", "get_record", #"{"kind":"medications","id":"\#(medication)"}"#, ["med", "show", medication, "--json"]),
            ("due_doses", "due_doses", "{}", ["med", "due", "--json"]),
            ("log_stats month", "log_stats", #"{"period":"month"}"#, ["stats", "--month", "--json"]),
            ("appointments", "appointments", "{}", ["appt", "list", "--json"]),
        ]
        func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }
        func median(_ values: [Double]) -> Double { SearchBenchmark.percentile(values, 0.5) }

        /// Median and p95 of `callRuns` calls of each question on one `phr mcp` process.
        func calls(_ environment: [String: String]) throws -> [(median: Double, p95: Double)] {
            let server = try Server(phr: phr, vaultPath: vaultPath, environment: environment)
            defer { server.stop() }
            try server.initialize()
            return try questions.map { question in
                _ = try server.call(question.1, question.2)
                var times: [Double] = []
                for _ in 0..<callRuns { times.append(try Benchmark.time { _ = try server.call(question.1, question.2) }) }
                return (median(times), SearchBenchmark.percentile(times, 0.95))
            }
        }

        // 1. Start-up: spawn to `initialize` answered (the vault is not opened for it).
        var starts: [Double] = []
        for _ in 0..<startRuns {
            var server: Server?
            starts.append(try Benchmark.time {
                server = try Server(phr: phr, vaultPath: vaultPath, environment: environment)
                try server?.initialize()
            })
            server?.stop()
        }

        // 2. Without an agent: phr mcp opens the vault itself (a passphrase variable here).
        var alone = environment
        alone["PHR_NO_AGENT"] = "1"
        let withoutAgent = try calls(alone)
        var cliAlone: [Double] = []
        for question in questions {
            cliAlone.append(try Benchmark.median(runs: 5) { _ = try BenchProcess.output([phr] + question.3 + ["--vault", vaultPath], environment: alone) })
        }

        // 3. With `phr serve` running: phr mcp holds no key; the agent answers.
        let started = try BenchProcess.output([phr, "serve", "--detach", "--json", "--vault", vaultPath, "--for", "1h"], environment: environment)
        guard started.status == 0 else { throw BenchmarkError.failed("phr serve --detach exited \(started.status): \(started.text)") }
        defer { _ = try? BenchProcess.run([phr, "lock", "--vault", vaultPath], environment: environment) }
        var locked = environment
        locked["PHR_PASSPHRASE"] = nil
        let withAgent = try calls(locked)
        var cliAgent: [Double] = []
        for question in questions {
            cliAgent.append(try Benchmark.median(runs: 5) { _ = try BenchProcess.output([phr] + question.3 + ["--vault", vaultPath], environment: locked) })
        }

        print(String(format: "start-up to initialize answered: median %@, p95 %@ over %d starts (budget 150 ms)",
                     ms(median(starts)), ms(SearchBenchmark.percentile(starts, 0.95)), startRuns))
        print("tool calls on one phr mcp process, \(callRuns) each after one; beside it, the same question as a whole phr process (median of 5)")
        Benchmark.row("", ["agent: median", "agent: p95", "phr cmd, agent", "alone: median", "alone: p95", "phr cmd, alone"])
        for (index, question) in questions.enumerated() {
            Benchmark.row(question.0, [ms(withAgent[index].median), ms(withAgent[index].p95), ms(cliAgent[index]),
                                       ms(withoutAgent[index].median), ms(withoutAgent[index].p95), ms(cliAlone[index])])
        }
        print(String(format: "median of the medians: %@ with the agent (budget 20 ms), %@ alone (budget 100 ms)",
                     ms(median(withAgent.map(\.median))), ms(median(withoutAgent.map(\.median)))))
    }
}
