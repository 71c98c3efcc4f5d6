import Foundation
import Glibc
import PHRService
import CPHRSystem

/// The one place phr writes to the terminal: data to stdout, messages to stderr.
///
/// Messages follow one rule (after age's tui.go): `phr: error: <what failed, naming the file or
/// field>` then `phr: hint: <how to fix it>`; warnings as `phr: warning: ...`. Colour and
/// progress bars appear only when the stream is a terminal and NO_COLOR is unset.
enum Console {
    /// This process's own streams.
    static let processStreams = ConsoleStreams(stdoutIsTTY: isatty(STDOUT_FILENO) == 1, stderrIsTTY: isatty(STDERR_FILENO) == 1,
                                               noColour: ProcessInfo.processInfo.environment["NO_COLOR"] != nil, columns: nil,
                                               captured: false)
    /// The streams of a command a `phr serve` agent answers for the CLI (bound for that command).
    @TaskLocal static var forwarded: ConsoleStreams?
    static var streams: ConsoleStreams { forwarded ?? processStreams }

    static var stdoutIsTTY: Bool { streams.stdoutIsTTY }
    static var stderrIsTTY: Bool { streams.stderrIsTTY }
    /// Colour on stderr (messages) and on stdout (listings, calendars, charts, highlights):
    /// only on a terminal, and never when NO_COLOR is set (no-color.org). Decided here only.
    static var colour: Bool { streams.colour }
    static var stdoutColour: Bool { streams.stdoutColour }

    /// A line of data on stdout.
    static func out(_ line: String = "") {
        writeOut(Data(((stdoutIsTTY ? forTerminal(line) : line) + "\n").utf8))
    }

    /// A message on stderr.
    static func message(_ line: String) {
        Progress.clearLine()
        writeErr(Data(((stderrIsTTY ? forTerminal(line) : line) + "\n").utf8))
    }

    // MARK: Text bound for a terminal

    /// The colour and weight sequences phr itself writes (Console.bold, styled, the calendar's
    /// reverse video, chart bars, search highlights). Only these pass `forTerminal`.
    static let ownSequences: Set<String> = ["\u{1b}[0m", "\u{1b}[1m", "\u{1b}[7m", "\u{1b}[32m", "\u{1b}[1;31m", "\u{1b}[1;33m",
                                            "\u{1b}[1;36m", "\u{1b}[K"]

    /// `text` made safe for a terminal (TerminalText.neutralized): no control character or
    /// escape sequence from a record reaches it raw; phr's own colour sequences pass.
    static func forTerminal(_ text: String) -> String {
        TerminalText.neutralized(text, keeping: ownSequences)
    }

    // MARK: Output that can fail

    /// The first failed write to stdout (its errno), or nil. After one failure stdout is left
    /// alone: the command finishes its work, and `exitStatusAfterRun` turns success into exit 74.
    static var stdoutFailure: Int32? { streams.stdoutFailure }
    /// Whether a write to stderr failed (nothing can be said about that, but the exit status can).
    static var stderrFailed: Bool { streams.stderrFailed }

    /// Bytes of data on stdout, with write(2) rather than FileHandle, whose `write(_:)` traps
    /// on any error (a full disk, a closed pipe, /dev/full).
    static func writeOut(_ data: Data) {
        let streams = streams
        guard streams.stdoutFailure == nil else { return }
        if streams.captured {
            streams.capture(.stdout, data)
            return
        }
        if let code = writeAll(STDOUT_FILENO, data) {
            streams.stdoutFailure = code
            error("cannot write to standard output: \(String(cString: strerror(code)).lowercased())",
                  hint: "check the disk or pipe phr's output goes to; what phr saved in the vault is kept")
        }
    }

    /// Bytes on stderr; a failure only marks the run as failed.
    static func writeErr(_ data: Data) {
        let streams = streams
        guard !streams.stderrFailed else { return }
        if streams.captured {
            streams.capture(.stderr, data)
            return
        }
        if writeAll(STDERR_FILENO, data) != nil { streams.stderrFailed = true }
    }

    /// Writes all of `data` to `descriptor`; returns errno on failure.
    private static func writeAll(_ descriptor: Int32, _ data: Data) -> Int32? {
        data.withUnsafeBytes { buffer -> Int32? in
            guard var base = buffer.baseAddress else { return nil }
            var left = buffer.count
            while left > 0 {
                let n = Glibc.write(descriptor, base, left)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                base += n
                left -= n
            }
            return nil
        }
    }

    /// The exit status of a command that ran to the end: 74 when its output could not be
    /// written, else `status`.
    static func exitStatusAfterRun(_ status: Int32 = 0) -> Int32 {
        guard status == 0 else { return status }
        return stdoutFailure != nil || stderrFailed ? ExitStatus.ioError.rawValue : 0
    }

    /// For output written through C stdio (ArgumentParser prints help, version and usage with
    /// `print`): flush it at exit and, if that fails, say so and exit 74 instead.
    static func checkStdioAtExit() {
        atexit {
            let code = phr_flush_stdout()
            if code != 0 {
                Console.error("cannot write to standard output: \(String(cString: strerror(code)).lowercased())")
                _exit(ExitStatus.ioError.rawValue)
            }
        }
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
    /// `value` as JSON on stdout; `oneLine` for a line a script reads as it comes (`phr serve`).
    static func json<T: Encodable>(_ value: T, oneLine: Bool = false) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = oneLine ? [.sortedKeys, .withoutEscapingSlashes] : [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.userInfo[Message.spellingKey] = CLISpelling()
        let data = try encoder.encode(value)
        writeOut(data + Data("\n".utf8))
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

/// Where one command's output goes and what kind of streams they are: the process's own, or
/// (`captured`) the buffers of a command a `phr serve` agent answers for the CLI, described by
/// the CLI's own streams so the output is the same bytes. One command uses one at a time.
final class ConsoleStreams: @unchecked Sendable {
    let stdoutIsTTY: Bool
    let stderrIsTTY: Bool
    let colour: Bool
    let stdoutColour: Bool
    /// The terminal's width when it was measured elsewhere (the CLI that forwarded the command).
    let columns: Int?
    let captured: Bool
    /// What a captured command wrote, stdout and stderr in the order it wrote them.
    private(set) var output: [AgentAnswer.Chunk] = []
    private var capturedBytes = 0
    /// More than `AgentSocket.answerLimit` was written: the agent declines, the CLI runs it.
    private(set) var overflowed = false
    var stdoutFailure: Int32?
    var stderrFailed = false
    /// Whether a progress bar is drawn on the current stderr line.
    var progressLineDirty = false

    func capture(_ stream: AgentAnswer.Stream, _ data: Data) {
        guard !overflowed else { return }
        capturedBytes += data.count
        guard capturedBytes <= AgentSocket.answerLimit else {
            overflowed = true
            output = []
            return
        }
        if let last = output.last, last.stream == stream {
            output[output.count - 1].bytes += data
        } else {
            output.append(AgentAnswer.Chunk(stream: stream, bytes: Array(data)))
        }
    }

    init(stdoutIsTTY: Bool, stderrIsTTY: Bool, noColour: Bool, columns: Int?, captured: Bool) {
        self.stdoutIsTTY = stdoutIsTTY
        self.stderrIsTTY = stderrIsTTY
        colour = stderrIsTTY && !noColour
        stdoutColour = stdoutIsTTY && !noColour
        self.columns = columns
        self.captured = captured
    }
}
