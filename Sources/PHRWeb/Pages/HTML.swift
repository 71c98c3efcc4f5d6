/// A piece of HTML whose interpolations are escaped unless they are HTML themselves: the
/// escaping template the pages are written in. `"<p>\(name)</p>"` escapes `name`;
/// `"<ul>\(items)</ul>"` with `items: HTML` (or `[HTML]`) inserts it as it is. There is no way to
/// insert an unescaped `String`: text from the vault always goes through `escape`.
public struct HTML: ExpressibleByStringInterpolation, CustomStringConvertible, Sendable, Equatable {
    public private(set) var text: String

    public init(stringLiteral value: String) { text = value }
    public init(stringInterpolation: Interpolation) { text = stringInterpolation.text }
    /// HTML made of other HTML.
    public init(_ parts: [HTML], separator: String = "") { text = parts.map(\.text).joined(separator: separator) }

    public var description: String { text }
    public static let empty: HTML = ""

    public struct Interpolation: StringInterpolationProtocol {
        var text = ""
        public init(literalCapacity: Int, interpolationCount: Int) { text.reserveCapacity(literalCapacity * 2) }
        public mutating func appendLiteral(_ literal: String) { text += literal }
        public mutating func appendInterpolation(_ value: String) { text += HTML.escape(value) }
        public mutating func appendInterpolation(_ value: String?) { if let value { text += HTML.escape(value) } }
        public mutating func appendInterpolation(_ value: Int) { text += String(value) }
        public mutating func appendInterpolation(_ value: HTML) { text += value.text }
        public mutating func appendInterpolation(_ value: HTML?) { if let value { text += value.text } }
        public mutating func appendInterpolation(_ values: [HTML]) { for value in values { text += value.text } }
    }

    /// `text` safe in element content and in double-quoted attribute values.
    public static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case "\u{0}": escaped += "\u{FFFD}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
