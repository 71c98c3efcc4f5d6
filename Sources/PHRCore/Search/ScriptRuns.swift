/// Scripts written without spaces between words (Chinese, Japanese, Thai, Lao, Khmer, Myanmar)
/// and Korean (whose words carry attached particles). The unicode61 tokenizer turns a whole run
/// of such characters into one token, so a word inside it cannot be found; phr indexes these
/// runs a second time in a trigram index and searches them by substring.
enum ScriptRuns {
    static func isUnsegmented(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0E00...0x0E7F,   // Thai
             0x0E80...0x0EFF,   // Lao
             0x1000...0x109F,   // Myanmar
             0x1780...0x17FF,   // Khmer
             0x3040...0x309F,   // Hiragana
             0x30A0...0x30FF,   // Katakana
             0x3400...0x4DBF,   // CJK Unified Ideographs Extension A
             0x4E00...0x9FFF,   // CJK Unified Ideographs
             0xAC00...0xD7AF,   // Hangul syllables
             0xF900...0xFAFF,   // CJK Compatibility Ideographs
             0xFF66...0xFF9F,   // Halfwidth Katakana
             0x20000...0x2FA1F: // CJK Extensions B-F and compatibility supplement
            return true
        default:
            return false
        }
    }

    static func containsUnsegmented(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: isUnsegmented)
    }

    /// The runs of unsegmented characters in `text`, one per line (combining marks such as Thai
    /// vowel signs stay with their run).
    static func runs(in text: String) -> String {
        var lines: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isUnsegmented(scalar) {
                current.append(scalar)
            } else if !current.isEmpty {
                lines.append(String(current))
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { lines.append(String(current)) }
        return lines.joined(separator: "\n")
    }
}
