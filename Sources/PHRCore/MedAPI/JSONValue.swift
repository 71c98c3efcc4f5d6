import Foundation

/// A parsed JSON document that never traps on a surprise.
///
/// RxNav and openFDA send numbers as strings ("rank": "1"), leave fields out or set them to
/// null, send an empty string for "none", and sometimes a single value where an array is usual.
/// Every accessor therefore returns an optional or an empty collection, and converts between
/// the spellings a field is seen in; parsers built on it degrade to "not given", never crash.
public enum JSONValue: Sendable, Equatable, Codable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses a whole document. Throws for text that is not JSON at all, and for arrays and
    /// objects nested deeper than `StrictJSON.maximumDepth` (decoding recurses once per level).
    public static func parse(_ data: Data) throws -> JSONValue {
        do {
            return try read(data)
        } catch let error as TextError {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: error.description))
        }
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The member `key` of an object; nil for a missing member or a value that is not an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// Follows a path of member names: `json[path: "meta", "results", "total"]`.
    public subscript(path keys: String...) -> JSONValue? {
        var current: JSONValue? = self
        for key in keys { current = current?[key] }
        return current
    }

    /// The elements of an array; a single non-null value reads as a one-element array, null or a
    /// missing value as none.
    public var elements: [JSONValue] {
        switch self {
        case .array(let values): return values
        case .null: return []
        default: return [self]
        }
    }

    /// Text for strings, numbers and booleans; nil for null, empty or whitespace-only strings,
    /// arrays and objects. Surrounding whitespace is trimmed.
    public var text: String? {
        switch self {
        case .string(let value):
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : trimmed
        case .integer(let value): return String(value)
        case .double(let value):
            return value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .bool(let value): return value ? "true" : "false"
        default: return nil
        }
    }

    /// Every non-empty text among the elements (see `elements` and `text`).
    public var texts: [String] { elements.compactMap(\.text) }

    /// An integer from a number or a numeric string ("91", " 91 ", 91, 91.0).
    public var int: Int? {
        switch self {
        case .integer(let value): return Int(exactly: value)
        case .double(let value): return value.rounded() == value ? Int(exactly: value) : nil
        case .string: return text.flatMap { Int($0) ?? Double($0).flatMap { $0.rounded() == $0 ? Int(exactly: $0) : nil } }
        default: return nil
        }
    }

    /// A number from a number or a numeric string.
    public var double: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .double(let value): return value
        case .string: return text.flatMap(Double.init)
        default: return nil
        }
    }

    /// A boolean from true/false, 1/0, or the strings the services use: "true", "YES", "Y", "N".
    public var bool: Bool? {
        switch self {
        case .bool(let value): return value
        case .integer(let value): return value == 0 ? false : value == 1 ? true : nil
        case .string:
            switch text?.lowercased() {
            case "true", "yes", "y", "1": return true
            case "false", "no", "n", "0": return false
            default: return nil
            }
        default: return nil
        }
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension Optional where Wrapped == JSONValue {
    /// `texts` of an optional value: none for nil.
    var texts: [String] { self?.texts ?? [] }
    var elements: [JSONValue] { self?.elements ?? [] }
    var text: String? { self?.text }
}
