import Foundation
import PHRModel

/// The command line as the bytes the kernel passed. ArgumentParser sees arguments as Swift
/// strings, which replace bytes that are not UTF-8 with U+FFFD: a file name in another encoding
/// would then name no file, or the wrong one. Paths are taken back from here.
enum RawArguments {
    /// Every argument after the program name, as bytes.
    static let all: [[UInt8]] = (1..<Int(CommandLine.argc)).compactMap { index in
        guard let pointer = CommandLine.unsafeArgv[index] else { return nil }
        return Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self),
                                         count: strlen(pointer)))
    }

    /// Whether `argument` came from bytes that are not UTF-8.
    static func isLossy(_ argument: String) -> Bool {
        argument.unicodeScalars.contains("\u{FFFD}") && all.contains { bytes in
            String(validating: bytes, as: UTF8.self) == nil && String(decoding: bytes, as: UTF8.self) == argument
        }
    }

    /// The paths as given: each argument's own bytes when it was not UTF-8 (matched in order, so
    /// two different names that decode alike stay apart).
    static func paths(_ arguments: [String]) -> [InputPath] {
        var unused = all.filter { String(validating: $0, as: UTF8.self) == nil }
        return arguments.map { argument in
            guard argument.unicodeScalars.contains("\u{FFFD}"),
                  let match = unused.firstIndex(where: { String(decoding: $0, as: UTF8.self) == argument }) else {
                return InputPath(argument)
            }
            return InputPath(bytes: unused.remove(at: match))
        }
    }
}
