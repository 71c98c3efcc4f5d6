import Foundation
import CPHRSystem
import Glibc

/// What one notification says, in the words the channel's details setting allows.
public struct ChannelMessage: Sendable, Equatable {
    public var title: String
    public var body: String
    /// nil for `channel test`.
    public var kind: Reminder.Kind?
    public var dueAt: String?
    /// The medication or appointment, only with details.
    public var recordID: String?

    public init(title: String, body: String, kind: Reminder.Kind?, dueAt: String?, recordID: String?) {
        self.title = title
        self.body = body
        self.kind = kind
        self.dueAt = dueAt
        self.recordID = recordID
    }

    /// The reminder as a channel shows it: by the privacy rule, without details it says only
    /// what kind of reminder is due ("A dose is due"), never a medication, person or amount.
    public init(_ reminder: DueReminder, details: Bool, spelling: any MessageSpelling) {
        let (title, body) = reminder.notification(details: details)
        self.init(title: title, body: body.rendered(spelling), kind: reminder.kind, dueAt: reminder.at, recordID: details ? reminder.recordID : nil)
    }

    public static let test = ChannelMessage(title: "phr: test", body: "Reminders from phr reach this channel.", kind: nil, dueAt: nil,
                                            recordID: nil)
}

/// A notification not sent because `PHR_OFFLINE=1` forbids network use and the channel posts
/// over the network (ntfy, Gotify, webhook): it is not the channel's failure, and what was
/// queued for it waits, without backoff, for a run without PHR_OFFLINE.
public struct ChannelHeld: Error, Sendable, Equatable {
    public static let reason = "held: PHR_OFFLINE=1 forbids network use"
}

/// Why a channel did not take a notification, worded without the URL's path, the token or the
/// message ("HTTP 500", "ntfy.example.org refused the connection", "sendmail exited with status 75").
public struct ChannelFailure: Error, Sendable, Equatable {
    public var reason: String
}

/// Sends one message through one channel.
///
/// - ntfy: POST to the topic URL, the body as text, `Title` and `Priority` headers, the token
///   as `Authorization: Bearer` (https://docs.ntfy.sh/publish/).
/// - Gotify: POST /message with a JSON title, message and priority, the application token in
///   the `X-Gotify-Key` header (https://gotify.net/docs/pushmsg).
/// - webhook: POST of a small JSON object.
/// - email: a plain-text message piped to the local `sendmail -t -i` (recipient in the header,
///   never on its command line).
/// - command: `/bin/sh -c COMMAND` with the title and body on stdin, never in its argv.
///
/// Network channels use phr's own HTTPS client (`SocketHTTPTransport`: TLS verified against
/// the system's trust store, or `SSL_CERT_FILE`). Programs run with the passphrase variables
/// removed from their environment, a 30-second limit, and output discarded.
///
/// Offline (`PHR_OFFLINE=1`, see OfflineMode) the network channels are held: `send` throws
/// `ChannelHeld` before any socket exists, as the medicine lookups build no transport. E-mail
/// and commands still run: phr hands them to a local program and opens no connection itself.
public struct ReminderChannelSender: Sendable {
    public var timeout: TimeInterval
    public var programTimeout: TimeInterval
    public var environment: [String: String]
    /// PHR_OFFLINE: nothing goes to a network channel.
    public var offline: Bool

    /// `offline` is given, not read: `fromEnvironment` is the one place that reads PHR_OFFLINE.
    public init(timeout: TimeInterval = 10, programTimeout: TimeInterval = 30, environment: [String: String] = ProcessEnvironment.variables,
                offline: Bool) {
        self.timeout = timeout
        self.programTimeout = programTimeout
        self.environment = environment
        self.offline = offline
    }

    /// The sender the commands use: PHR_OFFLINE read from `environment`, an unusable value refused (exit 64).
    public static func fromEnvironment(_ environment: [String: String]) throws -> ReminderChannelSender {
        ReminderChannelSender(environment: environment, offline: try OfflineMode.isOn(environment))
    }

    /// Whether notifications to `channel` are held now (offline, and it posts over the network).
    public func holds(_ channel: ReminderChannel) -> Bool {
        offline && channel.kind.usesNetwork
    }

    public func send(_ message: ChannelMessage, via channel: ReminderChannel) throws {
        guard !holds(channel) else { throw ChannelHeld() }
        switch channel.kind {
        case .ntfy:
            var headers = ["Title": Self.headerText(message.title), "Priority": String(Self.ntfyPriority(message.kind)),
                           "Content-Type": "text/plain; charset=utf-8", "User-Agent": "phr/\(PHRVersion.string)"]
            if let token = channel.token { headers["Authorization"] = "Bearer \(token)" }
            try post(channel.target, headers: headers, body: Data(message.body.utf8))
        case .gotify:
            var base = channel.target
            while base.hasSuffix("/") { base.removeLast() }
            let url = base.hasSuffix("/message") ? base : base + "/message"
            let body: [String: Any] = ["title": message.title, "message": message.body, "priority": Self.gotifyPriority(message.kind)]
            try post(url, headers: ["X-Gotify-Key": channel.token ?? "", "Content-Type": "application/json", "User-Agent": "phr/\(PHRVersion.string)"],
                     body: try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys]))
        case .webhook:
            var body: [String: Any] = ["source": "phr", "title": message.title, "message": message.body, "kind": message.kind?.rawValue ?? "test"]
            if let due = message.dueAt { body["due_at"] = due }
            if let record = message.recordID { body["record_id"] = record }
            try post(channel.target, headers: ["Content-Type": "application/json", "User-Agent": "phr/\(PHRVersion.string)"],
                     body: try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys]))
        case .email:
            guard let sendmail = Self.sendmail(environment) else {
                throw ChannelFailure(reason: "sendmail was not found (install a mail transfer agent, e.g. msmtp-mta or postfix)")
            }
            let mail = [
                "To: \(channel.target)",
                "Subject: \(Self.headerText(message.title))",
                "MIME-Version: 1.0",
                "Content-Type: text/plain; charset=utf-8",
                "Content-Transfer-Encoding: 8bit",
                "Auto-Submitted: auto-generated",
                "",
                message.body,
                "",
            ].joined(separator: "\r\n")
            try run(sendmail, ["-t", "-i"], input: mail, name: "sendmail")
        case .command:
            try run("/bin/sh", ["-c", channel.target], input: "\(message.title)\n\(message.body)\n", name: "the command",
                    extra: ["PHR_REMINDER_KIND": message.kind?.rawValue ?? "test"])
        }
    }

    // MARK: HTTP

    private func post(_ text: String, headers: [String: String], body: Data) throws {
        guard let url = URL(string: text), let host = url.host else { throw ChannelFailure(reason: "the channel's URL is not valid") }
        // Checked again at sending: a vault edited by hand must not send a token in clear.
        if url.scheme?.lowercased() != "https" && !MedAPIConfiguration.isLoopback(host) {
            throw ChannelFailure(reason: "plain http to \(host) is refused; use https")
        }
        let response: HTTPResponse
        do {
            response = try SocketHTTPTransport(timeout: timeout).send(method: "POST", url: url, headers: headers, body: body, timeout: timeout,
                                                                     total: timeout)
        } catch let failure as TransportFailure {
            throw ChannelFailure(reason: failure.detail)
        }
        guard (200..<300).contains(response.status) else {
            throw ChannelFailure(reason: "\(host) answered HTTP \(response.status)")
        }
    }

    static func ntfyPriority(_ kind: Reminder.Kind?) -> Int {
        switch kind {
        case .water?: return 2
        case .med?: return 4
        case .appt?, nil: return 3
        }
    }

    static func gotifyPriority(_ kind: Reminder.Kind?) -> Int {
        switch kind {
        case .water?: return 2
        case .med?: return 8
        case .appt?, nil: return 5
        }
    }

    /// A header value: ASCII as it is, anything else as an RFC 2047 encoded word (ntfy and mail
    /// readers decode it); control characters never reach a header.
    static func headerText(_ text: String) -> String {
        let clean = String(text.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }.map(Character.init))
        if clean.allSatisfy({ $0.isASCII }) { return clean }
        return "=?UTF-8?B?\(Data(clean.utf8).base64EncodedString())?="
    }

    // MARK: Programs

    static func sendmail(_ environment: [String: String]) -> String? {
        for directory in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") where !directory.isEmpty {
            if access("\(directory)/sendmail", X_OK) == 0 { return "\(directory)/sendmail" }
        }
        return ["/usr/sbin/sendmail", "/usr/lib/sendmail"].first { access($0, X_OK) == 0 }
    }

    /// The environment a channel's program gets: phr's, without any passphrase source.
    static func childEnvironment(_ environment: [String: String], extra: [String: String]) -> [String] {
        LocalProgram.environment(environment, extra: extra)
    }

    /// Runs a program with `input` on stdin. The input is written into the pipe before the
    /// program starts (it is small), so a program that never reads cannot block or SIGPIPE phr.
    private func run(_ executable: String, _ arguments: [String], input: String, name: String, extra: [String: String] = [:]) throws {
        var bytes = Array(input.utf8.prefix(60 << 10))
        defer { wipe(&bytes) }
        var descriptors: [Int32] = [-1, -1]
        // Close-on-exec from the start: channels run on threads of their own, and another's
        // program must not inherit this pipe (its reader would never see the end).
        guard phr_pipe_cloexec(&descriptors) == 0 else { throw ChannelFailure(reason: "cannot run \(name): \(String(cString: strerror(errno)).lowercased())") }
        let (readEnd, writeEnd) = (descriptors[0], descriptors[1])
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(writeEnd, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { break }
            offset += written
        }
        close(writeEnd)
        defer { close(readEnd) }

        let pid: pid_t
        do {
            pid = try LocalProgram.start(executable, arguments, environment: environment, extra: extra, stdin: .descriptor(readEnd),
                                         ownProcessGroup: true)
        } catch let error as Sandbox.SpawnError {
            throw ChannelFailure(reason: "cannot run \(name): \(String(cString: strerror(error.code)).lowercased())")
        }
        let deadline = Date().addingTimeInterval(programTimeout)
        var status: Int32 = 0
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { break }
            if reaped < 0 && errno != EINTR { throw ChannelFailure(reason: "lost track of \(name)") }
            if Date() >= deadline {
                kill(-pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                throw ChannelFailure(reason: "\(name) did not finish within \(Int(programTimeout)) seconds")
            }
            usleep(10_000)
        }
        // Whatever the program left running in its group goes with it.
        kill(-pid, SIGKILL)
        let exited = status & 0x7f == 0
        let code = (status >> 8) & 0xff
        guard exited else { throw ChannelFailure(reason: "\(name) was killed by signal \(status & 0x7f)") }
        guard code == 0 else { throw ChannelFailure(reason: "\(name) exited with status \(code)") }
    }
}
