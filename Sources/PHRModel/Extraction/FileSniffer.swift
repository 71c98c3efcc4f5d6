import Foundation
import Glibc

/// Tells PDFs, images (PNG, JPEG, TIFF, WebP, HEIC/HEIF) and everything else apart by their
/// first bytes, whatever the file is named.
///
/// A PDF starts with `%PDF-`, but readers accept up to 1024 bytes of junk before it (ISO 32000-2
/// annex H / Acrobat's implementation note 13), and so does poppler; so does this. PNG files start
/// with their fixed 8-byte signature (RFC 2083 section 3.1), JPEG files with an SOI marker followed
/// by another marker (FF D8 FF).
public enum FileSniffer {
    /// What a file is.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        case pdf, png, jpeg, tiff, webp, heic, other

        /// The media type to record with the document.
        public var mediaType: String {
            switch self {
            case .pdf: return "application/pdf"
            case .png: return "image/png"
            case .jpeg: return "image/jpeg"
            case .tiff: return "image/tiff"
            case .webp: return "image/webp"
            case .heic: return "image/heic"
            case .other: return "application/octet-stream"
            }
        }

        /// The kind a recorded media type names.
        public init(mediaType: String) {
            self = Kind.allCases.first { $0 != .other && $0.mediaType == mediaType } ?? .other
        }

        /// True for scans and photos, which only OCR makes searchable.
        public var isImage: Bool { self != .pdf && self != .other }
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
        // TIFF: "II*\0" or "MM\0*" (TIFF 6.0, section 2).
        if bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        // WebP: a RIFF container of form type "WEBP".
        if bytes.count >= 12 && bytes.starts(with: Array("RIFF".utf8)) && bytes[8..<12].elementsEqual(Array("WEBP".utf8)) { return .webp }
        // HEIF (ISO/IEC 23008-12): an "ftyp" box first whose major brand is an HEIF image brand.
        if bytes.count >= 12 && bytes[4..<8].elementsEqual(Array("ftyp".utf8)),
           let brand = String(bytes: bytes[8..<12], encoding: .ascii),
           ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"].contains(brand) { return .heic }
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
