import Foundation

/// Trimming for the text an import reads field by field, without Foundation's work when there is
/// nothing to trim.
///
/// Trimming only removes characters at the two ends, and the only ASCII members of
/// `CharacterSet.whitespaces` and `.whitespacesAndNewlines` are tab, LF, VT, FF, CR and space:
/// when the first and the last byte are other ASCII characters the text is already trimmed.
/// Otherwise Foundation trims as before. A C-CDA import trims every value of every entry, and
/// Foundation's trim (by way of NSString) was a twentieth of its time.
extension String {
    /// `trimmingCharacters(in: .whitespaces)`.
    package func trimmingWhitespace() -> String {
        isTrimmedAtBothEnds ? self : trimmingCharacters(in: .whitespaces)
    }

    /// `trimmingCharacters(in: .whitespacesAndNewlines)`.
    package func trimmingWhitespaceAndNewlines() -> String {
        isTrimmedAtBothEnds ? self : trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private var isTrimmedAtBothEnds: Bool {
        func kept(_ byte: UInt8) -> Bool { byte < 0x80 && byte != 0x20 && !(0x09...0x0D).contains(byte) }
        guard let first = utf8.first, let last = utf8.last else { return false }
        return kept(first) && kept(last)
    }
}
