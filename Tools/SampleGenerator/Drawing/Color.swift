/// An opaque RGB colour with components in 0...1, as cairo takes them.
///
/// No alpha on purpose: everything is painted opaque so the PDFs need no transparency groups,
/// which keeps them small and renders the same in every viewer.
struct Color: Sendable, Equatable {
    var red: Double
    var green: Double
    var blue: Double

    /// A colour from a 0xRRGGBB literal, the way designers write them.
    init(hex: UInt32) {
        red = Double((hex >> 16) & 0xFF) / 255
        green = Double((hex >> 8) & 0xFF) / 255
        blue = Double(hex & 0xFF) / 255
    }

    /// The `#rrggbb` form pango markup expects in `foreground=`.
    var markupValue: String {
        func byte(_ component: Double) -> String {
            let value = Int((component * 255).rounded())
            let digits = String(value, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }
        return "#" + byte(red) + byte(green) + byte(blue)
    }

    /// Body text.
    static let ink = Color(hex: 0x1E2430)
    /// Labels, captions and footers.
    static let muted = Color(hex: 0x5C6573)
    /// Hairlines between rows and around boxes.
    static let hairline = Color(hex: 0xC8CDD5)
    /// Table header and box backgrounds.
    static let panel = Color(hex: 0xEEF1F5)
    /// Every other table row, light enough to stay invisible on a greyscale printer.
    static let zebra = Color(hex: 0xF7F8FA)
    /// Results outside the reference range.
    static let alert = Color(hex: 0xB3261E)
    /// The diagonal "SAMPLE" mark behind the content.
    static let watermark = Color(hex: 0xEFEFF1)
    static let white = Color(hex: 0xFFFFFF)
}
