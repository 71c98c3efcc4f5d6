import Foundation

/// The command line of a sample generator: `--help` prints its usage, anything it does not take
/// is said in one line with the usage and exit status 64, never a crash.
public struct ToolArguments {
    private var rest: ArraySlice<String>
    private let usage: String

    public init(_ arguments: [String] = CommandLine.arguments, usage: String) {
        rest = arguments.dropFirst()
        self.usage = usage
    }

    /// The next option, or nil at the end; `--help` and `-h` print the usage and exit 0.
    public mutating func next() -> String? {
        guard let argument = rest.popFirst() else { return nil }
        if argument == "--help" || argument == "-h" {
            print(usage)
            exit(0)
        }
        return argument
    }

    /// The value after `option`.
    public mutating func value(of option: String) -> String {
        guard let value = rest.popFirst() else { fail("\(option) needs a value") }
        return value
    }

    /// The value after `option` as a whole number.
    public mutating func number(of option: String) -> Int {
        let text = value(of: option)
        guard let number = Int(text), number >= 0 else { fail("\(option): '\(text)' is not a whole number") }
        return number
    }

    public func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("\((CommandLine.arguments.first as NSString?)?.lastPathComponent ?? "tool"): error: \(message)\n\(usage)\n".utf8))
        exit(64)
    }
}
