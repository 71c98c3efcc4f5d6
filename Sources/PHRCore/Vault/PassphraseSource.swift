import Foundation
import Glibc

/// Non-interactive passphrase sources, in restic's order of preference: `PHR_PASSPHRASE_FILE`,
/// `PHR_PASSPHRASE_COMMAND`, then `PHR_PASSPHRASE`. Passphrases never come from argv, where any
/// user could read them in /proc.
public enum PassphraseSource {
    /// The passphrase from the environment, or nil if no source is set.
    public static func current(environment: [String: String]) throws -> SecretBytes? {
        if let path = environment["PHR_PASSPHRASE_FILE"], !path.isEmpty {
            return try fromFile(path, variable: "PHR_PASSPHRASE_FILE")
        }
        if let command = environment["PHR_PASSPHRASE_COMMAND"], !command.isEmpty {
            return try fromCommand(command)
        }
        if let value = environment["PHR_PASSPHRASE"], !value.isEmpty {
            return SecretBytes(copying: Array(value.utf8))
        }
        return nil
    }

    /// The new passphrase for `phr passwd` from `PHR_NEW_PASSPHRASE_FILE`, or nil.
    public static func new(environment: [String: String]) throws -> SecretBytes? {
        guard let path = environment["PHR_NEW_PASSPHRASE_FILE"], !path.isEmpty else { return nil }
        return try fromFile(path, variable: "PHR_NEW_PASSPHRASE_FILE")
    }

    /// The first line of a file (without its line ending), like restic's --password-file.
    public static func fromFile(_ path: String, variable: String) throws -> SecretBytes {
        var bytes: [UInt8]
        do {
            bytes = try FileDescriptor.openForReading(path).readToEnd(limit: 64 << 10)
        } catch let error as POSIXIOError {
            throw VaultError.passphraseSource("cannot read \(variable) (\(path)): \(String(cString: strerror(error.code)).lowercased())")
        }
        defer { wipe(&bytes) }
        return try firstLine(of: bytes, source: "\(variable) (\(path))")
    }

    /// Runs `command` with /bin/sh and takes the first line of its standard output.
    public static func fromCommand(_ command: String) throws -> SecretBytes {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw VaultError.passphraseSource("cannot run PHR_PASSPHRASE_COMMAND")
        }
        var bytes = [UInt8](output.fileHandleForReading.readDataToEndOfFile())
        defer { wipe(&bytes) }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw VaultError.passphraseSource("PHR_PASSPHRASE_COMMAND failed with exit status \(process.terminationStatus)")
        }
        return try firstLine(of: bytes, source: "PHR_PASSPHRASE_COMMAND")
    }

    static func firstLine(of bytes: [UInt8], source: String) throws -> SecretBytes {
        var end = bytes.firstIndex(of: 0x0a) ?? bytes.count
        if end > 0 && bytes[end - 1] == 0x0d { end -= 1 }
        guard end > 0 else { throw VaultError.passphraseSource("\(source) gave an empty passphrase") }
        return SecretBytes(copying: bytes[0..<end])
    }
}
