import Foundation
import Glibc

/// A one-line progress bar on stderr, drawn only when stderr is a terminal and redrawn at most
/// ten times a second. Silent in pipes, logs and tests.
final class Progress {
    private let label: String
    private var lastDraw = Date.distantPast
    private let enabled: Bool

    init(_ label: String, enabled: Bool = Console.stderrIsTTY) {
        self.label = label
        self.enabled = enabled
    }

    func update(done: Int64, total: Int64, detail: String = "") {
        guard enabled, total > 0 else { return }
        let now = Date()
        guard now.timeIntervalSince(lastDraw) >= 0.1 || done >= total else { return }
        lastDraw = now
        let width = 30
        let fraction = min(1, Double(done) / Double(total))
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let text = "\r" + Console.forTerminal("\(label) \(bar) \(Int(fraction * 100))% \(detail)")
        Console.writeErr(Data((text + "\u{1b}[K").utf8))
        Console.streams.progressLineDirty = true
    }

    func finish() {
        Progress.clearLine()
    }

    static func clearLine() {
        guard Console.streams.progressLineDirty else { return }
        Console.streams.progressLineDirty = false
        Console.writeErr(Data("\r\u{1b}[K".utf8))
    }
}
