import Foundation

/// Reading drug-label prose: does a section name a drug or a class, and which sentence says so.
///
/// Matching is by whole words, case-insensitive, with a plural allowed on the last word
/// ("penicillin" finds "penicillins", "NSAID" finds "NSAIDs") and hyphens, slashes and spaces
/// treated alike ("anti-inflammatory" finds "anti inflammatory"). openFDA flattens tables and
/// lists into one run of text, so a "sentence" is cut to a readable window around the match.
public enum LabelText {
    /// Where a term occurs: the term looked for, the words the text used for it, and the
    /// sentence to quote.
    public struct Mention: Sendable, Equatable {
        public var term: String
        public var matched: String
        public var quote: String
    }

    /// The first mention of any of `terms` in `text` (the earliest in the text wins), or nil.
    public static func firstMention(of terms: [String], in text: String) -> Mention? {
        var best: (offset: Int, term: String, range: Range<String.Index>)?
        for term in terms {
            guard let regex = pattern(for: term), let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
                  let range = Range(match.range, in: text) else { continue }
            let offset = text.distance(from: text.startIndex, to: range.lowerBound)
            if best == nil || offset < best!.offset { best = (offset, term, range) }
        }
        guard let best else { return nil }
        return Mention(term: best.term, matched: collapse(String(text[best.range])), quote: sentence(around: best.range, in: text))
    }

    /// Whether `term` occurs in `text` as whole words (plural-tolerant).
    public static func mentions(_ term: String, in text: String) -> Bool {
        guard let regex = pattern(for: term) else { return false }
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// The words of a term, lowercased: "Anti-Inflammatory Agents" -> ["anti", "inflammatory", "agents"].
    static func words(_ term: String) -> [String] {
        term.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    private static let patternCache = PatternCache()

    /// A case-insensitive whole-word pattern for `term`; nil for terms too short to mean anything.
    static func pattern(for term: String) -> NSRegularExpression? {
        if let cached = patternCache.get(term) { return cached }
        let parts = words(term)
        guard !parts.isEmpty, parts.joined().count >= 3 else { return nil }
        var escaped = parts.dropLast().map { NSRegularExpression.escapedPattern(for: $0) }
        let last = parts[parts.count - 1]
        let stem: Substring
        let plural: String
        if last.count > 3 && last.hasSuffix("ies") {
            (stem, plural) = (last.dropLast(3), "(?:y|ies)")
        } else if last.count > 2 && last.hasSuffix("y") {
            (stem, plural) = (last.dropLast(), "(?:y|ies)")
        } else if last.count > 3 && last.hasSuffix("s") && !last.hasSuffix("ss") {
            (stem, plural) = (last.dropLast(), "(?:s|es)?")
        } else {
            (stem, plural) = (Substring(last), last.last?.isLetter == true ? "(?:s|es)?" : "")
        }
        escaped.append(NSRegularExpression.escapedPattern(for: String(stem)) + plural)
        let body = escaped.joined(separator: "[\\s\\-/]+")
        let regex = try? NSRegularExpression(pattern: "(?<![\\p{L}\\p{N}])\(body)(?![\\p{L}\\p{N}])", options: [.caseInsensitive])
        if let regex { patternCache.set(term, regex) }
        return regex
    }

    /// Abbreviations that end in a period without ending a sentence.
    private static let abbreviations: Set<String> = ["e.g", "i.e", "etc", "vs", "approx", "no", "fig", "dr", "inc", "ltd",
                                                     "co", "corp", "st", "al", "ca", "max", "min", "mr", "mrs", "ms"]

    /// The sentence around `range`, whitespace collapsed, cut to a window of about `maxLength`
    /// characters around the match when longer (openFDA's flattened tables make very long ones).
    public static func sentence(around range: Range<String.Index>, in text: String, maxLength: Int = 360) -> String {
        let characters = Array(text)
        let matchStart = text.distance(from: text.startIndex, to: range.lowerBound)
        let matchEnd = text.distance(from: text.startIndex, to: range.upperBound)
        var start = matchStart
        while start > 0 && !isSentenceEnd(characters, at: start - 1) && characters[start - 1] != "•" { start -= 1 }
        var end = matchEnd
        while end < characters.count && !isSentenceEnd(characters, at: end) && characters[end] != "•" { end += 1 }
        if end < characters.count && characters[end] != "•" { end += 1 }
        var prefix = "", suffix = ""
        if end - start > maxLength {
            let before = maxLength * 2 / 5
            let windowStart = max(start, matchStart - before)
            let windowEnd = min(end, windowStart + maxLength)
            if windowStart > start { start = wordBoundary(characters, from: windowStart, forward: true); prefix = "…" }
            if windowEnd < end { end = wordBoundary(characters, from: windowEnd, forward: false); suffix = "…" }
        }
        let slice = String(characters[start..<max(start, end)])
        return prefix + collapse(slice) + suffix
    }

    private static func isSentenceEnd(_ characters: [Character], at index: Int) -> Bool {
        let character = characters[index]
        guard character == "." || character == "!" || character == "?" else { return false }
        var next = index + 1
        guard next == characters.count || characters[next].isWhitespace else { return false }
        while next < characters.count && characters[next].isWhitespace { next += 1 }
        if next < characters.count {
            let following = characters[next]
            guard following.isUppercase || following.isNumber || "([\"“•".contains(following) else { return false }
        }
        guard character == "." else { return true }
        // The word before the period: an abbreviation or a single initial does not end a sentence.
        var wordStart = index
        while wordStart > 0 && (characters[wordStart - 1].isLetter || characters[wordStart - 1] == ".") { wordStart -= 1 }
        let word = String(characters[wordStart..<index]).lowercased()
        if abbreviations.contains(word) || (word.count == 1 && word.first?.isLetter == true) { return false }
        return true
    }

    private static func wordBoundary(_ characters: [Character], from index: Int, forward: Bool) -> Int {
        var position = index
        if forward {
            while position < characters.count && !characters[position].isWhitespace { position += 1 }
            return min(characters.count, position + 1)
        }
        while position > 0 && !characters[position - 1].isWhitespace { position -= 1 }
        return position > 0 ? position - 1 : index
    }

    static func collapse(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Section headings openFDA leaves at the start of a section's text ("1 INDICATIONS AND
    /// USAGE ...", "Uses ..." on Drug Facts labels), removed for display. Only the section's own
    /// headings count, so prose that happens to start with "Use" stays whole. A boxed warning
    /// keeps its title, which says what it is about.
    public static func withoutHeading(_ text: String, section: LabelSection) -> String {
        let collapsed = collapse(text)
        var rest = Substring(collapsed)
        if let number = rest.firstIndex(where: { !$0.isNumber && $0 != "." }), number != rest.startIndex, rest[number] == " " {
            rest = rest[rest.index(after: number)...]
        }
        for heading in headings(section) where rest.count >= heading.count {
            let candidate = rest.prefix(heading.count)
            guard candidate.caseInsensitiveCompare(heading) == .orderedSame else { continue }
            let after = rest.dropFirst(heading.count)
            if after.isEmpty || after.first == " " || after.first == ":" {
                return String(after.drop { $0 == " " || $0 == ":" })
            }
        }
        return collapsed
    }

    /// The headings a section's text may open with, longest first.
    private static func headings(_ section: LabelSection) -> [String] {
        switch section {
        case .boxedWarning: return []
        case .indications: return ["INDICATIONS AND USAGE", "INDICATIONS & USAGE", "INDICATIONS", "USES", "USE"]
        case .contraindications: return ["CONTRAINDICATIONS"]
        case .warnings: return ["WARNINGS"]
        case .warningsAndCautions: return ["WARNINGS AND PRECAUTIONS", "WARNINGS AND CAUTIONS"]
        case .precautions: return ["PRECAUTIONS"]
        case .drugInteractions: return ["DRUG INTERACTIONS"]
        case .dosageFormsAndStrengths: return ["DOSAGE FORMS AND STRENGTHS"]
        case .purpose: return ["PURPOSES", "PURPOSE"]
        case .activeIngredient: return ["ACTIVE INGREDIENTS", "ACTIVE INGREDIENT"]
        case .doNotUse: return ["DO NOT USE"]
        case .askDoctor: return ["ASK A DOCTOR BEFORE USE IF YOU HAVE", "ASK A DOCTOR BEFORE USE"]
        case .askDoctorOrPharmacist: return ["ASK A DOCTOR OR PHARMACIST BEFORE USE IF YOU ARE", "ASK A DOCTOR OR PHARMACIST BEFORE USE"]
        case .whenUsing: return ["WHEN USING THIS PRODUCT"]
        }
    }

    /// The first sentences of `paragraphs`, at most about `maxLength` characters, cut at a
    /// sentence end when there is one, for a short display.
    public static func summary(_ paragraphs: [String], section: LabelSection, maxLength: Int = 400) -> String? {
        let text = paragraphs.map { withoutHeading($0, section: section) }.filter { !$0.isEmpty }.joined(separator: " ")
        guard !text.isEmpty else { return nil }
        guard text.count > maxLength else { return text }
        let characters = Array(text)
        var cut = -1
        for index in stride(from: min(maxLength, characters.count - 1), to: maxLength / 3, by: -1)
        where isSentenceEnd(characters, at: index) {
            cut = index
            break
        }
        if cut > 0 { return String(characters[0...cut]) + " …" }
        return String(characters[0..<wordBoundary(characters, from: maxLength, forward: false)]) + " …"
    }
}

/// Compiled patterns, shared: a check compiles each term once.
private final class PatternCache: @unchecked Sendable {
    private let lock = NSLock()
    private var patterns: [String: NSRegularExpression] = [:]

    func get(_ term: String) -> NSRegularExpression? {
        lock.lock()
        defer { lock.unlock() }
        return patterns[term]
    }

    func set(_ term: String, _ regex: NSRegularExpression) {
        lock.lock()
        defer { lock.unlock() }
        if patterns.count > 2000 { patterns.removeAll() }
        patterns[term] = regex
    }
}
