import CPHRPoppler
import Foundation

/// A PDF whose pages can be drawn onto a canvas, opened with poppler-glib.
///
/// The document stays open (and poppler reads it on demand) for the life of the object, so one
/// source serves a layout pass and a drawing pass without being opened twice.
/// https://poppler.freedesktop.org/api/glib/PopplerDocument.html
public final class PDFPageSource {
    private let document: OpaquePointer
    public let pageCount: Int
    /// The mapped bytes of a document opened from a descriptor; released after the document.
    private let mapping: MappedPDF?

    /// Opens the PDF at `path`.
    public convenience init(path: String, password: String? = nil) throws(TypesettingError) {
        var error: UnsafeMutablePointer<GError>?
        guard let uri = g_filename_to_uri(path, nil, &error) else {
            if let error { g_error_free(error) }
            throw .unreadablePDF(reason: "not a local file path", encrypted: false)
        }
        defer { g_free(uri) }
        try self.init(uri: String(cString: uri), password: password)
    }

    /// Opens the PDF behind an open descriptor, such as a memory file (memfd_create(2)) holding
    /// decrypted bytes that must never reach a disk. poppler reads it mapped into memory
    /// (`MappedPDF` says why not by path), never closing or seeking the caller's descriptor.
    public convenience init(fileDescriptor: Int32, password: String? = nil) throws(TypesettingError) {
        guard let mapping = MappedPDF(descriptor: fileDescriptor) else {
            throw .unreadablePDF(reason: "it cannot be read (\(String(cString: strerror(errno))))", encrypted: false)
        }
        try self.init(uri: nil, mapping: mapping, password: password)
    }

    private convenience init(uri: String, password: String?) throws(TypesettingError) {
        try self.init(uri: uri, mapping: nil, password: password)
    }

    private init(uri: String?, mapping: MappedPDF?, password: String?) throws(TypesettingError) {
        PopplerDiagnostics.silence()
        var error: UnsafeMutablePointer<GError>?
        let opened: OpaquePointer?
        if let mapping {
            opened = mapping.open(password: password, error: &error)
        } else {
            opened = poppler_document_new_from_file(uri, password, &error)
        }
        guard let document = opened else {
            let encrypted = error.map {
                $0.pointee.domain == poppler_error_quark() && $0.pointee.code == Int32(POPPLER_ERROR_ENCRYPTED.rawValue)
            } ?? false
            if let error { g_error_free(error) }
            throw .unreadablePDF(reason: encrypted ? "it needs a password" : "it is damaged or not a pdf", encrypted: encrypted)
        }
        self.document = document
        self.mapping = mapping
        pageCount = Int(poppler_document_get_n_pages(document))
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(document)) }

    /// The size of page `index` (from 0) in points as it is shown, its /Rotate applied; nil if
    /// poppler cannot load the page.
    public func pageSize(_ index: Int) -> Size? {
        guard let page = poppler_document_get_page(document, Int32(index)) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        var width = 0.0
        var height = 0.0
        poppler_page_get_size(page, &width, &height)
        guard width > 0, height > 0 else { return nil }
        return Size(width: width, height: height)
    }

    /// Runs `body` with poppler's page object, for the canvas to render.
    func withPage<T>(_ index: Int, _ body: (OpaquePointer) -> T) -> T? {
        guard let page = poppler_document_get_page(document, Int32(index)) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        return body(page)
    }
}

/// poppler-glib reports every syntax problem of a damaged PDF through g_log, thousands for a bad
/// file, and the messages quote bytes of the document. Nothing that typesets health documents
/// should print them, so a handler that drops them is installed once for the "Poppler" domain.
/// https://docs.gtk.org/glib/func.log_set_handler.html
enum PopplerDiagnostics {
    private static let installed: Bool = {
        let levels = GLogLevelFlags(rawValue: G_LOG_LEVEL_MASK.rawValue | G_LOG_FLAG_FATAL.rawValue | G_LOG_FLAG_RECURSION.rawValue)
        g_log_set_handler("Poppler", levels, { _, _, _, _ in }, nil)
        return true
    }()

    static func silence() {
        _ = installed
    }
}
