import Foundation

/// Pages of a document as PNG images, drawn by the sandboxed drawing worker from the decrypted
/// original (a memory file, never on a disk): what the web UI shows instead of the PDF itself.
public struct DocumentPageImages: Sendable {
    /// One page asked for: its PNG, or why it could not be drawn.
    public struct Page: Sendable {
        /// From 0.
        public var index: Int
        public var png: [UInt8]?
        public var failure: String?
    }

    public var pageCount: Int
    public var pages: [Page]

    /// The most image bytes one call collects (64 pages of a dense scan fit well within it).
    public static let largestOutput = 256 << 20

    /// Draws `pages` (from 0) of `document`, each fitting `maximumWidth` x `maximumHeight` pixels.
    /// Throws `ShareError` when the worker cannot start, times out or dies, and
    /// `VaultError.integrity` when the original fails authentication.
    public static func draw(_ document: Document, pages: [Int], maximumWidth: Int, maximumHeight: Int, vault: Vault,
                            renderer: ShareRenderer = ShareRenderer(memoryBytes: 1 << 30, cpuSeconds: 60, timeout: 90)) throws -> DocumentPageImages {
        let memory = try MemoryFile.make(label: "phr-view")
        try vault.blobs.read(name: document.blobName) { try memory.write($0) }
        let job = PageImagesJob(mediaType: document.mediaType, pages: pages, maximumWidth: maximumWidth, maximumHeight: maximumHeight)
        var output: [UInt8] = []
        let result = try renderer.render(.pages(job), documents: [memory]) { chunk in
            guard output.count + chunk.count <= largestOutput else {
                throw ShareError.renderer(reason: "the process drawing the document's pages sent more than \(largestOutput >> 20) MB")
            }
            output.append(contentsOf: chunk)
        }
        switch result {
        case .pageImages(let pageCount, let images):
            var offset = 0
            var drawn: [Page] = []
            for image in images {
                guard image.bytes >= 0, offset + image.bytes <= output.count else {
                    throw ShareError.renderer(reason: "the process drawing the document's pages sent fewer bytes than it reported")
                }
                let png = image.failure == nil ? Array(output[offset..<(offset + image.bytes)]) : nil
                offset += image.bytes
                drawn.append(Page(index: image.page, png: png, failure: image.failure))
            }
            return DocumentPageImages(pageCount: pageCount, pages: drawn)
        case .typesettingFailed(let reason), .documentFailed(_, let reason), .encryptionFailed(let reason):
            throw ShareError.renderer(reason: "the document's pages cannot be drawn: \(reason)")
        case .drawn, .report:
            throw ShareError.renderer(reason: "the process drawing the document's pages answered another job")
        }
    }
}
