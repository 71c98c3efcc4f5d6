import Foundation

/// One `name=value` pair of a URL query, unencoded.
public struct QueryItem: Sendable, Hashable, Codable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// Query strings as both services read them (application/x-www-form-urlencoded: a space is
/// `+`), and the normalised form cassettes are matched on.
///
/// The normalised form decodes every pair, drops the secret ones, sorts by name then value and
/// encodes again, so `b=2&a=1`, `a=1&b=2` and `a=%31&b=2` all match one recorded interaction, and
/// a recording made with an API key replays without one.
public enum QueryString {
    /// Query parameters that carry credentials: never written to a cassette, never matched on,
    /// shown as REDACTED in any URL phr prints or stores.
    public static let secretNames: Set<String> = ["api_key"]

    /// Unreserved characters (RFC 3986) plus `:` `,` `/`, which need no escaping inside a query
    /// and keep openFDA searches such as `openfda.rxcui:"617314"` readable in cassettes.
    private static let allowed: Set<UInt8> = {
        var set = Set<UInt8>()
        for byte in UInt8(ascii: "a")...UInt8(ascii: "z") { set.insert(byte) }
        for byte in UInt8(ascii: "A")...UInt8(ascii: "Z") { set.insert(byte) }
        for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { set.insert(byte) }
        for character in "-._~:,/" { set.insert(character.asciiValue!) }
        return set
    }()

    public static func encode(_ items: [QueryItem]) -> String {
        items.map { "\(escape($0.name))=\(escape($0.value))" }.joined(separator: "&")
    }

    static func escape(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            if allowed.contains(byte) {
                result.unicodeScalars.append(UnicodeScalar(byte))
            } else if byte == UInt8(ascii: " ") {
                result += "+"
            } else {
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }

    /// Splits and decodes a query string (`+` is a space; malformed escapes are kept as typed).
    public static func decode(_ query: String) -> [QueryItem] {
        query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = unescape(String(parts[0]))
            let value = parts.count > 1 ? unescape(String(parts[1])) : ""
            return QueryItem(name, value)
        }
    }

    static func unescape(_ text: String) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// The form cassettes are matched on (see the type's overview).
    public static func normalized(_ items: [QueryItem]) -> String {
        encode(items.filter { !secretNames.contains($0.name) }.sorted {
            $0.name != $1.name ? $0.name < $1.name : $0.value < $1.value
        })
    }

    public static func normalized(_ query: String) -> String {
        normalized(decode(query))
    }

    /// The items with every secret value replaced by REDACTED, for URLs that are shown or stored.
    static func redacted(_ items: [QueryItem]) -> [QueryItem] {
        items.map { secretNames.contains($0.name) ? QueryItem($0.name, "REDACTED") : $0 }
    }
}
