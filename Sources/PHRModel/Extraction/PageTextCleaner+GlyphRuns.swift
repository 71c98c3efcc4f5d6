import Foundation

/// Right-to-left words that poppler could not put together.
///
/// A PDF drawn by pango and cairo (phr's own, and many others) places Arabic or Hebrew glyph by
/// glyph, left to right on the page. poppler then makes each glyph a word of its own, wraps it
/// in a right-to-left embedding (U+202B ... U+202C), and orders these one-glyph words on the
/// line as its page is: left to right on a mainly left-to-right page, which is the reverse of
/// the order the text is typed in ("ض‬‫ي‬‫ر‬‫م‬‫ل‬‫ا" for "المريض"), right to left on a mainly
/// right-to-left page, which is the typed order. `pdftotext` reads both as words.
///
/// So, on each line, a stretch of such one-glyph runs (with the spaces, digits and punctuation
/// between them) becomes text again: its glyphs joined into words and, on a mainly
/// left-to-right page, put back in typed order. The page's direction is found the way poppler
/// finds it, by counting left-to-right against right-to-left letters. Runs of whole words
/// ("‫לחיוב‬‫פעולות‬") are left to `clean`, which keeps them as words.
extension PageTextCleaner {
    static func joinGlyphRuns(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value == 0x202B }) else { return text }
        let leftToRightPage = isMainlyLeftToRight(text)
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { joinGlyphRuns(inLine: Array($0.unicodeScalars), leftToRightPage: leftToRightPage) }
            .joined(separator: "\n")
    }

    private enum Token: Equatable {
        /// The glyph of one right-to-left embedding, without its controls.
        case glyph([Unicode.Scalar])
        case space(Unicode.Scalar)
        /// Anything else up to the next space or control; `neutral` when it holds no letter.
        case other([Unicode.Scalar], neutral: Bool)
        /// Punctuation or digits in embeddings of their own: the text, and the text as it came,
        /// which is kept outside a stretch (where its controls still separate words).
        case wrapped([Unicode.Scalar], original: [Unicode.Scalar])

        var isGlyph: Bool { if case .glyph = self { return true } else { return false } }
        var canJoinStretch: Bool {
            switch self {
            case .glyph, .space, .wrapped: return true
            case .other(_, let neutral): return neutral
            }
        }
        var scalars: [Unicode.Scalar] {
            switch self {
            case .glyph(let scalars), .other(let scalars, _), .wrapped(let scalars, _): return scalars
            case .space(let scalar): return [scalar]
            }
        }
        /// As it came, controls included.
        var original: [Unicode.Scalar] {
            if case .wrapped(_, let original) = self { return original }
            return scalars
        }
        var isNeutral: Bool {
            switch self {
            case .wrapped: return true
            case .other(_, let neutral): return neutral
            default: return false
            }
        }
    }

    private static func joinGlyphRuns(inLine scalars: [Unicode.Scalar], leftToRightPage: Bool) -> String {
        let tokens = tokenize(scalars)
        var output = String.UnicodeScalarView()
        var index = 0
        while index < tokens.count {
            guard tokens[index].isGlyph, let end = stretchEnd(tokens, from: index) else {
                output.append(contentsOf: tokens[index].original)
                index += 1
                continue
            }
            // Neutrals before the first glyph of the stretch belong to it too (a full stop at
            // the left end of a line drawn left to right ends the sentence).
            var start = index
            while leftToRightPage, start > 0, tokens[start - 1].isNeutral, output.count >= tokens[start - 1].original.count {
                output.removeLast(tokens[start - 1].original.count)
                start -= 1
            }
            var stretch = Array(tokens[start...end])
            if leftToRightPage {
                stretch.reverse()
            } else {
                // poppler puts the space of a gap after the glyph to the gap's left, which on a
                // right-to-left line is the first glyph of the next word: it goes back before it.
                var position = 1
                while position < stretch.count {
                    if case .space = stretch[position] {
                        stretch.swapAt(position - 1, position)
                        position += 1
                    }
                    position += 1
                }
                if case .space = stretch[0], output.last?.properties.isWhitespace ?? true { stretch.removeFirst() }
            }
            for token in stretch { output.append(contentsOf: token.scalars) }
            index = end + 1
        }
        return String(output)
    }

    /// The last token of the glyph stretch starting at `start` (trailing spaces left out), or
    /// nil when it is not one: fewer than two glyphs, or no two of them side by side.
    private static func stretchEnd(_ tokens: [Token], from start: Int) -> Int? {
        var lastGlyph = start
        var adjacent = false
        var next = start + 1
        while next < tokens.count, tokens[next].canJoinStretch {
            if tokens[next].isGlyph {
                if tokens[next - 1].isGlyph { adjacent = true }
                lastGlyph = next
            }
            next += 1
        }
        var end = lastGlyph
        // Neutrals right after the last glyph (not spaces) stay with it.
        while end + 1 < tokens.count, tokens[end + 1].isNeutral { end += 1 }
        return adjacent ? end : nil
    }

    private static func tokenize(_ scalars: [Unicode.Scalar]) -> [Token] {
        var tokens: [Token] = []
        var pending: [Unicode.Scalar] = []
        func flush() {
            guard !pending.isEmpty else { return }
            tokens.append(.other(pending, neutral: !pending.contains { $0.properties.isAlphabetic }))
            pending = []
        }
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar.value == 0x202B, let close = embeddingEnd(scalars, from: index) {
                let content = scalars[(index + 1)..<close].filter { !isDirectionalRun($0.value) }
                if isGlyph(content[...]) {
                    flush()
                    tokens.append(.glyph(content))
                    index = close + 1
                    continue
                }
                // A full stop of a right-to-left line comes wrapped twice ("\u{202B}\u{202A}.\u{202C}\u{202C}").
                if !content.isEmpty, !content.contains(where: { $0.properties.isAlphabetic || $0.properties.isWhitespace }) {
                    flush()
                    tokens.append(.wrapped(content, original: Array(scalars[index...close])))
                    index = close + 1
                    continue
                }
            }
            if scalar == " " {
                flush()
                tokens.append(.space(scalar))
            } else {
                pending.append(scalar)
            }
            index += 1
        }
        flush()
        return tokens
    }

    /// The index of the control closing the embedding opened at `start`, nested ones included.
    private static func embeddingEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var depth = 0
        for index in start..<scalars.count {
            switch scalars[index].value {
            case 0x202A, 0x202B, 0x202D, 0x202E: depth += 1
            case 0x202C:
                depth -= 1
                if depth == 0 { return index }
            default: continue
            }
        }
        return nil
    }

    /// One or two right-to-left letters (a ligature such as lam-alef is two) with their marks.
    private static func isGlyph(_ scalars: ArraySlice<Unicode.Scalar>) -> Bool {
        let letters = scalars.filter { !$0.properties.generalCategory.isMark }
        return (1...2).contains(letters.count) && letters.allSatisfy(isRightToLeftLetter)
    }

    static func isRightToLeftLetter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFE: return scalar.properties.isAlphabetic
        default: return false
        }
    }

    /// More left-to-right letters than right-to-left ones, as poppler decides a page's direction.
    private static func isMainlyLeftToRight(_ text: String) -> Bool {
        var balance = 0
        for scalar in text.unicodeScalars where scalar.properties.isAlphabetic {
            balance += isRightToLeftLetter(scalar) ? -1 : 1
        }
        return balance >= 0
    }
}

private extension Unicode.GeneralCategory {
    var isMark: Bool { self == .nonspacingMark || self == .spacingMark || self == .enclosingMark }
}
