import Foundation

/// A field whose values are a fixed set: the schema's `CHECK (column IN (...))`, as a Swift enum.
///
/// It is stored, exported and typed as its raw text, so the database and the JSON keep the
/// strings they always had; a value outside the set is refused when read, with the same words
/// the commands use ("'bogus' is not one of active, inactive, resolved").
public protocol RecordChoice: RawRepresentable<String>, CaseIterable, Codable, Sendable {}

extension RecordChoice {
    /// Every value, in the order the schema lists them.
    public static var names: [String] { allCases.map(\.rawValue) }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = Self(rawValue: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not one of \(Self.names.joined(separator: ", "))")
        }
        self = value
    }
}
