import Foundation

/// `phr emergency --pdf`: the emergency card to print and carry, as three pages: the wallet
/// card's front and back at their real size (ISO/IEC 7810 ID-1, 85.6 x 54 mm, to print at 100%
/// and cut out), then a full page with the same facts in large type, for a fridge door or a
/// hospital bag. phr-render draws it (`ShareRenderer`).
public enum EmergencyCardPDF {
    public struct Result: Codable, Sendable, Equatable {
        public var path: String
        public var pages: Int
        public var bytes: Int64
    }

    public static func write(_ card: EmergencyCard, to path: String, paper: Paper, replace: Bool, time: TimeContext,
                             generator: String, renderer: ShareRenderer = ShareRenderer()) throws -> Result {
        if !replace, FileSystem.exists(path) { throw ShareError.exists(path: path) }
        let job = EmergencyRenderJob(card: card, paper: paper, now: Timestamp.string(time.now), zone: time.zone.identifier,
                                     generator: generator)
        let output = try OutputFile(destination: path, replace: replace, exists: { ShareError.exists(path: $0) })
        let pages: Int
        do {
            switch try renderer.render(.emergency(job), into: output) {
            case .drawn(let drawn, _, _):
                pages = drawn
            case .typesettingFailed(let reason):
                throw ShareError.drawing(what: "the emergency card", reason: reason)
            default:
                throw ShareError.renderer(reason: "the process drawing the card gave an unexpected answer")
            }
            try output.commit()
        } catch ShareError.renderer(let reason) {
            output.abandon()
            throw ShareError.drawing(what: "the emergency card", reason: reason)
        } catch {
            output.abandon()
            throw error
        }
        return Result(path: path, pages: pages, bytes: FileSystem.fileSize(path) ?? 0)
    }
}
