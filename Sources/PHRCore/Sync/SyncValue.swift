import Foundation
import GRDB

/// One field's value as it travels between devices: SQLite's five storage classes, kept apart
/// (an integer stays an integer, bytes stay bytes), written as JSON: `null`, `["i", 5]`,
/// `["r", 1.5]`, `["t", "text"]`, `["b", "base64"]`.
public enum SyncValue: Hashable, Sendable, Codable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case bytes(Data)

    public init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let v): self = .integer(v)
        case .double(let v): self = .real(v)
        case .string(let v): self = .text(v)
        case .blob(let v): self = .bytes(v)
        }
    }

    public var databaseValue: DatabaseValue {
        switch self {
        case .null: return .null
        case .integer(let v): return v.databaseValue
        case .real(let v): return v.databaseValue
        case .text(let v): return v.databaseValue
        case .bytes(let v): return v.databaseValue
        }
    }

    public var text: String? {
        if case .text(let v) = self { return v }
        return nil
    }

    public init(from decoder: Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
            return
        }
        var container = try decoder.unkeyedContainer()
        let tag = try container.decode(String.self)
        switch tag {
        case "i": self = .integer(try container.decode(Int64.self))
        case "r": self = .real(try container.decode(Double.self))
        case "t": self = .text(try container.decode(String.self))
        case "b":
            guard let data = Data(base64Encoded: try container.decode(String.self)) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "bytes that are not base64")
            }
            self = .bytes(data)
        default:
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "an unknown value tag")
        }
        guard container.isAtEnd else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "a value with extra parts")
        }
    }

    public func encode(to encoder: Encoder) throws {
        if case .null = self {
            var single = encoder.singleValueContainer()
            try single.encodeNil()
            return
        }
        var container = encoder.unkeyedContainer()
        switch self {
        case .null: break
        case .integer(let v): try container.encode("i"); try container.encode(v)
        case .real(let v): try container.encode("r"); try container.encode(v)
        case .text(let v): try container.encode("t"); try container.encode(v)
        case .bytes(let v): try container.encode("b"); try container.encode(v.base64EncodedString())
        }
    }

    /// The value as stored in `sync_field.value` and `sync_conflict`: its JSON.
    public var stored: String {
        // Encoding a value of these five cases cannot fail.
        String(decoding: (try? SyncJSON.encoder.encode(self)) ?? Data("null".utf8), as: UTF8.self)
    }

    public init(stored text: String) throws {
        self = try SyncJSON.decoder.decode(SyncValue.self, from: Data(text.utf8))
    }

    /// How a person reads it (conflict lists): text as is, numbers as numbers, bytes by size.
    public var display: String {
        switch self {
        case .null: return "(empty)"
        case .integer(let v): return String(v)
        case .real(let v): return String(v)
        case .text(let v): return v
        case .bytes(let v): return "\(v.count) bytes"
        }
    }
}

/// The JSON coders of sync objects: sorted keys, so one state always encodes the same way.
enum SyncJSON {
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
    static var decoder: JSONDecoder { JSONDecoder() }
}
