import CPHRPoppler

/// The document outline (bookmarks in a PDF viewer's side panel) and named destinations.
///
/// There is deliberately no link primitive: cairo 1.16, the version in Debian 12, writes broken
/// cross-reference entries for the objects it reserves when a page has link annotations
/// (qpdf reports "file is damaged" and rebuilds the table). Outline entries and named
/// destinations produce a clean file, and the outline is how readers navigate anyway.
/// https://www.cairographics.org/manual/cairo-PDF-Surfaces.html#cairo-pdf-surface-add-outline
extension PDFCanvas {
    /// The parent of top-level outline entries.
    public static let outlineRoot = Int(CAIRO_PDF_OUTLINE_ROOT)

    /// Adds an outline entry that opens page `page` (from 1) at `y` points from its top, under
    /// `parent`, and returns its ID for children. `open` shows its children expanded.
    ///
    /// Entries appear in the order they are added, so add a parent before its children. On a
    /// discarding canvas nothing is recorded and the root's ID is returned.
    @discardableResult
    public func addOutlineItem(_ title: String, page: Int, y: Double = 0, parent: Int = PDFCanvas.outlineRoot,
                               open: Bool = false) -> Int {
        guard !isDiscarding else { return Self.outlineRoot }
        let target = "page=\(page) pos=[0 \(Self.number(max(0, y - 6)))]"
        let flags = cairo_pdf_outline_flags_t(rawValue: open ? CAIRO_PDF_OUTLINE_FLAG_OPEN.rawValue : 0)
        return Int(cairo_pdf_surface_add_outline(surface, Int32(parent), title, target, flags))
    }

    /// Marks the current page as the target named `name` (ASCII letters, digits, '-' and '_'),
    /// for other PDF tools and for links added after cairo.
    public func addDestination(named name: String, y: Double = 0) {
        precondition(name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") },
                     "destination names are ASCII letters, digits, '-' and '_'")
        guard !isDiscarding else { return }
        let attributes = "name='\(name)' x=0 y=\(Self.number(max(0, y - 6)))"
        cairo_tag_begin(context, CAIRO_TAG_DEST, attributes)
        cairo_tag_end(context, CAIRO_TAG_DEST)
    }

    /// A coordinate as cairo's attribute parser reads it: plain decimal, never exponent notation.
    private static func number(_ value: Double) -> String {
        String(Int(value.rounded()))
    }
}
