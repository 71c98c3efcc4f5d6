import CPHRPoppler
import Glibc

/// A PDF's bytes mapped read-only from an open descriptor, for poppler to read from memory
/// through a seekable memory stream (`poppler_document_new_from_stream`).
///
/// Why not a path: phr-render's workers may not open files by name outside the system's
/// libraries and fonts (their Landlock sandbox), and `/proc/self/fd/N` resolves to the user's
/// own file, which they may not open. Why not `poppler_document_new_from_fd`: when a password
/// fails, poppler retries on a copy of its stream after deleting the original, which closes the
/// descriptor under the copy (with 22.12 a wrong password then reads as "damaged"). And not
/// `poppler_document_new_from_bytes` or `_from_data`: poppler 22.12 crashes in that retry on any
/// encrypted file given a wrong password (it reads the deleted stream). Its stream reader copies
/// the stream object but keeps the memory stream alive, and this object keeps the mapping until
/// it is released, after the document.
///
/// The mapping is private and read-only and costs address space, not memory: pages are read
/// from the file (or the memory file the parent filled) as poppler touches them.
public final class MappedPDF: @unchecked Sendable {
    private let base: UnsafeMutableRawPointer?
    private let length: Int
    /// What poppler is given; it takes its own reference for each document it opens.
    let bytes: OpaquePointer

    /// Maps the whole of `descriptor`; nil when it cannot be read (errno set).
    public init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        length = Int(info.st_size)
        if length > 0 {
            guard let mapped = mmap(nil, length, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else { return nil }
            base = mapped
        } else {
            base = nil
        }
        bytes = g_bytes_new_static(base, gsize(length))
    }

    deinit {
        g_bytes_unref(bytes)
        if let base { munmap(base, length) }
    }

    /// Opens the document with `password` (NUL-terminated UTF-8, or nil); on failure `error`
    /// is set as poppler set it. The caller keeps this object alive as long as the document.
    public func open(password: UnsafePointer<CChar>?, error: UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> OpaquePointer? {
        let stream = g_memory_input_stream_new_from_bytes(bytes)
        defer { g_object_unref(stream) }
        return poppler_document_new_from_stream(stream, goffset(length), password, nil, error)
    }
}
