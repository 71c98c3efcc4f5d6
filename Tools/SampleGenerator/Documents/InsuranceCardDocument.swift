import PHRTypesetting

/// A printable health plan member ID card, front and back on one page (type: insurance).
///
/// Document date: "Date of issue" 12/16/2024. Distractors: the date of birth and the coverage
/// effective date 01/01/2025.
struct InsuranceCardDocument: SampleDocument {
    let fileName = "insurance-card.pdf"
    private let insurer = SampleCast.insurer
    /// CR80, the size of a bank card (85.6 × 54 mm), in points.
    private let cardSize = (width: 242.6, height: 153.0)
    /// Cards are shown enlarged so the small print stays readable on screen.
    private let scale = 1.42

    var metadata: PDFMetadata {
        PDFMetadata(title: "Member ID card: Sample Health Plan (SAMPLE)",
                    author: "\(insurer.name) (fictitious)",
                    subject: "Synthetic sample insurance card for phr, not a real medical record",
                    keywords: "sample, synthetic, insurance, member id card")
    }

    var template: PageTemplate {
        PageTemplate(source: "\(insurer.name) · Member ID card · Member ID XSM 000 123 456",
                     runningHeader: "\(SampleCast.patientName) · Member ID card")
    }

    func compose(in flow: DocumentFlow) {
        Letterhead(organization: insurer, title: "Member ID Card",
                   subtitle: "Printable copy · keep it with you").draw(in: flow)
        flow.fields([
            Field("Member", SampleCast.patientName),
            Field("Date of issue", "12/16/2024", emphasized: true),
            Field("Date of birth", SampleCast.dateOfBirth),
            Field("Coverage effective", "01/01/2025"),
        ], columns: 2, boxed: true, after: 10)
        flow.paragraph(.plain("Show both sides of this card at every visit and at the pharmacy. This copy replaces any card issued before the date above. Cut along the dashed lines if you want a wallet-sized card."),
                       style: TextStyle.body.sized(8.5).colored(.muted).spaced(1.1), after: 14)

        drawSide("Front", in: flow, content: drawFront)
        drawSide("Back", in: flow, content: drawBack)
    }

    /// A caption, the card's outline with a dashed cut line and a flat shadow, then its content.
    private func drawSide(_ caption: String, in flow: DocumentFlow,
                          content: (PDFCanvas, _ x: Double, _ y: Double, _ width: Double, _ height: Double) -> Void) {
        let canvas = flow.canvas
        let width = cardSize.width * scale
        let height = cardSize.height * scale
        let x = flow.left + (flow.width - width) / 2
        canvas.drawText(.plain(caption), x: x - 8, y: flow.y, style: TextStyle(size: 8, bold: true, color: .muted))
        let y = flow.y + 22
        canvas.rectangle(x: x - 8, y: y - 8, width: width + 16, height: height + 16, radius: 18,
                         stroke: Color(hex: 0x9AA1AC), lineWidth: 0.7, dash: 3)
        canvas.rectangle(x: x + 2.5, y: y + 3, width: width, height: height, radius: 14, fill: Color(hex: 0xDADDE2))
        canvas.rectangle(x: x, y: y, width: width, height: height, radius: 14, fill: .white,
                         stroke: Color(hex: 0xB9BEC6), lineWidth: 0.6)
        content(canvas, x, y, width, height)
        flow.y = y + height + 26
    }

    private func drawFront(_ canvas: PDFCanvas, _ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        let band = 52.0
        let white = TextStyle(size: 14, bold: true, color: .white)
        canvas.rectangle(x: x, y: y, width: width, height: band, radius: 14, fill: insurer.accent)
        // Square off the band's lower corners so only the card's outer corners are round.
        canvas.rectangle(x: x, y: y + band - 14, width: width, height: 14, fill: insurer.accent)
        canvas.drawEmblem(.shield, x: x + 14, y: y + 11, size: 30, color: Color(hex: 0x8FD3B6))
        canvas.drawText(.plain(insurer.name), x: x + 52, y: y + 11, style: white)
        canvas.drawText(.plain("Silver PPO 2025 · Sample network"), x: x + 52, y: y + 30,
                        style: TextStyle(size: 8.5, color: Color(hex: 0xD4EFE4)))
        canvas.drawText(.plain("PPO"), x: x, y: y + 14, width: width - 16,
                        style: TextStyle(size: 20, bold: true, color: .white, alignment: .right))

        let label = TextStyle(size: 7, bold: true, color: .muted)
        let value = TextStyle(size: 11, bold: true)
        let left = x + 16
        var rowY = y + band + 12
        for (name, text, style) in [
            ("MEMBER", SampleCast.patientName.uppercased(), value),
            ("MEMBER ID", "XSM 000 123 456", TextStyle.mono.sized(11.5).emboldened),
            ("GROUP NUMBER", "SMP-0012345", value.sized(10)),
        ] {
            canvas.drawText(.plain(name), x: left, y: rowY, style: label)
            let size = canvas.drawText(.plain(text), x: left, y: rowY + 9, style: style)
            rowY += 9 + size.height + 5
        }
        canvas.drawText(.plain("Plan: Sample Silver PPO · Dependents: 00"), x: left, y: rowY, style: .small.sized(7.5))

        // Copays, as a right-hand column of amounts aligned on their right edge.
        let columnX = x + width * 0.6
        let columnWidth = width * 0.4 - 16
        canvas.rectangle(x: columnX - 8, y: y + band + 10, width: columnWidth + 14, height: 102, radius: 6, fill: .panel)
        canvas.drawText(.plain("COPAYS"), x: columnX, y: y + band + 16, style: label)
        var copayY = y + band + 28
        for (service, amount) in [("Office visit", "$25"), ("Specialist", "$50"), ("Urgent care", "$75"),
                                  ("Emergency room", "$250"), ("Generic Rx", "$10")] {
            canvas.drawText(.plain(service), x: columnX, y: copayY, style: .body.sized(8.5))
            canvas.drawText(.plain(amount), x: columnX, y: copayY, width: columnWidth,
                            style: TextStyle.body.sized(8.5).emboldened.aligned(.right))
            copayY += 14
        }

        let footerY = y + height - 22
        canvas.line(fromX: x + 14, y: footerY - 4, toX: x + width - 14, y: footerY - 4, width: 0.5, color: .hairline)
        canvas.drawText(.plain("RxBIN 000000 · RxPCN SAMPLE · RxGrp SMPLRX"), x: left, y: footerY,
                        style: TextStyle.mono.sized(7.5).colored(.muted))
        canvas.drawText(.plain("NOT A REAL CARD"), x: x, y: footerY, width: width - 16,
                        style: TextStyle(size: 7.5, bold: true, color: .alert, alignment: .right))
    }

    private func drawBack(_ canvas: PDFCanvas, _ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        let left = x + 16
        let innerWidth = width - 32
        var rowY = y + 14
        canvas.drawText(.plain("Questions? Call us."), x: left, y: rowY,
                        style: TextStyle(size: 10, bold: true, color: insurer.accent))
        rowY += 18
        for (service, phone) in [("Member services", "555-0150"), ("Provider services", "555-0151"),
                                 ("Pharmacy help desk", "555-0152"), ("24-hour nurse line", "555-0153")] {
            canvas.drawText(.plain(service), x: left, y: rowY, style: .body.sized(8.5))
            canvas.drawText(.plain(phone), x: left, y: rowY, width: innerWidth * 0.62,
                            style: TextStyle.mono.sized(8.5).emboldened.aligned(.right))
            rowY += 13
        }
        rowY += 6
        let claims = canvas.drawText(.plain("Claims: \(insurer.address) · Payer ID 00000"),
                                     x: left, y: rowY, width: innerWidth, style: .body.sized(8))
        rowY += claims.height + 5
        let notice = canvas.drawText(.plain("Planned hospital stays, CT and MRI need prior approval: call 555-0154. This card does not guarantee coverage or payment. In an emergency, go to the nearest emergency room; you do not need approval first."),
                                     x: left, y: rowY, width: innerWidth, style: TextStyle.small.sized(7).spaced(1.05))
        rowY += notice.height + 5
        canvas.drawText(.plain("www.samplehealthplan.example"), x: left, y: rowY,
                        style: TextStyle(size: 8, bold: true, color: insurer.accent))

        // The signature strip real cards carry along the bottom edge.
        let stripY = y + height - 34
        canvas.rectangle(x: left, y: stripY, width: innerWidth, height: 20, radius: 3, fill: .panel,
                         stroke: .hairline, lineWidth: 0.5)
        canvas.drawText(.plain("Member signature"), x: left + 6, y: stripY + 5, style: .small.sized(7))
        drawBarcode(on: canvas, x: x + width - 16 - 82, y: y + 14, width: 82, height: 52)
    }

    /// Decorative bars in the place of a real card's barcode. The pattern is a fixed sequence
    /// and encodes nothing, so no scanner can read a plausible identifier from it.
    private func drawBarcode(on canvas: PDFCanvas, x: Double, y: Double, width: Double, height: Double) {
        let pattern: [Int] = [2, 1, 1, 3, 1, 2, 2, 1, 3, 1, 1, 2, 1, 1, 2, 3, 1, 2, 1, 1, 3, 2, 1, 1, 2, 1, 2, 2, 1, 3, 1, 2]
        let unit = width / Double(pattern.reduce(0, +))
        var barX = x
        for (index, modules) in pattern.enumerated() {
            let barWidth = Double(modules) * unit
            if index.isMultiple(of: 2) {
                canvas.rectangle(x: barX, y: y, width: barWidth, height: height, fill: .ink)
            }
            barX += barWidth
        }
    }
}
