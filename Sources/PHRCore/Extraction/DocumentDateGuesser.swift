import Foundation

/// The date a document is about (the day of service, collection, issue or discharge), guessed
/// from its text and file name; the user can always override it.
///
/// Recognised spellings: 2025-03-12 (also with / or .), 03/12/2025 and 12.03.2025 (also with
/// two-digit years), 12 March 2025, 12-Mar-2025, 12th March 2025, March 12, 2025, and, as a last
/// resort, March 2025. Slashes and dashes are read month first as in the US unless the first
/// number cannot be a month (or `preferDayFirst` is set); dots are read day first as in Europe.
///
/// A date counts for more when a label stands right before it on its line, or alone on the line
/// above ("Date of service", "Collected", "Issued", "Discharge date" and the like; a few labels in
/// Greek, German, French and Spanish too) and less when it is unlabelled or far into the text; a
/// date of birth ("DOB", "born on", "Ημερομηνία γέννησης") is never the answer, and an expiry,
/// due or follow-up date only when nothing else is there. A full date in the file name beats unlabelled dates in
/// the text (people name scans after the day), but not labelled ones.
public enum DocumentDateGuesser {
    /// The text looked at: the first pages, where the date of a document is.
    static let scannedLength = 20_000
    /// Dates in the first this many characters are "in the heading".
    static let headingLength = 1_500

    /// The best date, or nil if there is none.
    public static func guess(text: String, fileName: String? = nil, preferDayFirst: Bool = false) -> DocumentDateGuess? {
        let candidates = DateScanner(text: String(text.prefix(scannedLength)), preferDayFirst: preferDayFirst).candidates()
        let usable = candidates.filter { $0.labelWeight != nil }
        let best = usable.max { score($0) < score($1) || (score($0) == score($1) && $0.offset > $1.offset) }
        if let best, best.labelWeight! > 0 { return best.guess }
        if let fileName, let fromName = fileNameDate(fileName, preferDayFirst: preferDayFirst) { return fromName }
        return best?.guess
    }

    private static func score(_ candidate: DateScanner.Candidate) -> Double {
        var score = candidate.labelWeight ?? 0
        if candidate.offset < headingLength { score += 1 }
        if candidate.guess.day == nil { score -= 3 }
        return score
    }

    /// A full date in a file name: the scanner's spellings, or YYYYMMDD.
    static func fileNameDate(_ fileName: String, preferDayFirst: Bool) -> DocumentDateGuess? {
        let base = String(fileName.split(separator: "/").last ?? Substring(fileName))
        let spaced = base.map { $0 == "_" ? " " : $0 }
        if let found = DateScanner(text: String(spaced), preferDayFirst: preferDayFirst).candidates()
            .first(where: { $0.guess.day != nil }) {
            return DocumentDateGuess(year: found.guess.year, month: found.guess.month, day: found.guess.day, label: "file name")
        }
        var digits: [Character] = []
        for character in base + " " {
            if character.isASCII && character.isNumber {
                digits.append(character)
                continue
            }
            if digits.count == 8, let value = Int(String(digits)) {
                let (year, month, day) = (value / 10_000, value / 100 % 100, value % 100)
                if DateScanner.isValid(year: year, month: month, day: day) {
                    return DocumentDateGuess(year: year, month: month, day: day, label: "file name")
                }
            }
            digits.removeAll()
        }
        return nil
    }
}

/// A guessed document date. `day` is nil when the text gives only a month and year.
public struct DocumentDateGuess: Sendable, Equatable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int?
    /// The label the date stood next to, folded to lowercase without accents ("date of service");
    /// "file name" if it came from the file name; nil if unlabelled.
    public let label: String?

    public init(year: Int, month: Int, day: Int?, label: String? = nil) {
        self.year = year
        self.month = month
        self.day = day
        self.label = label
    }

    /// ISO 8601: `2025-03-12`, or `2025-03` without a day.
    public var description: String {
        let base = "\(year)-\(month < 10 ? "0" : "")\(month)"
        guard let day else { return base }
        return "\(base)-\(day < 10 ? "0" : "")\(day)"
    }
}

/// Finds dates in text, with the label before each.
struct DateScanner {
    struct Candidate {
        var guess: DocumentDateGuess
        /// Position in the text, in characters of the lowercased text.
        var offset: Int
        /// 3 for a specific label, 2 for "date", 0 for none, -1 for a label that makes the date
        /// unlikely (follow-up, due); nil for a date that must never be chosen (date of birth).
        var labelWeight: Double?
    }

    private let characters: [Character]
    private let preferDayFirst: Bool

    init(text: String, preferDayFirst: Bool) {
        characters = Array(text.lowercased())
        self.preferDayFirst = preferDayFirst
    }

    // MARK: Labels

    /// Labels, folded as `TextNormalizer` folds text, with the weight they give the date after
    /// them: 3 for the document's own date (service, collection, issue, discharge), 2.5 for
    /// dates that are about it but second to those (reported, admission, coverage start), 2 for
    /// a bare "Date". English, then a few other languages' words for "date" and "date of issue".
    static let labelWeights: [String: Double] = {
        var weights: [String: Double] = [:]
        func add(_ labels: [String], _ weight: Double) {
            for label in labels { weights[TextNormalizer.phrase(label)] = weight }
        }
        add([
            "date of service", "service date", "dos", "collected", "collection date", "date collected",
            "sample collected", "specimen collected", "issued", "issued on", "date issued", "issue date",
            "date of issue", "discharge date", "date of discharge", "discharged", "report date", "date of report",
            "visit date", "date of visit", "encounter date", "vaccination date", "date of vaccination",
            "date administered", "administered", "invoice date", "statement date", "bill date", "date of referral",
            "referral date", "exam date", "date of exam", "examination date", "study date", "prescribed",
            "date prescribed", "order date", "date of order", "test date", "date of test",
            "ημερομηνία έκδοσης", "ημερομηνία εξέτασης", "Ausstellungsdatum", "date d'émission", "fecha de emisión",
        ] + collectionLabelWords, 3)
        add([
            "reported", "received", "admission date", "date of admission", "admitted", "effective date",
            "effective", "coverage effective",
        ], 2.5)
        add(["date", "dated", "ημερομηνία", "Datum", "fecha", "data"], 2)
        add([
            "expiry", "expiry date", "expiration", "expiration date", "expires", "exp", "valid until", "valid thru",
            "valid through", "due", "due date", "due by", "next", "next visit", "next appointment", "follow up",
            "return", "printed", "revised", "rev", "exported", "export date", "generated", "downloaded",
        ], -1)
        return weights
    }()

    /// Labels of the date a sample was taken, which is a lab report's own date (and the date
    /// of its results, `LabReportReader.collectionDate`).
    static let collectionLabelWords = [
        "collected", "collection date", "date collected", "date of collection", "specimen collected", "sample collected",
        "Entnahme", "Probenentnahme", "Entnahmedatum", "Abnahme", "Abnahmedatum", "prélèvement", "date de prélèvement",
        "prélevé", "fecha de toma", "fecha de extracción", "data prelievo", "data del prelievo", "afname", "afnamedatum",
        "data da coleta", "data de coleta", "coleta", "colhido em", "sample collected on", "drawn", "date drawn",
    ]
    static let collectionLabels = Set(collectionLabelWords.map(TextNormalizer.phrase))

    /// Labels of a date that is never the document's: birth dates, in the same languages.
    static let excludedLabels = Set([
        "date of birth", "birth date", "birthdate", "dob", "d.o.b.", "born", "birthday",
        "ημερομηνία γέννησης", "Geburtsdatum", "geb.", "geboren", "date de naissance", "né le", "née le",
        "fecha de nacimiento", "data di nascita", "geboortedatum",
    ].map(TextNormalizer.phrase))

    /// The label ending `prefix` (the text before a date) and its weight (see `labelWeights`):
    /// 0 for none, nil for one that rules the date out.
    static func label(endingWith prefix: String) -> (phrase: String?, weight: Double?) {
        let words = TextNormalizer.fold(prefix).split(separator: " ")
        var trailing = Array(words.suffix(5))
        // Connectors between a label and its date: "collected on", "discharged at",
        // "prélèvement le", "Entnahme am".
        while let last = trailing.last, ["on", "at", "of", "the", "le", "du", "am", "vom", "el", "il"].contains(last) { trailing.removeLast() }
        for length in stride(from: min(4, trailing.count), through: 1, by: -1) {
            let phrase = trailing.suffix(length).joined(separator: " ")
            if excludedLabels.contains(phrase) { return (phrase, nil) }
            if let weight = labelWeights[phrase] { return (phrase, weight) }
        }
        return (nil, 0)
    }

    // MARK: Scanning

    func candidates() -> [Candidate] {
        var found: [Candidate] = []
        var index = 0
        var lineStart = 0
        var previousLine = ""
        var segmentStart = 0
        while index < characters.count {
            let character = characters[index]
            if character == "\n" {
                let line = String(characters[lineStart..<index]).trimmingCharacters(in: .whitespaces)
                if !line.isEmpty { previousLine = line }
                lineStart = index + 1
                segmentStart = index + 1
                index += 1
                continue
            }
            let startsToken = index == 0 || !(characters[index - 1].isLetter || characters[index - 1].isNumber)
            guard startsToken, character.isNumber || character.isLetter,
                  let (guess, end) = match(at: index) else {
                index += 1
                continue
            }
            let prefix = String(characters[segmentStart..<index])
            var label = Self.label(endingWith: prefix)
            if label.phrase == nil && prefix.trimmingCharacters(in: .whitespaces).isEmpty {
                // A label alone on the line above (a form or a table header): a weaker hint.
                label = Self.label(endingWith: previousLine)
                if let weight = label.weight, weight > 0 { label.weight = weight - 0.5 }
            }
            let labelled = DocumentDateGuess(year: guess.year, month: guess.month, day: guess.day,
                                             label: (label.weight ?? 0) > 0 ? label.phrase : nil)
            found.append(Candidate(guess: labelled, offset: index, labelWeight: label.weight))
            segmentStart = end
            index = end
        }
        return found
    }

    /// A date starting at `start`, and the index just after it.
    private func match(at start: Int) -> (DocumentDateGuess, Int)? {
        var cursor = Cursor(characters: characters, index: start)
        if let first = cursor.number() {
            let afterFirst = cursor.index
            if first.count <= 2, let found = dayMonthNameYear(day: first, cursor: &cursor) { return found }
            cursor.index = afterFirst
            return numericDate(first: first, cursor: &cursor)
        }
        return monthNameFirst(cursor: &cursor)
    }

    /// After a day: "12 March 2025", "12-Mar-2025", "12th March, 2025".
    private func dayMonthNameYear(day: String, cursor: inout Cursor) -> (DocumentDateGuess, Int)? {
        cursor.skipOrdinalSuffix()
        guard cursor.skip([" ", "-", "."]), let month = cursor.monthName(),
              cursor.skip([" ", "-", ",", "."]), let year = cursor.number(), year.count == 4, cursor.atBoundary,
              let dayValue = Int(day), let yearValue = Int(year),
              Self.isValid(year: yearValue, month: month, day: dayValue) else { return nil }
        return (DocumentDateGuess(year: yearValue, month: month, day: dayValue), cursor.index)
    }

    /// After a first number: "2025-03-12", "03/12/2025", "12.03.2025", "03/12/25".
    private func numericDate(first: String, cursor: inout Cursor) -> (DocumentDateGuess, Int)? {
        guard let separator = cursor.peek(), ["-", "/", "."].contains(separator) else { return nil }
        cursor.index += 1
        guard let second = cursor.number(), second.count <= 2, cursor.peek() == separator else { return nil }
        cursor.index += 1
        guard let third = cursor.number(), cursor.atNumericBoundary,
              let a = Int(first), let b = Int(second), let c = Int(third) else { return nil }
        if first.count == 4 && third.count <= 2 {
            guard Self.isValid(year: a, month: b, day: c) else { return nil }
            return (DocumentDateGuess(year: a, month: b, day: c), cursor.index)
        }
        guard first.count <= 2, third.count == 4 || third.count == 2 else { return nil }
        let year = third.count == 4 ? c : (c < 70 ? 2000 + c : 1900 + c)
        // Day first for dots (and when asked), unless the second number cannot be a month;
        // month first otherwise, unless the first cannot be one.
        let dayFirst = separator == "." || preferDayFirst ? b <= 12 : a > 12
        let (month, day) = dayFirst ? (b, a) : (a, b)
        guard Self.isValid(year: year, month: month, day: day) else { return nil }
        return (DocumentDateGuess(year: year, month: month, day: day), cursor.index)
    }

    /// "March 12, 2025", "Mar. 12th 2025", or just "March 2025".
    private func monthNameFirst(cursor: inout Cursor) -> (DocumentDateGuess, Int)? {
        guard let month = cursor.monthName() else { return nil }
        let afterMonth = cursor.index
        if cursor.skip([" "]), let day = cursor.number(), day.count <= 2 {
            cursor.skipOrdinalSuffix()
            if cursor.skip([" ", ","]), let year = cursor.number(), year.count == 4, cursor.atBoundary,
               let dayValue = Int(day), let yearValue = Int(year),
               Self.isValid(year: yearValue, month: month, day: dayValue) {
                return (DocumentDateGuess(year: yearValue, month: month, day: dayValue), cursor.index)
            }
        }
        cursor.index = afterMonth
        guard cursor.skip([" ", ",", "-"]), let year = cursor.number(), year.count == 4, cursor.atBoundary,
              let yearValue = Int(year), Self.isValid(year: yearValue, month: month, day: 1) else { return nil }
        return (DocumentDateGuess(year: yearValue, month: month, day: nil), cursor.index)
    }

    static func isValid(year: Int, month: Int, day: Int) -> Bool {
        guard (1900...2100).contains(year), (1...12).contains(month), day >= 1 else { return false }
        let lengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return day <= lengths[month - 1] + (month == 2 && leap ? 1 : 0)
    }

    /// A read position over the lowercased characters.
    private struct Cursor {
        let characters: [Character]
        var index: Int

        func peek() -> Character? { index < characters.count ? characters[index] : nil }

        /// ASCII digits at the cursor (at most 4), or nil.
        mutating func number() -> String? {
            var digits = ""
            while let character = peek(), character.isASCII, character.isNumber {
                digits.append(character)
                index += 1
                if digits.count > 4 { return nil }
            }
            return digits.isEmpty ? nil : digits
        }

        /// Skips one to three of `separators` ("12 - Mar", "March 12, 2025"); false if none or more.
        mutating func skip(_ separators: Set<Character>) -> Bool {
            let start = index
            while let character = peek(), separators.contains(character) { index += 1 }
            return index > start && index - start <= 3
        }

        mutating func skipOrdinalSuffix() {
            for suffix in ["st", "nd", "rd", "th"] where matches(suffix) {
                index += 2
                return
            }
        }

        /// A month name or three-letter abbreviation (optionally with a dot), as 1...12.
        mutating func monthName() -> Int? {
            var word = ""
            var end = index
            while end < characters.count, characters[end].isLetter {
                word.append(characters[end])
                end += 1
            }
            guard let month = DateScanner.months[word] else { return nil }
            index = end
            if peek() == "." && word.count <= 4 { index += 1 }
            return month
        }

        /// Not followed by another letter or digit.
        var atBoundary: Bool {
            guard let character = peek() else { return true }
            return !(character.isLetter || character.isNumber)
        }

        /// Not followed by a digit, or by a separator and a digit (as in 1.2.2025.3).
        var atNumericBoundary: Bool {
            guard let character = peek() else { return true }
            if character.isNumber || character.isLetter { return false }
            if ["-", "/", "."].contains(character), index + 1 < characters.count, characters[index + 1].isNumber { return false }
            return true
        }

        private func matches(_ text: String) -> Bool {
            let letters = Array(text)
            guard index + letters.count <= characters.count else { return false }
            return Array(characters[index..<index + letters.count]) == letters
                && (index + letters.count == characters.count || !characters[index + letters.count].isLetter)
        }
    }

    static let months: [String: Int] = {
        let names = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
                     "october", "november", "december"]
        var table: [String: Int] = [:]
        for (offset, name) in names.enumerated() {
            table[name] = offset + 1
            table[String(name.prefix(3))] = offset + 1
        }
        table["sept"] = 9
        return table
    }()
}

extension DocumentDateGuesser {
    /// Whether ambiguous numeric dates (03/04/2025) are read day first: yes, unless the locale
    /// (LC_ALL, else LC_TIME, else LANG) is a month-first one (en_US, en_PH, en_CA, es_US) or
    /// none is set, or it is C/POSIX (which phr treats as the US convention).
    public static func prefersDayFirst(environment: [String: String]) -> Bool {
        let locale = environment["LC_ALL"] ?? environment["LC_TIME"] ?? environment["LANG"] ?? ""
        let monthFirst = ["en_US", "en_PH", "en_CA", "es_US"]
        return !locale.isEmpty && !locale.hasPrefix("C") && !locale.hasPrefix("POSIX") && !monthFirst.contains { locale.hasPrefix($0) }
    }
}
