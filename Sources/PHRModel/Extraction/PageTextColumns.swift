/// Puts a tab between text runs that sit side by side on a line with a wide gap between them.
///
/// poppler-glib's page text joins the cells of a line with nothing in between: a form row
/// "Patient: Alex Example" ... "Date of service: 02/17/2025" comes out as
/// "Patient: Alex ExampleDate of service: 02/17/2025", which glues "Example" and "Date" into one
/// word for the search index and hides the label from the date guesser. pdftotext does not glue
/// them, but the glib API has no equivalent call. `poppler_page_get_text_layout` gives one box
/// per character of that text, so a gap wider than the characters are tall (an em, far wider than
/// any letter or word spacing) between two glyphs on the same line marks a new cell.
/// https://poppler.freedesktop.org/api/glib/PopplerPage.html#poppler-page-get-text-layout
package enum PageTextColumns {
    /// A glyph's box in PDF points (y grows downwards in poppler-glib's page coordinates).
    package struct Box: Equatable {
        var x1: Double
        var y1: Double
        var x2: Double
        var y2: Double

        var height: Double { y2 - y1 }

        package init(x1: Double, y1: Double, x2: Double, y2: Double) {
            self.x1 = x1
            self.y1 = y1
            self.x2 = x2
            self.y2 = y2
        }
    }

    /// `text` with tabs where `boxes` show a column gap. The layout has no boxes for the bidi
    /// controls poppler wraps directional runs in, so those are skipped; inside such runs the
    /// boxes follow the visual rather than the logical order, so no tab goes there (the run
    /// boundaries themselves become spaces in `PageTextCleaner`). If the boxes still do not line
    /// up with the characters, `text` is returned unchanged.
    package static func separate(_ text: String, boxes: [Box]) -> String {
        var output = String.UnicodeScalarView()
        var boxIndex = 0
        var previous: (scalar: Unicode.Scalar, box: Box)?
        var runDepth = 0
        for scalar in text.unicodeScalars {
            if PageTextCleaner.isDirectionalRun(scalar.value) {
                // PDF (U+202C) and PDI (U+2069) close a run; the others open one.
                runDepth = scalar.value == 0x202C || scalar.value == 0x2069 ? max(0, runDepth - 1) : runDepth + 1
                previous = nil
                output.append(scalar)
                continue
            }
            guard boxIndex < boxes.count else { return text }
            let box = boxes[boxIndex]
            boxIndex += 1
            if runDepth == 0, let previous, isGlyph(previous.scalar), isGlyph(scalar), startsColumn(box, after: previous.box) {
                output.append("\t")
            }
            output.append(scalar)
            previous = (scalar, box)
        }
        return boxIndex == boxes.count ? String(output) : text
    }

    /// The boxes overlap vertically by at least half the smaller height.
    package static func onSameLine(_ box: Box, _ previous: Box) -> Bool {
        let overlap = min(box.y2, previous.y2) - max(box.y1, previous.y1)
        let height = min(box.height, previous.height)
        return height <= 0 || overlap >= height / 2
    }

    /// On the same line (the boxes overlap by half the smaller height) and more than an em apart,
    /// in either direction.
    package static func startsColumn(_ box: Box, after previous: Box) -> Bool {
        let overlap = min(box.y2, previous.y2) - max(box.y1, previous.y1)
        let height = min(box.height, previous.height)
        guard height > 0, overlap >= height / 2 else { return false }
        let gap = max(box.x1 - previous.x2, previous.x1 - box.x2)
        return gap > max(box.height, previous.height)
    }

    /// A gap wider than a quarter of the glyphs' height between two glyphs of a line with no
    /// space character between them: a word boundary the text lost (poppler-glib joins table
    /// cells such as "Result" and "Units" ten points apart into "ResultUnits"). Glyphs inside a
    /// word touch; a space is about a quarter of an em.
    package static func startsWord(_ box: Box, after previous: Box) -> Bool {
        let height = max(box.height, previous.height)
        guard height > 0 else { return false }
        return box.x1 - previous.x2 > height * 0.25
    }

    private static func isGlyph(_ scalar: Unicode.Scalar) -> Bool {
        !scalar.properties.isWhitespace
    }
}

extension PageTextColumns {
    /// The words of a text-layer page with their boxes: characters between spaces, line breaks
    /// or column gaps, each word's box the union of its glyphs' boxes. Lines are counted by the
    /// text's line breaks. Empty if the boxes do not line up with the characters.
    package static func words(_ text: String, boxes: [Box]) -> [PageWord] {
        var words: [PageWord] = []
        var boxIndex = 0
        var line = 0
        var current = String.UnicodeScalarView()
        var union: Box?
        var previous: Box?
        func flush() {
            if let box = union, !current.isEmpty {
                words.append(PageWord(text: String(current), x0: box.x1, y0: box.y1, x1: box.x2, y1: box.y2, line: line))
            }
            current = String.UnicodeScalarView()
            union = nil
        }
        for scalar in text.unicodeScalars {
            if PageTextCleaner.isDirectionalRun(scalar.value) { continue }
            guard boxIndex < boxes.count else { return [] }
            let box = boxes[boxIndex]
            boxIndex += 1
            if scalar == "\n" {
                flush()
                line += 1
                previous = nil
                continue
            }
            if scalar.properties.isWhitespace {
                flush()
                previous = box
                continue
            }
            if let previous, !current.isEmpty {
                if !onSameLine(box, previous) {
                    // The next row of a table without a line break in the text between them.
                    flush()
                    line += 1
                } else if startsColumn(box, after: previous) || startsWord(box, after: previous) {
                    flush()
                }
            }
            current.append(scalar)
            union = union.map { Box(x1: min($0.x1, box.x1), y1: min($0.y1, box.y1), x2: max($0.x2, box.x2), y2: max($0.y2, box.y2)) } ?? box
            previous = box
        }
        flush()
        return boxIndex == boxes.count ? words : []
    }
}
