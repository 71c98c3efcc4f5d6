import Foundation
import Glibc

/// A file written beside its destination and moved into place only when complete, mode 0600,
/// as every phr export is: a failed or interrupted write never leaves a partial file under the
/// destination's name.
///
/// Without `replace`, the final step is link(2), which fails if the destination appeared in
/// the meantime; with it, rename(2), which replaces it atomically.
final class OutputFile {
    let destination: String
    private let temporary: String
    private let file: FileDescriptor
    private let replace: Bool
    private var finished = false

    init(destination: String, replace: Bool) throws {
        if !replace, FileSystem.exists(destination) { throw ShareError.exists(path: destination) }
        let directory = (destination as NSString).deletingLastPathComponent
        let name = (destination as NSString).lastPathComponent
        self.destination = destination
        self.replace = replace
        temporary = "\(directory.isEmpty ? "." : directory)/.\(name).phr-\(try SecureRandom.bytes(4).hex)"
        do {
            file = try FileDescriptor.createExclusive(temporary, mode: 0o600)
        } catch let error as POSIXIOError {
            // The temporary name means nothing to the user; the destination does.
            throw POSIXIOError(operation: "create", path: destination, code: error.code)
        }
    }

    deinit { if !finished { abandon() } }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        do {
            try file.write(bytes)
        } catch let error as POSIXIOError {
            throw POSIXIOError(operation: error.operation, path: destination, code: error.code)
        }
    }

    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Flushes the file to disk and gives it its name.
    func commit() throws {
        defer { finished = true }
        do {
            try file.sync()
            try file.close()
            if replace {
                guard rename(temporary, destination) == 0 else { throw POSIXIOError(operation: "rename", path: destination, code: errno) }
            } else {
                guard link(temporary, destination) == 0 else {
                    let code = errno
                    if code == EEXIST { throw ShareError.exists(path: destination) }
                    throw POSIXIOError(operation: "create", path: destination, code: code)
                }
                unlink(temporary)
            }
            let directory = (destination as NSString).deletingLastPathComponent
            try FileSystem.syncDirectory(directory.isEmpty ? "." : directory)
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Removes the temporary file.
    func abandon() {
        guard !finished else { return }
        finished = true
        try? file.close()
        unlink(temporary)
    }

    /// Writes `bytes` to `destination` in one go.
    static func write(_ bytes: [UInt8], to destination: String, replace: Bool) throws {
        let output = try OutputFile(destination: destination, replace: replace)
        do {
            try output.write(bytes)
            try output.commit()
        } catch {
            output.abandon()
            throw error
        }
    }
}
