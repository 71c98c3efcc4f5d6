import Foundation
import Glibc
import Testing
@testable import PHRCore

/// HTTPS through `SocketHTTPTransport` against a real TLS server on loopback (`openssl
/// s_server`), with certificates made for the test: a trusted certificate is accepted, and an
/// untrusted one or one for another host is refused.
@Suite(.serialized) struct MedAPITLSTests {
    /// A directory with a self-signed certificate for `names` and a file to serve.
    static func makeSite(names: String) throws -> String {
        let directory = try TestSupport.temporaryDirectory("tls")
        try #"{"idGroup":{"rxnormId":["2556"]}}"#.write(toFile: "\(directory)/answer.json", atomically: true, encoding: .utf8)
        let result = try run("/usr/bin/openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                                                  "-nodes", "-days", "2", "-subj", "/CN=phr test", "-addext", "subjectAltName=\(names)",
                                                  "-keyout", "\(directory)/key.pem", "-out", "\(directory)/cert.pem"], in: directory)
        try #require(result == 0, "openssl req")
        return directory
    }

    @discardableResult
    static func run(_ executable: String, _ arguments: [String], in directory: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// A free TCP port on 127.0.0.1 (bound and released; the server takes it right after).
    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func request(_ url: String) -> HTTPRequest {
        HTTPRequest(service: .rxnav, path: "/answer.json", query: [], baseURL: URL(string: url)!, timeout: 5)
    }

    @Test func aTrustedCertificateForTheHostIsAccepted() throws {
        let site = try Self.makeSite(names: "DNS:localhost,IP:127.0.0.1")
        defer { TestSupport.remove(site) }
        let server = try TLSTestServer(directory: site)
        defer { server.stop() }
        let port = server.port
        let transport = SocketHTTPTransport(timeout: 5, caFile: "\(site)/cert.pem")
        for host in ["localhost", "127.0.0.1"] {
            let response = try transport.send(Self.request("https://\(host):\(port)"))
            #expect(response.status == 200, "\(host)")
            #expect(String(decoding: response.body, as: UTF8.self).contains("2556"), "\(host)")
        }
    }

    @Test func anUntrustedCertificateIsRefused() throws {
        let site = try Self.makeSite(names: "DNS:localhost,IP:127.0.0.1")
        defer { TestSupport.remove(site) }
        let server = try TLSTestServer(directory: site)
        defer { server.stop() }
        let port = server.port
        // The system's trust store does not know the test certificate.
        #expect {
            try SocketHTTPTransport(timeout: 5).send(Self.request("https://localhost:\(port)"))
        } throws: { error in
            guard let failure = error as? TransportFailure else { return false }
            return failure.kind == .unreachable && failure.detail.hasPrefix("the certificate of localhost is not trusted")
        }
    }

    @Test func aCertificateForAnotherHostIsRefused() throws {
        let site = try Self.makeSite(names: "DNS:rxnav.example")
        defer { TestSupport.remove(site) }
        let server = try TLSTestServer(directory: site)
        defer { server.stop() }
        let port = server.port
        let transport = SocketHTTPTransport(timeout: 5, caFile: "\(site)/cert.pem")
        #expect {
            try transport.send(Self.request("https://localhost:\(port)"))
        } throws: { error in
            (error as? TransportFailure)?.detail.hasPrefix("the certificate of localhost is not trusted") == true
        }
    }

    @Test func theServerIsGoneAfterStopEvenWithSIGTERMBlocked() throws {
        let site = try Self.makeSite(names: "DNS:localhost,IP:127.0.0.1")
        defer { TestSupport.remove(site) }
        // Block SIGTERM in this thread, as some runners do, so the server inherits the mask.
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        let server: TLSTestServer
        do {
            defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
            server = try TLSTestServer(directory: site)
        }
        let pid = server.processIdentifier
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let mask = try #require(status.split(separator: "\n").first { $0.hasPrefix("SigBlk:") }?.split(separator: "\t").last)
        #expect((UInt64(mask, radix: 16) ?? 0) & (1 << (UInt64(SIGTERM) - 1)) != 0, "the server should have SIGTERM blocked: \(mask)")
        let started = Date()
        server.stop()
        #expect(Date().timeIntervalSince(started) < 5)
        // Reaped, not a zombie: the pid is gone.
        #expect(kill(pid, 0) == -1 && errno == ESRCH)
    }

    @Test func redirectsToPlainHTTPElsewhereAreNotFollowed() {
        #expect(SocketHTTPTransport.mayFollow(URL(string: "https://rxnav.nlm.nih.gov/REST")!))
        #expect(SocketHTTPTransport.mayFollow(URL(string: "http://127.0.0.1:8080/x")!))
        #expect(!SocketHTTPTransport.mayFollow(URL(string: "http://rxnav.nlm.nih.gov/REST")!))
        #expect(!SocketHTTPTransport.mayFollow(URL(string: "ftp://example.org/x")!))
    }
}

/// `openssl s_server -WWW` serving a directory on loopback, for one test.
///
/// Started the plain way, s_server outlived the suite: about twenty piled up on a shared machine.
/// It inherits the signal mask of the thread that starts it, and under the test runner that
/// mask blocks SIGTERM, so `Process.terminate()` did nothing; and a test that crashed never
/// reached its `defer`. So the server is started under `setpriv --pdeathsig KILL` (util-linux),
/// which has the kernel kill it when the thread that started it ends, the whole test process
/// included; and `stop()` (also run by `deinit`) sends SIGTERM, gives it a short grace, then
/// SIGKILL, and reaps it, so none is left when a test returns or throws.
final class TLSTestServer {
    let port: Int
    private let process = Process()
    private var stopped = false

    /// How long s_server gets to end on SIGTERM before SIGKILL.
    static let grace: TimeInterval = 0.3

    init(directory: String) throws {
        port = MedAPITLSTests.freePort()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--pdeathsig", "KILL", "--", "/usr/bin/openssl", "s_server", "-accept", "127.0.0.1:\(port)",
                             "-cert", "cert.pem", "-key", "key.pem", "-WWW", "-quiet"]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<100 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            close(fd)
            if connected == 0 { return }
            if !process.isRunning { break }
            usleep(50_000)
        }
        stop()
        throw TransportFailure(.unreachable, "the test TLS server did not start")
    }

    deinit { stop() }

    /// The process id while it runs (for the test that checks `stop`).
    var processIdentifier: pid_t { process.processIdentifier }

    /// Ends the server for good: SIGTERM, then SIGKILL after `grace`, and waits for it.
    func stop() {
        guard !stopped else { return }
        stopped = true
        let pid = process.processIdentifier
        guard pid > 0 else { return }
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(Self.grace)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
    }
}
