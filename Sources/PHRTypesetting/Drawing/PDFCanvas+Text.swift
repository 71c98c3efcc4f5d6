import CPHRPoppler

/// One line of laid-out text: its top and bottom, measured from the top of the text block.
public struct TextLine: Sendable, Equatable {
    public var top: Double
    public var bottom: Double
    public var height: Double { bottom - top }
}

/// Text through pango: real glyphs with a ToUnicode map, so `pdftotext` and poppler read them back.
/// https://docs.gtk.org/Pango/class.Layout.html
extension PDFCanvas {
    /// Draws `content` with its top-left corner at (`x`, `y`), wrapping at `width` when given.
    @discardableResult
    public func drawText(_ content: TextContent, x: Double, y: Double, width: Double? = nil,
                         style: TextStyle) -> Size {
        let layout = makeLayout(content, width: width, style: style)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        setColor(style.color)
        cairo_move_to(context, x, y)
        pango_cairo_show_layout(context, layout)
        return size(of: layout)
    }

    /// The size `content` would take, without drawing it.
    public func measureText(_ content: TextContent, width: Double? = nil, style: TextStyle) -> Size {
        let layout = makeLayout(content, width: width, style: style)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        return size(of: layout)
    }

    /// The lines `content` breaks into at `width`, for splitting a block across pages.
    public func measureLines(_ content: TextContent, width: Double, style: TextStyle) -> [TextLine] {
        let layout = makeLayout(content, width: width, style: style)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var lines: [TextLine] = []
        forEachLine(of: layout) { iterator in
            var top: Int32 = 0
            var bottom: Int32 = 0
            pango_layout_iter_get_line_yrange(iterator, &top, &bottom)
            lines.append(TextLine(top: Double(top) / Double(PANGO_SCALE), bottom: Double(bottom) / Double(PANGO_SCALE)))
        }
        return lines
    }

    /// Draws only `lines` of `content` (as `measureLines` numbers them), the first one's top at `y`.
    ///
    /// Each line is shown on its own, so the lines left out are not in the page at all: clipping
    /// them instead would hide them from the eye but not from text extraction.
    public func drawTextLines(_ content: TextContent, lines: Range<Int>, x: Double, y: Double, width: Double,
                              style: TextStyle) {
        guard !lines.isEmpty else { return }
        let layout = makeLayout(content, width: width, style: style)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        setColor(style.color)
        var index = 0
        var firstTop: Double?
        forEachLine(of: layout) { iterator in
            defer { index += 1 }
            guard lines.contains(index), let line = pango_layout_iter_get_line_readonly(iterator) else { return }
            var top: Int32 = 0
            var bottom: Int32 = 0
            pango_layout_iter_get_line_yrange(iterator, &top, &bottom)
            let lineTop = Double(top) / Double(PANGO_SCALE)
            if firstTop == nil { firstTop = lineTop }
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iterator, nil, &logical)
            let baseline = Double(pango_layout_iter_get_baseline(iterator)) / Double(PANGO_SCALE)
            cairo_move_to(context, x + Double(logical.x) / Double(PANGO_SCALE), y + baseline - firstTop!)
            pango_cairo_show_layout_line(context, line)
        }
    }

    /// Fills the outlines of `content` instead of placing text, centred on the current origin.
    ///
    /// For watermarks and stamps: as outlines they are visible but not text, so they cannot
    /// interleave with the real text when a PDF reader extracts a page.
    public func fillTextOutline(_ content: TextContent, style: TextStyle) {
        let layout = makeLayout(content, width: nil, style: style)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        // The caller has rotated the axes; pango must see that transform to shape for it.
        pango_cairo_update_layout(context, layout)
        let extent = size(of: layout)
        cairo_move_to(context, -extent.width / 2, -extent.height / 2)
        pango_cairo_layout_path(context, layout)
        setColor(style.color)
        cairo_fill(context)
    }

    private func forEachLine(of layout: OpaquePointer, _ body: (OpaquePointer) -> Void) {
        guard let iterator = pango_layout_get_iter(layout) else { return }
        defer { pango_layout_iter_free(iterator) }
        repeat {
            body(iterator)
        } while pango_layout_iter_next_line(iterator) != 0
    }

    private func makeLayout(_ content: TextContent, width: Double?, style: TextStyle) -> OpaquePointer {
        let layout = pango_layout_new(pangoContext)!
        let font = pango_font_description_new()
        pango_font_description_set_family(font, style.family)
        // Absolute size is in user-space units, which are points on a PDF surface; the plain
        // size would be scaled by pango-cairo's 96 dpi default.
        pango_font_description_set_absolute_size(font, style.size * Double(PANGO_SCALE))
        pango_font_description_set_weight(font, style.bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        pango_font_description_set_style(font, style.italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)

        if let width {
            pango_layout_set_width(layout, Int32((width * Double(PANGO_SCALE)).rounded(.down)))
            // Words first, then characters: a 64-digit hash or a long URL still fits its column.
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        }
        switch style.alignment {
        case .left: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
        case .center: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        case .right: pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
        }
        if style.lineHeight > 0 {
            pango_layout_set_line_spacing(layout, Float(style.lineHeight))
        }

        switch content {
        case .plain(let text):
            pango_layout_set_text(layout, text, -1)
            if style.tracking != 0 {
                let attributes = pango_attr_list_new()
                pango_attr_list_insert(attributes,
                                       pango_attr_letter_spacing_new(Int32(style.tracking * Double(PANGO_SCALE))))
                pango_layout_set_attributes(layout, attributes)
                pango_attr_list_unref(attributes)
            }
        case .markup(let markup):
            // pango ignores bad markup with only a console warning, which would silently drop
            // text; markup is built by code with data passed through escapeMarkup, so a
            // mistake is a bug to stop on.
            var error: UnsafeMutablePointer<GError>?
            guard pango_parse_markup(markup, -1, 0, nil, nil, nil, &error) != 0 else {
                let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown"
                preconditionFailure("invalid pango markup (\(reason))")
            }
            pango_layout_set_markup(layout, markup, -1)
        }
        return layout
    }

    private func size(of layout: OpaquePointer) -> Size {
        var width: Int32 = 0
        var height: Int32 = 0
        pango_layout_get_size(layout, &width, &height)
        return Size(width: Double(width) / Double(PANGO_SCALE), height: Double(height) / Double(PANGO_SCALE))
    }
}
