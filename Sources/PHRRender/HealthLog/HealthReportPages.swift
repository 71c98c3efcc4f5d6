import PHRModel
import PHRTypesetting

/// The running header and footer of every page of a health report, drawn as the share
/// bundle's are (BundleStyle): the accent rule and "n / N" in the footer, a hairline under the
/// header, no ink within `BundleStyle.edge` of the paper's edge.
struct HealthReportPages: PageDecoration {
    /// "Health report · Alex Example".
    let title: String
    /// "last 30 days · 2026-02-09 to 2026-03-10".
    let detail: String
    /// "Alex Example".
    let patient: String
    /// "2026-03-10".
    let generatedOn: String

    func decorate(_ page: PageInfo, on canvas: PDFCanvas) -> Double {
        let frame = page.frame
        let left = frame.marginLeft
        let right = frame.width - frame.marginRight
        let width = right - left

        let strong = TextStyle(size: 8, bold: true, color: BundleStyle.accent)
        let plain = TextStyle(size: 8, color: .muted).aligned(.right)
        let leftWidth = width * 0.6
        let titleSize = canvas.drawText(.plain(title), x: left, y: BundleStyle.headerTop, width: leftWidth, style: strong)
        let detailSize = canvas.drawText(.plain(detail), x: left + leftWidth + 12, y: BundleStyle.headerTop, width: width - leftWidth - 12,
                                         style: plain)
        let headerRule = max(BundleStyle.headerTop + 15, BundleStyle.headerTop + max(titleSize.height, detailSize.height) + 3)
        canvas.line(fromX: left, y: headerRule, toX: right, y: headerRule, width: 0.5, color: .hairline)

        let rule = frame.height - frame.marginBottom + 14
        canvas.line(fromX: left, y: rule, toX: right, y: rule, width: 0.6, color: BundleStyle.accent)
        canvas.drawText(.plain(page.label), x: right - 70, y: rule + 5, width: 70, style: TextStyle(size: 9, bold: true).aligned(.right))
        let markup = "<b>CONFIDENTIAL</b> · health log of \(escapeMarkup(patient)), compiled with phr on \(escapeMarkup(generatedOn))\n"
            + "<span foreground=\"\(Color.muted.markupValue)\">Figures the patient or a caregiver logged; not an official medical record</span>"
        let room = frame.height - BundleStyle.edge - (rule + 5)
        var style = TextStyle(size: 7.2, color: .ink)
        if canvas.measureText(.markup(markup), width: width - 80, style: style).height > room { style.size = 6.2 }
        let lines = canvas.measureLines(.markup(markup), width: width - 80, style: style)
        let fitting = lines.prefix { $0.bottom <= room }.count
        canvas.drawTextLines(.markup(markup), lines: 0..<max(fitting, 1), x: left, y: rule + 5, width: width - 80, style: style)
        return frame.marginTop
    }
}
