import Foundation

/// How a run of text looks: font, size, weight, colour, alignment and line height.
///
/// Sizes are in PDF points. Families are fontconfig names, so any installed font works, and
/// pango falls back through fontconfig for characters the family lacks: with Noto Sans (Latin,
/// Greek, Cyrillic) and the Noto CJK and Arabic families installed, names in any of those
/// scripts render in one style.
public struct TextStyle: Sendable {
    public enum Alignment: Sendable {
        case left, center, right
    }

    public var family: String
    public var size: Double
    public var bold: Bool
    public var italic: Bool
    public var color: Color
    public var alignment: Alignment
    /// A multiple of the font's natural line height; 0 keeps the font's own.
    public var lineHeight: Double
    /// Extra space between letters in points (plain text only). Only for outlined text such as
    /// a watermark: on real text, poppler reads widely spaced letters as separate words.
    public var tracking: Double

    public init(family: String = "Noto Sans", size: Double = 9.5, bold: Bool = false, italic: Bool = false,
                color: Color = .ink, alignment: Alignment = .left, lineHeight: Double = 0, tracking: Double = 0) {
        self.family = family
        self.size = size
        self.bold = bold
        self.italic = italic
        self.color = color
        self.alignment = alignment
        self.lineHeight = lineHeight
        self.tracking = tracking
    }

    public static let body = TextStyle()
    public static let small = TextStyle(size: 8, color: .muted)
    /// Identifiers people read out or compare (member IDs, phone numbers, hashes), where 0/O and
    /// 1/l must differ.
    public static let mono = TextStyle(family: "DejaVu Sans Mono", size: 9)

    public func sized(_ size: Double) -> TextStyle {
        var copy = self
        copy.size = size
        return copy
    }

    public func colored(_ color: Color) -> TextStyle {
        var copy = self
        copy.color = color
        return copy
    }

    public func aligned(_ alignment: Alignment) -> TextStyle {
        var copy = self
        copy.alignment = alignment
        return copy
    }

    public func tracked(_ tracking: Double) -> TextStyle {
        var copy = self
        copy.tracking = tracking
        return copy
    }

    public func spaced(_ lineHeight: Double) -> TextStyle {
        var copy = self
        copy.lineHeight = lineHeight
        return copy
    }

    public var emboldened: TextStyle {
        var copy = self
        copy.bold = true
        return copy
    }

    public var italicized: TextStyle {
        var copy = self
        copy.italic = true
        return copy
    }
}

/// Text to lay out: either literal characters or pango markup (for inline bold and colour).
///
/// Keeping the two apart means literal text never needs escaping and markup is always explicit:
/// splice data into markup only through `escapeMarkup`.
/// https://docs.gtk.org/Pango/pango_markup.html
public enum TextContent: Sendable {
    case plain(String)
    case markup(String)
}

/// Escapes the five characters pango markup reserves, so data can be spliced into markup.
public func escapeMarkup(_ text: String) -> String {
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

/// `text` in capitals as a typesetter would set them.
///
/// Greek drops the tonos (acute accent) in all-capital text ("Αλλεργίες" becomes "ΑΛΛΕΡΓΙΕΣ",
/// not "ΑΛΛΕΡΓΊΕΣ"), which plain `uppercased()` does not do. The dialytika stays.
public func displayCapitals(_ text: String) -> String {
    let tonos: Unicode.Scalar = "\u{0301}"
    var scalars = String.UnicodeScalarView()
    var previousIsGreek = false
    for scalar in text.uppercased().decomposedStringWithCanonicalMapping.unicodeScalars {
        if scalar == tonos, previousIsGreek { continue }
        if scalar.properties.generalCategory != .nonspacingMark {
            previousIsGreek = (0x0370...0x03FF).contains(scalar.value)
        }
        scalars.append(scalar)
    }
    return String(scalars).precomposedStringWithCanonicalMapping
}
