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
    /// decrypted bytes that must never reach a disk. The descriptor must stay open while the
    /// source is used.
    ///
    /// poppler opens `/proc/self/fd/N` as a file of its own rather than taking the descriptor
    /// (`poppler_document_new_from_fd`): that reads the same bytes without poppler ever closing
    /// or seeking the caller's descriptor.
    public convenience init(fileDescriptor: Int32, password: String? = nil) throws(TypesettingError) {
        try self.init(uri: "file:///proc/self/fd/\(fileDescriptor)", password: password)
    }

    private init(uri: String, password: String?) throws(TypesettingError) {
        PopplerDiagnostics.silence()
        var error: UnsafeMutablePointer<GError>?
        guard let document = poppler_document_new_from_file(uri, password, &error) else {
            let encrypted = error.map {
                $0.pointee.domain == poppler_error_quark() && $0.pointee.code == Int32(POPPLER_ERROR_ENCRYPTED.rawValue)
            } ?? false
            if let error { g_error_free(error) }
            throw .unreadablePDF(reason: encrypted ? "it needs a password" : "it is damaged or not a pdf", encrypted: encrypted)
        }
        self.document = document
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
