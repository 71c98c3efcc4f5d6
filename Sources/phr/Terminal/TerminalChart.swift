import Foundation

/// Horizontal bar charts in the terminal with Unicode block elements, one row per day:
///
/// ```
/// Mon 03-09  ████████████████▌        ┆     1.45 L
/// Tue 03-10  ██████████████████████████▍    2.3 L ✓
///                                     ┆ goal 2 L
/// ```
/// Bars are drawn in eighths of a cell (▏▎▍▌▋▊▉█). The goal is a dashed vertical line (┆)
/// at its value, visible wherever a bar does not cover it; rows that met the goal end in ✓
/// and, on a colour terminal, their bars are green.
enum TerminalChart {
    struct Row {
        var label: String
        var value: Double
        /// The value as text ("1.45 L", "—" for nothing logged).
        var text: String
        var met: Bool?
    }

    static let eighths = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    /// The chart's lines: `width` cells of bar, the goal line at `goal` when given.
    static func lines(_ rows: [Row], goal: Double?, goalText: String?, width: Int = 30, colour: Bool) -> [String] {
        let top = max(rows.map(\.value).max() ?? 0, goal ?? 0)
        let scale = top > 0 ? Double(width) / top : 0
        let goalColumn = goal.map { min(width, Int(($0 * scale).rounded())) }
        let labelWidth = rows.map { Table.displayWidth($0.label) }.max() ?? 0
        let textWidth = rows.map { Table.displayWidth($0.text) }.max() ?? 0
        var result: [String] = []
        for row in rows {
            let eighthsTotal = Int((row.value * scale * 8).rounded())
            let full = eighthsTotal / 8
            let partial = eighthsTotal % 8
            var cells: [String] = Array(repeating: " ", count: width + 1)
            for index in 0..<min(full, width + 1) { cells[index] = "█" }
            if partial > 0 && full <= width { cells[full] = eighths[partial] }
            let covered = full + (partial > 0 ? 1 : 0)
            if let goalColumn, goalColumn >= covered { cells[goalColumn] = "┆" }
            var bar = cells.joined()
            while bar.hasSuffix(" ") { bar.removeLast() }
            let barWidth = Table.displayWidth(bar)
            if colour && row.met == true { bar = "\u{1b}[32m" + bar + "\u{1b}[0m" }
            let pad = String(repeating: " ", count: max(0, width + 2 - barWidth))
            let text = String(repeating: " ", count: max(0, textWidth - Table.displayWidth(row.text))) + row.text
            let label = row.label + String(repeating: " ", count: labelWidth - Table.displayWidth(row.label))
            result.append("\(label)  \(bar)\(pad)\(text)\(row.met == true ? " ✓" : "")")
        }
        if let goalColumn, let goalText {
            result.append(String(repeating: " ", count: labelWidth + 2 + goalColumn) + "┆ goal \(goalText)")
        }
        return result
    }
}
