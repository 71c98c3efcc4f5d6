import CPHROpenSSL
import Glibc

/// Key material and other secrets, kept in locked memory and wiped when released.
///
/// Swift arrays may be copied or moved by the runtime, leaving stray copies; secrets that live
/// longer than a call are held here instead: one `mlock`ed allocation, never copied, cleansed with
/// `OPENSSL_cleanse` in `deinit`. Instances are immutable after creation and therefore `Sendable`.
public final class SecretBytes: @unchecked Sendable {
    public let count: Int
    private let pointer: UnsafeMutableRawPointer
    private let locked: Bool

    /// Allocates `count` zeroed bytes, fills them with `fill`, and seals them.
    public init(count: Int, fill: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        // Work on locals: if `fill` throws, no stored property is set yet, so deinit does not
        // run and the memory is freed exactly once, here.
        let size = max(count, 1)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        // Keep it out of swap; failure (RLIMIT_MEMLOCK) is tolerated, core dumps are off anyway.
        let isLocked = mlock(memory, size) == 0
        do {
            try fill(UnsafeMutableRawBufferPointer(start: memory, count: count))
        } catch {
            OPENSSL_cleanse(memory, size)
            if isLocked { munlock(memory, size) }
            memory.deallocate()
            throw error
        }
        self.count = count
        pointer = memory
        locked = isLocked
    }

    /// Copies `bytes` into a new secret. The caller remains responsible for wiping its copy.
    public convenience init<C: Collection>(copying bytes: C) where C.Element == UInt8 {
        self.init(count: bytes.count) { buffer in
            _ = buffer.initializeMemory(as: UInt8.self, from: bytes)
        }
    }

    /// `count` bytes from the system CSPRNG.
    public static func random(count: Int) throws -> SecretBytes {
        try SecretBytes(count: count) { buffer in
            try SecureRandom.fill(buffer)
        }
    }

    deinit {
        OPENSSL_cleanse(pointer, max(count, 1))
        if locked { munlock(pointer, max(count, 1)) }
        pointer.deallocate()
    }

    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// Constant-time comparison.
    public func isEqual(to other: SecretBytes) -> Bool {
        count == other.count && CRYPTO_memcmp(pointer, other.pointer, count) == 0
    }
}
