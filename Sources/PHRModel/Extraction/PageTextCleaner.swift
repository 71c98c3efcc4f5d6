import Foundation

/// Turns poppler's page text into the text phr stores and searches.
///
/// poppler reproduces what the PDF draws, which is not always what a person would type:
/// - right-to-left text drawn glyph by glyph comes one glyph per run, on a left-to-right page
///   in the reverse of typed order: these runs are joined into words in typed order first
///   (`joinGlyphRuns`);
/// - right-to-left runs come wrapped in bidi embedding controls (U+202B ... U+202C), and two
///   adjacent runs are two words ("‫לחיוב‬‫פעולות‬"): a control between two visible characters
///   becomes a space, elsewhere it is dropped;
/// - Arabic comes out in presentation forms (U+FB50...U+FDFF, U+FE70...U+FEFF) and Latin text
///   with ligatures (U+FB00 "ﬀ", U+FB01 "ﬁ"), which a query typed on a keyboard never matches;
///   these are folded with their NFKC compatibility mapping, and nothing else is, so "½" or "²"
///   stay as printed;
/// - soft hyphens mark where a word was broken and split it in the index;
/// - the few private-use, replacement and control characters of a page that is otherwise good
///   text (a bullet from an icon font, an unmappable glyph) carry nothing searchable.
/// Line structure is kept; trailing spaces and runs of more than two blank lines are not.
package enum PageTextCleaner {
    package static func clean(_ text: String) -> String {
        var output = String.UnicodeScalarView()
        var pendingForms = String.UnicodeScalarView()

        func flushForms() {
            guard !pendingForms.isEmpty else { return }
            output.append(contentsOf: String(pendingForms).precomposedStringWithCompatibilityMapping.unicodeScalars)
            pendingForms = String.UnicodeScalarView()
        }

        var runBoundary = false
        for scalar in joinGlyphRuns(text.replacingOccurrences(of: "\r\n", with: "\n")).unicodeScalars {
            let value = scalar.value
            if isDirectionalRun(value) {
                runBoundary = true
                continue
            }
            let form = isPresentationForm(value)
            if !form && isDropped(scalar) { continue }
            if runBoundary && !scalar.properties.isWhitespace {
                flushForms()
                if let last = output.last, !last.properties.isWhitespace { output.append(" ") }
            }
            runBoundary = false
            if form {
                pendingForms.append(scalar)
                continue
            }
            flushForms()
            if value == 0x0D || value == 0x0C || value == 0x0B {
                output.append("\n")
            } else {
                output.append(scalar)
            }
        }
        flushForms()
        return tidyLines(String(output))
    }

    /// Alphabetic and Arabic presentation forms (Unicode blocks FB00-FB4F, FB50-FDFF, FE70-FEFF).
    static func isPresentationForm(_ value: UInt32) -> Bool {
        (0xFB00...0xFDFF).contains(value) || (0xFE70...0xFEFE).contains(value)
    }

    /// Embedding, override and isolate controls, which poppler puts around directional runs.
    static func isDirectionalRun(_ value: UInt32) -> Bool {
        (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }

    private static func isDropped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00AD, 0x061C, 0x200E, 0x200F, 0xFEFF, 0xFFFD:
            return true
        case 0x09, 0x0A, 0x0B, 0x0C, 0x0D:
            return false
        case 0x00...0x1F, 0x7F...0x9F:
            return true
        default:
            let category = scalar.properties.generalCategory
            return category == .privateUse || category == .unassigned
        }
    }

    private static func tidyLines(_ text: String) -> String {
        var lines: [Substring] = []
        var blankRun = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var trimmed = line
            while let last = trimmed.last, last == " " || last == "\t" { trimmed.removeLast() }
            if trimmed.isEmpty {
                blankRun += 1
                if blankRun > 2 { continue }
            } else {
                blankRun = 0
            }
            lines.append(trimmed)
        }
        while let first = lines.first, first.isEmpty { lines.removeFirst() }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        return lines.joined(separator: "\n")
    }
}
