import Foundation
import Glibc

/// A hidden directory beside a vault in which `init` and `restore` assemble a vault before
/// renaming it into place, so an interrupted command never leaves half a vault at the path.
///
/// The creating process holds an exclusive flock on the directory while it works. One left by
/// a killed process (its lock free) is found by `sweep` (`phr check --repair`) and removed: it
/// holds only encrypted files, but can be hundreds of megabytes.
final class StagingDirectory {
    static let initPrefix = ".phr-init-"
    static let restorePrefix = ".phr-restore-"

    let path: String
    private var lock: FileLock?

    init(parent: String, prefix: String) throws {
        path = "\(parent)/\(prefix)\(try SecureRandom.bytes(6).hex)"
        try FileSystem.makePrivateDirectory(path)
        do {
            lock = try FileLock(path: path, mode: .exclusive)
        } catch {
            rmdir(path)
            throw error
        }
    }

    /// Gives the finished vault its name (the lock goes with the directory's inode).
    func rename(to destination: String) throws {
        try FileSystem.syncDirectory(path)
        TestPause.here(.staged)
        guard Glibc.rename(path, destination) == 0 else {
            throw POSIXIOError(operation: "rename", path: path, code: errno)
        }
        try FileSystem.syncDirectory((destination as NSString).deletingLastPathComponent)
        lock = nil
    }

    func remove() {
        FileSystem.removeTree(path)
        lock = nil
    }

    /// Staging directories in `parent` whose process is gone. With `remove`, they are removed.
    static func abandoned(in parent: String, remove: Bool) -> [String] {
        var found: [String] = []
        for name in FileSystem.contents(of: parent) where name.hasPrefix(initPrefix) || name.hasPrefix(restorePrefix) {
            let path = "\(parent)/\(name)"
            guard FileSystem.isDirectory(path), let lock = try? FileLock.attempt(path: path, mode: .exclusive) else { continue }
            found.append(path)
            if remove { FileSystem.removeTree(path) }
            withExtendedLifetime(lock) {}
        }
        return found
    }
}
