import Foundation

/// The password of an encrypted share bundle, checked and prepared in the parent before the
/// vault is touched; PHRRender's `BundleEncryption` encrypts with it.
///
/// The password is prepared with SASLprep and must be at most 127 bytes of UTF-8, as ISO
/// 32000-2 section 7.6.4.3.3 requires, so the file opens with the same text in every reader.
package enum BundlePassword {
    /// The longest password PDF's AES-256 handler uses; longer ones are cut there by readers.
    package static let maximumPasswordBytes = 127

    /// The password as the security handler stores it, or an error naming what is wrong.
    package static func prepared(_ password: SecretBytes, path: String) throws -> String {
        let text: String? = password.withUnsafeBytes { String(validating: $0, as: UTF8.self) }
        guard let text else { throw ShareError.passwordFile(path: path, reason: "the password is not UTF-8 text", code: nil) }
        let prepared: String
        do {
            prepared = try SASLprep.prepare(text, storedString: true)
        } catch {
            throw ShareError.passwordFile(path: path, reason: "the password has characters a PDF password cannot have", code: nil)
        }
        guard !prepared.isEmpty else { throw ShareError.passwordFile(path: path, reason: "the password is empty", code: nil) }
        let bytes = Array(prepared.utf8)
        guard bytes.count <= maximumPasswordBytes else {
            throw ShareError.passwordFile(path: path, reason: "the password is longer than \(maximumPasswordBytes) bytes", code: nil)
        }
        guard !bytes.contains(0) else { throw ShareError.passwordFile(path: path, reason: "the password contains a NUL byte", code: nil) }
        return prepared
    }
}
