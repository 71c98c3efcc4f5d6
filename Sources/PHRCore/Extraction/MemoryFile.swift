import Glibc

/// An anonymous file in memory (memfd_create(2)), for handing a worker content decrypted from the
/// vault: it has no path, never touches a disk, and a worker reads it through the descriptor like
/// any other PDF.
///
/// Swift's Glibc module does not export memfd_create (a GNU extension), so it is looked up once
/// with dlsym; it has a plain, non-variadic C signature.
/// https://man7.org/linux/man-pages/man2/memfd_create.2.html
public enum MemoryFile {
    private typealias Create = @convention(c) (UnsafePointer<CChar>, UInt32) -> Int32
    private static let closeOnExec: UInt32 = 1  // MFD_CLOEXEC

    private static let create: Create? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "memfd_create") else { return nil }  // RTLD_DEFAULT
        return unsafeBitCast(symbol, to: Create.self)
    }()

    /// A new empty, close-on-exec memory file open for reading and writing. `label` shows in
    /// /proc/PID/fd and must not name the document.
    public static func make(label: String = "phr-document") throws -> FileDescriptor {
        guard let create else {
            throw POSIXIOError(operation: "create", path: "memfd:\(label)", code: ENOSYS)
        }
        let descriptor = create(label, closeOnExec)
        guard descriptor >= 0 else {
            throw POSIXIOError(operation: "create", path: "memfd:\(label)", code: errno)
        }
        return FileDescriptor(fd: descriptor, path: "memfd:\(label)")
    }
}
