import Glibc

/// Tells PDFs, PNG and JPEG images and everything else apart by their first bytes, whatever the
/// file is named.
///
/// A PDF starts with `%PDF-`, but readers accept up to 1024 bytes of junk before it (ISO 32000-2
/// annex H / Acrobat's implementation note 13), and so does poppler; so does this. PNG files start
/// with their fixed 8-byte signature (RFC 2083 section 3.1), JPEG files with an SOI marker followed
/// by another marker (FF D8 FF).
public enum FileSniffer {
    /// What a file is.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case pdf, png, jpeg, other

        /// The media type to record with the document.
        public var mediaType: String {
            switch self {
            case .pdf: return "application/pdf"
            case .png: return "image/png"
            case .jpeg: return "image/jpeg"
            case .other: return "application/octet-stream"
            }
        }

        /// True for the photographed-paper formats the documents layer stores as needing OCR.
        public var isImage: Bool { self == .png || self == .jpeg }
    }

    /// How many leading bytes `kind(ofHeader:)` looks at.
    public static let headerLength = 1024

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    private static let pdfMarker: [UInt8] = Array("%PDF-".utf8)

    /// The kind of a file whose first bytes (up to `headerLength`) are `header`.
    public static func kind<C: Collection>(ofHeader header: C) -> Kind where C.Element == UInt8 {
        let bytes = Array(header.prefix(headerLength))
        if bytes.starts(with: pngSignature) { return .png }
        if bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF { return .jpeg }
        if bytes.count >= pdfMarker.count {
            for start in 0...(bytes.count - pdfMarker.count) where bytes[start] == pdfMarker[0] {
                if bytes[start..<start + pdfMarker.count].elementsEqual(pdfMarker) { return .pdf }
            }
        }
        return .other
    }

    /// The kind of the file open at `descriptor`, read with pread(2) so the file offset is untouched.
    public static func kind(ofDescriptor descriptor: Int32) throws -> Kind {
        var header = [UInt8](repeating: 0, count: headerLength)
        var filled = 0
        while filled < headerLength {
            let count = header.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + filled, headerLength - filled, off_t(filled))
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw POSIXIOError(operation: "read", path: "descriptor \(descriptor)", code: errno)
            }
            if count == 0 { break }
            filled += count
        }
        return kind(ofHeader: header.prefix(filled))
    }

    /// The kind of the file at `path`.
    public static func kind(ofFileAt path: String) throws -> Kind {
        let file = try FileDescriptor.openForReading(path)
        do {
            return try kind(ofDescriptor: file.fd)
        } catch let error as POSIXIOError {
            throw POSIXIOError(operation: error.operation, path: path, code: error.code)
        }
    }
}
