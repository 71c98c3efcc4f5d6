import Foundation
import Glibc

/// Plain-text tables for listings: columns padded to their widest cell, the last column cut to
/// the terminal's width on a TTY (never in pipes, where scripts want whole values).
enum Table {
    static func print(header: [String], rows: [[String]]) {
        let all = [header] + rows
        let columns = header.count
        var widths = (0..<columns).map { column in all.map { displayWidth($0[column]) }.max() ?? 0 }
        if Console.stdoutIsTTY, let terminal = terminalWidth() {
            let fixed = widths.dropLast().reduce(0) { $0 + $1 + 2 }
            widths[columns - 1] = max(10, min(widths[columns - 1], terminal - fixed))
        }
        for (index, row) in all.enumerated() {
            var line = ""
            for column in 0..<columns {
                var cell = row[column]
                if column == columns - 1 {
                    if Console.stdoutIsTTY { cell = truncate(cell, to: widths[column]) }
                    line += cell
                } else {
                    line += cell + String(repeating: " ", count: widths[column] - displayWidth(cell) + 2)
                }
            }
            Console.out(index == 0 ? Console.bold(line) : line)
        }
    }

    static func terminalWidth() -> Int? {
        if let forwarded = Console.forwarded { return forwarded.columns }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Columns a string takes in a terminal: East Asian wide characters take two.
    static func displayWidth(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { width, scalar in
            if scalar.properties.generalCategory == .nonspacingMark || scalar.value == 0x200B { return width }
            return width + (isWide(scalar) ? 2 : 1)
        }
    }

    static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
             0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    static func truncate(_ text: String, to width: Int) -> String {
        guard displayWidth(text) > width else { return text }
        var result = ""
        var used = 0
        for character in text {
            let w = displayWidth(String(character))
            if used + w > width - 1 { break }
            result.append(character)
            used += w
        }
        return result + "…"
    }
}
