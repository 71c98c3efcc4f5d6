import Foundation
import Glibc
import PHRCore

/// The one place phr writes to the terminal: data to stdout, messages to stderr.
///
/// Messages follow one rule (after age's tui.go): `phr: error: <what failed, naming the file or
/// field>` then `phr: hint: <how to fix it>`; warnings as `phr: warning: ...`. Colour and
/// progress bars appear only when the stream is a terminal and NO_COLOR is unset.
enum Console {
    static let stdoutIsTTY = isatty(STDOUT_FILENO) == 1
    static let stderrIsTTY = isatty(STDERR_FILENO) == 1
    /// Colour on stderr (messages) and on stdout (listings, calendars, charts, highlights):
    /// only on a terminal, and never when NO_COLOR is set (no-color.org). Decided here only.
    static let colour = stderrIsTTY && ProcessEnvironment["NO_COLOR"] == nil
    static let stdoutColour = stdoutIsTTY && ProcessEnvironment["NO_COLOR"] == nil

    /// A line of data on stdout.
    static func out(_ line: String = "") {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// A message on stderr.
    static func message(_ line: String) {
        Progress.clearLine()
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    static func error(_ text: String, hint: String? = nil) {
        message(styled("phr: error:", code: "1;31") + " " + text)
        if let hint { message(styled("phr: hint:", code: "1;36") + " " + hint) }
    }

    static func warning(_ text: String) {
        message(styled("phr: warning:", code: "1;33") + " " + text)
    }

    static func note(_ text: String) {
        message("phr: " + text)
    }

    static func styled(_ text: String, code: String) -> String {
        colour ? "\u{1b}[\(code)m\(text)\u{1b}[0m" : text
    }

    /// Bold on a terminal (stdout), plain otherwise.
    static func bold(_ text: String) -> String {
        stdoutColour ? "\u{1b}[1m\(text)\u{1b}[0m" : text
    }

    /// Prints a value as JSON on stdout (sorted keys, one document).
    static func json<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }

    /// Human-readable byte counts (1000-based, like `ls -h --si`).
    static func bytes(_ count: Int64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(count)
        var unit = 0
        while value >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(count) B" : String(format: "%.1f %@", value, units[unit])
    }

    /// "14m 32s", "2h 5m", "45s".
    static func duration(_ seconds: TimeInterval) -> String {
        let total = max(0, Int(seconds.rounded()))
        let (h, m, s) = (total / 3600, (total % 3600) / 60, total % 60)
        if h > 0 { return m > 0 ? "\(h)h \(m)m" : "\(h)h" }
        if m > 0 { return s > 0 ? "\(m)m \(s)s" : "\(m)m" }
        return "\(s)s"
    }
}
