/// Draws a composition twice so every page can say "n / N" and a contents list can name pages.
///
/// The first pass draws into cairo's discarding surface only to learn the page count and where
/// each bookmark landed; embedded pages and images are skipped there, so it costs little more
/// than text layout. The second pass draws into `output` with those totals (`DocumentFlow.firstPass`).
/// `compose` must therefore lay out the same pages both times.
public enum PaginatedRenderer {
    /// Renders `compose` into `output` and returns the final pass's pagination.
    @discardableResult
    public static func render(to output: PDFCanvas.Output, frame: PageFrame, metadata: PDFMetadata,
                              decoration: any PageDecoration = PlainPages(),
                              compose: (DocumentFlow) throws -> Void) throws -> Pagination {
        let counted = try pass(.discard, frame: frame, metadata: metadata, decoration: decoration, firstPass: nil, compose: compose)
        let final = try pass(output, frame: frame, metadata: metadata, decoration: decoration, firstPass: counted, compose: compose)
        guard final.pageCount == counted.pageCount else {
            throw TypesettingError.inconsistentLayout(counted: counted.pageCount, drawn: final.pageCount)
        }
        return final
    }

    private static func pass(_ output: PDFCanvas.Output, frame: PageFrame, metadata: PDFMetadata, decoration: any PageDecoration,
                             firstPass: Pagination?, compose: (DocumentFlow) throws -> Void) throws -> Pagination {
        let canvas = try PDFCanvas(output: output, width: frame.width, height: frame.height, metadata: metadata)
        let flow = DocumentFlow(canvas: canvas, frame: frame, decoration: decoration, firstPass: firstPass)
        try compose(flow)
        let pagination = flow.finish()
        do {
            try canvas.finish()
        } catch {
            // The sink's own error (a full disk, with the file name) says more than cairo's.
            throw canvas.streamError ?? error
        }
        return pagination
    }
}
