import Foundation
import PHRTypesetting

/// `phr emergency --pdf`: the emergency card to print and carry, as three pages: the wallet
/// card's front and back at their real size (ISO/IEC 7810 ID-1, 85.6 x 54 mm, to print at 100%
/// and cut out), then a full page with the same facts in large type, for a fridge door or a
/// hospital bag.
public enum EmergencyCardPDF {
    public struct Result: Codable, Sendable, Equatable {
        public var path: String
        public var pages: Int
        public var bytes: Int64
    }

    public static func write(_ card: EmergencyCard, to path: String, paper: Paper, replace: Bool, time: TimeContext,
                             generator: String) throws -> Result {
        if !replace, FileSystem.exists(path) { throw ShareError.exists(path: path) }
        let faces = EmergencyCardFaces(card: card, generatedOn: time.today())
        let cardFrame = PageFrame(paper: EmergencyCardFaces.size, margin: EmergencyCardFaces.inset)
        let pageFrame = PageFrame(width: paper.width, height: paper.height, marginLeft: 54, marginRight: 54, marginTop: 54,
                                  marginBottom: 70)
        let metadata = PDFMetadata(title: "Emergency information: \(card.name ?? "profile \(card.profile)")",
                                   author: card.name, subject: "Emergency medical information card",
                                   creator: generator, creationDate: Timestamp.string(time.now))
        let output = try OutputFile(destination: path, replace: replace)
        var written: Int64 = 0
        let pagination: Pagination
        do {
            pagination = try PaginatedRenderer.render(to: .stream { chunk in
                try output.write(chunk)
                written += Int64(chunk.count)
            }, frame: cardFrame, metadata: metadata) { flow in
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
            try output.commit()
        } catch let error as TypesettingError {
            output.abandon()
            throw ShareError.typesetting(reason: error.localizedDescription)
        } catch {
            output.abandon()
            throw error
        }
        return Result(path: path, pages: pagination.pageCount, bytes: written)
    }
}
