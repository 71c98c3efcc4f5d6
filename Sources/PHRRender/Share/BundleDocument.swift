import Foundation
import Glibc
import PHRCore
import PHRTypesetting

/// A chosen document ready to be drawn into a bundle, inside the drawing worker: a PDF opened by
/// poppler, or a PNG or JPEG read into memory.
///
/// The worker gets each document as a memory file (memfd_create(2): no path, never on a disk)
/// that the parent filled with the blob's authenticated plaintext; poppler reads it
/// through /proc/self/fd.
final class BundleDocument {
    enum Content {
        case pdf(PDFPageSource)
        case image(RasterImage)
    }

    let document: Document
    let content: Content
    /// Keeps the memory file open for as long as poppler may read it.
    private let descriptor: FileDescriptor

    var pageCount: Int {
        switch content {
        case .pdf(let source): return source.pageCount
        case .image: return 1
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
            return BundleDocument(document: document, content: .image(try RasterImage(bytes: bytes)), descriptor: descriptor)
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
