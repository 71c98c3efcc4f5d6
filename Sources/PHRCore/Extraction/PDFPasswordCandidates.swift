/// The byte strings to try, in order, as a PDF's password, from what the user typed.
///
/// Which bytes a PDF expects depends on its security handler revision, which the glib API does
/// not expose; so the worker tries each candidate until one opens the file:
/// 1. the SASLprep'd password as UTF-8, cut to 127 bytes: revisions 5 and 6 (AES-256; ISO
///    32000-2 section 7.6.4.3.3);
/// 2. the password in ISO 8859-1: revisions 2 to 4, whose passwords are PDFDocEncoding bytes
///    (Latin-1 for every character both share), which is also the conversion poppler applies;
/// 3. the bytes exactly as given: what some older writers did with non-Latin-1 passwords.
/// Duplicates are dropped, so an ASCII password is tried once. A password SASLprep rejects (a
/// control character, say) cannot belong to a conforming R6 file and skips step 1. Every
/// candidate is cut to 127 bytes: no revision reads more (R2 to R4 read 32).
enum PDFPasswordCandidates {
    static let maximumLength = 127

    static func make(from password: SecretBytes) -> [[UInt8]] {
        var raw = password.withUnsafeBytes { Array($0) }
        defer { wipe(&raw) }
        var candidates: [[UInt8]] = []
        func add(_ bytes: [UInt8]) {
            let candidate = Array(bytes.prefix(maximumLength))
            guard !candidate.contains(0), !candidates.contains(candidate) else { return }
            candidates.append(candidate)
        }
        if let text = String(validating: raw, as: UTF8.self) {
            if let prepared = try? SASLprep.prepare(text) {
                add(Array(prepared.utf8))
            }
            if text.unicodeScalars.allSatisfy({ $0.value <= 0xFF }) {
                add(text.unicodeScalars.map { UInt8($0.value) })
            }
        }
        add(raw)
        return candidates
    }
}
