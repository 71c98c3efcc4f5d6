/// Judges a page's raw extracted text: searchable text, nothing, or junk.
///
/// Junk is what poppler produces when a PDF's fonts do not say which characters their glyphs are
/// (no or broken ToUnicode maps, unmapped glyphs). It must never reach the search index. The
/// signals, each cheap and rare in real text:
/// - control characters: an Identity-H font without a ToUnicode map comes out as glyph numbers,
///   and a subset font numbers its glyphs from 1, so spaces and the commonest letters become
///   U+0001...U+001F; real text has only a few (TeX's big delimiters come out as U+0012, U+0013);
/// - replacement (U+FFFD), private-use and unassigned characters, which poppler emits for glyphs
///   it cannot map; a Symbol or Dingbats page legitimately has a few, so only a large share counts;
/// - glyph-index text: with a full (non-subset) TrueType font the glyph numbers sit 29 below the
///   ASCII codes, so "Hello world" becomes "+HOOR ZRUOG": capitals and punctuation where
///   lowercase letters should be, and no A, B or C, which real capitals always include.
package enum PageTextAssessor {
    /// The share of visible characters that may be controls before a page is junk.
    static let maximumControlShare = 0.10
    /// The share of visible characters that may be unmappable (U+FFFD, private use, unassigned).
    static let maximumUnmappableShare = 0.25

    /// The quality of a page whose worker reported `text`, `hasImages` and whether it loaded.
    package static func quality(of text: String, hasImages: Bool, failed: Bool) -> PageQuality {
        if failed { return .failed }
        let counts = Counts(text)
        if counts.visible == 0 { return hasImages ? .imageOnly : .blank }
        let visible = Double(counts.visible)
        if Double(counts.controls) > visible * maximumControlShare { return .junk }
        if Double(counts.controls + counts.unmappable) > visible * maximumUnmappableShare { return .junk }
        if counts.looksLikeGlyphIndices { return .junk }
        return .text
    }

    /// Character counts over the visible (non-space, non-format) scalars of a text.
    struct Counts {
        var visible = 0
        var controls = 0
        var unmappable = 0
        var asciiLowercase = 0
        var asciiUppercase = 0
        var asciiUppercaseABC = 0

        init(_ text: String) {
            for scalar in text.unicodeScalars {
                let value = scalar.value
                switch value {
                case 0x09...0x0D, 0x20:
                    continue
                case 0x00...0x1F, 0x7F...0x9F:
                    visible += 1
                    controls += 1
                    continue
                case 0x61...0x7A:
                    visible += 1
                    asciiLowercase += 1
                    continue
                case 0x41...0x5A:
                    visible += 1
                    asciiUppercase += 1
                    if value <= 0x43 { asciiUppercaseABC += 1 }
                    continue
                case 0x21...0x7E:
                    visible += 1
                    continue
                default:
                    break
                }
                let properties = scalar.properties
                if properties.isWhitespace { continue }
                switch properties.generalCategory {
                case .format:
                    continue
                case .privateUse, .unassigned, .surrogate:
                    unmappable += 1
                default:
                    if value == 0xFFFD || properties.isNoncharacterCodePoint { unmappable += 1 }
                }
                visible += 1
            }
        }

        /// Enough ASCII capitals to judge, almost no lowercase, and (nearly) no A, B or C.
        var looksLikeGlyphIndices: Bool {
            let letters = asciiLowercase + asciiUppercase
            guard letters >= 40 else { return false }
            return Double(asciiLowercase) <= Double(letters) * 0.05
                && Double(asciiUppercaseABC) <= Double(asciiUppercase) * 0.01
        }
    }
}
