import Foundation
@testable import PHRTypesetting
import Testing

/// The typesetting library on its own: flowing text and tables across pages, two-pass page
/// numbers and bookmarks, markup escaping, and bar charts, read back with poppler-utils.
@Suite struct TypesettingTests {
    /// Renders `compose` on A4 with a footer "n / N" to a temporary file and returns its path.
    static func render(_ directory: String, _ compose: (DocumentFlow) throws -> Void) throws -> (path: String, pagination: Pagination) {
        let path = "\(directory)/out.pdf"
        let frame = PageFrame(paper: .a4, margin: 56)
        let pagination = try PaginatedRenderer.render(to: .file(path), frame: frame, metadata: PDFMetadata(title: "test"),
                                                      decoration: NumberedPages(), compose: compose)
        return (path, pagination)
    }

    struct NumberedPages: PageDecoration {
        func decorate(_ page: PageInfo, on canvas: PDFCanvas) -> Double {
            canvas.drawText(.plain("page \(page.label)"), x: page.frame.marginLeft, y: page.frame.height - page.frame.marginBottom + 4,
                            style: .small)
            return page.frame.marginTop
        }
    }

    @Test func tablesRepeatTheirHeaderAndSplitRowsTallerThanAPage() throws {
        let directory = try TestSupport.temporaryDirectory("table")
        defer { TestSupport.remove(directory) }
        var rows: [Table.Row] = (1...90).map { .values([Table.Cell("row \($0)"), Table.Cell("value \($0)")]) }
        rows.insert(.group("Group heading"), at: 45)
        let tall = (1...150).map { "tall line \($0)" }.joined(separator: "\n")
        rows.insert(.values([Table.Cell("the tall row"), Table.Cell(tall)]), at: 60)
        let (path, pagination) = try Self.render(directory) { flow in
            flow.table(Table(columns: [Table.Column("Name column", weight: 1), Table.Column("Value column", weight: 2)], rows: rows))
        }
        #expect(pagination.pageCount >= 5)
        let text = try PDFTools.text(path)
        for index in 1...90 { #expect(text.components(separatedBy: "\nvalue \(index)\n").count == 2, "row \(index) once") }
        for index in 1...150 { #expect(text.components(separatedBy: "tall line \(index)\n").count == 2, "tall line \(index) once") }
        for page in 1...pagination.pageCount {
            let pageText = try PDFTools.text(path, first: page, last: page)
            #expect(pageText.contains("Name column"), "header on page \(page)")
            #expect(pageText.contains("page \(page) / \(pagination.pageCount)"))
        }
        #expect(try PDFTools.pagesWithInkNearEdges(path, band: 40).isEmpty)
    }

    @Test func paragraphsLongerThanAPageContinue() throws {
        let directory = try TestSupport.temporaryDirectory("paragraph")
        defer { TestSupport.remove(directory) }
        let words = (1...1500).map { "word\($0)" }.joined(separator: " ")
        let (path, pagination) = try Self.render(directory) { flow in
            flow.paragraph(.plain("An opening line."))
            flow.paragraph(.plain(words))
            flow.list([.plain(words)])
        }
        #expect(pagination.pageCount >= 4)
        let text = try PDFTools.text(path).split(whereSeparator: \.isWhitespace)
        #expect(text.filter { $0 == "word1" }.count == 2 && text.filter { $0 == "word1500" }.count == 2)
        #expect(try PDFTools.pagesWithInkNearEdges(path, band: 40).isEmpty)
    }

    @Test func bookmarksRecordTheirPagesForAContentsList() throws {
        let directory = try TestSupport.temporaryDirectory("bookmarks")
        defer { TestSupport.remove(directory) }
        let (path, pagination) = try Self.render(directory) { flow in
            // The contents list prints the pages the first pass found.
            let pages = flow.firstPass?.bookmarks.map { "\($0.title) on \($0.page)" } ?? ["pending", "pending", "pending"]
            for line in pages { flow.paragraph(.plain(line)) }
            let chapter = flow.bookmark("Chapter")
            flow.pageBreak()
            flow.pageBreak()
            flow.bookmark("Section", parent: chapter)
            flow.pageBreak()
            flow.bookmark("Appendix")
        }
        #expect(pagination.bookmarks == [
            Pagination.Bookmark(title: "Chapter", page: 1, level: 0), Pagination.Bookmark(title: "Section", page: 3, level: 1),
            Pagination.Bookmark(title: "Appendix", page: 4, level: 0),
        ])
        let text = try PDFTools.text(path, first: 1, last: 1)
        #expect(text.contains("Chapter on 1") && text.contains("Section on 3") && text.contains("Appendix on 4"))
        #expect(try PDFTools.outline(path).map { "\($0.level) \($0.title)" } == ["0 Chapter", "1 Section", "0 Appendix"])
    }

    @Test func changingPaperMidDocument() throws {
        let directory = try TestSupport.temporaryDirectory("paper")
        defer { TestSupport.remove(directory) }
        let (path, _) = try Self.render(directory) { flow in
            flow.paragraph(.plain("portrait"))
            flow.pageBreak(frame: PageFrame(paper: Size.a4.landscape, margin: 40))
            flow.paragraph(.plain("landscape"))
            flow.pageBreak(frame: PageFrame(paper: .idCard, margin: 8))
            flow.paragraph(.plain("card"))
        }
        #expect(try PDFTools.pageSize(path, page: 2) == (841.89, 595.276))
        let card = try PDFTools.pageSize(path, page: 3)
        #expect(abs(card.width - 242.646) < 0.01 && abs(card.height - 153.014) < 0.01)
    }

    @Test func markupEscapingKeepsDataLiteral() throws {
        let directory = try TestSupport.temporaryDirectory("markup")
        defer { TestSupport.remove(directory) }
        let data = "<b>Tom & Jerry's \"cat\"</b>"
        #expect(escapeMarkup(data) == "&lt;b&gt;Tom &amp; Jerry&#39;s &quot;cat&quot;&lt;/b&gt;")
        let (path, _) = try Self.render(directory) { flow in
            flow.paragraph(.markup("<b>Label:</b> \(escapeMarkup(data))"))
            flow.fields([Field("Name", data)], columns: 1)
        }
        #expect(try PDFTools.text(path).components(separatedBy: data).count == 3)
    }

    @Test func barChartTicksAndLabels() throws {
        let chart = BarChart(bars: (1...30).map { BarChart.Bar("11-\(String(format: "%02d", $0))", Double($0 * 73 % 2400)) },
                             unit: "ml", goal: 2000, goalLabel: "goal 2000 ml")
        let ticks = chart.ticks()
        #expect(ticks.first == 0 && ticks.last! >= 2190 && ticks.count >= 4 && ticks.count <= 7)
        #expect(Set(zip(ticks, ticks.dropFirst()).map { $1 - $0 }).count == 1, "evenly spaced")
        #expect([1.0, 2, 5].contains(ticks[1] / pow(10, floor(log10(ticks[1])))), "a 1, 2 or 5 step")
        let directory = try TestSupport.temporaryDirectory("chart")
        defer { TestSupport.remove(directory) }
        let (path, _) = try Self.render(directory) { flow in flow.barChart(chart, height: 220) }
        let text = try PDFTools.text(path)
        #expect(text.contains("goal 2000 ml") && text.contains("ml"))
        // Thirty labels do not fit under thirty narrow bars: some are left out, never overlapped.
        let labels = (1...30).filter { text.contains("11-\(String(format: "%02d", $0))") }
        #expect(labels.contains(1) && labels.count < 30)
        #expect(try PDFTools.pagesWithInkNearEdges(path, band: 40).isEmpty)
    }
}
