import Foundation
import Glibc

/// The one check every command that writes a file makes first: the file must not be inside the
/// vault directory. An export over `vault.db` would destroy the vault, and any decrypted output
/// in the folder would sit in plaintext where everything else is encrypted (and be synced or
/// backed up with it).
extension VaultLocation {
    /// Throws `VaultError.outputInsideVault` if `path` resolves into this vault's directory:
    /// after following a symbolic link at the path itself (even one whose target does not exist
    /// yet) and the links of every existing parent, and, where the vault exists, by comparing
    /// device and inode of each existing ancestor with the vault directory's, so a bind mount
    /// or a second path to the same folder is caught as well. "-" (standard output) passes.
    public func refuseOutputInside(_ path: String, option: Field) throws {
        guard path != "-" else { return }
        let resolved = Self.resolvedOutput(path)
        if resolved == root || resolved.hasPrefix(root == "/" ? "/" : root + "/") {
            throw VaultError.outputInsideVault(option: option, path: path, vault: root)
        }
        var vaultInfo = stat()
        guard stat(root, &vaultInfo) == 0 else { return }
        var ancestor = resolved
        while true {
            var info = stat()
            if stat(ancestor, &info) == 0, info.st_dev == vaultInfo.st_dev, info.st_ino == vaultInfo.st_ino {
                throw VaultError.outputInsideVault(option: option, path: path, vault: root)
            }
            if ancestor == "/" || ancestor.isEmpty { return }
            ancestor = (ancestor as NSString).deletingLastPathComponent
        }
    }

    /// `path` made absolute, with a symbolic link at its last component followed (up to 40
    /// hops, as the kernel does) whether or not its target exists, then canonical.
    static func resolvedOutput(_ path: String) -> String {
        var current = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { break }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { break }
            let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = target.hasPrefix("/") ? target : (current as NSString).deletingLastPathComponent + "/" + target
        }
        return canonical(current)
    }
}
