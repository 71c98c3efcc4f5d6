/// How a run of text looks: font, size, weight, colour, alignment and line height.
///
/// Sizes are in PDF points. Families are fontconfig names, so any installed font works; the
/// samples use Noto Sans because it covers Latin, Greek and Cyrillic in one family.
struct TextStyle: Sendable {
    enum Alignment: Sendable {
        case left, center, right
    }

    var family: String = "Noto Sans"
    var size: Double = 9.5
    var bold = false
    var italic = false
    var color: Color = .ink
    var alignment: Alignment = .left
    /// A multiple of the font's natural line height; 0 keeps the font's own.
    var lineHeight: Double = 0
    /// Extra space between letters in points (plain text only). Only for outlined text such as
    /// the watermark: on real text, poppler reads widely spaced letters as separate words.
    var tracking: Double = 0

    static let body = TextStyle()
    static let small = TextStyle(size: 8, color: .muted)
    /// Identifiers people read out over the phone (member IDs, phone numbers), where 0/O and 1/l must differ.
    static let mono = TextStyle(family: "DejaVu Sans Mono", size: 9)

    func sized(_ size: Double) -> TextStyle {
        var copy = self
        copy.size = size
        return copy
    }

    func colored(_ color: Color) -> TextStyle {
        var copy = self
        copy.color = color
        return copy
    }

    func aligned(_ alignment: Alignment) -> TextStyle {
        var copy = self
        copy.alignment = alignment
        return copy
    }

    func tracked(_ tracking: Double) -> TextStyle {
        var copy = self
        copy.tracking = tracking
        return copy
    }

    func spaced(_ lineHeight: Double) -> TextStyle {
        var copy = self
        copy.lineHeight = lineHeight
        return copy
    }

    var emboldened: TextStyle {
        var copy = self
        copy.bold = true
        return copy
    }

    var italicized: TextStyle {
        var copy = self
        copy.italic = true
        return copy
    }
}

/// Text to lay out: either literal characters or pango markup (for inline bold and colour).
///
/// Keeping the two apart means literal text never needs escaping and markup is always explicit.
/// https://docs.gtk.org/Pango/pango_markup.html
enum TextContent: Sendable {
    case plain(String)
    case markup(String)
}

/// Escapes the five characters pango markup reserves, so data can be spliced into markup.
func escapeMarkup(_ text: String) -> String {
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for character in text {
        switch character {
        case "&": escaped += "&amp;"
        case "<": escaped += "&lt;"
        case ">": escaped += "&gt;"
        case "\"": escaped += "&quot;"
        case "'": escaped += "&#39;"
        default: escaped.append(character)
        }
    }
    return escaped
}
