/// An opaque RGB colour with components in 0...1, as cairo takes them.
///
/// No alpha on purpose: everything is painted opaque so the PDFs need no transparency groups,
/// which keeps them small and renders the same in every viewer.
public struct Color: Sendable, Equatable {
    public var red: Double
    public var green: Double
    public var blue: Double

    public init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// A colour from a 0xRRGGBB literal, the way designers write them.
    public init(hex: UInt32) {
        red = Double((hex >> 16) & 0xFF) / 255
        green = Double((hex >> 8) & 0xFF) / 255
        blue = Double(hex & 0xFF) / 255
    }

    /// The `#rrggbb` form pango markup expects in `foreground=`.
    public var markupValue: String {
        func byte(_ component: Double) -> String {
            let value = Int((component * 255).rounded())
            let digits = String(value, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }
        return "#" + byte(red) + byte(green) + byte(blue)
    }

    /// Body text.
    public static let ink = Color(hex: 0x1E2430)
    /// Labels, captions and footers.
    public static let muted = Color(hex: 0x5C6573)
    /// Hairlines between rows and around boxes.
    public static let hairline = Color(hex: 0xC8CDD5)
    /// Table header and box backgrounds.
    public static let panel = Color(hex: 0xEEF1F5)
    /// Every other table row, light enough to stay invisible on a greyscale printer.
    public static let zebra = Color(hex: 0xF7F8FA)
    /// Values that need attention: out-of-range results, severe allergies.
    public static let alert = Color(hex: 0xB3261E)
    /// A large mark behind the content (a watermark), barely darker than the paper.
    public static let watermark = Color(hex: 0xEFEFF1)
    public static let white = Color(hex: 0xFFFFFF)
}
