import Foundation
import Glibc
import PHRModel
import PHRTypesetting

/// Pages of one document as PNG images, for the web UI's viewer: a PDF drawn by poppler and
/// cairo, a scan or photo decoded by leptonica or libheif, in this sandboxed worker, so the
/// browser only ever gets plain pixels (no PDF reader runs a hostile document's scripts).
enum PageImageDrawing {
    static func draw(_ job: PageImagesJob, descriptor: FileDescriptor, output: FileDescriptor) throws -> ShareRenderResult {
        guard job.pages.count <= PageImagesJob.mostPages, (1...PageImagesJob.largestSide).contains(job.maximumWidth),
              (1...PageImagesJob.largestSide).contains(job.maximumHeight) else {
            throw ShareError.typesetting(reason: "the page images asked for are too many or too large")
        }
        let source = try Source(job: job, descriptor: descriptor)
        var images: [PageImageResult] = []
        for page in job.pages {
            guard page >= 0, page < source.pageCount else {
                images.append(PageImageResult(page: page, bytes: 0, failure: "the document has \(source.pageCount) pages"))
                continue
            }
            do {
                let png = try source.png(page, maximumWidth: job.maximumWidth, maximumHeight: job.maximumHeight)
                try output.write(png)
                images.append(PageImageResult(page: page, bytes: png.count))
            } catch let failure as OCRFailure {
                images.append(PageImageResult(page: page, bytes: 0, failure: failure.note))
            } catch let error as TypesettingError {
                images.append(PageImageResult(page: page, bytes: 0, failure: error.localizedDescription))
            }
        }
        return .pageImages(pageCount: source.pageCount, images: images)
    }

    /// A document's pages, whatever its kind.
    private enum Source {
        case pdf(PDFPageSource)
        case image(ImageDecoder)

        init(job: PageImagesJob, descriptor: FileDescriptor) throws {
            if job.mediaType == "application/pdf" {
                do {
                    self = .pdf(try PDFPageSource(fileDescriptor: descriptor.fd))
                } catch {
                    throw ShareError.typesetting(reason: "the document " + (error == .unreadablePDF(reason: "it needs a password", encrypted: true)
                        ? "needs its password to be drawn" : "cannot be opened (\(error.localizedDescription))"))
                }
                return
            }
            let size = Int(try descriptor.size())
            guard size <= ImageDecoder.maximumFileBytes else { throw ShareError.typesetting(reason: "the image is too large to draw") }
            var bytes = [UInt8](repeating: 0, count: size)
            let read = bytes.withUnsafeMutableBytes { pread(descriptor.fd, $0.baseAddress, size, 0) }
            guard read == size else { throw POSIXIOError(operation: "read", path: descriptor.path, code: errno) }
            self = .image(ImageDecoder(bytes: bytes, kind: FileSniffer.kind(ofHeader: bytes.prefix(FileSniffer.headerLength))))
        }

        var pageCount: Int {
            switch self {
            case .pdf(let source): return source.pageCount
            case .image(let decoder): return decoder.pageCount()
            }
        }

        func png(_ page: Int, maximumWidth: Int, maximumHeight: Int) throws -> [UInt8] {
            switch self {
            case .pdf(let source): return try source.pagePNG(page, maximumWidth: maximumWidth, maximumHeight: maximumHeight)
            case .image(let decoder): return try decoder.viewPNG(page, maximumWidth: maximumWidth, maximumHeight: maximumHeight)
            }
        }
    }
}
