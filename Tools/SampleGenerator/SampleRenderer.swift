import Foundation
import PHRTypesetting

/// Writes sample documents as PDF files.
enum SampleRenderer {
    /// Every sample is "printed" by the same program at the same moment, so a re-run writes the
    /// same bytes: without a fixed creation date cairo stamps the current time.
    static let creator = "phr-samples (synthetic sample generator of the phr project)"
    static let printedAt = "2025-06-01T12:00:00Z"

    /// Renders `document` into `directory`, replacing any earlier file of the same name.
    ///
    /// `PaginatedRenderer` lays the document out twice (the first pass counts pages for the
    /// "Page N of M" footers). The real pass writes to a temporary name in the same directory,
    /// renamed into place, so a failed run never leaves a half-written sample behind.
    static func render(_ document: some SampleDocument, into directory: URL) throws(GeneratorError) -> URL {
        let destination = directory.appendingPathComponent(document.fileName)
        let temporary = directory.appendingPathComponent(".\(document.fileName).partial")
        // cairo only reports "error while writing to output stream"; opening the file first
        // turns the common failures (permissions, read-only file system) into the system's reason.
        let probe = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard probe >= 0 else { throw .io(path: destination.path, reason: OutputDirectory.describe(errno)) }
        close(probe)
        var metadata = document.metadata
        metadata.creator = creator
        metadata.creationDate = printedAt
        let template = document.template
        do {
            try PaginatedRenderer.render(to: .file(temporary.path), frame: template.frame, metadata: metadata,
                                         decoration: template) { flow in document.compose(in: flow) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            switch error {
            case TypesettingError.write(let reason): throw .io(path: destination.path, reason: reason)
            case TypesettingError.cairo(let reason): throw .cairo(file: destination.path, reason: reason)
            default: throw .cairo(file: destination.path, reason: error.localizedDescription)
            }
        }
        // rename(2) replaces the destination atomically; FileManager.moveItem refuses to overwrite.
        guard rename(temporary.path, destination.path) == 0 else {
            let reason = OutputDirectory.describe(errno)
            try? FileManager.default.removeItem(at: temporary)
            throw .io(path: destination.path, reason: reason)
        }
        return destination
    }
}
