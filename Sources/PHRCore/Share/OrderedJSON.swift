import Foundation

/// A JSON value that keeps its members in the order they were written, serialized with two-space
/// indentation: FHIR files read best with `resourceType` first and fields in the specification's
/// order, which Foundation's JSONSerialization does not promise.
indirect enum OrderedJSON {
    case string(String)
    case number(Double)
    case integer(Int)
    case bool(Bool)
    case array([OrderedJSON])
    case object([(String, OrderedJSON)])

    /// An object from members whose value may be absent; absent members are left out.
    static func members(_ pairs: [(String, OrderedJSON?)]) -> OrderedJSON {
        .object(pairs.compactMap { key, value in value.map { (key, $0) } })
    }

    /// UTF-8 text ending in a newline.
    func serialized() -> [UInt8] {
        var out = ""
        write(to: &out, indent: 0)
        out += "\n"
        return Array(out.utf8)
    }

    private func write(to out: inout String, indent: Int) {
        let pad = String(repeating: "  ", count: indent + 1)
        let closing = String(repeating: "  ", count: indent)
        switch self {
        case .string(let text): Self.quote(text, into: &out)
        case .integer(let value): out += String(value)
        case .number(let value):
            if value == value.rounded(), abs(value) < 1e15 { out += String(Int(value)) } else { out += "\(value)" }
        case .bool(let value): out += value ? "true" : "false"
        case .array(let items):
            guard !items.isEmpty else { out += "[]"; return }
            out += "[\n"
            for (index, item) in items.enumerated() {
                out += pad
                item.write(to: &out, indent: indent + 1)
                out += index == items.count - 1 ? "\n" : ",\n"
            }
            out += closing + "]"
        case .object(let members):
            guard !members.isEmpty else { out += "{}"; return }
            out += "{\n"
            for (index, (key, value)) in members.enumerated() {
                out += pad
                Self.quote(key, into: &out)
                out += ": "
                value.write(to: &out, indent: indent + 1)
                out += index == members.count - 1 ? "\n" : ",\n"
            }
            out += closing + "}"
        }
    }

    private static func quote(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
