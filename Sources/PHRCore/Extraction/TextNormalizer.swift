import Foundation

/// Text folded for keyword matching: lowercase, without diacritics, every run of characters
/// that are not letters or digits turned into one space, with a space at each end, so that a
/// phrase matches at word boundaries by searching for " phrase ".
enum TextNormalizer {
    static func fold(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var output = " "
        output.reserveCapacity(folded.utf8.count + 2)
        var lastWasSpace = true
        for scalar in folded.unicodeScalars {
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                output.unicodeScalars.append(scalar)
                lastWasSpace = false
            } else if !lastWasSpace {
                output.append(" ")
                lastWasSpace = true
            }
        }
        if !lastWasSpace { output.append(" ") }
        return output
    }

    /// A phrase folded the same way, without the surrounding spaces: the form in which cue and
    /// label tables are compared (so "έκδοσης" in a table matches "ΕΚΔΟΣΗΣ" in a document, final
    /// sigma and all).
    static func phrase(_ text: String) -> String {
        String(fold(text).dropFirst().dropLast())
    }
}
