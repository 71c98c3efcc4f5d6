import Foundation
import Glibc
import PHRService

/// Record text from standard input instead of the command line, where every local user can
/// read it in /proc/PID/cmdline (SECURITY.md). In the commands that write record text, a
/// value given as `-` is read from standard input: `phr condition add - < diagnosis.txt`,
/// `phr med add Metformin --notes -`. One value per command can come from there.
///
/// This is done on the arguments before they are parsed, so every record command follows the
/// same rule without each option knowing about it.
enum RecordTextInput {
    /// Largest text read from standard input (as for passphrase files).
    static let limit = 64 << 10

    /// Commands (group and verb) whose `-` values are record text. `doc add` takes files as
    /// arguments and `log` entries amounts, so there only the text options read standard input.
    static let commands: Set<[String]> = [
        ["condition", "add"], ["condition", "edit"], ["allergy", "add"], ["allergy", "edit"],
        ["immunization", "add"], ["immunization", "edit"],
        ["procedure", "add"], ["procedure", "edit"], ["family", "add"], ["family", "edit"], ["med", "add"], ["med", "edit"], ["med", "take"],
        ["appt", "add"], ["appt", "edit"], ["contact", "add"], ["contact", "edit"], ["id", "set"],
        ["doc", "add"], ["doc", "edit"],
    ]
    static let documentTextOptions: Set<String> = ["--title", "--note", "--provider"]
    /// The options of those commands that take record text. A `-` after any of them is that
    /// option's value; any other `-` is the command's argument (the condition, the medicine...).
    static let textOptions: Set<String> = documentTextOptions.union([
        "--name", "--notes", "--reaction", "--substance", "--lot", "--vaccine", "--dose", "--form", "--prescriber",
        "--pharmacy", "--instructions", "--where", "--reason", "--with", "--relation", "--email", "--phone", "--body-site",
        "--performer", "--condition",
    ])

    /// `arguments` (without argv[0]) with a `-` record-text value replaced by standard input.
    static func substitute(_ arguments: [String], readInput: () throws -> String = readStandardInput) throws -> [String] {
        guard arguments.count >= 2 else { return arguments }
        // The health log's entries (`phr log water 250ml --note -`) take text in options only:
        // their argument is an amount.
        let optionsOnly = arguments[0] == "log" || (arguments[0] == "doc" && arguments[1] == "add")
        guard optionsOnly || commands.contains([arguments[0], arguments[1]]) else { return arguments }
        var positions: [Int] = []
        for index in 2..<arguments.count where arguments[index] == "-" {
            if arguments[index - 1] == "--" { break }
            if optionsOnly && !textOptions.contains(arguments[index - 1]) { continue }
            positions.append(index)
        }
        guard !positions.isEmpty else { return arguments }
        guard positions.count == 1 else {
            throw RecordError.invalidOption(option: Field.path("-"), reason: "only one value can be read from standard input",
                                            hint: "give the other values on the command line, or run the command once per value")
        }
        let position = positions[0]
        let text = try readInput()
        var result = arguments
        // Text may start with a dash, so it must never be read as an option: an option's value
        // goes in as --option=text, an argument after a closing "--".
        if textOptions.contains(arguments[position - 1]) {
            result[position - 1] = arguments[position - 1] + "=" + text
            result.remove(at: position)
        } else {
            result.remove(at: position)
            result += ["--", text]
        }
        return result
    }

    /// All of standard input as UTF-8 text, without one trailing line ending.
    static func readStandardInput() throws -> String {
        if isatty(STDIN_FILENO) == 1 { Console.note("reading the value given as - from the terminal; end it with Ctrl-D") }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 8192)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw POSIXIOError(operation: "read", path: "standard input", code: errno)
            }
            if n == 0 { break }
            bytes += chunk[0..<n]
            if bytes.count > limit {
                throw RecordError.invalidField(field: Field.path("standard input"), reason: "more than \(limit >> 10) KiB of text")
            }
        }
        guard var text = String(bytes: bytes, encoding: .utf8) else {
            throw RecordError.invalidField(field: Field.path("standard input"), reason: "not UTF-8 text")
        }
        if let last = text.last, last == "\n" || last == "\r\n" { text.removeLast() }
        return text
    }
}
