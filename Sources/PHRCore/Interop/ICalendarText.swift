import Foundation

/// RFC 5545 content lines (section 3.1): escaping TEXT values and parameter values, and folding
/// lines longer than 75 octets without splitting a UTF-8 character.
enum ICalendarText {
    /// A TEXT value (3.3.11): backslash, semicolon, comma and newline escaped.
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text.replacingOccurrences(of: "\r\n", with: "\n") {
            switch character {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n", "\r": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }

    /// The inverse of `escape`; an unknown escape keeps the character after the backslash.
    static func unescape(_ text: String) -> String {
        var out = ""
        var escaped = false
        for character in text {
            if escaped {
                out.append(character == "n" || character == "N" ? "\n" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                out.append(character)
            }
        }
        if escaped { out.append("\\") }
        return out
    }

    /// A parameter value (3.2): quoted when it holds ":", ";" or ","; a double quote, which no
    /// parameter value can hold, becomes a single one.
    static func parameter(_ value: String) -> String {
        let cleaned = value.replacingOccurrences(of: "\"", with: "'").replacingOccurrences(of: "\n", with: " ")
        return cleaned.contains(where: { ":;,".contains($0) }) ? "\"\(cleaned)\"" : cleaned
    }

    /// One content line, folded: at most 75 octets per physical line, continuation lines begun
    /// with a space, each ended by CRLF.
    static func line(_ name: String, _ value: String) -> String {
        line(name, [], value)
    }

    static func line(_ name: String, _ parameters: [(String, String)], _ value: String) -> String {
        var text = name
        for (key, parameterValue) in parameters { text += ";\(key)=\(parameter(parameterValue))" }
        text += ":" + value
        return fold(text)
    }

    static func fold(_ text: String) -> String {
        var out = ""
        var used = 0
        var limit = 75
        for character in text {
            let size = String(character).utf8.count
            if used + size > limit {
                out += "\r\n "
                used = 1
                limit = 75
            }
            out.append(character)
            used += size
        }
        return out + "\r\n"
    }

    /// "20261203T093000" (local) or with "Z" (UTC).
    static func dateTime(_ local: LocalDateTime, seconds: Int = 0, utc: Bool = false) -> String {
        String(format: "%04d%02d%02dT%02d%02d%02d", local.date.year, local.date.month, local.date.day, local.time.hour,
               local.time.minute, seconds) + (utc ? "Z" : "")
    }

    static func utc(_ instant: Date) -> String {
        let zone = TimeZone(identifier: "UTC")!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let second = calendar.component(.second, from: instant)
        return dateTime(LocalDateTime(instant, in: zone), seconds: second, utc: true)
    }

    static func date(_ day: CalendarDate) -> String {
        String(format: "%04d%02d%02d", day.year, day.month, day.day)
    }

    /// A DURATION (3.3.6) for a positive or negative number of minutes: "-PT1H30M", "P1D".
    static func duration(minutes: Int) -> String {
        let sign = minutes < 0 ? "-" : ""
        var rest = abs(minutes)
        var text = "P"
        if rest >= 1440 && rest % 1440 == 0 { return "\(sign)P\(rest / 1440)D" }
        if rest >= 1440 {
            text += "\(rest / 1440)D"
            rest %= 1440
        }
        text += "T"
        if rest >= 60 { text += "\(rest / 60)H" }
        if rest % 60 > 0 || rest == 0 { text += "\(rest % 60)M" }
        return sign + text
    }

    /// Parses a DURATION into seconds; nil for anything longer than `DurationText.maximumSeconds`
    /// (every step is checked, so "P99999999999999999W" is refused, not a trap).
    static func parseDuration(_ text: String) -> Int? {
        var rest = Substring(text.uppercased())
        var sign = 1
        if rest.hasPrefix("-") { sign = -1; rest = rest.dropFirst() } else if rest.hasPrefix("+") { rest = rest.dropFirst() }
        guard rest.hasPrefix("P") else { return nil }
        rest = rest.dropFirst()
        var total = 0
        var number = ""
        var inTime = false
        var sawUnit = false
        for character in rest {
            if character.isNumber { number.append(character); continue }
            if character == "T" { inTime = true; continue }
            guard number.count <= 12, let value = Int(number) else { return nil }
            number = ""
            let unit: Int
            switch (character, inTime) {
            case ("W", false): unit = 604_800
            case ("D", false): unit = 86400
            case ("H", true): unit = 3600
            case ("M", true): unit = 60
            case ("S", true): unit = 1
            default: return nil
            }
            let (seconds, overflow) = value.multipliedReportingOverflow(by: unit)
            guard !overflow, seconds <= Int(DurationText.maximumSeconds) - total else { return nil }
            total += seconds
            sawUnit = true
        }
        return number.isEmpty && sawUnit ? sign * total : nil
    }
}
