import PHRModel
import PHRTypesetting

/// The look of share bundles and emergency cards: one accent colour, Noto Sans throughout (with
/// fontconfig's fallback to Noto CJK, Arabic and the rest for names in other scripts), DejaVu
/// Sans Mono for phone numbers and hashes, and page frames that keep every mark at least 24
/// points (8.5 mm) from the paper's edge, inside what any printer can print.
enum BundleStyle {
    static let accent = Color(hex: 0x1F4E79)
    static let accentPale = Color(hex: 0xE9EFF6)
    static let alertPale = Color(hex: 0xFBEDEC)

    static let body = TextStyle(size: 9.2)
    static let small = TextStyle(size: 7.6, color: .muted)
    static let mono = TextStyle(family: "DejaVu Sans Mono", size: 8.4)

    /// No ink closer to the paper's edge than this (the tests check it on rendered pages).
    static let edge = 24.0
    static let headerTop = 30.0
    static let footerHeight = 34.0

    /// Cover and summary pages.
    static func reportFrame(_ paper: Paper) -> PageFrame {
        PageFrame(width: paper.width, height: paper.height, marginLeft: 54, marginRight: 54, marginTop: 64, marginBottom: 70)
    }

    /// Pages carrying a document's page: narrower side margins so the page is shrunk less.
    static func documentFrame(_ paper: Paper, landscape: Bool) -> PageFrame {
        let size = landscape ? Size(width: paper.height, height: paper.width) : Size(width: paper.width, height: paper.height)
        return PageFrame(width: size.width, height: size.height, marginLeft: 36, marginRight: 36, marginTop: 64, marginBottom: 70)
    }

    /// A table style matching the bundle: accent-tinted header, light stripes.
    static var table: TableStyle {
        var style = TableStyle()
        style.headerFill = accentPale
        style.headerText = accent
        style.rule = accent
        return style
    }

    /// "—" for a value that is not recorded.
    static let missing = "—"

    /// Markup for a record's name in bold with its codes underneath, small and muted:
    /// "Metformin" over "RxNorm 860975 · SNOMED CT 109081006".
    static func nameWithCodes(_ name: String, codes: [Coding], detail: String? = nil) -> String {
        var markup = "<b>\(escapeMarkup(name))</b>"
        if let detail, !detail.isEmpty { markup += " \(escapeMarkup(detail))" }
        let labels = codes.prefix(3).map(\.label)
        if !labels.isEmpty {
            markup += "\n<span size=\"smaller\" foreground=\"\(Color.muted.markupValue)\">\(escapeMarkup(labels.joined(separator: " · ")))</span>"
        }
        return markup
    }

    /// Lines of markup: the first as given, the rest small and muted.
    static func withNote(_ main: String, _ notes: [String?]) -> String {
        let extra = notes.compactMap { $0 }.filter { !$0.isEmpty }
        guard !extra.isEmpty else { return escapeMarkup(main) }
        return escapeMarkup(main) + "\n<span size=\"smaller\" foreground=\"\(Color.muted.markupValue)\">"
            + extra.map(escapeMarkup).joined(separator: "\n") + "</span>"
    }
}
