import Foundation
import Glibc

/// A path as the bytes the file system knows it by. Linux file names are bytes, not text: a
/// name that is not UTF-8 (from an old camera, a Windows share, a zip) must still be opened, and
/// a path longer than PATH_MAX (4096 bytes) must still be reachable.
public struct InputPath: Sendable, Hashable, Comparable {
    public let bytes: [UInt8]

    public init(_ string: String) {
        bytes = Array(string.utf8)
    }

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    public static func < (lhs: InputPath, rhs: InputPath) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }

    /// The path as text when it is valid UTF-8 without control characters, else nil.
    public var string: String? {
        guard let text = String(validating: bytes, as: UTF8.self), !text.unicodeScalars.contains(where: Self.isControl) else { return nil }
        return text
    }

    /// The path for messages: UTF-8 as it is; bytes that are not UTF-8 and control characters
    /// (which could move a terminal's cursor or change its colours) as `\xNN`.
    public var display: String {
        var out = ""
        var index = 0
        while index < bytes.count {
            let length = Self.sequenceLength(bytes, at: index)
            if length > 0, let text = String(validating: bytes[index..<index + length], as: UTF8.self),
               let scalar = text.unicodeScalars.first, !Self.isControl(scalar) {
                out += text
                index += length
            } else {
                out += String(format: "\\x%02X", bytes[index])
                index += 1
            }
        }
        return out
    }

    /// The last path component, as bytes.
    public var lastComponent: [UInt8] {
        let trimmed = bytes.last == UInt8(ascii: "/") && bytes.count > 1 ? Array(bytes.dropLast()) : bytes
        guard let slash = trimmed.lastIndex(of: UInt8(ascii: "/")) else { return trimmed }
        return Array(trimmed[(slash + 1)...])
    }

    public func appending(_ name: [UInt8]) -> InputPath {
        InputPath(bytes: bytes.last == UInt8(ascii: "/") ? bytes + name : bytes + [UInt8(ascii: "/")] + name)
    }

    /// open(2) of this path; -1 with errno on failure. A path longer than PATH_MAX is opened one
    /// directory at a time (openat), which the kernel allows.
    public func open(_ flags: Int32) -> Int32 {
        if bytes.count < Int(PATH_MAX) {
            return withCString { Glibc.open($0, flags | O_CLOEXEC) }
        }
        var components = bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).map(Array.init)
        guard let last = components.popLast() else { errno = ENOENT; return -1 }
        var directory = bytes.first == UInt8(ascii: "/") ? Glibc.open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                                                        : Glibc.open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { return -1 }
        for component in components {
            let next = Self.withCString(component) { openat(directory, $0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
            let code = errno
            Glibc.close(directory)
            guard next >= 0 else { errno = code; return -1 }
            directory = next
        }
        let fd = Self.withCString(last) { openat(directory, $0, flags | O_CLOEXEC) }
        let code = errno
        Glibc.close(directory)
        errno = code
        return fd
    }

    /// lstat(2) of this path (through the parent directory when it is longer than PATH_MAX).
    public func linkStatus() -> stat? {
        var info = stat()
        if bytes.count < Int(PATH_MAX) {
            return withCString { lstat($0, &info) } == 0 ? info : nil
        }
        var trimmed = bytes
        while trimmed.count > 1 && trimmed.last == UInt8(ascii: "/") { trimmed.removeLast() }
        guard trimmed.count == bytes.count else { return InputPath(bytes: trimmed).linkStatus() }
        let parentBytes = Array(bytes.dropLast(lastComponent.count))
        let parent = InputPath(bytes: parentBytes.isEmpty ? Array(".".utf8) : parentBytes).open(O_RDONLY | O_DIRECTORY)
        guard parent >= 0 else { return nil }
        defer { Glibc.close(parent) }
        return Self.withCString(lastComponent) { fstatat(parent, $0, &info, AT_SYMLINK_NOFOLLOW) } == 0 ? info : nil
    }

    func withCString<Result>(_ body: (UnsafePointer<CChar>) -> Result) -> Result {
        Self.withCString(bytes, body)
    }

    /// `bytes` as a NUL-terminated C string for `body` (a file name for openat(2), fstatat(2)).
    public static func withCString<Result>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        (bytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { body($0) }
        }
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// The length of the UTF-8 sequence starting at `index` by its lead byte (0 if not a lead byte).
    private static func sequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let lead = bytes[index]
        let length: Int
        switch lead {
        case 0x00...0x7F: length = 1
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return 0
        }
        return index + length <= bytes.count ? length : 0
    }
}
