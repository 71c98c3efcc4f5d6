/// One document to extract: where its bytes are, and the password to try if it is encrypted.
public struct ExtractionJob {
    public var source: ExtractionSource
    /// The user's password as UTF-8 bytes (from `--pdf-password-file`); see `PDFPasswordCandidates`.
    public var password: SecretBytes?
    /// Whether and how pages are read by OCR.
    public var ocr: OCROptions

    public init(_ source: ExtractionSource, password: SecretBytes? = nil, ocr: OCROptions = .none) {
        self.source = source
        self.password = password
        self.ocr = ocr
    }
}

/// Where a document's bytes are. The worker reads them through a descriptor the parent passes
/// over the socket; the parent itself reads only the first kilobyte (to sniff the file type).
public enum ExtractionSource {
    /// A file on disk, opened read-only by the extractor and closed once the worker has its copy.
    case path(String)
    /// An open regular file or memory file (`MemoryFile`), for example content decrypted from the
    /// vault. The extractor keeps a reference until the job is sent; the descriptor's offset is
    /// not used.
    case file(FileDescriptor)
}
