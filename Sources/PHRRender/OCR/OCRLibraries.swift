import CPHRTesseract
import CPHRXML

/// The versions of the libraries that read scans, photos and XML in phr-render, for the
/// extractor string stored with each document and for `phr --version`-style reports.
package enum ReaderLibraries {
    /// "tesseract 5.3.0", from the library loaded at run time.
    package static var tesseract: String {
        guard let version = TessVersion() else { return "tesseract unknown" }
        return "tesseract " + String(cString: version)
    }

    /// "libheif 1.15.1".
    package static var libheif: String {
        guard let version = heif_get_version() else { return "libheif unknown" }
        return "libheif " + String(cString: version)
    }

    /// "libxml2 2.9.14", the headers phr-render was built with.
    package static var libxml2: String { "libxml2 " + LIBXML_DOTTED_VERSION }
}
