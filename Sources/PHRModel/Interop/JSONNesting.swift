/// JSON nesting, for the workers that parse untrusted JSON with Foundation's parser, which
/// recurses once per level: check the depth first.
public enum JSONNesting {
    /// The first byte offset where `bytes` nest deeper than `maximumDepth`, or nil. One pass,
    /// no recursion; brackets inside strings do not count.
    /// Inlinable: it runs over every byte of a bundle, and called unspecialised from another
    /// module it asked the runtime for generic metadata at each byte (the 4 MB FHIR bundle of
    /// `phr-bench import` took 2.68 s instead of 1.76 s).
    @inlinable
    public static func firstOffsetDeeper(than maximumDepth: Int, in bytes: some Collection<UInt8>) -> Int? {
        var depth = 0
        var inString = false
        var escaped = false
        for (offset, byte) in bytes.enumerated() {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > maximumDepth { return offset }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return nil
    }
}
