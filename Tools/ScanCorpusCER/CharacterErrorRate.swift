import Foundation

/// The character error rate of OCR text against a known truth, by the rules of
/// Tools/ScanCorpus/cer.py (used by the accuracy tests and `make bench`): Levenshtein distance
/// over the normalised texts, in Unicode scalars, divided by the normalised truth's length.
///
/// Normalising folds what a reader cannot tell apart and the truth never uses: NFKC (ligatures
/// such as U+FB01 become "fi"), typographic quotes and dashes to ASCII, every run of whitespace
/// (line breaks and form feeds included) to one space, no leading or trailing space. Case and
/// punctuation count.
public enum CharacterErrorRate {
    public static let folded: [Unicode.Scalar: Unicode.Scalar] = [
        "\u{2018}": "'", "\u{2019}": "'", "\u{201A}": "'", "\u{2032}": "'",
        "\u{201C}": "\"", "\u{201D}": "\"", "\u{201E}": "\"", "\u{2033}": "\"",
        "\u{2010}": "-", "\u{2011}": "-", "\u{2012}": "-", "\u{2013}": "-", "\u{2014}": "-", "\u{2212}": "-",
    ]

    public static func normalise(_ text: String) -> [Unicode.Scalar] {
        var out: [Unicode.Scalar] = []
        var pendingSpace = false
        for scalar in text.precomposedStringWithCompatibilityMapping.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace { out.append(" ") }
            pendingSpace = false
            out.append(folded[scalar] ?? scalar)
        }
        return out
    }

    /// Levenshtein distance: insertions, deletions and substitutions cost 1 each.
    public static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            let x = a[i - 1]
            for j in 1...b.count {
                let substitution = previous[j - 1] + (x == b[j - 1] ? 0 : 1)
                current[j] = min(substitution, min(previous[j], current[j - 1]) + 1)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// Edits needed and the truth's normalised length, for adding up over several pages.
    public static func errors(ocr: String, truth: String) -> (edits: Int, length: Int) {
        let reference = normalise(truth)
        return (distance(normalise(ocr), reference), reference.count)
    }

    public static func rate(ocr: String, truth: String) -> Double {
        let (edits, length) = errors(ocr: ocr, truth: truth)
        return Double(edits) / Double(max(1, length))
    }
}
