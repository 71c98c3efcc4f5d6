import Foundation

/// Validation of record fields, shared by the commands (where `field` is the option, like
/// `--schedule`) and the importers (where it is the entry's path, like `medications[2].dose`).
///
/// Every function returns the normalised value or throws `RecordError.invalidField`, whose
/// message repeats only what was typed in that one field and says what would be accepted.
public enum RecordFields {
    /// Longest free text kept in one field (notes, instructions, a text result): a long
    /// discharge note fits, a file pasted by mistake does not.
    public static let maximumTextLength = 20_000
    /// Longest name of a record (a condition, medication, substance, vaccine, observation, the
    /// person an appointment is with): coded names such as SNOMED CT's run to a few hundred.
    public static let maximumNameLength = 1000
    /// Longest short field (a dose, form, lot, relation, place, reason): the default of `text`.
    public static let maximumLabelLength = 300

    /// Trimmed, non-empty text of at most `limit` characters. A name or label is one line:
    /// its line breaks and tabs become spaces (a coded display or a PDF title wrapped by its
    /// source would otherwise break every listing it appears in). `multiline` text (notes,
    /// instructions) keeps its lines, written with LF (CRLF and a lone CR, as Windows and old
    /// Mac files and some FHIR servers send them).
    public static func text(_ value: String, field: Field, limit: Int = maximumLabelLength, multiline: Bool = false) throws -> String {
        let normalized = lineEndingsNormalized(value)
        let trimmed = (multiline ? normalized : oneLine(normalized)).trimmingWhitespaceAndNewlines()
        guard !trimmed.isEmpty else { throw RecordError.invalidField(field: field, reason: "cannot be empty") }
        guard trimmed.count <= limit else { throw RecordError.invalidField(field: field, reason: "at most \(limit) characters") }
        try refuseControlCharacters(trimmed, field: field)
        return trimmed
    }

    /// `text` on one line: each run of spaces holding a line break or a tab becomes one space.
    public static func oneLine(_ text: String) -> String {
        guard text.contains(where: { $0 == "\n" || $0 == "\t" || $0 == "\r" || $0 == "\r\n" || $0 == "\u{2028}" || $0 == "\u{2029}" }) else {
            return text
        }
        return text.split(whereSeparator: { $0 == "\n" || $0 == "\t" || $0 == "\r" || $0 == "\r\n" || $0 == "\u{2028}" || $0 == "\u{2029}" })
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .joined(separator: " ")
    }

    /// `text` with CRLF and CR turned into LF. "\r\n" is one Character in Swift, so this works
    /// on scalars.
    public static func lineEndingsNormalized(_ text: String) -> String {
        guard text.unicodeScalars.contains("\r") else { return text }
        var scalars = String.UnicodeScalarView()
        var previousCR = false
        for scalar in text.unicodeScalars {
            if scalar == "\r" {
                scalars.append("\n")
                previousCR = true
                continue
            }
            if !(scalar == "\n" && previousCR) { scalars.append(scalar) }
            previousCR = false
        }
        return String(scalars)
    }

    // MARK: Control characters

    /// The one rule for text phr keeps: no C0 or C1 control characters (the ESC of a terminal
    /// escape sequence, a bare carriage return, a bell...), except a newline, a tab and the
    /// carriage return of a CRLF line ending. Typed options, documents and every importer end
    /// up here, directly or through `refuseControlCharacters(inStringsOf:)` when rows are written.
    public static func refuseControlCharacters(_ value: String, field: Field) throws {
        if containsControlCharacters(value) {
            throw RecordError.invalidField(field: field, reason: "contains control characters (such as a terminal escape sequence)")
        }
    }

    /// Read from the UTF-8 bytes: Unicode's control characters (general category Cc) are
    /// exactly U+0000-U+001F and U+007F-U+009F, which UTF-8 writes as one byte below 0x20, 0x7F,
    /// or 0xC2 followed by 0x80-0x9F (0xC2 is never a continuation byte). Every field of every
    /// imported record passes through here; asking each scalar for its general category was a
    /// twentieth of a C-CDA import.
    public static func containsControlCharacters(_ value: String) -> Bool {
        var previous: UInt8 = 0
        for byte in value.utf8 {
            if previous == 0x0D && byte != 0x0A { return true }
            if byte < 0x20 {
                if byte != 0x0A && byte != 0x09 && byte != 0x0D { return true }
            } else if byte == 0x7F || (previous == 0xC2 && byte >= 0x80 && byte <= 0x9F) {
                return true
            }
            previous = byte
        }
        return previous == 0x0D
    }

    /// `value` with each control character (other than newline and tab) replaced by U+FFFD:
    /// for text phr takes from a file rather than from a person (a file name made a title, a
    /// PDF's own title), where refusing would refuse the document.
    public static func replacingControlCharacters(_ value: String) -> String {
        guard containsControlCharacters(value) else { return value }
        var result = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            let control = scalar.properties.generalCategory == .control && scalar != "\n" && scalar != "\t"
            result.append(control ? "\u{FFFD}" : scalar)
        }
        return String(result)
    }

    /// Applies `refuseControlCharacters` to every string inside `record` (its fields, optional
    /// fields, arrays and nested values such as codings), naming the first bad one by its path,
    /// like `codes[0].display`. The record stores call this before writing a row, so the rule
    /// holds however the record was made: a command, an edit, or any importer. The strings are
    /// found by `RecordText`, which words a path only for a string that fails.
    public static func refuseControlCharacters(inStringsOf record: Any, field: Field = Field.path("")) throws {
        try RecordText.forEach(in: record, path: field.name) { text, path in
            guard containsControlCharacters(text) else { return }
            let name = path.text
            try refuseControlCharacters(text, field: Field.path(name.isEmpty ? "text" : name))
        }
    }

    /// Like `text`, but an empty value means "none" (clears the field when editing).
    public static func optionalText(_ value: String?, field: Field, limit: Int = maximumLabelLength, multiline: Bool = false) throws -> String? {
        guard let value, !value.trimmingWhitespaceAndNewlines().isEmpty else { return nil }
        return try text(value, field: field, limit: limit, multiline: multiline)
    }

    public static func date(_ value: String, field: Field) throws -> CalendarDate {
        guard let date = CalendarDate(value.trimmingWhitespace()) else {
            throw RecordError.invalidField(field: field, reason: dateReason(value, otherwise: "'\(value)' is not a date; use YYYY-MM-DD, e.g. 2026-03-14"))
        }
        return date
    }

    /// A date known to the year, month or day.
    public static func partialDate(_ value: String, field: Field) throws -> PartialDate {
        guard let date = PartialDate(value) else {
            throw RecordError.invalidField(field: field, reason: dateReason(value, otherwise: "'\(value)' is not a date; use YYYY-MM-DD (or YYYY-MM, YYYY when the day is not known)"))
        }
        return date
    }

    /// The reason a date or time given as `value` was refused: its year, when that is outside
    /// `CalendarDate.supportedYears` (the same words for every way in), else `otherwise`.
    public static func dateReason(_ value: String, otherwise: String) -> Message {
        Message(CalendarDate.dateReason(value, otherwise: otherwise))
    }

    public static func time(_ value: String, field: Field) throws -> LocalTime {
        guard let time = LocalTime(value) else {
            throw RecordError.invalidField(field: field, reason: "'\(value)' is not a time; use HH:MM, e.g. 08:00")
        }
        return time
    }

    /// "08:00,20:00": distinct times of day, sorted.
    public static func times(_ value: String, field: Field) throws -> [LocalTime] {
        var result: [LocalTime] = []
        let parts = value.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        for part in parts {
            guard let time = LocalTime(part) else {
                let shown = part.isEmpty ? value : part
                throw RecordError.invalidField(field: field, reason: "'\(shown)' is not a time; use HH:MM, e.g. 08:00,20:00")
            }
            guard !result.contains(time) else {
                throw RecordError.invalidField(field: field, reason: "\(time) is given twice")
            }
            result.append(time)
        }
        guard result.count <= 24 else { throw RecordError.invalidField(field: field, reason: "at most 24 times a day") }
        return result.sorted()
    }

    /// A duration like 15m, 4h or 1h30m, in whole minutes (at least one).
    public static func minutes(_ value: String, field: Field, maximum: Int = 7 * 24 * 60) throws -> Int {
        guard let seconds = DurationText.parse(value), seconds >= 60, seconds.truncatingRemainder(dividingBy: 60) == 0 else {
            throw RecordError.invalidField(field: field, reason: "'\(value)' is not a duration in minutes; use something like 30m, 4h or 1h30m")
        }
        let minutes = Int(seconds / 60)
        guard minutes <= maximum else {
            throw RecordError.invalidField(field: field, reason: "at most \(TimeText.duration(TimeInterval(maximum * 60)))")
        }
        return minutes
    }

    public static func count(_ value: Int, field: Field, minimum: Int = 1, maximum: Int = 1000) throws -> Int {
        guard (minimum...maximum).contains(value) else {
            throw RecordError.invalidField(field: field, reason: "use a number from \(minimum) to \(maximum)")
        }
        return value
    }

    /// One of `allowed` (case-insensitive), returned as spelled in `allowed`.
    public static func choice(_ value: String, field: Field, allowed: [String]) throws -> String {
        let lowered = value.trimmingCharacters(in: .whitespaces).lowercased()
        guard let match = allowed.first(where: { $0.lowercased() == lowered }) else {
            throw RecordError.invalidField(field: field, reason: "'\(value)' is not one of \(allowed.joined(separator: ", "))")
        }
        return match
    }

    /// A phone number as people write it: digits with + ( ) - . / spaces, an extension, or a
    /// vanity number; at least three digits.
    public static func phone(_ value: String, field: Field) throws -> String {
        let trimmed = try text(value, field: field, limit: 40)
        let digits = trimmed.filter { $0.isASCII && $0.isNumber }.count
        let allowed = CharacterSet(charactersIn: "0123456789+()-./ #*,;").union(.letters)
        guard digits >= 3, trimmed.unicodeScalars.allSatisfy({ allowed.contains($0) }) else {
            throw RecordError.invalidField(field: field, reason: "'\(value)' is not a phone number; use digits, e.g. +49 30 1234567")
        }
        return trimmed
    }

    public static func email(_ value: String, field: Field) throws -> String {
        let trimmed = try text(value, field: field, limit: 254)
        let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
              !trimmed.contains(where: \.isWhitespace) else {
            throw RecordError.invalidField(field: field, reason: "'\(value)' is not an email address")
        }
        return trimmed
    }

    /// An IANA time zone name, e.g. Europe/Berlin.
    public static func timeZone(_ value: String, field: Field) throws -> TimeZone {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.contains("/") || ["UTC", "GMT"].contains(trimmed),
              let zone = TimeZone(identifier: trimmed) else {
            throw RecordError.invalidField(field: field, reason: "'\(value)' is not a time zone; use an IANA name like Europe/Berlin or America/New_York")
        }
        return zone
    }

    /// yes/no (also y/n, true/false).
    public static func yesNo(_ value: String, field: Field) throws -> Bool {
        switch value.trimmingCharacters(in: .whitespaces).lowercased() {
        case "yes", "y", "true": return true
        case "no", "n", "false": return false
        default: throw RecordError.invalidField(field: field, reason: "'\(value)' is not yes or no")
        }
    }

    /// A+, A-, B+, B-, AB+, AB-, O+ or O-; also "0+" and "A pos"/"A negative".
    public static func bloodType(_ value: String, field: Field) throws -> String {
        var text = value.uppercased().filter { !$0.isWhitespace }
        for (word, sign) in [("POSITIVE", "+"), ("NEGATIVE", "-"), ("POS", "+"), ("NEG", "-")] where text.hasSuffix(word) {
            text = String(text.dropLast(word.count)) + sign
            break
        }
        if text.hasPrefix("0") { text = "O" + text.dropFirst() }
        let valid = ["A+", "A-", "B+", "B-", "AB+", "AB-", "O+", "O-"]
        guard valid.contains(text) else {
            throw RecordError.invalidField(field: field, reason: "'\(value)' is not a blood type; use one of \(valid.joined(separator: ", "))")
        }
        return text
    }

    /// Height in centimetres from "178cm", "1.78m", "70in" or "5ft10in".
    public static func height(_ value: String, field: Field) throws -> Double {
        let text = value.lowercased().filter { !$0.isWhitespace }
        let invalid = RecordError.invalidField(field: field, reason: "'\(value)' is not a height; use a unit, e.g. 178cm, 1.78m or 5ft10in")
        var centimetres: Double?
        if text.hasSuffix("cm"), let number = Double(text.dropLast(2)) {
            centimetres = number
        } else if text.hasSuffix("m"), let number = Double(text.dropLast(1)) {
            centimetres = number * 100
        } else if text.contains("ft") {
            let parts = text.components(separatedBy: "ft")
            guard parts.count == 2, let feet = Double(parts[0]) else { throw invalid }
            let rest = parts[1].hasSuffix("in") ? String(parts[1].dropLast(2)) : parts[1]
            guard let inches = rest.isEmpty ? 0 : Double(rest) else { throw invalid }
            centimetres = (feet * 12 + inches) * 2.54
        } else if text.hasSuffix("in"), let number = Double(text.dropLast(2)) {
            centimetres = number * 2.54
        }
        guard let centimetres, centimetres.isFinite else { throw invalid }
        guard (20..<300).contains(centimetres) else {
            throw RecordError.invalidField(field: field, reason: "'\(value)' is outside 20 cm to 3 m")
        }
        return (centimetres * 10).rounded() / 10
    }

    /// Weight in kilograms from "72kg", "72.5 kg", "160lb" or "160lbs".
    public static func weight(_ value: String, field: Field) throws -> Double {
        let text = value.lowercased().filter { !$0.isWhitespace }
        var kilograms: Double?
        if text.hasSuffix("kg"), let number = Double(text.dropLast(2)) {
            kilograms = number
        } else if text.hasSuffix("lbs"), let number = Double(text.dropLast(3)) {
            kilograms = number * 0.45359237
        } else if text.hasSuffix("lb"), let number = Double(text.dropLast(2)) {
            kilograms = number * 0.45359237
        } else if text.hasSuffix("g"), let number = Double(text.dropLast(1)) {
            kilograms = number / 1000
        }
        guard let kilograms, kilograms.isFinite else {
            throw RecordError.invalidField(field: field, reason: "'\(value)' is not a weight; use a unit, e.g. 72kg or 160lb")
        }
        guard kilograms > 0.2, kilograms < 1000 else {
            throw RecordError.invalidField(field: field, reason: "'\(value)' is outside 0.2 kg to 1000 kg")
        }
        return (kilograms * 10).rounded() / 10
    }
}
