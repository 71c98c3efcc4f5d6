import Foundation
import Glibc
import GRDB

/// Adding, listing and removing the reminder channels of one profile.
public struct ReminderChannelStore {
    public let vault: Vault
    public let profile: Profile
    public let time: TimeContext

    static let table = "reminder_channel"

    public init(vault: Vault, profile: Profile, time: TimeContext) {
        self.vault = vault
        self.profile = profile
        self.time = time
    }

    /// What `phr remind channel add` takes.
    public struct Input: Sendable {
        public var kind: String
        /// The URL, e-mail address or command.
        public var target: String
        public var tokenFile: String?
        /// The token itself, as a form gives it (the web UI); `tokenFile` is the CLI's way.
        public var token: String?
        public var details: Bool

        public init(kind: String, target: String, tokenFile: String? = nil, token: String? = nil, details: Bool = false) {
            self.kind = kind
            self.target = target
            self.tokenFile = tokenFile
            self.token = token
            self.details = details
        }
    }

    @discardableResult
    public func add(_ input: Input) throws -> ReminderChannel {
        guard let kind = ReminderChannel.Kind(rawValue: input.kind.lowercased().trimmingCharacters(in: .whitespaces)) else {
            throw RecordError.invalidOption(option: Field.argument("kind"), reason: "'\(input.kind)' is not a channel; use ntfy, gotify, email, webhook or command", hint: nil)
        }
        let target = try Self.validTarget(kind, input.target.trimmingCharacters(in: .whitespacesAndNewlines))
        if (input.tokenFile != nil || input.token != nil) && kind != .ntfy && kind != .gotify {
            throw RecordError.invalidOption(option: Field.tokenFile, reason: "only for ntfy and gotify channels", hint: nil)
        }
        let token = try input.token.map { text in
            var bytes = Array(text.utf8)
            defer { wipe(&bytes) }
            return try Self.validToken(bytes[...], path: nil)
        } ?? input.tokenFile.map(Self.readToken)
        if kind == .gotify && token == nil {
            throw RecordError.invalidOption(option: Field.tokenFile, reason: "a gotify channel needs the application token",
                                            hint: "put the token in a file only you can read and give \(Field.tokenFile) FILE")
        }
        return try vault.database.write { db in
            if let existing = try String.fetchOne(db, sql: "SELECT id FROM reminder_channel WHERE profile_id = ? AND kind = ? AND target = ?",
                                                  arguments: [profile.id, kind.rawValue, target]) {
                throw ReminderChannelError.exists(id: existing)
            }
            let id = try RecordID.generate(db, table: Self.table)
            let channel = ReminderChannel(id: id, kind: kind, target: target, token: token, details: input.details,
                                          createdAt: Timestamp.string(time.now))
            try db.execute(sql: """
                INSERT INTO reminder_channel (id, profile_id, kind, target, token, details, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [channel.id, profile.id, kind.rawValue, target, token, input.details, channel.createdAt])
            return channel
        }
    }

    public func list() throws -> [ReminderChannel] {
        try vault.database.read { db in try Self.all(db, profileID: profile.id) }
    }

    /// The channel `prefix` names.
    public func get(_ prefix: String) throws -> ReminderChannel {
        try vault.database.read { db in try resolve(db, prefix) }
    }

    /// Removes a channel and the deliveries it still owed.
    @discardableResult
    public func remove(_ prefix: String) throws -> ReminderChannel {
        try vault.database.write { db in
            let channel = try resolve(db, prefix)
            try db.execute(sql: "DELETE FROM reminder_delivery WHERE channel_id = ?", arguments: [channel.id])
            try db.execute(sql: "DELETE FROM reminder_channel WHERE id = ?", arguments: [channel.id])
            return channel
        }
    }

    func resolve(_ db: Database, _ prefix: String) throws -> ReminderChannel {
        let id = try RecordID.resolve(db, table: Self.table, kind: "channel", prefix: prefix, profileID: profile.id)
        return try Self.all(db, profileID: profile.id).first { $0.id == id }!
    }

    static func all(_ db: Database, profileID: Int64) throws -> [ReminderChannel] {
        try ReminderChannel.fetchAll(db, sql: "SELECT * FROM reminder_channel WHERE profile_id = ? ORDER BY created_at, rowid",
                                     arguments: [profileID])
    }

    // MARK: Validation

    /// The target, checked for its kind: URLs are https, or plain http to this machine only
    /// (a reminder is health information, and a token must not cross the network in clear).
    static func validTarget(_ kind: ReminderChannel.Kind, _ text: String) throws -> String {
        guard !text.isEmpty else { throw ReminderChannelError.invalidTarget(kind: kind, reason: "it is empty") }
        guard text.unicodeScalars.allSatisfy({ !CharacterSet.controlCharacters.contains($0) }), text.utf8.count <= 4096 else {
            throw ReminderChannelError.invalidTarget(kind: kind, reason: "it holds control characters or is too long")
        }
        switch kind {
        case .ntfy, .gotify, .webhook:
            guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
                  let host = components.host, !host.isEmpty else {
                throw ReminderChannelError.invalidTarget(kind: kind, reason: "'\(ReminderChannel.displayURL(text))' is not an http(s) URL")
            }
            switch scheme {
            case "https": break
            case "http":
                guard MedAPIConfiguration.isLoopback(host) else {
                    throw ReminderChannelError.invalidTarget(kind: kind, reason: "plain http is only allowed to this machine (127.0.0.1, ::1, localhost); use https")
                }
            default:
                throw ReminderChannelError.invalidTarget(kind: kind, reason: "'\(scheme)' is not http or https")
            }
            if kind == .ntfy && components.path.split(separator: "/").isEmpty {
                throw ReminderChannelError.invalidTarget(kind: kind, reason: "the URL names no topic")
            }
            if components.user != nil || components.password != nil {
                throw ReminderChannelError.invalidTarget(kind: kind, reason: "put no user name or password in the URL")
            }
            return text
        case .email:
            let parts = text.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
                  text.allSatisfy({ !$0.isWhitespace && !"<>,;:\"()[]\\".contains($0) }), text.utf8.count <= 254 else {
                throw ReminderChannelError.invalidTarget(kind: kind, reason: "'\(text)' is not an e-mail address")
            }
            return text
        case .command:
            return text
        }
    }

    /// The first line of `--token-file` (at most 64 KiB read), printable ASCII as HTTP headers need.
    static func readToken(_ path: String) throws -> String {
        var bytes: [UInt8]
        do {
            bytes = try FileDescriptor.openForReading(path).readToEnd(limit: 64 << 10)
        } catch let error as POSIXIOError {
            throw ReminderChannelError.tokenFile(path: path, reason: String(cString: strerror(error.code)).lowercased(), code: error.code)
        }
        defer { wipe(&bytes) }
        var end = bytes.firstIndex(of: 0x0a) ?? bytes.count
        if end > 0 && bytes[end - 1] == 0x0d { end -= 1 }
        guard end > 0 else { throw ReminderChannelError.tokenFile(path: path, reason: "the first line is empty", code: nil) }
        return try validToken(bytes[0..<end], path: path)
    }

    /// A token as HTTP headers carry it: printable ASCII without spaces, at most 4096 bytes.
    /// `path` is the file it came from, nil when it was typed.
    static func validToken(_ line: ArraySlice<UInt8>, path: String?) throws -> String {
        func refused(_ reason: String) -> ReminderChannelError {
            path.map { ReminderChannelError.tokenFile(path: $0, reason: reason, code: nil) } ?? .invalidToken(reason: reason)
        }
        guard !line.isEmpty else { throw refused("the token is empty") }
        guard line.count <= 4096, line.allSatisfy({ (0x21...0x7e).contains($0) }) else { throw refused("the token is not printable ASCII without spaces") }
        return String(decoding: line, as: UTF8.self)
    }
}

extension ReminderChannel: FetchableRecord {}
