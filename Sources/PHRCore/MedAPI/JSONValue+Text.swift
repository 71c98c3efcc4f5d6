import Foundation

/// JSON text to and from `JSONValue` in one pass over the bytes. JSONDecoder reads a value of
/// unknown type by trying each type in turn and throwing for every miss, which made reading a
/// 10,000-document listing (what `phr mcp` pages through) take longer than building it.
extension JSONValue {
    struct TextError: Error, CustomStringConvertible {
        var offset: Int
        var reason: String
        var description: String { "\(reason) at byte \(offset)" }
    }

    /// Reads a whole JSON document (RFC 8259: one value, whitespace around it, UTF-8). Numbers
    /// that equal an integer that fits in 64 bits are `.integer` (1e3 too, as JSONDecoder reads
    /// it), other numbers `.double`; of repeated member names the last wins. Throws for anything else, and for nesting deeper than `StrictJSON.maximumDepth`.
    static func read(_ data: Data) throws -> JSONValue {
        try data.withUnsafeBytes { raw in
            var reader = Reader(bytes: raw.bindMemory(to: UInt8.self))
            reader.skipSpace()
            let value = try reader.value(depth: 0)
            reader.skipSpace()
            guard reader.offset == reader.bytes.count else { throw TextError(offset: reader.offset, reason: "text after the value") }
            return value
        }
    }

    /// The value as compact JSON text, members in sorted order, "/" not escaped.
    public var jsonText: Data {
        var out = [UInt8]()
        out.reserveCapacity(256)
        write(into: &out)
        return Data(out)
    }

    private func write(into out: inout [UInt8]) {
        switch self {
        case .null: out += Array("null".utf8)
        case .bool(let value): out += Array((value ? "true" : "false").utf8)
        case .integer(let value): out += Array(String(value).utf8)
        case .double(let value):
            if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
                out += Array(String(Int64(value)).utf8)
            } else {
                out += Array((value.isFinite ? "\(value)" : "null").utf8)
            }
        case .string(let value): Self.writeString(value, into: &out)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                members[key]!.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let hex = Array("0123456789abcdef".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20: out += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var offset = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        func fail(_ reason: String) -> TextError { TextError(offset: offset, reason: reason) }

        mutating func skipSpace() {
            while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
        }

        mutating func value(depth: Int) throws -> JSONValue {
            guard offset < bytes.count else { throw fail("the text ends before a value") }
            switch bytes[offset] {
            case UInt8(ascii: "{"):
                guard depth < StrictJSON.maximumDepth else { throw fail("nested more than \(StrictJSON.maximumDepth) deep") }
                offset += 1
                var members: [String: JSONValue] = [:]
                skipSpace()
                if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
                    offset += 1
                    return .object(members)
                }
                while true {
                    skipSpace()
                    guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw fail("a member name must be a string") }
                    let key = try string()
                    skipSpace()
                    guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { throw fail("':' expected") }
                    offset += 1
                    skipSpace()
                    members[key] = try value(depth: depth + 1)
                    skipSpace()
                    guard offset < bytes.count else { throw fail("the object is not closed") }
                    if bytes[offset] == UInt8(ascii: ",") {
                        offset += 1
                        continue
                    }
                    guard bytes[offset] == UInt8(ascii: "}") else { throw fail("',' or '}' expected") }
                    offset += 1
                    return .object(members)
                }
            case UInt8(ascii: "["):
                guard depth < StrictJSON.maximumDepth else { throw fail("nested more than \(StrictJSON.maximumDepth) deep") }
                offset += 1
                var values: [JSONValue] = []
                skipSpace()
                if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
                    offset += 1
                    return .array(values)
                }
                while true {
                    skipSpace()
                    values.append(try value(depth: depth + 1))
                    skipSpace()
                    guard offset < bytes.count else { throw fail("the array is not closed") }
                    if bytes[offset] == UInt8(ascii: ",") {
                        offset += 1
                        continue
                    }
                    guard bytes[offset] == UInt8(ascii: "]") else { throw fail("',' or ']' expected") }
                    offset += 1
                    return .array(values)
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"):
                try literal("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try literal("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try literal("null")
                return .null
            default:
                return try number()
            }
        }

        mutating func literal(_ word: StaticString) throws {
            let count = word.utf8CodeUnitCount
            guard offset + count <= bytes.count else { throw fail("not a value") }
            for index in 0..<count where bytes[offset + index] != word.utf8Start[index] { throw fail("not a value") }
            offset += count
        }

        mutating func number() throws -> JSONValue {
            let start = offset
            var integral = true
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "-") { offset += 1 }
            func digits() -> Int {
                let first = offset
                while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) { offset += 1 }
                return offset - first
            }
            let whole = digits()
            guard whole > 0 else { throw fail("not a value") }
            if whole > 1, bytes[offset - whole] == UInt8(ascii: "0") { throw fail("a number has a leading zero") }
            if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
                offset += 1
                integral = false
                guard digits() > 0 else { throw fail("a number ends in '.'") }
            }
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
                offset += 1
                integral = false
                if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") { offset += 1 }
                guard digits() > 0 else { throw fail("a number's exponent has no digits") }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
            if integral, let value = Int64(text) { return .integer(value) }
            guard let value = Double(text), value.isFinite else { throw fail("a number out of range") }
            // As JSONDecoder reads them: 1e3 and 3.0 are the integers they equal.
            if value == value.rounded(), abs(value) < 9.2e18 { return .integer(Int64(value)) }
            return .double(value)
        }

        /// A string at `offset` (its opening quote), unescaped; invalid UTF-8 is refused.
        mutating func string() throws -> String {
            offset += 1
            let start = offset
            // The common case: no escapes.
            while offset < bytes.count, bytes[offset] != UInt8(ascii: "\""), bytes[offset] != UInt8(ascii: "\\") {
                guard bytes[offset] >= 0x20 else { throw fail("a control character in a string") }
                offset += 1
            }
            guard offset < bytes.count else { throw fail("the string is not closed") }
            var scalars = [UInt8](UnsafeBufferPointer(rebasing: bytes[start..<offset]))
            while bytes[offset] != UInt8(ascii: "\"") {
                // An escape.
                offset += 1
                guard offset < bytes.count else { throw fail("the string is not closed") }
                let escaped = bytes[offset]
                offset += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escaped)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") else {
                            throw fail("a lone surrogate in a string")
                        }
                        offset += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail("a lone surrogate in a string") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(code) {
                        throw fail("a lone surrogate in a string")
                    }
                    scalars += Array(String(Character(Unicode.Scalar(code)!)).utf8)
                default:
                    throw fail("an unknown escape in a string")
                }
                while offset < bytes.count, bytes[offset] != UInt8(ascii: "\""), bytes[offset] != UInt8(ascii: "\\") {
                    guard bytes[offset] >= 0x20 else { throw fail("a control character in a string") }
                    scalars.append(bytes[offset])
                    offset += 1
                }
                guard offset < bytes.count else { throw fail("the string is not closed") }
            }
            offset += 1
            guard let text = String(validating: scalars, as: UTF8.self) else { throw fail("a string is not UTF-8") }
            return text
        }

        mutating func hex4() throws -> UInt32 {
            guard offset + 4 <= bytes.count else { throw fail("a \\u escape is cut short") }
            var code: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[offset]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw fail("a \\u escape is not hexadecimal")
                }
                code = code * 16 + digit
                offset += 1
            }
            return code
        }
    }
}
