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
        try TLSTestServer.makeCertificate(names: names, in: directory)
        return directory
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
