import Foundation
import Glibc

/// `openssl s_server` on loopback, for one test, with a certificate made for that test
/// (`makeCertificate`): either serving a directory's files (`.files`, s_server's -WWW), or
/// taking one request, which the test reads with `received()`, and answering it 200 "ok"
/// (`.oneRequest`).
///
/// Started the plain way, s_server outlived the suite: about twenty piled up on a shared machine.
/// It inherits the signal mask of the thread that starts it, and under the test runner that
/// mask blocks SIGTERM, so `Process.terminate()` did nothing; and a test that crashed never
/// reached its `defer`. So the server is started under `setpriv --pdeathsig KILL` (util-linux),
/// which has the kernel kill it when the thread that started it ends, the whole test process
/// included; and `stop()` (also run by `deinit`) sends SIGTERM, gives it a short grace, then
/// SIGKILL, and reaps it, so none is left when a test returns or throws.
public final class TLSTestServer: @unchecked Sendable {
    public enum Mode: Sendable {
        /// Serves the files of the directory it runs in (GET /name).
        case files
        /// Reads one request (its head and Content-Length bytes of body), answers it 200 "ok".
        case oneRequest
    }

    /// Why the certificate or the server could not be made.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// How long s_server gets to end on SIGTERM before SIGKILL.
    public static let grace: TimeInterval = 0.3

    public let port: Int
    private let process = Process()
    private let lock = NSLock()
    private let stopped = StopFlag()
    private var text = ""
    private let done = DispatchSemaphore(value: 0)

    /// Starts s_server in `directory`, which holds `cert.pem` and `key.pem`, and returns once it
    /// accepts connections.
    public init(directory: String, mode: Mode = .files) throws {
        port = Loopback.freePort()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--pdeathsig", "KILL", "--", "/usr/bin/openssl", "s_server", "-accept", "127.0.0.1:\(port)",
                             "-cert", "cert.pem", "-key", "key.pem"] + (mode == .files ? ["-WWW"] : []) + ["-quiet"]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardError = FileHandle.nullDevice
        switch mode {
        case .files:
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            done.signal()
        case .oneRequest:
            let input = Pipe(), output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            Thread { [self] in answerOneRequest(reader: output.fileHandleForReading, writer: input.fileHandleForWriting) }.start()
        }
        for _ in 0..<100 {
            if Loopback.accepts(port: port) { return }
            // It exited (its port taken, a bad certificate): say so now, not as a later timeout.
            guard process.isRunning else { break }
            usleep(50_000)
        }
        stop()
        throw Failure(description: "openssl s_server did not start listening on port \(port)")
    }

    deinit { stop() }

    /// The process id while it runs (for the test that checks `stop`).
    public var processIdentifier: pid_t { process.processIdentifier }

    /// `.oneRequest`: what the client sent (waits up to 10 seconds for the request to be complete).
    public func received() -> String {
        _ = done.wait(timeout: .now() + 10)
        lock.lock()
        defer { lock.unlock() }
        return text
    }

    /// Ends the server for good: SIGTERM, then SIGKILL after `grace`, and waits for it.
    public func stop() {
        guard stopped.set() else { return }
        let pid = process.processIdentifier
        guard pid > 0 else { return }
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(Self.grace)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
    }

    /// Writes a self-signed EC certificate for `names` (a subjectAltName list, such as
    /// "DNS:localhost,IP:127.0.0.1") into `directory` as `cert.pem`, with its key in `key.pem`.
    public static func makeCertificate(names: String, in directory: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                             "-subj", "/CN=phr test", "-addext", "subjectAltName=\(names)",
                             "-keyout", "\(directory)/key.pem", "-out", "\(directory)/cert.pem"]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "openssl req could not make a certificate for \(names) (exit \(process.terminationStatus))")
        }
    }

    /// Reads s_server's stdout (what the client sent) until the request is complete, then writes
    /// the answer to its stdin and closes it.
    private func answerOneRequest(reader: FileHandle, writer: FileHandle) {
        var received = Data()
        while true {
            let data = reader.availableData
            if data.isEmpty { break }
            received += data
            let request = String(decoding: received, as: UTF8.self)
            if let end = request.range(of: "\r\n\r\n"),
               let lengthLine = request[..<end.lowerBound].split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-length:") }),
               let length = Int(lengthLine.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)),
               request[end.upperBound...].utf8.count >= length {
                writer.write(Data("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok".utf8))
                try? writer.close()
                break
            }
        }
        lock.lock()
        text = String(decoding: received, as: UTF8.self)
        lock.unlock()
        done.signal()
    }
}
