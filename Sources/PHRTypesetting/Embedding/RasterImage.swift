import CPHRPoppler
import Foundation

/// A PNG or JPEG to place on a page: its encoded bytes and the geometry read from its header.
///
/// Decoding waits until the image is drawn, so a layout pass costs only the header parse. A JPEG
/// is never decoded at all: its bytes go into the PDF as they are (a DCTDecode stream, cairo's
/// `CAIRO_MIME_TYPE_JPEG`), which keeps a phone photo at its own size and quality. A PNG is
/// decoded by cairo and stored losslessly.
/// https://www.cairographics.org/manual/cairo-cairo-surface-t.html#cairo-surface-set-mime-data
public final class RasterImage {
    public enum Format: Sendable {
        case png, jpeg
    }

    public let format: Format
    /// The stored pixel grid, before orientation.
    public let pixelWidth: Int
    public let pixelHeight: Int
    /// EXIF orientation, 1 (upright) to 8; PNGs are always 1.
    public let orientation: Int
    private let bytes: [UInt8]

    /// Reads the header of PNG or JPEG `bytes`.
    public init(bytes: [UInt8]) throws(TypesettingError) {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            // The IHDR chunk comes first: length, "IHDR", width and height as 32-bit big-endian.
            guard bytes.count >= 24, bytes[12..<16].elementsEqual(Array("IHDR".utf8)) else {
                throw .unreadableImage(reason: "the png header is damaged")
            }
            func word(_ offset: Int) -> Int {
                bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            }
            format = .png
            pixelWidth = word(16)
            pixelHeight = word(20)
            orientation = 1
        } else if bytes.starts(with: [0xFF, 0xD8]) {
            let header = try JPEGHeader(bytes)
            format = .jpeg
            pixelWidth = header.width
            pixelHeight = header.height
            orientation = header.orientation
        } else {
            throw .unreadableImage(reason: "not a png or jpeg image")
        }
        // PDF viewers and cairo's image surfaces both cap dimensions at 32767 pixels.
        guard (1...32_767).contains(pixelWidth), (1...32_767).contains(pixelHeight) else {
            throw .unreadableImage(reason: "the image is \(pixelWidth) x \(pixelHeight) pixels, outside 1 to 32767")
        }
        self.bytes = bytes
    }

    /// The width and height as the image is meant to be seen (turned for orientations 5 to 8).
    public var displayWidth: Int { orientation >= 5 ? pixelHeight : pixelWidth }
    public var displayHeight: Int { orientation >= 5 ? pixelWidth : pixelHeight }

    /// Maps stored pixel coordinates to upright display coordinates (EXIF tag 0x0112).
    var orientationMatrix: cairo_matrix_t {
        let w = Double(pixelWidth)
        let h = Double(pixelHeight)
        var matrix = cairo_matrix_t()
        // cairo_matrix_init(xx, yx, xy, yy, x0, y0): X = xx*u + xy*v + x0, Y = yx*u + yy*v + y0.
        switch orientation {
        case 2: cairo_matrix_init(&matrix, -1, 0, 0, 1, w, 0)
        case 3: cairo_matrix_init(&matrix, -1, 0, 0, -1, w, h)
        case 4: cairo_matrix_init(&matrix, 1, 0, 0, -1, 0, h)
        case 5: cairo_matrix_init(&matrix, 0, 1, 1, 0, 0, 0)
        case 6: cairo_matrix_init(&matrix, 0, 1, -1, 0, h, 0)
        case 7: cairo_matrix_init(&matrix, 0, -1, -1, 0, h, w)
        case 8: cairo_matrix_init(&matrix, 0, -1, 1, 0, 0, w)
        default: cairo_matrix_init_identity(&matrix)
        }
        return matrix
    }

    /// A cairo surface to paint from; the caller destroys it.
    func makeSurface() throws(TypesettingError) -> OpaquePointer {
        switch format {
        case .png: return try decodePNG()
        case .jpeg: return try jpegSurface()
        }
    }

    private func decodePNG() throws(TypesettingError) -> OpaquePointer {
        let reader = ByteReader(bytes)
        let surface = withExtendedLifetime(reader) {
            cairo_image_surface_create_from_png_stream(ByteReader.callback, Unmanaged.passUnretained(reader).toOpaque())
        }
        guard let surface, cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            if let surface { cairo_surface_destroy(surface) }
            throw .unreadableImage(reason: "the png data is damaged")
        }
        return surface
    }

    /// An image surface of the JPEG's size that carries the JPEG itself as mime data.
    ///
    /// The PDF surface embeds the mime data and never reads the pixels, which stay untouched
    /// zero pages (calloc'd memory the kernel has not mapped), so a 12-megapixel photo costs
    /// no 48 MB of resident memory.
    private func jpegSurface() throws(TypesettingError) -> OpaquePointer {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(pixelWidth), Int32(pixelHeight)),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            throw .cairo(reason: "cannot make an image surface of \(pixelWidth) x \(pixelHeight) pixels")
        }
        // cairo keeps the pointer until the surface is destroyed and then calls free(3) on it.
        guard let copy = malloc(bytes.count) else {
            cairo_surface_destroy(surface)
            throw .cairo(reason: "out of memory")
        }
        bytes.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        let status = cairo_surface_set_mime_data(surface, CAIRO_MIME_TYPE_JPEG, copy.assumingMemoryBound(to: UInt8.self),
                                                 UInt(bytes.count), free, copy)
        guard status == CAIRO_STATUS_SUCCESS else {
            free(copy)
            cairo_surface_destroy(surface)
            throw .cairo(reason: String(cString: cairo_status_to_string(status)).lowercased())
        }
        return surface
    }
}

/// Feeds in-memory bytes to cairo's PNG reader.
private final class ByteReader {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    static let callback: cairo_read_func_t = { closure, data, length in
        guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
        let reader = Unmanaged<ByteReader>.fromOpaque(closure).takeUnretainedValue()
        let count = Int(length)
        guard reader.offset + count <= reader.bytes.count else { return CAIRO_STATUS_READ_ERROR }
        reader.bytes.withUnsafeBytes { source in
            data.update(from: source.baseAddress!.advanced(by: reader.offset).assumingMemoryBound(to: UInt8.self), count: count)
        }
        reader.offset += count
        return CAIRO_STATUS_SUCCESS
    }
}
