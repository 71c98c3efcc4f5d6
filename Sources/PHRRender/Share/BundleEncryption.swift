import CPHRQPDF
import Foundation
import PHRModel

/// Encrypts a PDF held in memory with AES-256 under the PDF 2.0 security handler (revision 6),
/// through libqpdf's C API, returning the encrypted file in memory: the plaintext never reaches
/// a disk.
///
/// The password is prepared with SASLprep and must be at most 127 bytes of UTF-8, as ISO
/// 32000-2 section 7.6.4.3.3 requires, so the file opens with the same text in every reader.
/// Every permission is granted (printing, copying, editing): the password keeps strangers out;
/// it does not restrict the clinician it was given to. qpdf writes the header the R6 handler
/// needs (PDF 1.7, Adobe extension level 8) and packs objects into object streams.
/// https://qpdf.readthedocs.io/en/stable/design.html#c-api
enum BundleEncryption {
    /// `pdf` encrypted under `password` (from `preparedPassword`).
    static func encrypt(_ pdf: [UInt8], password: String) throws -> [UInt8] {
        var handle: qpdf_data? = qpdf_init()
        guard let qpdf = handle else { throw ShareError.encryption(reason: "qpdf could not start") }
        defer { qpdf_cleanup(&handle) }
        // Errors are read through qpdf_get_error; qpdf would otherwise also print them.
        qpdf_silence_errors(qpdf)
        qpdf_set_suppress_warnings(qpdf, 1)
        return try pdf.withUnsafeBytes { buffer in
            let status = buffer.withMemoryRebound(to: CChar.self) { characters in
                qpdf_read_memory(qpdf, "bundle", characters.baseAddress, UInt64(characters.count), nil)
            }
            try check(status, qpdf)
            try check(qpdf_init_write_memory(qpdf), qpdf)
            password.withCString { secret in
                qpdf_set_r6_encryption_parameters2(qpdf, secret, secret, 1, 1, 1, 1, 1, 1, qpdf_r3p_full, 1)
            }
            qpdf_set_object_stream_mode(qpdf, qpdf_o_generate)
            try check(qpdf_write(qpdf), qpdf)
            guard let output = qpdf_get_buffer(qpdf) else { throw ShareError.encryption(reason: "qpdf produced no output") }
            return Array(UnsafeBufferPointer(start: output, count: Int(qpdf_get_buffer_length(qpdf))))
        }
    }

    /// Throws qpdf's own message when `status` has the error bit (warnings are not errors).
    private static func check(_ status: QPDF_ERROR_CODE, _ qpdf: qpdf_data) throws {
        guard status & QPDF_ERRORS != 0 || qpdf_has_error(qpdf) != 0 else { return }
        let message = qpdf_get_error(qpdf).map { String(cString: qpdf_get_error_full_text(qpdf, $0)) } ?? "unknown error"
        throw ShareError.encryption(reason: message.lowercased())
    }
}
