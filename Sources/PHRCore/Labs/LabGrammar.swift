import Foundation

/// The small grammar of a lab report's cells: numbers with either decimal mark, reference ranges
/// in every form labs print (`a - b`, en dash, `<x`, `≤x`, `>x`, `≥x`, text), flags in their own
/// column or glued to the value (`12 L`, `12*`), and units (`x10E3/uL`, `10^9/L`, `mL/min/1.73m2`).
/// Pure functions; the layout reader (LabReportReader) and `phr lab add` both use them.
public enum LabGrammar {
    /// `text` without spaces at either end; the reader calls this for every word of a report,
    /// where Foundation's bridging version was a tenth of the time.
    static func trimmed<S: StringProtocol>(_ text: S) -> String {
        guard let first = text.firstIndex(where: { $0 != " " && $0 != "\t" && $0 != "\u{00A0}" }) else { return "" }
        let last = text.lastIndex(where: { $0 != " " && $0 != "\t" && $0 != "\u{00A0}" })!
        return String(text[first...last])
    }

    /// A number as labs print it: `12`, `12.5`, `3,6` (decimal comma), `1,200` and `150 000`
    /// (thousands), `.5`. nil for anything else.
    /// "6.300", "245.000", "1.234.567": digit groups of three after one to three digits.
    static func isPointGrouped(_ text: String) -> Bool {
        let groups = text.split(separator: ".", omittingEmptySubsequences: false)
        guard groups.count >= 2, (1...3).contains(groups[0].count), groups[0].first != "0" else { return false }
        return groups.allSatisfy { $0.allSatisfy(\.isASCIIDigit) } && groups.dropFirst().allSatisfy { $0.count == 3 }
    }

    /// Set while a report that writes decimal commas is read: "6.300" is then six thousand
    /// three hundred, not six point three.
    @TaskLocal static var pointsGroupThousands = false

    public static func number(_ text: String) -> Double? {
        var body = trimmed(text)
        if pointsGroupThousands, body.contains("."), isPointGrouped(body) { body = body.replacingOccurrences(of: ".", with: "") }
        var sign = 1.0
        if body.hasPrefix("-") || body.hasPrefix("−") { sign = -1; body.removeFirst() }
        if body.hasPrefix("+") { body.removeFirst() }
        guard !body.isEmpty, body.count <= 24 else { return nil }
        let allowed = Set("0123456789., \u{00A0}\u{202F}")
        guard body.allSatisfy({ allowed.contains($0) }), body.contains(where: \.isNumber) else { return nil }
        // Thin and no-break spaces and plain spaces only as thousands separators ("150 000").
        let groups = body.split(whereSeparator: { $0 == " " || $0 == "\u{00A0}" || $0 == "\u{202F}" }).map(String.init)
        if groups.count > 1 {
            guard groups.dropFirst().allSatisfy({ $0.count == 3 || ($0.count > 3 && ($0.dropFirst(3).first == "," || $0.dropFirst(3).first == ".")) }),
                  (1...3).contains(groups[0].count) else { return nil }
            body = groups.joined()
        }
        let commas = body.filter { $0 == "," }.count
        let points = body.filter { $0 == "." }.count
        var normal = body
        if commas > 0 && points > 0 {
            // The later mark is the decimal one: "1,234.5" or "1.234,5".
            let lastComma = body.lastIndex(of: ",")!, lastPoint = body.lastIndex(of: ".")!
            if lastComma > lastPoint {
                guard commas == 1 else { return nil }
                normal = body.replacingOccurrences(of: ".", with: "").replacingOccurrences(of: ",", with: ".")
            } else {
                guard points == 1 else { return nil }
                normal = body.replacingOccurrences(of: ",", with: "")
            }
        } else if commas == 1 {
            let parts = body.split(separator: ",", omittingEmptySubsequences: false)
            let (whole, fraction) = (parts[0], parts[1])
            // "1,200" is a thousand and two hundred; "3,6", "0,125" and "10,00" are decimals.
            if fraction.count == 3 && !whole.isEmpty && whole != "0" && whole.count <= 3 {
                normal = String(whole) + String(fraction)
            } else {
                normal = String(whole) + "." + String(fraction)
            }
        } else if commas > 1 {
            let parts = body.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.dropFirst().allSatisfy({ $0.count == 3 }), (1...3).contains(parts[0].count) else { return nil }
            normal = parts.joined()
        } else if points > 1 {
            return nil
        }
        if normal.hasPrefix(".") { normal = "0" + normal }
        guard !normal.hasSuffix("."), let value = Double(normal), value.isFinite else { return nil }
        return sign * value
    }

    // MARK: Flags

    /// H, L, HH, LL, A or N from what a report prints in a flag column: `H`, `High`, `L*`,
    /// `↑`, `!`, `*`, `Abnormal`, `Crit H`... nil when it is not a flag.
    public static func flag(_ text: String) -> LabFlag? {
        var token = trimmed(text).uppercased()
        // "[H]", "(L)", "<H>": the flag in brackets.
        if token.count >= 3, let first = token.first, let last = token.last,
           ["[": "]", "(": ")", "<": ">", "{": "}"][first] == last {
            token = trimmed(token.dropFirst().dropLast())
        }
        switch token {
        case "H", "HI", "HIGH", "↑", "H*", "H!", "HOCH", "ÉLEVÉ", "ELEVE", "ALTO": return .high
        case "L", "LO", "LOW", "↓", "L*", "L!", "NIEDRIG", "BAS", "BAJO": return .low
        case "HH", "H!!", "CRIT H", "CRITICAL HIGH", "↑↑", "PANIC HIGH", "HC": return .criticalHigh
        case "LL", "L!!", "CRIT L", "CRITICAL LOW", "↓↓", "PANIC LOW", "LC": return .criticalLow
        case "A", "ABN", "ABNORMAL", "*", "!", "**", "AA": return .abnormal
        case "N", "NORMAL", "NORM", "WNL", "WITHIN RANGE", "IN RANGE", "NORMAL RANGE": return .normal
        case "ABOVE HIGH REFERENCE LIMIT", "ABOVE REFERENCE RANGE", "ABOVE RANGE", "ABOVE NORMAL", "ABOVE THE REFERENCE RANGE": return .high
        case "BELOW LOW REFERENCE LIMIT", "BELOW REFERENCE RANGE", "BELOW RANGE", "BELOW NORMAL", "BELOW THE REFERENCE RANGE": return .low
        case "OUTSIDE REFERENCE RANGE", "OUT OF RANGE", "OUTSIDE RANGE": return .abnormal
        default: return nil
        }
    }

    /// Words that say a result is critical without saying which way ("critical", "panic",
    /// "C"): the range tells high from low.
    public static func isCritical(_ text: String) -> Bool {
        let token = String(trimmed(text).drop { "[(".contains($0) }.reversed().drop { "])".contains($0) }.reversed()).uppercased()
        return ["CRITICAL", "CRIT", "PANIC", "C", "!!", "KRITISCH", "CRITIQUE", "CRITICO", "CRÍTICO", "ALERT"].contains(token)
    }

    // MARK: Values

    /// A result cell: a number, a number with a flag glued on (`12 L`, `12*`, `H 13.9`), a
    /// comparison (`>60`, `<0.5`), or text (`Negative`, `Trace`, `3+`).
    public struct Value: Equatable, Sendable {
        public var number: Double?
        /// The value as text when it is not a plain number: ">60", "Negative", "3+".
        public var text: String?
        public var flag: LabFlag?
        /// A `*` or `!` beside the number: abnormal, direction unknown until the range says.
        public var marked: Bool

        public init(number: Double? = nil, text: String? = nil, flag: LabFlag? = nil, marked: Bool = false) {
            self.number = number
            self.text = text
            self.flag = flag
            self.marked = marked
        }
    }

    /// A result printed as a comparison ("<0.5", ">= 90", "≤ 3"): the FHIR comparator code
    /// ("<", "<=", ">=", ">") and the number; nil for anything else.
    public static func comparison(_ text: String) -> (comparator: String, value: Double)? {
        let trimmed = Self.trimmed(text)
        guard let first = trimmed.first, "<>≤≥".contains(first) else { return nil }
        var rest = trimmed.dropFirst()
        var comparator = ["≤": "<=", "≥": ">="][String(first)] ?? String(first)
        if rest.first == "=" {
            if comparator.count == 1 { comparator += "=" }
            rest = rest.dropFirst()
        }
        guard let number = number(Self.trimmed(rest)) else { return nil }
        return (comparator, number)
    }

    /// Words that are results in their own right (urinalysis, serology).
    static let textResults: Set<String> = [
        "negative", "positive", "neg", "pos", "trace", "nil", "none", "not detected", "detected", "non-reactive", "nonreactive",
        "reactive", "normal", "abnormal", "clear", "cloudy", "turbid", "hazy", "yellow", "straw", "amber", "pale yellow",
        "dark yellow", "small", "moderate", "large", "few", "many", "rare", "occasional", "negativ", "positiv", "négatif",
        "positif", "negativo", "positivo", "spuren", "klar", "gelb", "see note", "pending", "indeterminate", "equivocal",
    ]

    public static func value(_ cell: String) -> Value? {
        var text = trimmed(cell)
        guard !text.isEmpty, text.count <= 40 else { return nil }
        if let number = number(text) { return Value(number: number) }
        // Comparisons: ">60", "< 0.5", "≥90".
        if let first = text.first, "<>≤≥".contains(first) {
            let rest = text.dropFirst().drop { $0 == "=" || $0 == " " }
            if number(String(rest)) != nil { return Value(text: text.replacingOccurrences(of: " ", with: "")) }
        }
        // Graded: "1+", "3+", "++".
        if text.contains("+"), text.range(of: #"^([1-4]\+|\+{1,4})$"#, options: .regularExpression) != nil { return Value(text: text) }
        if textResults.contains(text.lowercased()) { return Value(text: text) }
        // A flag glued on: "12 L", "12L", "12*", "H 13.9", "12.5 (H)".
        if text.contains("(") || text.contains(")") {
            text = trimmed(text.replacingOccurrences(of: "(", with: " ").replacingOccurrences(of: ")", with: " "))
        }
        for marker in ["**", "*", "!"] where text.hasSuffix(marker) {
            let head = trimmed(text.dropLast(marker.count))
            if let number = number(head) { return Value(number: number, marked: true) }
            if let inner = value(head), inner.number != nil { return Value(number: inner.number, flag: inner.flag, marked: true) }
        }
        let parts = text.split(separator: " ").map(String.init)
        if parts.count == 2 {
            if let number = number(parts[0]), let flag = besideNumber(parts[1]) { return Value(number: number, flag: flag) }
            if let flag = besideNumber(parts[0]), let number = number(parts[1]) { return Value(number: number, flag: flag) }
        }
        // Glued without a space: "12L", "240H", "3,6HH".
        if let split = text.firstIndex(where: { $0.isLetter }), split != text.startIndex {
            let head = String(text[..<split]), tail = String(text[split...])
            if let number = number(head), let flag = besideNumber(tail), flag != .normal { return Value(number: number, flag: flag) }
        }
        return nil
    }

    /// A flag printed beside a number in the same cell. One or two lower-case letters are not
    /// one: labs print H, L, HH and LL in capitals, and OCR reads a 1 as "l" ("4l" is 41
    /// misread, not 4 L; "4ll" is not 4 LL). Words ("low", "high") are.
    static func besideNumber(_ text: String) -> LabFlag? {
        if text.count <= 2, text.lowercased() == text, text.uppercased() != text { return nil }
        // German reports mark a result above its range "+", far above "++".
        if text == "+" { return .high }
        if text == "++" { return .criticalHigh }
        return flag(text)
    }

    // MARK: Ranges

    /// A reference range as a report prints it. Returns nil for an empty cell; text that is not
    /// numeric ("Negative", "See note") becomes a text-only range.
    public static func range(_ cell: String) -> ReferenceRange? {
        let written = trimmed(cell)
        guard !written.isEmpty, written.count <= 80 else { return nil }
        var text = rangeLabelRemoved(written)
        text = String(text.compactMap { character -> Character? in
            switch character {
            case "–", "—", "‒", "−": return "-"
            case "(", ")", "[", "]": return nil
            default: return character
            }
        })
        if text.contains("=") {
            text = text.replacingOccurrences(of: "<=", with: "≤").replacingOccurrences(of: ">=", with: "≥")
            // US reference labs print "> OR = 40".
            if text.lowercased().contains("or") {
                text = text.replacingOccurrences(of: #">\s*or\s*="#, with: "≥", options: [.regularExpression, .caseInsensitive])
                    .replacingOccurrences(of: #"<\s*or\s*="#, with: "≤", options: [.regularExpression, .caseInsensitive])
            }
        }
        text = trimmed(text)
        let lower = text.lowercased()
        for prefix in ["up to ", "bis ", "jusqu'à ", "hasta ", "less than ", "below "] where lower.hasPrefix(prefix) {
            if let high = number(String(text.dropFirst(prefix.count))) { return ReferenceRange(low: nil, high: high, text: written) }
        }
        for prefix in ["greater than ", "above ", "over ", "more than "] where lower.hasPrefix(prefix) {
            if let low = number(String(text.dropFirst(prefix.count))) { return ReferenceRange(low: low, high: nil, text: written) }
        }
        if let first = text.first, "<>≤≥".contains(first) {
            if let bound = number(trimmed(text.dropFirst())) {
                return "<≤".contains(first) ? ReferenceRange(low: nil, high: bound, text: written)
                    : ReferenceRange(low: bound, high: nil, text: written)
            }
            return ReferenceRange(low: nil, high: nil, text: written)
        }
        // "a - b", "a-b", "a to b", "a bis b": split at a dash that follows a digit.
        let separators = [" to ", " bis ", " à ", " a "]
        for separator in separators {
            let parts = text.components(separatedBy: separator)
            if parts.count == 2, let low = number(parts[0]), let high = number(parts[1]), low <= high {
                return ReferenceRange(low: low, high: high, text: written)
            }
        }
        let characters = Array(text)
        for index in characters.indices where characters[index] == "-" && index > 0 {
            let before = characters[..<index].last { $0 != " " }
            guard let before, before.isNumber else { continue }
            let low = String(characters[..<index]), high = String(characters[(index + 1)...])
            if let low = number(low), let high = number(high), low <= high {
                return ReferenceRange(low: low, high: high, text: written)
            }
        }
        return ReferenceRange(low: nil, high: nil, text: written)
    }

    /// Words that introduce a range on the page: "Ref:", "Normal range:", "Desirable:".
    static let rangeLabels = ["reference range", "reference interval", "reference", "ref range", "ref. range", "ref.", "normal range",
                              "normal values", "normal", "standard range", "desirable", "optimal", "target", "expected", "range", "norm",
                              "referenzbereich", "valeurs de reference", "valores de referencia", "valori di riferimento", "valor de referencia",
                              "intervalo de referencia", "ref", "reference values"]

    static let rangeLabelsLongestFirst = rangeLabels.sorted { $0.count > $1.count }

    /// `text` without a leading range label and its colon ("Ref: 13.0 - 17.0" → "13.0 - 17.0").
    static func rangeLabelRemoved(_ text: String) -> String {
        let trimmed = Self.trimmed(text)
        // Compared without accents ("Valores de referência"), keeping the text's length.
        guard let first = trimmed.first, first.isLetter else { return trimmed }
        let lower = trimmed.allSatisfy(\.isASCII) ? trimmed.lowercased()
            : trimmed.lowercased().folding(options: .diacriticInsensitive, locale: Locale(identifier: "en_US_POSIX"))
        guard lower.count == trimmed.count else { return trimmed }
        for label in rangeLabelsLongestFirst where lower.hasPrefix(label) {
            var rest = trimmed.dropFirst(label.count)
            guard rest.first == ":" || rest.first == " " else { continue }
            rest = rest.drop { $0 == ":" || $0 == " " }
            guard rest.first.map({ $0.isNumber || "<>≤≥-.".contains($0) || $0.isLetter }) == true else { continue }
            return String(rest)
        }
        return trimmed
    }

    // MARK: Ranges by sex and age

    /// Who a population-specific range is for, as a report labels it.
    struct Population: Equatable {
        var sex: MedicalID.Sex?
        /// Ages in years the range holds for.
        var ages: ClosedRange<Double>?
    }

    /// A population label at the start of `text` ("Male:", "F", "Women", "Adults", "Children
    /// 1-10 y", "18-49 years:") and where the range after it starts; nil when there is none.
    static func population(_ text: String) -> (Population, String.Index)? {
        let lower = text.lowercased()
        let sexes: [(String, MedicalID.Sex)] = [("female", .female), ("women", .female), ("woman", .female), ("frauen", .female),
                                                ("femmes", .female), ("mujeres", .female), ("donne", .female), ("male", .male), ("men", .male),
                                                ("man", .male), ("männer", .male), ("manner", .male), ("hommes", .male), ("hombres", .male),
                                                ("uomini", .male), ("f", .female), ("m", .male), ("w", .female)]
        for (word, sex) in sexes where lower.hasPrefix(word) {
            let after = lower.index(lower.startIndex, offsetBy: word.count)
            guard after == lower.endIndex || !lower[after].isLetter else { continue }
            let rest = text[after...].drop { $0 == ":" || $0 == " " || $0 == "." }
            guard let first = rest.first, first.isNumber || "<>≤≥".contains(first) || rest.lowercased().hasPrefix("up to") else { continue }
            return (Population(sex: sex), rest.startIndex)
        }
        for (word, ages) in [("adults", 18.0...200), ("adult", 18.0...200), ("children", 0.0...17.999), ("child", 0.0...17.999),
                             ("erwachsene", 18.0...200), ("kinder", 0.0...17.999), ("adultes", 18.0...200), ("enfants", 0.0...17.999)]
            where lower.hasPrefix(word) {
            let rest = text[lower.index(lower.startIndex, offsetBy: word.count)...].drop { $0 == ":" || $0 == " " }
            guard let first = rest.first, first.isNumber || "<>≤≥".contains(first) else { continue }
            return (Population(ages: ages), rest.startIndex)
        }
        // "18-49 y:", "50 - 70 years", ">70 y": an age band, then the range.
        guard let lead = text.first, lead.isNumber || "<>≤≥".contains(lead) else { return nil }
        // "6 mo - 2 y:", "2 - 6 y:", "> 70 y": an age band needs a unit of age; each bound in
        // months or years, a bound without its own unit taking the next one's ("2 - 6 mo").
        let unitPattern = "(y|yr|yrs|years?|mo|mos|months?|jahre|ans|años)"
        let bound = "(\\d{1,3})\\s*\(unitPattern)?"
        guard let match = text.range(of: "^(<|>|≥|≤)?\\s*\(bound)(\\s*-\\s*\(bound))?\\s*:?\\s*", options: [.regularExpression, .caseInsensitive]) else {
            return nil
        }
        let band = String(text[match]).lowercased()
        var parts: [(value: Double, months: Bool?)] = []
        var scanner = band[...]
        while let start = scanner.firstIndex(where: \.isNumber) {
            let digits = scanner[start...].prefix { $0.isNumber }
            let after = scanner[digits.endIndex...].drop { $0 == " " }
            let months: Bool? = after.hasPrefix("mo") ? true : after.hasPrefix("y") || after.hasPrefix("j") || after.hasPrefix("a") ? false : nil
            parts.append((Double(digits) ?? 0, months))
            scanner = scanner[digits.endIndex...]
        }
        guard !parts.isEmpty, parts.contains(where: { $0.months != nil }) else { return nil }
        for index in parts.indices.reversed() where parts[index].months == nil {
            parts[index].months = parts[(index + 1)...].first(where: { $0.months != nil })?.months ?? parts[..<index].last?.months ?? false
        }
        let inYears = parts.map { $0.months == true ? $0.value / 12 : $0.value }
        guard inYears.allSatisfy({ (0...130).contains($0) }) else { return nil }
        var ages: ClosedRange<Double>?
        if inYears.count >= 2 {
            // "18-49 y" holds until the 50th birthday; bands that share an end ("2 - 6 y", "6 -
            // 12 y") are told apart by taking the last band that fits.
            let high = inYears[1] + (parts[1].months == true ? 1.0 / 12 : 1) - 0.0001
            if inYears[0] <= high { ages = inYears[0]...high }
        } else if let single = inYears.first {
            if band.hasPrefix("<") || band.hasPrefix("≤") {
                if single > 0.001 { ages = 0...(single - 0.001) }
            } else {
                ages = single...200
            }
        }
        if let ages { return (Population(ages: ages), match.upperBound) }
        return nil
    }

    /// A range cell that prints one range per sex or age ("Male: 13.5 - 17.5; Female: 12.0 -
    /// 15.5"): the range for this patient, keeping the text of all; nil when the cell is not
    /// such a list. Without a sex or age to choose by, the range keeps its text and no bounds.
    public static func populationRange(_ cell: String, sex: MedicalID.Sex?, age: Double?) -> ReferenceRange? {
        let parts = cell.split(separator: ";").map { trimmed($0) }.filter { !$0.isEmpty }
        guard parts.count >= 2 else { return nil }
        var chosen: ReferenceRange?
        for part in parts {
            guard let (population, start) = population(part) else { return nil }
            let range = Self.range(String(part[start...]))
            guard let range, range.low != nil || range.high != nil else { return nil }
            let sexFits = population.sex == nil || population.sex == sex
            let ageFits = population.ages == nil || age.map { population.ages!.contains($0) } == true
            if sexFits, ageFits, population.sex == nil || sex != nil, population.ages == nil || age != nil {
                chosen = range
            }
        }
        return ReferenceRange(low: chosen?.low, high: chosen?.high, text: cell)
    }

    // MARK: Units

    /// Whether a cell looks like a unit: `g/dL`, `%`, `x10E3/uL`, `10^9/L`, `mL/min/1.73m2`, `fL`.
    /// `text` with the letters OCR confuses in units swapped (l and I, a capital X for the
    /// multiplication x, O for 0) when that makes it a unit phr knows; nil otherwise.
    public static func ocrCorrectedUnit(_ text: String) -> String? {
        guard text.count <= 24 else { return nil }
        var candidates = [text]
        if text.hasPrefix("X") { candidates.append("x" + text.dropFirst()) }
        for base in candidates {
            candidates.append(base.replacingOccurrences(of: "l", with: "I"))
            candidates.append(base.replacingOccurrences(of: "I", with: "l"))
            candidates.append(base.replacingOccurrences(of: "O", with: "0"))
        }
        // One letter at a time, for units with both ("mIU/L" read "mlU/L").
        for (index, character) in text.enumerated() where character == "l" || character == "I" {
            var swapped = Array(text)
            swapped[index] = character == "l" ? "I" : "l"
            candidates.append(String(swapped))
        }
        return candidates.dropFirst().first { LabUnits.ucum($0) != nil }
    }

    public static func isUnit(_ cell: String) -> Bool {
        let text = trimmed(cell)
        guard !text.isEmpty, text.count <= 24 else { return false }
        if LabUnits.ucum(text) != nil { return true }
        if number(text) != nil || flag(text) != nil { return false }
        guard !text.contains(" ") || text.hasPrefix("x10") || text.hasPrefix("× 10") else { return false }
        // An unknown unit is taken when it is made of what units are made of: not "10%3/uL",
        // OCR's reading of "10^3/uL".
        guard text.allSatisfy({ $0.isLetter || $0.isNumber || " /*^.,()[]{}_-µμ²³×".contains($0) }) else { return false }
        return text.contains("/") && text.contains(where: \.isLetter)
    }
}

extension ReferenceRange {
    /// The range as a listing shows it: the text the lab printed, except when it printed one
    /// range per sex or age ("Male: 13.5 - 17.5; Female: 12.0 - 15.5"), where the bounds
    /// chosen for the patient stand ("12–15.5") and the whole text stays in `text`.
    public var listed: String {
        if let text, text.contains(";"), low != nil || high != nil { return display }
        return text ?? display
    }
}

extension Character {
    /// 0 to 9 only (`isNumber` also takes ½, ², Devanagari digits).
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
