import Foundation
import Glibc
import PHRModel
import PHRTypesetting

/// A chosen document ready to be drawn into a bundle, inside the drawing worker: a PDF opened by
/// poppler, or images read into memory: PNG and JPEG as they are, TIFF (every page), WebP and
/// HEIC decoded by leptonica and libheif and turned into PNG for cairo.
///
/// The worker gets each document as a memory file (memfd_create(2): no path, never on a disk)
/// that the parent filled with the blob's authenticated plaintext; poppler reads it
/// mapped into memory (`MappedPDF`).
final class BundleDocument {
    enum Content {
        case pdf(PDFPageSource)
        case images(ImagePages)
    }

    /// The pages of an image document, each decoded when it is drawn and let go after: a
    /// 2,000-page TIFF is drawn whole in the memory of one page (it was cut at 500 pages,
    /// silently, to fit them all in memory at once).
    final class ImagePages {
        let count: Int
        private let decode: (Int) throws -> RasterImage
        private var last: (index: Int, image: RasterImage)?

        init(count: Int, decode: @escaping (Int) throws -> RasterImage) {
            self.count = count
            self.decode = decode
        }

        func image(_ index: Int) throws -> RasterImage {
            if let last, last.index == index { return last.image }
            let image = try decode(index)
            last = (index, image)
            return image
        }
    }

    let document: Document
    let content: Content
    /// Keeps the memory file open for as long as poppler may read it.
    private let descriptor: FileDescriptor

    var pageCount: Int {
        switch content {
        case .pdf(let source): return source.pageCount
        case .images(let pages): return pages.count
        }
    }

    private init(document: Document, content: Content, descriptor: FileDescriptor) {
        self.document = document
        self.content = content
        self.descriptor = descriptor
    }

    /// Opens the document in the memory file `descriptor` (read from its start), in the worker.
    static func open(_ document: Document, descriptor: FileDescriptor) throws -> BundleDocument {
        do {
            if document.mediaType == "application/pdf" {
                let source = try PDFPageSource(fileDescriptor: descriptor.fd)
                guard source.pageCount > 0 else {
                    throw ShareError.documentNotEmbeddable(id: document.id, reason: "its original has no pages")
                }
                return BundleDocument(document: document, content: .pdf(source), descriptor: descriptor)
            }
            let size = Int(try descriptor.size())
            var bytes = [UInt8](repeating: 0, count: size)
            let read = bytes.withUnsafeMutableBytes { pread(descriptor.fd, $0.baseAddress, size, 0) }
            guard read == size else { throw POSIXIOError(operation: "read", path: descriptor.path, code: errno) }
            let kind = FileSniffer.kind(ofHeader: bytes.prefix(FileSniffer.headerLength))
            if kind == .png || kind == .jpeg {
                let image = try RasterImage(bytes: bytes)
                return BundleDocument(document: document, content: .images(ImagePages(count: 1) { _ in image }), descriptor: descriptor)
            }
            let decoder = ImageDecoder(bytes: bytes, kind: kind)
            guard !decoder.hasMorePages else {
                throw ShareError.documentNotEmbeddable(id: document.id, reason: "it holds more than \(ImageDecoder.maximumTIFFPages) pages, more than phr draws")
            }
            let id = document.id
            let pages = ImagePages(count: decoder.pageCount()) { page in
                do {
                    return try RasterImage(bytes: try decoder.embeddablePNG(page))
                } catch let failure as OCRFailure {
                    throw ShareError.documentNotEmbeddable(id: id, reason: "page \(page + 1) of its original cannot be read (\(failure.note))")
                } catch let error as TypesettingError {
                    throw ShareError.documentNotEmbeddable(id: id, reason: "page \(page + 1) of its original cannot be read (\(error.localizedDescription))")
                }
            }
            // The first page now: a document that cannot be read at all fails before anything is drawn.
            _ = try pages.image(0)
            return BundleDocument(document: document, content: .images(pages), descriptor: descriptor)
        } catch let error as TypesettingError {
            throw ShareError.documentNotEmbeddable(id: document.id, reason: reason(error))
        }
    }

    /// TypesettingError's words without its lead, which ShareError adds in its own way.
    private static func reason(_ error: TypesettingError) -> String {
        switch error {
        case .unreadablePDF(let reason, _): return "its original cannot be opened (\(reason))"
        case .unreadableImage(let reason): return "its original cannot be read (\(reason))"
        case .cairo, .write, .inconsistentLayout: return error.localizedDescription
        }
    }
}
