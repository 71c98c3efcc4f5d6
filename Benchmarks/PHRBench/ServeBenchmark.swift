import Foundation
import Glibc
import GRDB
import PHRCore

/// Issue 28's figures, on the search benchmark's vault (34k+ pages) once its own figures are
/// taken: `phr search` as a whole process with a `phr serve` agent running (beside recollq,
/// timed in the same run by the search benchmark), search as you type over HTTP with a real
/// client (each keystroke of the 50 queries), the Today and Documents pages with 10,000+
/// documents and three years of log, page images drawn in the sandbox and from the cache, and
/// the agent's memory.
enum ServeBenchmark {
    static let pageRuns = 30

    struct Figures {
        var processMedian: Double
        var processP95: Double
    }

    /// Runs against the search benchmark's `vault` at `vaultPath`; `phrCommands` are its 50
    /// `phr search` commands. Adds document rows for the synthetic documents (their pages are
    /// in the index already; the rows carry no file) and three years of log first.
    static func run(vault: Vault, vaultPath: String, directory: String, phr: String, phrCommands: [[String]],
                    environment: [String: String], unlocked: [String: String], queries: [String]) throws -> Figures {
        let profile = try vault.database.read { db in try Profiles.resolve(db, name: nil) }
        // 1. Rows for the synthetic documents, and three years of log, in-process.
        let rows = try Benchmark.time {
            try vault.database.write { db in
                let synthetic = try Row.fetchAll(db, sql: """
                    SELECT record_id, min(title), min(type), min(date), count(*) FROM search_entry
                    WHERE kind = 'doc' AND record_id NOT IN (SELECT id FROM document) GROUP BY record_id
                    """)
                let now = Timestamp.string(Date())
                for (index, meta) in synthetic.enumerated() {
                    let id: String = meta[0]
                    let name = String(format: "%064x", index + 1)
                    try db.execute(sql: "INSERT INTO blob (name, size, sha256, created_at) VALUES (?, 0, ?, ?)",
                                   arguments: [name, Data(repeating: UInt8(index & 0xff), count: 32), now])
                    let type: String = meta[2] ?? "other"
                    let pages: Int = meta[4]
                    try db.execute(sql: """
                        INSERT INTO document (id, profile_id, blob_name, file_name, media_type, title, type, type_source, date,
                            date_source, outcome, page_count, text_pages, size, sha256, extractor, added_at, updated_at, ocr)
                        VALUES (?, ?, ?, ?, 'application/pdf', ?, ?, 'guessed', ?, 'guessed', 'indexed', ?, ?, 0, ?, 'phr-bench', ?, ?, 'not_needed')
                        """, arguments: [id, profile.id, name, id + ".pdf", (meta[1] as String?) ?? id,
                                         DocumentType(rawValue: type) != nil ? type : "other", meta[3] as String?,
                                         pages, pages, Data(repeating: UInt8(index & 0xff), count: 32), now, now])
                }
            }
        }
        let time = TimeContext.current()
        var generator = LogGenerator(seed: 20_260_101, zone: time.zone)
        let entries = generator.entries(days: HealthLogBenchmark.days, endingOn: time.today(), now: time.now)
        let exportPath = "\(directory)/log.json"
        try ExportFile(profile: profile.name, entries: entries, exportedAt: Timestamp.string(time.now)).write(to: exportPath)
        _ = try RecordImport.run(path: exportPath, vault: vault, profileName: profile.name, time: time)
        let (documents, logEntries) = try vault.database.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM document")!, try Int.fetchOne(db, sql: "SELECT count(*) FROM log_entry")!)
        }
        print(String(format: "\nphr serve on this vault: %d documents (rows added for the synthetic ones in %.1f s; they have no file), %d log entries over three years",
                     documents, rows, logEntries))

        // 2. The agent, started as a user starts it (keys from the passphrase source).
        var agentEnvironment = environment
        agentEnvironment["XDG_RUNTIME_DIR"] = "\(directory)/run"
        try FileManager.default.createDirectory(atPath: "\(directory)/run", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let started = try BenchProcess.output([phr, "serve", "--detach", "--json", "--vault", vaultPath, "--for", "1h"],
                                              environment: agentEnvironment)
        guard started.status == 0, let ready = try JSONSerialization.jsonObject(with: Data(started.text.utf8)) as? [String: Any],
              let url = ready["url"] as? String, let launchFile = ready["launch_file"] as? String, let pid = ready["pid"] as? Int else {
            throw BenchmarkError.failed("phr serve --detach exited \(started.status): \(started.text)")
        }
        var withAgent = unlocked
        withAgent["XDG_RUNTIME_DIR"] = agentEnvironment["XDG_RUNTIME_DIR"]
        defer { _ = try? BenchProcess.run([phr, "lock", "--vault", vaultPath], environment: withAgent) }

        // 3. `phr search` as a whole process, answered by the agent.
        let processTimes = try Hyperfine.medians(phrCommands, runs: SearchBenchmark.processRuns, warmup: 1, environment: withAgent)

        // 4. The browser's side, with a plain HTTP/1.1 client (a connection per request, as
        // the slowest a browser would be).
        let client = try HTTPClient(url: url)
        let page = try String(contentsOfFile: launchFile, encoding: .utf8)
        guard let tokenRange = page.range(of: #"name="token" value="[0-9a-f]{64}""#, options: .regularExpression) else {
            throw BenchmarkError.failed("no token in the launch file")
        }
        let token = String(page[tokenRange].dropFirst(#"name="token" value=""#.count).dropLast())
        let launch = try client.request("POST", "/launch", body: "token=\(token)", headers: ["Origin": "null"])
        guard let cookie = launch.header("set-cookie")?.split(separator: ";").first.map(String.init) else {
            throw BenchmarkError.failed("the launch was refused: \(launch.status)")
        }
        let home = try client.request("GET", "/", headers: ["Cookie": cookie])
        guard let csrfRange = home.body.range(of: #"name="csrf" value="[0-9a-f]{64}""#, options: .regularExpression) else {
            throw BenchmarkError.failed("no CSRF token on Today")
        }
        let csrf = String(home.body[csrfRange].dropFirst(#"name="csrf" value=""#.count).dropLast())
        let origin = url

        // Search as you type: every prefix of each query from its second character, as typed.
        var keystrokes: [Double] = []
        var keystrokeServer: [Double] = []
        var failures = 0
        for query in queries {
            let characters = Array(query)
            for length in 2...max(2, characters.count) where length <= characters.count {
                let typed = String(characters[..<length])
                let body = "csrf=\(csrf)&q=" + (typed.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
                var answer: HTTPClient.Answer?
                keystrokes.append(try Benchmark.time {
                    answer = try client.request("POST", "/search/live", body: body, headers: ["Cookie": cookie, "Origin": origin])
                })
                if answer?.status != 200 { failures += 1 }
                if let server = answer?.serverSeconds { keystrokeServer.append(server) }
            }
        }

        // Today and the documents list.
        /// Round trips and the agent's own times for `pageRuns` GETs of `path`, after one.
        func pageTimes(_ path: String) throws -> (round: [Double], server: [Double]) {
            _ = try client.request("GET", path, headers: ["Cookie": cookie])
            var round: [Double] = []
            var server: [Double] = []
            for _ in 0..<pageRuns {
                var answer: HTTPClient.Answer?
                round.append(try Benchmark.time { answer = try client.request("GET", path, headers: ["Cookie": cookie]) })
                if let seconds = answer?.serverSeconds { server.append(seconds) }
            }
            return (round, server)
        }
        let today = try pageTimes("/")
        let list = try pageTimes("/documents")
        let lastPage = try pageTimes("/documents?page=\(documents / WebPages.perPage + 1)")

        // Page images of real PDFs (the shared ones `phr doc add` stored): first time drawn in
        // the sandbox, then from the agent's cache.
        let real = try vault.database.read { db in
            try String.fetchAll(db, sql: "SELECT id FROM document WHERE extractor != 'phr-bench' AND media_type = 'application/pdf' AND page_count > 0 AND outcome = 'indexed' ORDER BY id LIMIT 20")
        }
        var first: [Double] = []
        var cached: [Double] = []
        var cachedServer: [Double] = []
        for id in real {
            var answer: HTTPClient.Answer?
            first.append(try Benchmark.time { answer = try client.request("GET", "/documents/\(id)/pages/1?size=full", headers: ["Cookie": cookie]) })
            guard answer?.status == 200 else { continue }
            cached.append(try Benchmark.time { answer = try client.request("GET", "/documents/\(id)/pages/1?size=full", headers: ["Cookie": cookie]) })
            if let server = answer?.serverSeconds { cachedServer.append(server) }
        }
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        func kilobytes(_ field: String) -> Double {
            let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
            return Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        }

        let ms = SearchBenchmark.milliseconds
        func median(_ values: [Double]) -> Double { SearchBenchmark.percentile(values, 0.5) }
        func p95(_ values: [Double]) -> Double { SearchBenchmark.percentile(values, 0.95) }
        print("round trips with a plain client, one connection per request; 'server' is the agent's own time (Server-Timing)")
        Benchmark.row("", ["median", "p95", "server p95", "budget"])
        Benchmark.row("phr search process, agent on", [ms(median(processTimes)), ms(p95(processTimes)), "", "<= recollq"])
        Benchmark.row("as you type (\(keystrokes.count) keys)", [ms(median(keystrokes)), ms(p95(keystrokes)), ms(p95(keystrokeServer)), "p95 < 25 ms"])
        Benchmark.row("Today page (\(pageRuns) GETs)", [ms(median(today.round)), ms(p95(today.round)), ms(p95(today.server)), "< 50 ms"])
        Benchmark.row("Documents, first 50 of \(documents)", [ms(median(list.round)), ms(p95(list.round)), ms(p95(list.server)), ""])
        Benchmark.row("Documents, last page", [ms(median(lastPage.round)), ms(p95(lastPage.round)), ms(p95(lastPage.server)), ""])
        Benchmark.row("page image, first (\(first.count) PDFs)", [ms(median(first)), ms(p95(first)), "", "< 300 ms"])
        Benchmark.row("page image, cached", [ms(median(cached)), ms(p95(cached)), ms(p95(cachedServer)), "< 5 ms"])
        Benchmark.row("agent memory, now / peak", [String(format: "%.0f MB", kilobytes("VmRSS") / 1024),
                                                           String(format: "%.0f MB", kilobytes("VmHWM") / 1024), "", "< 150 MB"])
        if failures > 0 { print("\(failures) search-as-you-type requests were not answered 200") }
        return Figures(processMedian: median(processTimes), processP95: p95(processTimes))
    }

    enum WebPages {
        static let perPage = 50
    }
}

/// HTTP/1.1 over a plain TCP socket, one connection per request (`Connection: close`).
struct HTTPClient {
    let address: String
    let port: UInt16
    let host: String

    struct Answer {
        var status: Int
        var headers: [(String, String)]
        var bytes: ArraySlice<UInt8>
        var body: String { String(decoding: bytes, as: UTF8.self) }
        /// The agent's own time for the answer (its Server-Timing header), in seconds.
        var serverSeconds: Double? {
            header("server-timing").flatMap { $0.components(separatedBy: "dur=").last }.flatMap(Double.init).map { $0 / 1000 }
        }

        func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
    }

    init(url: String) throws {
        let hostPort = url.dropFirst("http://".count).split(separator: ":")
        guard hostPort.count == 2, let port = UInt16(hostPort[1]) else { throw BenchmarkError.failed("not an address: \(url)") }
        address = String(hostPort[0])
        self.port = port
        host = "\(address):\(port)"
    }

    func request(_ method: String, _ path: String, body: String? = nil, headers: [String: String] = [:]) throws -> Answer {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if let body { text += "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n" }
        text += "\r\n" + (body ?? "")
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchmarkError.failed("socket: \(errno)") }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        inet_pton(AF_INET, address, &addr.sin_addr)
        let connected = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw BenchmarkError.failed("connect \(host): \(errno)") }
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw BenchmarkError.failed("send: \(errno)") }
            sent += n
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            received += buffer[..<n]
        }
        let separator = Array("\r\n\r\n".utf8)
        guard received.count >= 4,
              let end = (0...(received.count - 4)).first(where: { received[$0..<$0 + 4].elementsEqual(separator) }) else {
            throw BenchmarkError.failed("no HTTP answer from \(path)")
        }
        let head = String(decoding: received[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(head.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        let fields = head.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return Answer(status: status, headers: fields, bytes: received[(end + 4)...])
    }
}
