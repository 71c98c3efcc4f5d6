import PHRTypesetting

/// An ink stamp ("VERIFIED COPY") tilted at an angle, as clinics put on certified copies.
///
/// Drawn as outlines, like the watermark: tilted text would otherwise land in the middle of
/// the extracted text of the page.
struct Stamp {
    var lines: [String]
    var color: Color
    var degrees = -8.0

    /// Draws the stamp centred on (`x`, `y`); it does not move the flow.
    func draw(on canvas: PDFCanvas, centerX x: Double, centerY y: Double) {
        let style = TextStyle(size: 10.5, bold: true, color: color).tracked(1.2)
        let sizes = lines.map { canvas.measureText(.plain($0), style: style) }
        let width = (sizes.map(\.width).max() ?? 0) + 26
        let lineHeight = sizes.map(\.height).max() ?? 0
        let height = lineHeight * Double(lines.count) + 16
        canvas.withOrigin(x: x, y: y, rotatedBy: degrees) {
            canvas.rectangle(x: -width / 2, y: -height / 2, width: width, height: height, radius: 5,
                             stroke: color, lineWidth: 1.8)
            canvas.rectangle(x: -width / 2 + 3, y: -height / 2 + 3, width: width - 6, height: height - 6,
                             radius: 3, stroke: color, lineWidth: 0.6)
            for (index, line) in lines.enumerated() {
                let offset = (Double(index) - Double(lines.count - 1) / 2) * lineHeight
                canvas.withOrigin(x: 0, y: offset) {
                    canvas.fillTextOutline(.plain(line), style: style)
                }
            }
        }
    }
}
