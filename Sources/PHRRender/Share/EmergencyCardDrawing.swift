import Foundation
import PHRModel
import PHRTypesetting

/// `phr emergency --pdf`, drawn in the worker: the wallet card's front and back at their real
/// size (ISO/IEC 7810 ID-1, 85.6 x 54 mm, to print at 100% and cut out), then a full page with
/// the same facts in large type, for a fridge door or a hospital bag.
enum EmergencyCardDrawing {
    /// Draws the card into `output`; returns the page count.
    static func draw(_ job: EmergencyRenderJob, to output: PDFCanvas.Output) throws -> Int {
        let card = job.card
        let time = job.time
        let faces = EmergencyCardFaces(card: card, generatedOn: time.today())
        let cardFrame = PageFrame(paper: EmergencyCardFaces.size, margin: EmergencyCardFaces.inset)
        let pageFrame = PageFrame(width: job.paper.width, height: job.paper.height, marginLeft: 54, marginRight: 54, marginTop: 54,
                                  marginBottom: 70)
        let metadata = PDFMetadata(title: "Emergency information: \(card.name ?? "profile \(card.profile)")",
                                   author: card.name, subject: "Emergency medical information card",
                                   creator: job.generator, creationDate: Timestamp.string(time.now))
        let pagination = try PaginatedRenderer.render(to: output, frame: cardFrame, metadata: metadata) { flow in
            flow.bookmark("Wallet card, front")
            faces.drawFront(on: flow.canvas)
            flow.pageBreak()
            flow.bookmark("Wallet card, back")
            faces.drawBack(on: flow.canvas)
            flow.decoration = EmergencyPageFooter(generatedOn: time.today(), profile: card.profile)
            flow.pageBreak(frame: pageFrame)
            flow.bookmark("Emergency information")
            EmergencyFullPage(card: card).draw(in: flow)
        }
        return pagination.pageCount
    }
}
