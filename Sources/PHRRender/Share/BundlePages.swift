import PHRModel
import PHRTypesetting

/// The footer on every page of a bundle: who the information is about, whom it is for, that it
/// is confidential, and "n / N".
struct BundleFooter {
    /// "Alex Example (born 1984-07-22)".
    let patient: String
    let recipient: String
    /// "2026-11-22".
    let generatedOn: String
    /// Whether documents follow the summary (the footer says they are copies only then).
    var hasDocuments = true

    func draw(_ page: PageInfo, on canvas: PDFCanvas) {
        let frame = page.frame
        let left = frame.marginLeft
        let right = frame.width - frame.marginRight
        let rule = frame.height - frame.marginBottom + 14
        canvas.line(fromX: left, y: rule, toX: right, y: rule, width: 0.6, color: BundleStyle.accent)
        let number = TextStyle(size: 9, bold: true).aligned(.right)
        canvas.drawText(.plain(page.label), x: right - 70, y: rule + 5, width: 70, style: number)

        let markup = "<b>CONFIDENTIAL</b> · health information of \(escapeMarkup(patient)), prepared for <b>\(escapeMarkup(recipient))</b>\n"
            + "<span foreground=\"\(Color.muted.markupValue)\">Compiled by the patient with phr on \(escapeMarkup(generatedOn)) · "
            + "not an official medical record" + (hasDocuments ? "; the documents at the end are copies of the originals" : "") + "</span>"
        let width = right - left - 80
        // Everything must stay above the paper's unprintable edge: shrink a long name or
        // recipient to a smaller size, and as a last resort keep the lines that fit.
        let room = frame.height - BundleStyle.edge - (rule + 5)
        var style = TextStyle(size: 7.2, color: .ink)
        if canvas.measureText(.markup(markup), width: width, style: style).height > room { style.size = 6.2 }
        let lines = canvas.measureLines(.markup(markup), width: width, style: style)
        let fitting = lines.prefix { $0.bottom <= room }.count
        canvas.drawTextLines(.markup(markup), lines: 0..<max(fitting, 1), x: left, y: rule + 5, width: width, style: style)
    }
}

/// The cover: the footer only; its content is drawn by the composer.
struct CoverPages: PageDecoration {
    let footer: BundleFooter

    func decorate(_ page: PageInfo, on canvas: PDFCanvas) -> Double {
        footer.draw(page, on: canvas)
        return page.frame.marginTop - 20
    }
}

/// A running header over two labels (left bold, right plain), above a hairline.
private func drawHeader(left leftText: String, right rightText: String, page: PageInfo, on canvas: PDFCanvas) {
    let frame = page.frame
    let left = frame.marginLeft
    let right = frame.width - frame.marginRight
    let width = right - left
    let strong = TextStyle(size: 8, bold: true, color: BundleStyle.accent)
    let plain = TextStyle(size: 8, color: .muted).aligned(.right)
    let leftWidth = width * 0.64
    let leftLines = canvas.measureLines(.plain(leftText), width: leftWidth, style: strong)
    let shown = min(leftLines.count, 2)
    canvas.drawTextLines(.plain(leftText), lines: 0..<shown, x: left, y: BundleStyle.headerTop, width: leftWidth, style: strong)
    let rightLines = canvas.measureLines(.plain(rightText), width: width - leftWidth - 12, style: plain)
    canvas.drawTextLines(.plain(rightText), lines: 0..<min(rightLines.count, 2), x: left + leftWidth + 12, y: BundleStyle.headerTop,
                         width: width - leftWidth - 12, style: plain)
    let textBottom = max(leftLines.prefix(shown).last?.bottom ?? 0, rightLines.prefix(2).last?.bottom ?? 0)
    let rule = max(BundleStyle.headerTop + 15, BundleStyle.headerTop + textBottom + 3)
    canvas.line(fromX: left, y: rule, toX: right, y: rule, width: 0.5, color: .hairline)
}

/// Summary pages and the pages carrying an included document's pages: a running header (the
/// patient on summary pages; which document, and which of its pages, on document pages), the
/// footer.
struct HeadedPages: PageDecoration {
    let footer: BundleFooter
    /// "Health summary · Alex Example", "Document 2 of 5 · Discharge summary".
    let title: String
    /// "born 1984-07-22", "discharge · 2025-02-20 · page 1 of 2".
    let detail: String

    func decorate(_ page: PageInfo, on canvas: PDFCanvas) -> Double {
        drawHeader(left: title, right: detail, page: page, on: canvas)
        footer.draw(page, on: canvas)
        return page.frame.marginTop
    }
}
