import CPHRPoppler
import Glibc
import PHRModel
import PHRTypesetting

/// Opens and reads a PDF with poppler-glib, inside a worker process only.
///
/// Opening reads the descriptor mapped into memory (`MappedPDF`, which says why neither a path
/// nor `poppler_document_new_from_fd` will do in the sandbox).
/// https://poppler.freedesktop.org/api/glib/PopplerDocument.html
final class PopplerReader {
    /// What opening a document gave.
    enum Opening {
        case opened(PopplerReader)
        case passwordRequired(reason: String)
        case unreadable(reason: String)
    }

    let isEncrypted: Bool
    private let document: OpaquePointer
    /// The document's bytes, released after the document.
    private let mapping: MappedPDF

    private init(document: OpaquePointer, mapping: MappedPDF, isEncrypted: Bool) {
        self.document = document
        self.mapping = mapping
        self.isEncrypted = isEncrypted
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(document)) }

    /// A password no real file uses: if it opens the file, the file is not encrypted at all.
    private static let probePassword: [UInt8] = [0x01] + Array("phr-probe".utf8) + [0x01]

    /// Opens the PDF at `descriptor`, trying `candidates` (see `PDFPasswordCandidates`) if it needs a password.
    ///
    /// poppler-glib cannot say whether a file is encrypted, and a wrong password makes even an
    /// owner-password-only file (which opens with none) fail. So: open with a probe password
    /// first (success means not encrypted, the common case, one open); then with none (success
    /// means owner-password-only); then with each candidate.
    static func open(descriptor: Int32, candidates: [[UInt8]], log: PopplerLog) -> Opening {
        guard let mapping = MappedPDF(descriptor: descriptor) else {
            return .unreadable(reason: "the file cannot be read (\(String(cString: strerror(errno))))")
        }
        log.reset()
        if case let .success(document) = attempt(mapping, password: probePassword) {
            return .opened(PopplerReader(document: document, mapping: mapping, isEncrypted: false))
        }
        log.reset()
        switch attempt(mapping, password: nil) {
        case let .success(document):
            return .opened(PopplerReader(document: document, mapping: mapping, isEncrypted: true))
        case let .failure(failure) where failure.isEncrypted:
            for candidate in candidates {
                log.reset()
                if case let .success(document) = attempt(mapping, password: candidate) {
                    return .opened(PopplerReader(document: document, mapping: mapping, isEncrypted: true))
                }
            }
            return .passwordRequired(reason: candidates.isEmpty ? "a password is required" : "the password is wrong")
        case let .failure(failure):
            return .unreadable(reason: unreadableReason(failure, descriptor: descriptor, log: log))
        }
    }

    var pageCount: Int { Int(poppler_document_get_n_pages(document)) }

    var title: String? {
        guard let title = poppler_document_get_title(document) else { return nil }
        defer { g_free(title) }
        return String(cString: title)
    }

    /// /CreationDate as Unix time, or nil.
    var creationTime: Int64? {
        let time = poppler_document_get_creation_date(document)
        return time > 0 ? Int64(time) : nil
    }

    /// What one page held, as read from its text layer.
    struct PageRead {
        var text: String
        /// True if a page without text has images.
        var hasImages: Bool
        /// The share of the page's area under images, when asked for (0 otherwise).
        var imageShare: Double = 0
        /// The page size in points.
        var width: Double = 0
        var height: Double = 0
        /// The words with their boxes, when asked for.
        var words: [PageWord] = []
    }

    /// The text of page `index` (from 0) and whether a page without text has images, or nil if
    /// poppler cannot load the page. `words` asks for the words' boxes; `coverage` for the
    /// share of the page under images when the page holds little text.
    func page(at index: Int, words wantWords: Bool = false, coverage: Bool = false) -> PageRead? {
        guard let page = poppler_document_get_page(document, Int32(index)) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        var width = 0.0, height = 0.0
        poppler_page_get_size(page, &width, &height)
        var text = ""
        if let raw = poppler_page_get_text(page) {
            text = String(cString: raw)
            g_free(raw)
        }
        // On a page poppler reads as mainly right-to-left (an Arabic paragraph among shorter
        // Spanish or Japanese lines), the glyph selection behind poppler_page_get_text leaves
        // out whole lines; selecting the page by lines keeps them, as pdftotext does. The
        // glyph boxes then belong to the shorter text, so no column tabs are placed.
        let byLines = linesText(page)
        let lostLines = Self.visibleCount(byLines) > Self.visibleCount(text)
        if lostLines { text = byLines }
        var rectangles: UnsafeMutablePointer<PopplerRectangle>?
        var count: guint = 0
        var words: [PageWord] = []
        if !text.isEmpty, !lostLines, poppler_page_get_text_layout(page, &rectangles, &count) != 0, let rectangles {
            let boxes = UnsafeBufferPointer(start: rectangles, count: Int(count)).map {
                PageTextColumns.Box(x1: $0.x1, y1: $0.y1, x2: $0.x2, y2: $0.y2)
            }
            g_free(rectangles)
            if wantWords { words = PageTextColumns.words(text, boxes: boxes) }
            text = PageTextColumns.separate(text, boxes: boxes)
        }
        let fields = formFieldValues(page)
        if !fields.isEmpty {
            text += (text.isEmpty || text.hasSuffix("\n") ? "" : "\n") + fields.joined(separator: "\n")
        }
        // Only a page without text (or, when asked, with little) needs the image check, which
        // is a second pass over its content stream; image mapping records image boxes without
        // decoding any image data.
        var hasImages = false
        var imageShare = 0.0
        let visible = Self.visibleCount(text)
        if visible == 0 || (coverage && visible < 400) {
            if let images = poppler_page_get_image_mapping(page) {
                hasImages = visible == 0
                var area = 0.0
                var node: UnsafeMutablePointer<GList>? = images
                while let current = node {
                    node = current.pointee.next
                    guard let data = current.pointee.data else { continue }
                    let box = data.assumingMemoryBound(to: PopplerImageMapping.self).pointee.area
                    let w = max(0, min(box.x2, width) - max(box.x1, 0)), h = max(0, min(box.y2, height) - max(box.y1, 0))
                    area += w * h
                }
                poppler_page_free_image_mapping(images)
                if width > 0 && height > 0 { imageShare = min(1, area / (width * height)) }
            }
        }
        return PageRead(text: text, hasImages: hasImages, imageShare: imageShare, width: width, height: height, words: words)
    }

    /// Page `index` drawn as a grey image at `resolution` pixels per inch, or less if that would
    /// exceed `maximumMegapixels` (a poster-sized page).
    func render(at index: Int, resolution: Int, maximumMegapixels: Double) throws -> GreyImage {
        guard let page = poppler_document_get_page(document, Int32(index)) else {
            throw OCRFailure.undecodable("the page cannot be loaded")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        var width = 0.0, height = 0.0
        poppler_page_get_size(page, &width, &height)
        guard width.isFinite, height.isFinite, width >= 1, height >= 1 else {
            throw OCRFailure.undecodable("the page has no size")
        }
        var dpi = Double(resolution)
        let megapixels = (width * dpi / 72) * (height * dpi / 72) / 1_000_000
        if megapixels > maximumMegapixels { dpi *= (maximumMegapixels / megapixels).squareRoot() }
        let (pixelsWide, pixelsHigh) = (width * dpi / 72, height * dpi / 72)
        // cairo's image surfaces stop at 32767 pixels a side (a page metres long and centimetres wide).
        guard pixelsWide.isFinite, pixelsHigh.isFinite, pixelsWide < 32_767, pixelsHigh < 32_767 else {
            throw OCRFailure.undecodable("the page is \(Int(min(width, 1e9))) x \(Int(min(height, 1e9))) points, too long a side to draw")
        }
        let pixelWidth = max(1, Int(pixelsWide.rounded())), pixelHeight = max(1, Int(pixelsHigh.rounded()))
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(pixelWidth), Int32(pixelHeight)),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { throw OCRFailure.outOfMemory }
        defer { cairo_surface_destroy(surface) }
        let context = cairo_create(surface)
        defer { cairo_destroy(context) }
        cairo_set_source_rgb(context, 1, 1, 1)
        cairo_paint(context)
        cairo_scale(context, dpi / 72, dpi / 72)
        poppler_page_render_for_printing(page, context)
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { throw OCRFailure.outOfMemory }
        return try GreyImage.fromCairoRGB24(data, width: pixelWidth, height: pixelHeight,
                                            stride: Int(cairo_image_surface_get_stride(surface)),
                                            resolution: Int(dpi.rounded()))
    }

    /// The whole page's text selected line by line.
    private func linesText(_ page: OpaquePointer) -> String {
        var width = 0.0
        var height = 0.0
        poppler_page_get_size(page, &width, &height)
        var area = PopplerRectangle(x1: 0, y1: 0, x2: width, y2: height)
        guard let raw = poppler_page_get_selected_text(page, POPPLER_SELECTION_LINE, &area) else { return "" }
        defer { g_free(raw) }
        return String(cString: raw)
    }

    /// Characters that show: not spaces, and not the bidi controls poppler wraps runs in.
    static func visibleCount(_ text: String) -> Int {
        text.unicodeScalars.filter { scalar in
            !scalar.properties.isWhitespace && !(0x202A...0x202E).contains(scalar.value) && !(0x2066...0x2069).contains(scalar.value)
        }.count
    }

    /// The values of filled-in text fields and selected choices on the page.
    ///
    /// poppler-glib's page text leaves out form fields (they are annotations with their own
    /// appearance), yet a filled claim or intake form says most in them.
    private func formFieldValues(_ page: OpaquePointer) -> [String] {
        guard let mapping = poppler_page_get_form_field_mapping(page) else { return [] }
        defer { poppler_page_free_form_field_mapping(mapping) }
        var values: [String] = []
        var node: UnsafeMutablePointer<GList>? = mapping
        while let current = node {
            node = current.pointee.next
            guard let data = current.pointee.data else { continue }
            let field = data.assumingMemoryBound(to: PopplerFormFieldMapping.self).pointee.field
            switch poppler_form_field_get_field_type(field) {
            case POPPLER_FORM_FIELD_TEXT:
                if let value = poppler_form_field_text_get_text(field) {
                    values.append(String(cString: value))
                    g_free(value)
                }
            case POPPLER_FORM_FIELD_CHOICE:
                for item in 0..<poppler_form_field_choice_get_n_items(field)
                where poppler_form_field_choice_is_item_selected(field, item) != 0 {
                    if let value = poppler_form_field_choice_get_item(field, item) {
                        values.append(String(cString: value))
                        g_free(value)
                    }
                }
            default:
                break
            }
        }
        return values.filter { !$0.allSatisfy(\.isWhitespace) }
    }

    // MARK: - Opening

    private struct Failure: Error {
        var domain: GQuark
        var code: Int32
        var isEncrypted: Bool { domain == poppler_error_quark() && code == Int32(POPPLER_ERROR_ENCRYPTED.rawValue) }
        var isBadCatalog: Bool { domain == poppler_error_quark() && code == Int32(POPPLER_ERROR_BAD_CATALOG.rawValue) }
        var isFileError: Bool { domain == g_file_error_quark() }
    }

    private static func attempt(_ mapping: MappedPDF, password: [UInt8]?) -> Result<OpaquePointer, Failure> {
        var error: UnsafeMutablePointer<GError>?
        var encoded = password.map(latin1TransparentUTF8)
        defer { if encoded != nil { wipe(&encoded!) } }
        let document: OpaquePointer?
        if encoded == nil {
            document = mapping.open(password: nil, error: &error)
        } else {
            document = encoded!.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { mapping.open(password: $0.baseAddress, error: &error) }
            }
        }
        if let document { return .success(document) }
        let failure = Failure(domain: error?.pointee.domain ?? 0, code: error?.pointee.code ?? -1)
        if let error { g_error_free(error) }
        return .failure(failure)
    }

    /// `bytes` spelled so that poppler's UTF-8 to ISO 8859-1 conversion (g_convert, applied to
    /// every password it is given) yields exactly `bytes` again: each byte becomes the UTF-8 of
    /// the Latin-1 character with that value. NUL-terminated.
    static func latin1TransparentUTF8(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2 + 1)
        for byte in bytes {
            if byte < 0x80 {
                out.append(byte)
            } else {
                out.append(0xC0 | (byte >> 6))
                out.append(0x80 | (byte & 0x3F))
            }
        }
        out.append(0)
        return out
    }

    private static func unreadableReason(_ failure: Failure, descriptor: Int32, log: PopplerLog) -> String {
        if failure.isFileError { return "the file cannot be read" }
        if let filter = log.unknownFilter { return "uses a compression method poppler cannot read (\(filter))" }
        if !hasEndOfFileMarker(descriptor) { return "truncated: the file ends before its end-of-file marker" }
        if failure.isBadCatalog { return "damaged: the document catalog is missing" }
        if log.sawMissingTrailer { return "damaged: no usable cross-reference table or trailer" }
        return "damaged beyond repair"
    }

    /// True if `%%EOF` occurs in the last kilobyte, where every complete PDF has it.
    static func hasEndOfFileMarker(_ descriptor: Int32) -> Bool {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return false }
        let length = Int(min(Int64(info.st_size), 1024))
        var tail = [UInt8](repeating: 0, count: length)
        let count = tail.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, length, off_t(Int64(info.st_size) - Int64(length))) }
        guard count == length else { return false }
        let marker = Array("%%EOF".utf8)
        guard length >= marker.count else { return false }
        return (0...(length - marker.count)).contains { tail[$0..<$0 + marker.count].elementsEqual(marker) }
    }
}
