/// Stacks blocks of content down the page and starts a new page when the next block does not fit.
///
/// Each page is prepared the same way (watermark first so it sits beneath everything, then the
/// footer, then the running header on continuation pages). The total page count in the footer
/// comes from a first pass over the same content (see `SampleRenderer`).
final class DocumentFlow {
    let canvas: PDFCanvas
    let template: PageTemplate
    /// The number of pages the finished document has, or 0 while that is being counted.
    let pageCount: Int
    private(set) var pageNumber = 0
    /// The top of the free space on the current page.
    var y = 0.0

    var left: Double { template.marginLeft }
    var right: Double { template.width - template.marginRight }
    var width: Double { right - left }
    var bottom: Double { template.height - template.marginBottom }

    init(canvas: PDFCanvas, template: PageTemplate, pageCount: Int) {
        self.canvas = canvas
        self.template = template
        self.pageCount = pageCount
        beginPage()
    }

    /// Ends the current page and prepares the next one.
    func pageBreak() {
        canvas.showPage()
        beginPage()
    }

    /// Moves to a new page unless `height` points are still free on this one.
    ///
    /// A block taller than a whole page is drawn where it is: breaking first would only
    /// leave an empty page behind it.
    func ensureSpace(_ height: Double) {
        if y + height > bottom, y > template.marginTop + 40 {
            pageBreak()
        }
    }

    func space(_ points: Double) {
        y += points
    }

    /// Emits the last page. Call once, after the last block.
    func finish() {
        canvas.showPage()
    }

    private func beginPage() {
        pageNumber += 1
        drawWatermark()
        drawFooter()
        y = template.marginTop
        if pageNumber > 1 {
            drawRunningHeader()
        }
    }

    private func drawWatermark() {
        let style = TextStyle(size: 150, bold: true, color: .watermark).tracked(8)
        canvas.withOrigin(x: template.width / 2, y: template.height / 2, rotatedBy: -38) {
            canvas.fillTextOutline(.plain(template.watermark), style: style)
        }
    }

    private func drawFooter() {
        let top = template.height - template.marginBottom + 18
        canvas.line(fromX: left, y: top, toX: right, y: top, width: 0.5, color: .hairline)
        let small = TextStyle.small.sized(7.5)
        canvas.drawText(.plain(template.source), x: left, y: top + 5, width: width * 0.75, style: small)
        canvas.drawText(.plain(template.notice), x: left, y: top + 15, width: width * 0.8,
                        style: small.emboldened.colored(.alert))
        canvas.drawText(.plain(template.pageLabel(pageNumber, of: pageCount)), x: left, y: top + 5,
                        width: width, style: small.aligned(.right))
    }

    private func drawRunningHeader() {
        let style = TextStyle.small.sized(8)
        let size = canvas.drawText(.plain(template.runningHeader), x: left, y: y, width: width, style: style)
        y += size.height + 4
        canvas.line(fromX: left, y: y, toX: right, y: y, width: 0.5, color: .hairline)
        y += 14
    }
}
