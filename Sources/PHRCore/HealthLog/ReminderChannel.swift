import Foundation
import Glibc
import GRDB

/// A place reminders go besides the desktop: the user's own push server (ntfy, Gotify), e-mail
/// through the local `sendmail`, a webhook, or a command that reads the reminder on stdin.
///
/// The target (URL, address or command) and the token are secrets as far as phr is concerned:
/// they live only in the vault, and what phr prints shows the target through `displayTarget`,
/// which keeps the scheme and host and hides paths, queries and user names.
public struct ReminderChannel: Sendable, Equatable {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case ntfy, gotify, email, webhook, command

        /// Whether the channel sends over the network (and so needs a URL).
        public var usesNetwork: Bool { self == .ntfy || self == .gotify || self == .webhook }
    }

    public var id: String
    public var kind: Kind
    /// The URL, e-mail address or command.
    public var target: String
    /// The access token (ntfy, Gotify), read from a file when the channel was added.
    public var token: String?
    /// Whether notifications through this channel name medications, people and amounts.
    public var details: Bool
    public var createdAt: String
    public var lastAttemptAt: String?
    public var lastSuccessAt: String?
    public var lastError: String?
    public var delivered: Int
    public var givenUp: Int

    public init(row: Row) throws {
        id = row["id"]
        // Never a guess: an unknown kind taken for `command` would run its target in a shell.
        guard let kind = Kind(rawValue: row["kind"]) else {
            throw DatabaseError(message: "reminder channel \(id) has an unknown kind")
        }
        self.kind = kind
        target = row["target"]
        token = row["token"]
        details = row["details"]
        createdAt = row["created_at"]
        lastAttemptAt = row["last_attempt_at"]
        lastSuccessAt = row["last_success_at"]
        lastError = row["last_error"]
        delivered = row["delivered"]
        givenUp = row["given_up"]
    }

    init(id: String, kind: Kind, target: String, token: String?, details: Bool, createdAt: String) {
        self.id = id
        self.kind = kind
        self.target = target
        self.token = token
        self.details = details
        self.createdAt = createdAt
        delivered = 0
        givenUp = 0
    }

    /// The target as phr shows it: "https://ntfy.example.org/…" for URLs (a topic or a path
    /// may be a secret), the address for e-mail, "a command" for commands (it may name a
    /// token file or carry one).
    public var displayTarget: String {
        switch kind {
        case .email:
            return target
        case .command:
            return "a command (\(target.count) characters)"
        case .ntfy, .gotify, .webhook:
            return Self.displayURL(target)
        }
    }

    /// Whether reminders sent here leave this computer: a network channel to another host, or
    /// e-mail (a local sendmail relays it onwards). A command may do anything; it is the user's.
    public var leavesTheMachine: Bool {
        switch kind {
        case .email: return true
        case .command: return false
        case .ntfy, .gotify, .webhook:
            return !MedAPIConfiguration.isLoopback(URL(string: target)?.host ?? "")
        }
    }

    static func displayURL(_ text: String) -> String {
        guard let components = URLComponents(string: text), let scheme = components.scheme, let host = components.host else {
            return "a URL"
        }
        let port = components.port.map { ":\($0)" } ?? ""
        let hidden = components.path.count > 1 || components.query != nil || components.user != nil
        return "\(scheme)://\(host)\(port)/\(hidden ? "…" : "")"
    }
}

extension ReminderChannel: Encodable {
    enum CodingKeys: String, CodingKey {
        case id, kind, target, token, details
        case leavesTheMachine = "leaves_the_machine"
        case createdAt = "created_at"
        case lastAttemptAt = "last_attempt_at"
        case lastSuccessAt = "last_success_at"
        case lastError = "last_error"
        case delivered
        case givenUp = "given_up"
    }

    /// The listing shape: the target as `displayTarget` and only whether there is a token.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(kind, forKey: .kind)
        try c.encode(displayTarget, forKey: .target)
        try c.encode(token != nil, forKey: .token)
        try c.encode(details, forKey: .details)
        try c.encode(leavesTheMachine, forKey: .leavesTheMachine)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(lastAttemptAt, forKey: .lastAttemptAt)
        try c.encode(lastSuccessAt, forKey: .lastSuccessAt)
        try c.encode(lastError, forKey: .lastError)
        try c.encode(delivered, forKey: .delivered)
        try c.encode(givenUp, forKey: .givenUp)
    }
}

/// Problems with reminder channels.
public enum ReminderChannelError: PHRError, Equatable {
    case invalidTarget(kind: ReminderChannel.Kind, reason: String)
    case tokenFile(path: String, reason: String, code: Int32?)
    /// A token typed into a form (the web UI) that HTTP cannot carry.
    case invalidToken(reason: String)
    case exists(id: String)
    case noChannels
    /// `channel test` found channels that did not take the test notification.
    case testFailed(count: Int)
    /// `channel test` sent nothing to network channels because PHR_OFFLINE=1 (and none failed).
    case testHeld(count: Int)

    public var exitStatus: ExitStatus {
        switch self {
        case .invalidTarget, .invalidToken: return .usage
        case .tokenFile(_, _, let code):
            switch code {
            case ENOENT?, ENOTDIR?: return .noInput
            case nil: return .dataError
            default: return .ioError
            }
        case .exists: return .failure
        case .noChannels: return .noInput
        case .testFailed, .testHeld: return .unavailable
        }
    }

    public var message: Message {
        switch self {
        case .invalidTarget(let kind, let reason): return "\(kind.rawValue) channel: \(reason)"
        case .tokenFile(let path, let reason, _): return "\(Field.tokenFile) \(path): \(reason)"
        case .invalidToken(let reason): return "\(Field.token): \(reason)"
        case .exists(let id): return "channel \(id) already sends there"
        case .noChannels: return "no reminder channels"
        case .testFailed(let count): return "\(count) channel\(count == 1 ? "" : "s") did not take the test notification"
        case .testHeld(let count):
            return "\(count) channel\(count == 1 ? " was" : "s were") not tested: \(OfflineMode.variable)=1 forbids network use"
        }
    }

    public var hint: Message? {
        switch self {
        case .invalidTarget(let kind, _):
            switch kind {
            case .ntfy: return "give the topic's URL, e.g. https://ntfy.example.org/my-long-random-topic (plain http only to this machine)"
            case .gotify: return "give the server's URL, e.g. https://gotify.example.org, and the application token with \(Field.tokenFile)"
            case .webhook: return "give an https URL (plain http only to this machine)"
            case .email: return "give one address, e.g. me@example.org"
            case .command: return "give a command; it reads the reminder on stdin"
            }
        case .tokenFile: return "give a file whose first line is the token (keep it mode 600)"
        case .invalidToken: return "give the access token as the server shows it"
        case .exists: return "'\(Action.listReminderChannels)' shows it; remove it first to change it"
        case .noChannels: return "add one with '\(Action.addReminderChannel)' (or gotify, email, webhook, command)"
        case .testFailed: return "'\(Action.reminderStatus)' shows why; fix the channel or remove it"
        case .testHeld: return "unset \(OfflineMode.variable) to test it; e-mail and command channels are tested offline too"
        }
    }
}
