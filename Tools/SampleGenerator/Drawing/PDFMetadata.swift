/// The document information dictionary written into each PDF.
///
/// Every field is fixed so that a re-run writes the same bytes. Without an explicit creation
/// date cairo stamps the current time, which alone makes every run differ.
/// https://www.cairographics.org/manual/cairo-PDF-Surfaces.html#cairo-pdf-surface-set-metadata
struct PDFMetadata: Sendable {
    var title: String
    var author: String
    var subject: String
    var keywords: String
    var creator = "phr-samples (synthetic sample generator of the phr project)"
    /// ISO 8601 with a zone, the only form cairo accepts here.
    var creationDate = "2025-06-01T12:00:00Z"
}
