import Foundation

/// Codable values stored as JSON text in a column (codes, identifiers, components). Encoding
/// is deterministic (sorted keys) so an exported record reads back byte for byte.
enum JSONColumn {
    /// An array; an empty one (most records' components and identifiers) is "[]", as the
    /// encoder would write it, without making an encoder for it.
    static func encode<T: Encodable>(_ value: [T]) -> String {
        value.isEmpty ? "[]" : encoded(value)
    }

    static func encode<T: Encodable>(_ value: T) -> String {
        encoded(value)
    }

    /// Codings, which nearly every record has: written here as the encoder writes them (keys
    /// sorted, no spaces, an absent optional left out) when no string needs escaping, which
    /// is the rule; otherwise by the encoder. JSONColumnTests compares the two.
    static func encode(_ codings: [Coding]) -> String {
        guard !codings.isEmpty else { return "[]" }
        var text = "["
        for (index, coding) in codings.enumerated() {
            guard plain(coding.code), plain(coding.display), plain(coding.system) else { return encoded(codings) }
            if index > 0 { text += "," }
            text += "{\"code\":\"" + coding.code + "\""
            if let display = coding.display { text += ",\"display\":\"" + display + "\"" }
            if let system = coding.system { text += ",\"system\":\"" + system + "\"" }
            text += "}"
        }
        return text + "]"
    }

    /// A source's identifiers, as `encode(_: [Coding])` writes codings.
    static func encode(_ identifiers: [SourceIdentifier]) -> String {
        guard !identifiers.isEmpty else { return "[]" }
        var text = "["
        for (index, identifier) in identifiers.enumerated() {
            guard plain(identifier.system), plain(identifier.value) else { return encoded(identifiers) }
            if index > 0 { text += "," }
            text += "{"
            if let system = identifier.system { text += "\"system\":\"" + system + "\"," }
            text += "\"value\":\"" + identifier.value + "\"}"
        }
        return text + "]"
    }

    /// Whether the encoder surely writes `text` as it is between quotes: printable ASCII without
    /// a quote or a backslash (slashes stay as they are with `.withoutEscapingSlashes`). Other
    /// text goes to the encoder, which decides how to write it.
    private static func plain(_ text: String?) -> Bool {
        guard let text else { return true }
        return !text.utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 >= 0x7F }
    }

    private static func encoded<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding arrays of plain structs cannot fail.
        return String(decoding: try! encoder.encode(value), as: UTF8.self)
    }

    /// Decodes a column written by `encode`; a damaged value reads as `fallback` rather than
    /// making the whole record unreadable.
    static func decode<T: Decodable>(_ type: T.Type, from text: String?, fallback: T) -> T {
        guard let text, let value = try? JSONDecoder().decode(T.self, from: Data(text.utf8)) else { return fallback }
        return value
    }
}
