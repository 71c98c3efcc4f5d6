import Foundation

/// The words labels and people use for drugs and drug classes, beyond the formal names RxClass
/// gives: the abbreviations labels write ("MAOIs", "NSAIDs"), MeSH's inverted names written the
/// usual way round, "CYP2D6" for "Cytochrome P450 2D6", and the everyday names of allergy
/// classes ("sulfa"). It is a small, fixed vocabulary of naming conventions, not medical data:
/// which drug belongs to which class always comes from RxClass.
enum DrugVocabulary {
    /// Spelled-out class names and the short forms labels and people use for them.
    static let abbreviations: [(phrase: String, short: [String])] = [
        ("monoamine oxidase inhibitor", ["MAOI"]),
        ("selective serotonin reuptake inhibitor", ["SSRI"]),
        ("serotonin reuptake inhibitor", ["SSRI"]),
        ("serotonin uptake inhibitor", ["SSRI"]),
        ("serotonin and norepinephrine reuptake inhibitor", ["SNRI"]),
        ("serotonin norepinephrine reuptake inhibitor", ["SNRI"]),
        ("nonsteroidal anti-inflammatory drug", ["NSAID"]),
        ("non-steroidal anti-inflammatory agent", ["NSAID"]),
        ("nonsteroidal anti-inflammatory agent", ["NSAID"]),
        ("angiotensin converting enzyme inhibitor", ["ACE inhibitor"]),
        ("angiotensin 2 receptor blocker", ["ARB", "angiotensin receptor blocker"]),
        ("proton pump inhibitor", ["PPI"]),
        ("tricyclic antidepressant", ["TCA"]),
        ("hmg-coa reductase inhibitor", ["statin"]),
        ("sulfonamide", ["sulfa"]),
    ]

    /// Class names so broad that a label naming them says nothing about a particular drug.
    static let tooBroad: Set<String> = ["enzyme inhibitor", "drug", "agent", "pharmaceutical preparation"]

    /// Words that only say "this is a drug" in an allergy entry ("penicillin antibiotics").
    static let generic: Set<String> = ["drug", "drugs", "medicine", "medicines", "medication", "medications", "antibiotic",
                                       "antibiotics", "class", "family", "allergy", "allergies", "group", "type"]

    /// A comparison key: lowercase words, the last one singular ("Inhibitors" = "inhibitor").
    static func key(_ term: String) -> String {
        var words = LabelText.words(term)
        if let last = words.last, last.count > 3, last.hasSuffix("s"), !last.hasSuffix("ss") {
            words[words.count - 1] = String(last.dropLast())
        }
        return words.joined(separator: " ")
    }

    /// The ways a label may name a drug class, the class name first.
    static func classTerms(_ drugClass: DrugClass) -> [String] {
        var terms: [String] = []
        func add(_ term: String) {
            let trimmed = term.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, !tooBroad.contains(key(trimmed)),
                  !terms.contains(where: { key($0) == key(trimmed) }) else { return }
            terms.append(trimmed)
        }
        // openFDA writes classes as "Psoralen [EPC]"; RxClass does not, but both may reach here.
        var name = drugClass.name
        if let bracket = name.range(of: " [", options: .backwards), name.hasSuffix("]") { name = String(name[..<bracket.lowerBound]) }
        add(name)
        // MeSH inverts: "Anti-Inflammatory Agents, Non-Steroidal" is "Non-Steroidal Anti-Inflammatory Agents".
        let commaParts = name.components(separatedBy: ", ")
        if commaParts.count == 2 { add("\(commaParts[1]) \(commaParts[0])") }
        // FDA's EPC "Penicillin-class Antibacterial": labels say "penicillins".
        if let range = name.range(of: "-class ", options: .caseInsensitive) { add(String(name[..<range.lowerBound])) }
        // "Cytochrome P450 2D6 Inhibitors" (MoA) and "Cytochrome P-450 CYP2D6 Inhibitors" (MeSH) are "CYP2D6 inhibitors".
        if let regex = try? NSRegularExpression(pattern: "cytochrome p-?450 (?:cyp)?", options: [.caseInsensitive]) {
            let replaced = regex.stringByReplacingMatches(in: name, range: NSRange(name.startIndex..., in: name), withTemplate: "CYP")
            if replaced != name { add(replaced.replacingOccurrences(of: "CYP ", with: "CYP")) }
        }
        // Labels spell it both ways: "serotonin reuptake inhibitors", "serotonin re-uptake inhibitors".
        for term in terms where term.range(of: "reuptake", options: .caseInsensitive) != nil {
            add(term.replacingOccurrences(of: "Reuptake", with: "Re-uptake").replacingOccurrences(of: "reuptake", with: "re-uptake")
                .replacingOccurrences(of: "REUPTAKE", with: "RE-UPTAKE"))
        }
        for term in terms {
            for (phrase, short) in abbreviations where key(phrase) == key(term) {
                short.forEach(add)
            }
        }
        return terms
    }

    /// The ways an allergy entry may name what the person reacts to: as written, without words
    /// like "drugs" or "antibiotics", and the spelled-out class for a short form ("sulfa" is
    /// "sulfonamide", "NSAIDs" is "nonsteroidal anti-inflammatory drug").
    static func allergyTerms(_ substance: String) -> [String] {
        var terms: [String] = []
        func add(_ term: String) {
            guard !term.isEmpty, !terms.contains(where: { key($0) == key(term) }) else { return }
            terms.append(term)
        }
        let trimmed = LabelText.collapse(substance)
        add(trimmed)
        let words = LabelText.words(trimmed)
        let core = words.filter { !generic.contains($0) }
        if !core.isEmpty && core.count < words.count { add(core.joined(separator: " ")) }
        for term in terms {
            for (phrase, short) in abbreviations where short.contains(where: { key($0) == key(term) }) {
                add(phrase)
            }
        }
        return terms
    }
}
