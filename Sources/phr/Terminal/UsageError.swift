import ArgumentParser
import Foundation
import PHRModel

/// Turns what ArgumentParser says about a bad command line into phr's one voice:
/// `phr: error: …`, then `phr: hint: …`, then the usage line, exit 64.
///
/// ArgumentParser's own text is `Error: …`, an optional `Help: <argument> <help>` line, the usage
/// line(s) and "See 'phr … --help' for more information."; the words are kept, the frame is
/// phr's.
enum UsageError {
    /// The lines to print on stderr for ArgumentParser's `fullMessage`.
    static func lines(fullMessage: String) -> (error: String, hint: String?, usage: [String]) {
        var error = ""
        var hint: String?
        var seeAlso: String?
        var usage: [String] = []
        var inUsage = false
        for line in fullMessage.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("Error: ") {
                error = String(line.dropFirst("Error: ".count))
                inUsage = false
            } else if line.hasPrefix("Help: ") {
                let text = line.dropFirst("Help: ".count).trimmingCharacters(in: .whitespaces)
                // "<amount>  How much: 250ml, …" reads as a hint once the argument is named.
                hint = text.split(separator: " ", maxSplits: 1).count == 2
                    ? "\(text.split(separator: " ", maxSplits: 1)[0]): \(text.split(separator: " ", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces))"
                    : text
                inUsage = false
            } else if line.hasPrefix("Usage: ") {
                usage.append(line)
                inUsage = true
            } else if line.trimmingCharacters(in: .whitespaces).hasPrefix("See '") {
                seeAlso = line.trimmingCharacters(in: .whitespaces)
                inUsage = false
            } else if inUsage, !line.trimmingCharacters(in: .whitespaces).isEmpty {
                usage.append(line)
            } else if error.isEmpty, !line.trimmingCharacters(in: .whitespaces).isEmpty {
                error = line.trimmingCharacters(in: .whitespaces)
            }
        }
        if hint == nil, let seeAlso {
            hint = seeAlso.prefix(1).lowercased() + seeAlso.dropFirst().replacingOccurrences(of: " for more information.", with: " for the options")
        }
        return (lowercasedFirst(error), hint, usage)
    }

    /// ArgumentParser starts its messages with a capital ("Missing expected argument"); phr's
    /// messages are lowercase. Option names and quoted words keep their case.
    static func lowercasedFirst(_ text: String) -> String {
        guard let first = text.first, first.isUppercase,
              text.dropFirst().first.map({ !$0.isUppercase }) ?? true else { return text }
        return first.lowercased() + text.dropFirst()
    }

    /// Prints the error for a command-line problem (its exit status is 64).
    static func say(_ fullMessage: String) {
        let (error, hint, usage) = lines(fullMessage: fullMessage)
        Console.error(error, hint: hint)
        for line in usage { Console.message(line) }
    }
}
