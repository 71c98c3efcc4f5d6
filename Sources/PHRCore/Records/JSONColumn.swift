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
