import CPHRPoppler

/// A PDF being drawn with cairo: the surface, its drawing context and the shape primitives.
///
/// Coordinates are PDF points with the origin at the top-left of the page, as cairo has them.
/// Text is in `PDFCanvas+Text.swift`, outlines and destinations in `PDFCanvas+Outline.swift`,
/// embedded PDF pages and images in `Embedding/`. `context` is public for drawing what the
/// canvas has no primitive for; save and restore the cairo state around such drawing.
/// https://www.cairographics.org/manual/cairo-PDF-Surfaces.html
public final class PDFCanvas {
    /// Where the PDF bytes go.
    public enum Output {
        /// cairo writes the file at this path itself.
        case file(String)
        /// Every chunk cairo produces, in order; a thrown error stops the output (see `streamError`).
        /// Used to keep a PDF in memory or to write it through a descriptor the caller opened.
        case stream((UnsafeRawBufferPointer) throws -> Void)
        /// Nothing is written: the surface lays out and counts pages only. Embedded pages and
        /// images are skipped on such a canvas (see `isDiscarding`), since nobody sees them.
        case discard
    }

    public let surface: OpaquePointer
    public let context: OpaquePointer
    /// One pango context for the whole document, so font settings are made once.
    public let pangoContext: OpaquePointer
    /// True for `.discard`: a layout pass whose drawing nobody sees.
    public let isDiscarding: Bool
    public private(set) var pageWidth: Double
    public private(set) var pageHeight: Double
    private let sink: StreamSink?

    /// The first error the `.stream` closure threw, if any; cairo itself only knows "write error".
    public var streamError: (any Error)? { sink?.error }

    /// Opens a PDF surface of `width` x `height` points (the first page's size).
    public init(output: Output, width: Double, height: Double, metadata: PDFMetadata) throws(TypesettingError) {
        var sink: StreamSink?
        let created: OpaquePointer?
        switch output {
        case .file(let path):
            created = cairo_pdf_surface_create(path, width, height)
        case .stream(let write):
            let box = StreamSink(write)
            sink = box
            created = cairo_pdf_surface_create_for_stream(StreamSink.callback, Unmanaged.passUnretained(box).toOpaque(),
                                                         width, height)
        case .discard:
            // A nil write function is cairo's documented no-op sink.
            created = cairo_pdf_surface_create_for_stream(nil, nil, width, height)
        }
        guard let created, cairo_surface_status(created) == CAIRO_STATUS_SUCCESS else {
            let reason = created.map { String(cString: cairo_status_to_string(cairo_surface_status($0))).lowercased() }
            if let created { cairo_surface_destroy(created) }
            throw .cairo(reason: reason ?? "cannot create pdf surface")
        }
        surface = created
        self.sink = sink
        if case .discard = output { isDiscarding = true } else { isDiscarding = false }
        pageWidth = width
        pageHeight = height
        // PDF 1.5 is what cairo writes anyway; pinning it keeps a cairo upgrade from changing
        // the header line of files that are meant to be reproducible.
        cairo_pdf_surface_restrict_to_version(surface, CAIRO_PDF_VERSION_1_5)
        Self.apply(metadata, to: surface)
        context = cairo_create(surface)
        pangoContext = pango_cairo_create_context(context)
        Self.configureForVectorOutput(pangoContext)
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(pangoContext))
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    private static func apply(_ metadata: PDFMetadata, to surface: OpaquePointer) {
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, metadata.title)
        if let author = metadata.author { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_AUTHOR, author) }
        if let subject = metadata.subject { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_SUBJECT, subject) }
        if let keywords = metadata.keywords { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_KEYWORDS, keywords) }
        if let creator = metadata.creator { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, creator) }
        if let date = metadata.creationDate {
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, date)
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_MOD_DATE, date)
        }
    }

    /// Lays text out with unhinted metrics and unrounded glyph positions.
    ///
    /// Hinting and rounding are for pixels on a screen; on a PDF they only make letter spacing
    /// uneven, and they would tie the layout to the hinting settings of the machine.
    private static func configureForVectorOutput(_ pangoContext: OpaquePointer) {
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        pango_cairo_context_set_font_options(pangoContext, options)
        cairo_font_options_destroy(options)
        pango_context_set_round_glyph_positions(pangoContext, 0)
    }

    /// Emits the current page and starts a fresh one.
    public func showPage() {
        cairo_show_page(context)
    }

    /// Changes the size of the page about to be drawn. Call right after `showPage()`, before
    /// anything is drawn on the new page (cairo's rule).
    public func setPageSize(width: Double, height: Double) {
        cairo_pdf_surface_set_size(surface, width, height)
        pageWidth = width
        pageHeight = height
    }

    /// Writes out the PDF and reports any error cairo recorded while drawing.
    public func finish() throws(TypesettingError) {
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        let reason = String(cString: cairo_status_to_string(status)).lowercased()
        switch status {
        case CAIRO_STATUS_SUCCESS: return
        case CAIRO_STATUS_WRITE_ERROR: throw .write(reason: sink?.error.map { "\($0)" } ?? reason)
        default: throw .cairo(reason: reason)
        }
    }

    // MARK: Shapes

    public func setColor(_ color: Color) {
        cairo_set_source_rgb(context, color.red, color.green, color.blue)
    }

    /// A straight line; `dash` draws it dashed with equal on/off lengths.
    public func line(fromX x1: Double, y y1: Double, toX x2: Double, y y2: Double,
                     width: Double = 0.6, color: Color = .hairline, dash: Double? = nil) {
        cairo_save(context)
        if let dash {
            var pattern = [dash, dash]
            cairo_set_dash(context, &pattern, 2, 0)
        }
        cairo_set_line_width(context, width)
        setColor(color)
        cairo_move_to(context, x1, y1)
        cairo_line_to(context, x2, y2)
        cairo_stroke(context)
        cairo_restore(context)
    }

    /// A rectangle, optionally with rounded corners, filled and/or stroked (dashed when `dash` is set).
    public func rectangle(x: Double, y: Double, width: Double, height: Double, radius: Double = 0,
                          fill: Color? = nil, stroke: Color? = nil, lineWidth: Double = 0.6, dash: Double? = nil) {
        cairo_save(context)
        if let dash {
            var pattern = [dash, dash]
            cairo_set_dash(context, &pattern, 2, 0)
        }
        addRectanglePath(x: x, y: y, width: width, height: height, radius: radius)
        if let fill {
            setColor(fill)
            if stroke == nil { cairo_fill(context) } else { cairo_fill_preserve(context) }
        }
        if let stroke {
            cairo_set_line_width(context, lineWidth)
            setColor(stroke)
            cairo_stroke(context)
        }
        cairo_new_path(context)
        cairo_restore(context)
    }

    public func circle(centerX: Double, centerY: Double, radius: Double, fill: Color) {
        cairo_new_sub_path(context)
        cairo_arc(context, centerX, centerY, radius, 0, 2 * Double.pi)
        setColor(fill)
        cairo_fill(context)
    }

    private func addRectanglePath(x: Double, y: Double, width: Double, height: Double, radius: Double) {
        guard radius > 0 else {
            cairo_rectangle(context, x, y, width, height)
            return
        }
        let r = min(radius, width / 2, height / 2)
        let halfPi = Double.pi / 2
        cairo_new_sub_path(context)
        cairo_arc(context, x + width - r, y + r, r, -halfPi, 0)
        cairo_arc(context, x + width - r, y + height - r, r, 0, halfPi)
        cairo_arc(context, x + r, y + height - r, r, halfPi, 2 * halfPi)
        cairo_arc(context, x + r, y + r, r, 2 * halfPi, 3 * halfPi)
        cairo_close_path(context)
    }

    /// A smooth stroke through `points` (Catmull-Rom turned into cubic Béziers), for hand-drawn marks.
    public func smoothStroke(through points: [(x: Double, y: Double)], width: Double, color: Color) {
        guard points.count > 1 else { return }
        cairo_save(context)
        cairo_set_line_width(context, width)
        cairo_set_line_cap(context, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(context, CAIRO_LINE_JOIN_ROUND)
        setColor(color)
        cairo_move_to(context, points[0].x, points[0].y)
        for index in 0..<(points.count - 1) {
            let p0 = points[max(index - 1, 0)]
            let p1 = points[index]
            let p2 = points[index + 1]
            let p3 = points[min(index + 2, points.count - 1)]
            cairo_curve_to(context,
                           p1.x + (p2.x - p0.x) / 6, p1.y + (p2.y - p0.y) / 6,
                           p2.x - (p3.x - p1.x) / 6, p2.y - (p3.y - p1.y) / 6,
                           p2.x, p2.y)
        }
        cairo_stroke(context)
        cairo_restore(context)
    }

    /// Runs `body` with the origin moved to (`x`, `y`) and the axes turned clockwise by `degrees`.
    public func withOrigin(x: Double, y: Double, rotatedBy degrees: Double = 0, _ body: () -> Void) {
        cairo_save(context)
        cairo_translate(context, x, y)
        cairo_rotate(context, degrees * Double.pi / 180)
        body()
        cairo_restore(context)
    }
}

/// Holds the `.stream` closure for cairo's C callback, and the first error it threw.
private final class StreamSink {
    let write: (UnsafeRawBufferPointer) throws -> Void
    var error: (any Error)?

    init(_ write: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.write = write
    }

    static let callback: cairo_write_func_t = { closure, data, length in
        guard let closure else { return CAIRO_STATUS_WRITE_ERROR }
        let sink = Unmanaged<StreamSink>.fromOpaque(closure).takeUnretainedValue()
        guard sink.error == nil else { return CAIRO_STATUS_WRITE_ERROR }
        do {
            try sink.write(UnsafeRawBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        } catch {
            sink.error = error
            return CAIRO_STATUS_WRITE_ERROR
        }
    }
}
