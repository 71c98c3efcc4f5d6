import Foundation

/// Durations as people type them: `90s`, `15m`, `1h30m`, `2h`, `1d`, `1.5h`.
public enum DurationText {
    /// The longest duration read: ten years. Longer ones are typing mistakes, and keeping every
    /// result far below `Int.max` seconds lets callers convert and add without overflow.
    public static let maximumSeconds: TimeInterval = 10 * 366 * 86400

    /// Seconds, or nil if `text` is not a positive duration of at most `maximumSeconds`.
    public static func parse(_ text: String) -> TimeInterval? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604_800]
        var total = 0.0
        var number = ""
        var sawUnit = false
        for character in text.lowercased().filter({ !$0.isWhitespace }) {
            if character.isNumber || character == "." {
                number.append(character)
            } else if let unit = units[character], let value = Double(number) {
                total += value * unit
                number = ""
                sawUnit = true
            } else {
                return nil
            }
        }
        guard number.isEmpty, sawUnit, total > 0, total <= maximumSeconds else { return nil }
        return total
    }
}
