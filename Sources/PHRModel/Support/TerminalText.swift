/// Text on its way to a terminal, made harmless.
public enum TerminalText {
    /// `text` with every C0 and C1 control character except newline and tab shown visibly
    /// (ESC as `^[`, other C0 controls and DEL in caret notation, C1 controls as U+FFFD), and
    /// with every escape sequence neutralised except the exact sequences in `keeping` (phr's own
    /// colours). A record's text can then never move the cursor, clear the screen, retitle the
    /// window, write the clipboard (OSC 52) or hide what follows it.
    ///
    /// The bidirectional embedding, override and isolate controls (U+202A to U+202E, U+2066
    /// to U+2069, and U+061C) are shown as `<U+202E>`: in a name they reorder what a terminal
    /// shows ("Peanut <U+202E>YGRELLA ON" read as "Peanut NO ALLERGY"), the "Trojan Source"
    /// trick. The marks U+200E and U+200F stay: right-to-left names use them and they reorder
    /// nothing but neutral characters.
    ///
    /// Input refuses control characters already (RecordFields); this covers text stored before
    /// that rule and text no person typed (PDF text in snippets, data from a medicine service).
    public static func neutralized(_ text: String, keeping: Set<String> = []) -> String {
        guard text.unicodeScalars.contains(where: { ($0.properties.generalCategory == .control && $0 != "\n" && $0 != "\t") || isBidiControl($0) })
        else {
            return text
        }
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\u{1b}", !keeping.isEmpty,
               let end = scalars[index...].prefix(8).firstIndex(where: { $0 == "m" || $0 == "K" }),
               keeping.contains(String(String.UnicodeScalarView(scalars[index...end]))) {
                result.append(contentsOf: scalars[index...end])
                index = end + 1
                continue
            }
            switch scalar.value {
            case 0x0A, 0x09: result.append(scalar)
            case 0x00...0x1F:
                result.append("^")
                result.append(Unicode.Scalar(UInt8(scalar.value + 0x40)))
            case 0x7F: result.append(contentsOf: "^?".unicodeScalars)
            case 0x80...0x9F: result.append("\u{FFFD}")
            case _ where isBidiControl(scalar):
                result.append(contentsOf: "<U+\(String(scalar.value, radix: 16, uppercase: true))>".unicodeScalars)
            default: result.append(scalar)
            }
            index += 1
        }
        return String(result)
    }

    /// An embedding, override or isolate control, or the Arabic letter mark.
    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value) || scalar.value == 0x061C
    }
}
