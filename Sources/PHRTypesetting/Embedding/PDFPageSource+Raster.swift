import CPHRPoppler
import Foundation

extension PDFPageSource {
    /// Page `index` (from 0) drawn as a PNG no wider than `maximumWidth` and no taller than
    /// `maximumHeight` pixels, on white, its /Rotate applied: what a viewer shows instead of
    /// handing the PDF itself to a browser's PDF reader.
    public func pagePNG(_ index: Int, maximumWidth: Int, maximumHeight: Int) throws(TypesettingError) -> [UInt8] {
        guard let size = pageSize(index) else { throw .unreadablePDF(reason: "page \(index + 1) cannot be loaded", encrypted: false) }
        guard maximumWidth > 0, maximumHeight > 0 else { throw .cairo(reason: "an image must have a size") }
        let scale = min(Double(maximumWidth) / size.width, Double(maximumHeight) / size.height)
        let pixelWidth = max(1, min(maximumWidth, Int((size.width * scale).rounded())))
        let pixelHeight = max(1, min(maximumHeight, Int((size.height * scale).rounded())))
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(pixelWidth), Int32(pixelHeight)) else {
            throw .cairo(reason: "no image surface")
        }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            throw .cairo(reason: String(cString: cairo_status_to_string(cairo_surface_status(surface))))
        }
        guard let context = cairo_create(surface) else { throw .cairo(reason: "no drawing context") }
        defer { cairo_destroy(context) }
        cairo_set_source_rgb(context, 1, 1, 1)
        cairo_paint(context)
        cairo_scale(context, scale, scale)
        let drawn: Bool? = withPage(index) { page in
            poppler_page_render_for_printing(page, context)
            return true
        }
        guard drawn == true else { throw .unreadablePDF(reason: "page \(index + 1) cannot be loaded", encrypted: false) }
        cairo_surface_flush(surface)
        return try Self.png(surface)
    }

    /// The surface's pixels as PNG bytes, written to memory (never to a file).
    static func png(_ surface: OpaquePointer) throws(TypesettingError) -> [UInt8] {
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        let status = cairo_surface_write_to_png_stream(surface, { closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue().bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(sink).toOpaque())
        guard status == CAIRO_STATUS_SUCCESS else { throw .cairo(reason: String(cString: cairo_status_to_string(status))) }
        return withExtendedLifetime(sink) { sink.bytes }
    }
}
