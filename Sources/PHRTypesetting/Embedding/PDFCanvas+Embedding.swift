import CPHRPoppler

/// Pages of other PDFs and raster images placed on the canvas.
extension PDFCanvas {
    /// Draws page `index` (from 0) of `source` centred in `frame`, shrunk to fit but never
    /// enlarged (a page keeps at most its printed size), and returns where it went; nil if
    /// poppler cannot load the page.
    ///
    /// `poppler_page_render_for_printing` replays the page's drawing operations onto this
    /// surface, so its text stays text (selectable, searchable) and its graphics stay vectors.
    /// The page is painted on white and clipped to its box: a page's content outside its crop
    /// box is not meant to be seen. On a discarding canvas only the geometry is computed.
    /// https://poppler.freedesktop.org/api/glib/PopplerPage.html#poppler-page-render-for-printing
    @discardableResult
    public func drawPDFPage(_ source: PDFPageSource, index: Int, fittingIn frame: Rect) -> Rect? {
        guard let size = source.pageSize(index) else { return nil }
        let (placed, scale) = frame.fitting(size, maximumScale: 1)
        guard !isDiscarding else { return placed }
        let rendered: Bool? = source.withPage(index) { page in
            cairo_save(context)
            cairo_rectangle(context, placed.x, placed.y, placed.width, placed.height)
            cairo_clip(context)
            setColor(.white)
            cairo_paint(context)
            cairo_translate(context, placed.x, placed.y)
            cairo_scale(context, scale, scale)
            poppler_page_render_for_printing(page, context)
            cairo_restore(context)
            return true
        }
        return rendered == nil ? nil : placed
    }

    /// Draws `image` centred in `frame`, scaled to fill it as far as its proportions allow, with
    /// its EXIF orientation applied, and returns where it went.
    @discardableResult
    public func drawImage(_ image: RasterImage, fittingIn frame: Rect) throws(TypesettingError) -> Rect {
        let shown = Size(width: Double(image.displayWidth), height: Double(image.displayHeight))
        let (placed, scale) = frame.fitting(shown)
        guard !isDiscarding else { return placed }
        let pixels = try image.makeSurface()
        defer { cairo_surface_destroy(pixels) }
        cairo_save(context)
        cairo_translate(context, placed.x, placed.y)
        cairo_scale(context, scale, scale)
        var orientation = image.orientationMatrix
        cairo_transform(context, &orientation)
        cairo_set_source_surface(context, pixels, 0, 0)
        cairo_rectangle(context, 0, 0, Double(image.pixelWidth), Double(image.pixelHeight))
        cairo_fill(context)
        cairo_restore(context)
        return placed
    }
}
