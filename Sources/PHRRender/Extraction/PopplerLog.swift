import CPHRPoppler
import PHRModel

/// Receives poppler's diagnostics inside a worker: counts them and notices the few that explain
/// why a document cannot be read.
///
/// poppler-glib reports every syntax problem through g_log at INFO level in the "Poppler" domain
/// (a broken file can produce thousands). Installing a handler keeps them off stderr even when
/// G_MESSAGES_DEBUG is set, and lets the worker name a cause in one fixed phrase. The messages
/// themselves quote bytes from the file, so none is ever passed on verbatim.
/// https://docs.gtk.org/glib/func.log_set_handler.html
final class PopplerLog {
    /// Syntax errors and warnings since the last `reset()`.
    private(set) var count = 0
    /// The name of a stream filter poppler does not implement (such as BrotliDecode), if one was hit.
    private(set) var unknownFilter: String?
    private(set) var sawMissingTrailer = false
    private(set) var sawInvalidPageCount = false

    /// Installs the handler for the "Poppler" domain, all levels. The instance must stay alive
    /// for as long as poppler runs (the worker keeps it for its whole life).
    func install() {
        let levels = GLogLevelFlags(rawValue: G_LOG_LEVEL_MASK.rawValue | G_LOG_FLAG_FATAL.rawValue | G_LOG_FLAG_RECURSION.rawValue)
        g_log_set_handler("Poppler", levels, { _, _, message, context in
            guard let context, let message else { return }
            Unmanaged<PopplerLog>.fromOpaque(context).takeUnretainedValue().record(String(cString: message))
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    func reset() {
        count = 0
        unknownFilter = nil
        sawMissingTrailer = false
        sawInvalidPageCount = false
    }

    func record(_ message: String) {
        count += 1
        if unknownFilter == nil, let range = message.range(of: "Unknown filter '") {
            let name = message[range.upperBound...].prefix { $0 != "'" }
            if !name.isEmpty, name.count <= 32, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
                unknownFilter = String(name)
            }
        }
        if message.contains("Couldn't find trailer dictionary") || message.contains("Couldn't read xref table") {
            sawMissingTrailer = true
        }
        if message.contains("Invalid page count") || message.contains("Page count (") {
            sawInvalidPageCount = true
        }
    }
}
