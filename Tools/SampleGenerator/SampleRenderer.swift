import Foundation

/// Writes sample documents as PDF files.
enum SampleRenderer {
    /// Renders `document` into `directory`, replacing any earlier file of the same name.
    ///
    /// The first pass draws into cairo's no-op sink only to learn the page count for the
    /// "Page N of M" footers. The second pass writes to a temporary name in the same directory
    /// and renames it into place, so a failed run never leaves a half-written sample behind.
    static func render(_ document: some SampleDocument, into directory: URL) throws(GeneratorError) -> URL {
        let pageCount = try draw(document, to: nil, pageCount: 0)
        let destination = directory.appendingPathComponent(document.fileName)
        let temporary = directory.appendingPathComponent(".\(document.fileName).partial")
        // cairo only reports "error while writing to output stream"; opening the file first
        // turns the common failures (permissions, read-only file system) into the system's reason.
        let probe = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard probe >= 0 else { throw .io(path: destination.path, reason: OutputDirectory.describe(errno)) }
        close(probe)
        do {
            _ = try draw(document, to: temporary.path, pageCount: pageCount)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        // rename(2) replaces the destination atomically; FileManager.moveItem refuses to overwrite.
        guard rename(temporary.path, destination.path) == 0 else {
            let reason = OutputDirectory.describe(errno)
            try? FileManager.default.removeItem(at: temporary)
            throw .io(path: destination.path, reason: reason)
        }
        return destination
    }

    /// Draws every page of `document` and returns how many there were.
    private static func draw(_ document: some SampleDocument, to path: String?, pageCount: Int) throws(GeneratorError) -> Int {
        let template = document.template
        let canvas = try PDFCanvas(path: path, width: template.width, height: template.height,
                                   metadata: document.metadata)
        let flow = DocumentFlow(canvas: canvas, template: template, pageCount: pageCount)
        document.compose(in: flow)
        flow.finish()
        try canvas.finish(file: path ?? document.fileName)
        return flow.pageNumber
    }
}
