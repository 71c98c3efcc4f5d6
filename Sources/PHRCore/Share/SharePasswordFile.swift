import Foundation
import Glibc

/// `--password-file F`: the bundle password is the first line of F, without its line ending,
/// as restic and phr's own PHR_PASSPHRASE_FILE read theirs. Passwords never come from argv,
/// where other users could read them in /proc.
public enum SharePasswordFile {
    public static func read(_ path: String) throws -> SecretBytes {
        var bytes: [UInt8]
        do {
            bytes = try FileDescriptor.openForReading(path).readToEnd(limit: 64 << 10)
        } catch let error as POSIXIOError {
            throw ShareError.passwordFile(path: path, reason: String(cString: strerror(error.code)).lowercased(), code: error.code)
        }
        defer { wipe(&bytes) }
        var end = bytes.firstIndex(of: 0x0a) ?? bytes.count
        if end > 0, bytes[end - 1] == 0x0d { end -= 1 }
        guard end > 0 else { throw ShareError.passwordFile(path: path, reason: "the first line is empty", code: nil) }
        return SecretBytes(copying: bytes[0..<end])
    }
}
