import Foundation

/// Any JSON value, for reading FHIR resources, whose shape varies too much for Codable structs:
/// `resource["code"]?["coding"]?[0]?["code"]?.string`.
///
/// Strict where MedAPI's lenient `JSONValue` converts: a string is never read as a number or a
/// number as a string, so a FHIR field of the wrong type is reported instead of guessed at.
enum StrictJSON: Decodable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([StrictJSON])
    case object([String: StrictJSON])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Bool before Double: JSONDecoder refuses to read true as a number and 1 as a Bool.
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([StrictJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: StrictJSON].self))
        }
    }

    subscript(key: String) -> StrictJSON? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    subscript(index: Int) -> StrictJSON? {
        if case .array(let array) = self, array.indices.contains(index) { return array[index] }
        return nil
    }

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    var array: [StrictJSON]? {
        if case .array(let value) = self { return value }
        return nil
    }

    var object: [String: StrictJSON]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The elements of an array, or none (FHIR omits empty arrays).
    var elements: [StrictJSON] { array ?? [] }

    /// A short name of the JSON type, for error messages.
    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

extension StrictJSON {
    /// The deepest nesting of arrays and objects read. FHIR resources nest about a dozen deep;
    /// decoding, comparing and freeing a value each recurse once per level, so a file of
    /// 100,000 `[` must be refused before any of them runs.
    static let maximumDepth = 64

    /// The first byte offset where `bytes` nest deeper than `maximumDepth`, or nil (JSONNesting).
    static func tooDeep(_ bytes: some Collection<UInt8>, maximumDepth: Int = maximumDepth) -> Int? {
        JSONNesting.firstOffsetDeeper(than: maximumDepth, in: bytes)
    }

    /// Compact JSON with sorted keys: equal values give equal text (for content hashes).
    var canonical: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value): return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
        case .string(let value): return Self.quoted(value)
        case .array(let values): return "[" + values.map(\.canonical).joined(separator: ",") + "]"
        case .object(let object):
            return "{" + object.keys.sorted().map { Self.quoted($0) + ":" + object[$0]!.canonical }.joined(separator: ",") + "}"
        }
    }

    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 { out += String(format: "\\u%04x", scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }
}
