import Foundation

/// Durations as people type them: `90s`, `15m`, `1h30m`, `2h`, `1d`, `1.5h`.
public enum DurationText {
    /// Seconds, or nil if `text` is not a positive duration.
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
        guard number.isEmpty, sawUnit, total > 0 else { return nil }
        return total
    }
}
