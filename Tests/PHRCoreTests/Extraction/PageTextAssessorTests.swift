import Testing
@testable import PHRCore

/// The junk detector and the clean-up of good text.
@Suite struct PageTextAssessorTests {
    func quality(_ text: String, images: Bool = false) -> PageQuality {
        PageTextAssessor.quality(of: text, hasImages: images, failed: false)
    }

    @Test func ordinaryTextInManyScriptsIsText() {
        #expect(quality("Complete blood count\nHemoglobin 10.2 g/dL") == .text)
        #expect(quality("HEALTH INSURANCE CARD\nMEMBER ID: BC-123456") == .text)
        #expect(quality("שלום עולם מה שלום כולם") == .text)
        #expect(quality("เวกเตอร์ที่มีขนาดเท่ากับ") == .text)
        #expect(quality("Einführung in die Geometrie und Topologie") == .text)
        #expect(quality("4") == .text)
    }

    @Test func emptyPagesAreBlankOrImages() {
        #expect(quality("") == .blank)
        #expect(quality(" \n\u{000C}\u{200E}") == .blank)
        #expect(quality("\n", images: true) == .imageOnly)
        #expect(PageTextAssessor.quality(of: "text", hasImages: false, failed: true) == .failed)
    }

    @Test func controlCharactersFromGlyphNumbersAreJunk() {
        // A subset font without ToUnicode: glyph 3 is the space, 1 and 2 are letters.
        #expect(quality("\u{1}\u{2}\u{2}\u{4}\u{3}\u{5}\u{4}\u{6}\u{2}\u{7}") == .junk)
        // TeX's big delimiters are a few control characters in good text.
        #expect(quality(String(repeating: "Sei z eine komplexe Zahl mit ", count: 8) + "\u{12}\u{13}\u{12}") == .text)
    }

    @Test func unmappableCharactersAreJunkOnlyWhenTheyDominate() {
        #expect(quality(String(repeating: "\u{E021}\u{E045}\u{E06C} ", count: 20)) == .junk)
        #expect(quality(String(repeating: "\u{FFFD}", count: 10) + "ab") == .junk)
        // A Symbol-font page: mostly real symbols, a few private-use glyphs.
        #expect(quality("∀ ∃ ∋ ∗ − ≅ Α Β Χ ∆ Ε Φ Γ Η Ι ϑ Κ Λ Μ Ν \u{F8E5} \u{F8E6}") == .text)
    }

    @Test func glyphIndicesOfAFullTrueTypeFontAreJunk() {
        // "hello world, this is the patient record of the clinic" shifted down by 29.
        let shifted = String("hello world this is the patient record of the clinic and more text for the test"
            .unicodeScalars.map { $0 == " " ? " " : Character(Unicode.Scalar($0.value - 29)!) })
        #expect(quality(shifted) == .junk)
        #expect(quality("PATIENT NAME: JOHN DOE. DATE OF SERVICE 03/12/2025. BLOOD COUNT ABNORMAL.") == .text)
    }

    @Test func cleaningFoldsPresentationFormsAndLigatures() {
        #expect(PageTextCleaner.clean("\u{FB01}le e\u{FB00}ect") == "file effect")
        #expect(PageTextCleaner.clean("\u{FE8D}\u{FEDF}\u{FECC}\u{FEAE}\u{FE91}\u{FEF4}\u{FE94}") == "العربية")
        #expect(PageTextCleaner.clean("x² ½") == "x² ½", "only presentation forms are folded")
    }

    @Test func cleaningSeparatesDirectionalRunsAndDropsControls() {
        #expect(PageTextCleaner.clean("\u{202B}לחיוב\u{202C}\u{202B}פעולות\u{202C} \u{202B}אלה\u{202C}") == "לחיוב פעולות אלה")
        // One glyph per run, left to right on a mainly left-to-right page: typed order again.
        func glyphs(_ word: String) -> String { word.map { "\u{202B}\($0)\u{202C}" }.joined() }
        #expect(PageTextCleaner.clean("Notes for the doctor:\n.\(glyphs("ضيرملا")) \(glyphs("ىلع")) \(glyphs("بجي"))")
                == "Notes for the doctor:\nيجب على المريض.")
        // On a mainly right-to-left page they come in typed order, each space one glyph late
        // (after the first letter of the next word), and a full stop wrapped twice.
        #expect(PageTextCleaner.clean("\(glyphs("يجبع")) \(glyphs("لىا")) \(glyphs("لمريض"))\u{202B}\u{202A}.\u{202C}\u{202C}")
                == "يجب على المريض.")
        #expect(PageTextCleaner.clean("Ge\u{00AD}sund\u{00AD}heit\u{E000}\u{FFFD}\u{1}") == "Gesundheit")
    }

    @Test func wideGapsBetweenRunsOnALineBecomeTabs() {
        typealias Box = PageTextColumns.Box
        // "ab" then, 100 points to the right on the same line, "cd"; then "e" on the next line.
        let boxes = [Box(x1: 0, y1: 0, x2: 6, y2: 10), Box(x1: 6, y1: 0, x2: 12, y2: 10),
                     Box(x1: 112, y1: 0, x2: 118, y2: 10), Box(x1: 118, y1: 0, x2: 124, y2: 10),
                     Box(x1: 124, y1: 0, x2: 124, y2: 10), Box(x1: 0, y1: 14, x2: 6, y2: 24)]
        #expect(PageTextColumns.separate("abcd\ne", boxes: boxes) == "ab\tcd\ne")
        // A word gap holds a space already; a gap of less than an em is letter spacing.
        let tight = [Box(x1: 0, y1: 0, x2: 6, y2: 10), Box(x1: 14, y1: 0, x2: 20, y2: 10)]
        #expect(PageTextColumns.separate("ab", boxes: tight) == "ab")
        // Bidi controls have no box, and inside a right-to-left run the boxes are in visual order.
        let rightToLeft = [Box(x1: 200, y1: 0, x2: 206, y2: 10), Box(x1: 50, y1: 0, x2: 56, y2: 10),
                           Box(x1: 300, y1: 0, x2: 306, y2: 10)]
        #expect(PageTextColumns.separate("\u{202B}אב\u{202C}c", boxes: rightToLeft) == "\u{202B}אב\u{202C}c")
        let afterRun = [Box(x1: 200, y1: 0, x2: 206, y2: 10), Box(x1: 300, y1: 0, x2: 306, y2: 10),
                        Box(x1: 306, y1: 0, x2: 312, y2: 10), Box(x1: 400, y1: 0, x2: 406, y2: 10)]
        #expect(PageTextColumns.separate("\u{202B}א\u{202C}bcd", boxes: afterRun) == "\u{202B}א\u{202C}bc\td")
        // Boxes that do not match the text leave it alone.
        #expect(PageTextColumns.separate("abc", boxes: Array(boxes.prefix(2))) == "abc")
    }

    @Test func wordBoxesSplitWhereTheTextLostASpace() {
        typealias Box = PageTextColumns.Box
        // "ResultUnits" as poppler-glib gives two table headers ten points apart (less than an em):
        // two words. Glyphs that touch stay one word.
        let text = "abcd"
        let boxes = [Box(x1: 0, y1: 0, x2: 6, y2: 10), Box(x1: 6, y1: 0, x2: 12, y2: 10),
                     Box(x1: 22, y1: 0, x2: 28, y2: 10), Box(x1: 28.5, y1: 0, x2: 34, y2: 10)]
        #expect(PageTextColumns.words(text, boxes: boxes).map(\.text) == ["ab", "cd"])
        #expect(PageTextColumns.words(text, boxes: boxes).last?.x0 == 22)
        let touching = [Box(x1: 0, y1: 0, x2: 6, y2: 10), Box(x1: 6.5, y1: 0, x2: 12, y2: 10)]
        #expect(PageTextColumns.words("ab", boxes: touching).map(\.text) == ["ab"])
    }

    @Test func cleaningTidiesLines() {
        #expect(PageTextCleaner.clean("\n\na  \r\nb\u{000C}\n\n\n\n\nc\n\n") == "a\nb\n\n\nc")
    }
}
