import Foundation

/// One change of one record in a change log.
struct SyncChange: Codable, Sendable {
    enum Operation: String, Codable, Sendable {
        /// The fields given were set (all of them when the record is new).
        case set
        /// The record was removed.
        case remove
    }

    var kind: String
    var identity: String
    var operation: Operation
    /// When, on the writer's hybrid logical clock (SyncClock): orders writes of one field.
    var stamp: String
    var fields: [String: SyncValue]?
    /// The record's short ID on the writer's device, kept where it is free here.
    var id: String?

    enum CodingKeys: String, CodingKey {
        case kind, identity, operation = "op", stamp, fields, id
    }
}

/// A change log: what one device changed between two syncs, with what it had seen of the others.
struct SyncLogBody: Codable, Sendable {
    var format = 1
    var device: String
    var sequence: Int64
    /// For each device, the last of its logs the writer had applied (its own: this one).
    var vector: [String: Int64]
    /// The writer's change journal sequence this log covers through.
    var journal: Int64
    var changes: [SyncChange]
}

/// Change logs as objects: AES-256-GCM under the sync key, with the vault, device and sequence as
/// associated data (a log copied under another device's name or number does not open), padded so
/// that every object's size is a size bucket (`bucket`).
///
/// File: `phrsync` 0x01, then a 12-byte nonce, the ciphertext and the 16-byte tag. Plaintext: the
/// body's length (4 bytes, big-endian), its JSON, zeros to the bucket.
enum SyncLogObject {
    static let magic: [UInt8] = Array("phrsync".utf8) + [1]
    static let overhead = magic.count + AESGCM.nonceSize + AESGCM.tagSize
    /// The largest log phr reads (a log holds at most `SyncEngine.changesPerLog` changes).
    static let limit = 256 << 20

    /// The object's name on the remote.
    static func path(device: String, sequence: Int64) -> String {
        "logs/\(device)/" + String(format: "%010lld", sequence) + ".log"
    }

    /// Parses a name under `logs/DEVICE/`; nil for anything else.
    static func sequence(ofName name: String) -> Int64? {
        guard name.hasSuffix(".log"), name.count == 14, let value = Int64(name.dropLast(4)), value >= 1 else { return nil }
        return value
    }

    /// The smallest size bucket holding `count` bytes: powers of two from 4 KiB to 1 MiB, then
    /// whole MiB.
    static func bucket(_ count: Int) -> Int {
        if count <= 4096 { return 4096 }
        if count <= 1 << 20 {
            var size = 4096
            while size < count { size <<= 1 }
            return size
        }
        return (count + (1 << 20) - 1) / (1 << 20) * (1 << 20)
    }

    static func associatedData(vault: String, device: String, sequence: Int64) -> [UInt8] {
        Array("phr-sync-log 1\u{0}\(vault)\u{0}\(device)\u{0}\(sequence)".utf8)
    }

    static func seal(_ body: SyncLogBody, key: SecretBytes, vault: String) throws -> [UInt8] {
        let json = Array(try SyncJSON.encoder.encode(body))
        let size = bucket(json.count + 4 + overhead)
        var plaintext = [UInt8](repeating: 0, count: size - overhead)
        let length = UInt32(json.count)
        plaintext[0] = UInt8(length >> 24)
        plaintext[1] = UInt8(length >> 16 & 0xFF)
        plaintext[2] = UInt8(length >> 8 & 0xFF)
        plaintext[3] = UInt8(length & 0xFF)
        plaintext.replaceSubrange(4..<(4 + json.count), with: json)
        let box = try plaintext.withUnsafeBytes {
            try AESGCM.sealBox(key: key, plaintext: $0, aad: associatedData(vault: vault, device: body.device, sequence: body.sequence))
        }
        return magic + box
    }

    /// Opens the log the remote holds as `device`'s number `sequence`; throws `SyncError.tampered`
    /// for anything that does not authenticate or does not say what its name says.
    static func open(_ bytes: [UInt8], key: SecretBytes, vault: String, device: String, sequence: Int64) throws -> SyncLogBody {
        let name = path(device: device, sequence: sequence)
        guard bytes.count > overhead + 4, Array(bytes.prefix(magic.count)) == magic else {
            throw SyncError.tampered(object: name, reason: "is not a phr change log or is truncated")
        }
        let plaintext: SecretBytes
        do {
            plaintext = try AESGCM.openBox(key: key, box: Array(bytes[magic.count...]),
                                           aad: associatedData(vault: vault, device: device, sequence: sequence))
        } catch CryptoError.authenticationFailed {
            throw SyncError.tampered(object: name, reason: "fails authentication (altered, truncated, or moved from another name)")
        }
        let body: SyncLogBody? = plaintext.withUnsafeBytes { raw in
            let length = Int(raw[0]) << 24 | Int(raw[1]) << 16 | Int(raw[2]) << 8 | Int(raw[3])
            guard length <= raw.count - 4 else { return nil }
            return try? SyncJSON.decoder.decode(SyncLogBody.self, from: Data(raw[4..<(4 + length)]))
        }
        guard let body, body.format == 1, body.device == device, body.sequence == sequence else {
            throw SyncError.tampered(object: name, reason: "does not hold a change log this phr reads")
        }
        return body
    }
}

/// A hybrid logical clock: wall-clock milliseconds, a counter for writes within one millisecond
/// or behind another device's clock, and the device id. Its stamps compare as text; a stamp made
/// after seeing another is greater than it, whatever the two machines' clocks say.
struct SyncClock {
    var wall: Int64
    var counter: Int64
    let device: String

    init(last: String?, device: String) {
        self.device = device
        let parts = last?.split(separator: ".") ?? []
        wall = parts.count >= 2 ? Int64(parts[0]) ?? 0 : 0
        counter = parts.count >= 2 ? Int64(parts[1]) ?? 0 : 0
    }

    var stamp: String { String(format: "%013lld.%06lld.", wall, counter) + device }

    /// A new stamp after everything seen.
    mutating func tick(now: Date = Date()) -> String {
        let milliseconds = Int64(now.timeIntervalSince1970 * 1000)
        if milliseconds > wall {
            wall = milliseconds
            counter = 0
        } else {
            counter += 1
        }
        return stamp
    }

    /// Notes a stamp from another device, so later stamps here are greater.
    mutating func observe(_ other: String) {
        let parts = other.split(separator: ".")
        guard parts.count >= 2, let otherWall = Int64(parts[0]), let otherCounter = Int64(parts[1]) else { return }
        if otherWall > wall || (otherWall == wall && otherCounter > counter) {
            wall = otherWall
            counter = otherCounter
        }
    }
}
