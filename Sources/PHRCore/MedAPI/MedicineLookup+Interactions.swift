import Foundation

/// `phr med check`: medicines against each other and against allergies, from FDA label text
/// and RxNorm/RxClass. NLM's interaction API was discontinued in January 2024, so interactions
/// come from what each medicine's own label says about the others.
extension MedicineLookup {
    /// A medicine as the check sees it: its ingredients and classes, what other labels may
    /// call it, and its own label.
    struct CheckProfile {
        var entry: MedicineEntry
        var details: ConceptDetails?
        var ingredientNames: [String]
        var classes: [DrugClass]
        var label: DrugLabel?
        var labelSource: MedAPISource?
        /// Words a label may use for this medicine, each with why it stands for it.
        var terms: [(term: String, meaning: TermMeaning)]
        /// Comparison keys of the words for this medicine itself: its own label naming them
        /// speaks about itself, not about another medicine.
        var ownKeys: Set<String>

        var name: String { entry.name }
    }

    /// Why a word stands for a medicine.
    enum TermMeaning {
        case ingredient(String)
        case brand(String)
        case drugClass(DrugClass)

        /// "names X, an ingredient of Y", as the end of a sentence about a label section.
        func reason(matched: String, medicine: String) -> String {
            switch self {
            case .ingredient(let ingredient):
                return ingredient.lowercased() == medicine.lowercased() ? "names \(matched)" : "names \(matched), an ingredient of \(medicine)"
            case .brand:
                return "names \(matched)"
            case .drugClass(let drugClass):
                return "names \(matched): \(medicine) is in that class (\(drugClass.name), \(MedicineLookup.classSource(drugClass)))"
            }
        }
    }

    /// Checks every pair of `medicines`, and every medicine against every allergy.
    ///
    /// Between two medicines A and B, a finding is: A's label (boxed warning,
    /// contraindications, warnings, precautions, drug interactions; on Drug Facts labels "Do
    /// not use" and "Ask a doctor or pharmacist") naming one of B's ingredients or
    /// pharmacologic classes, quoted, high for a boxed warning or contraindication and moderate
    /// otherwise; the two sharing an ingredient (the dose adds up) or a specific class (a
    /// duplicated therapy), moderate. An allergy matches a medicine whose ingredient or class
    /// it names (high), whose label warns about it (as the section says), or which shares a
    /// specific class with the allergen (moderate: cross-reactions are possible).
    ///
    /// A medicine that cannot be looked up is still checked by the name it was entered with,
    /// and the report says so; when none can be looked up at all the lookup error is thrown.
    public func check(medicines: [MedicineEntry], allergies: [AllergyEntry]) throws -> InteractionReport {
        let trail = LookupTrail()
        var profiles: [CheckProfile] = []
        var lookupFailures: [MedAPIError] = []
        var seen = Set<String>()
        for entry in medicines where seen.insert(entry.rxcui ?? Self.normalizedName(entry.name)).inserted {
            profiles.append(try profile(entry, trail: trail, failures: &lookupFailures))
        }
        if !profiles.isEmpty, lookupFailures.count == profiles.count, let first = lookupFailures.first {
            throw first
        }

        var findings: [InteractionFinding] = []
        var quiet: [[String]] = []
        for (i, first) in profiles.enumerated() {
            for second in profiles[(i + 1)...] {
                let pair = pairFindings(first, second)
                if pair.isEmpty { quiet.append([first.name, second.name]) }
                findings += pair
            }
        }
        var allergyFindings: [AllergyFinding] = []
        for allergy in allergies {
            let allergenClasses = try allergenClasses(allergy, trail: trail)
            for profile in profiles {
                if let finding = allergyFinding(allergy, profile, allergenClasses: allergenClasses) { allergyFindings.append(finding) }
            }
        }
        let checked = profiles.map { profile in
            CheckedMedicine(entry: profile.entry, concept: profile.details?.concept, ingredients: profile.ingredientNames,
                            classes: profile.classes.map(\.label), labelTitle: profile.label?.title,
                            labelSetID: profile.label?.setID)
        }
        return InteractionReport(medicines: checked, allergies: allergies,
                                 findings: findings.enumerated().sorted { lhs, rhs in
                                     lhs.element.severity != rhs.element.severity ? lhs.element.severity > rhs.element.severity
                                         : lhs.offset < rhs.offset
                                 }.map(\.element),
                                 allergyFindings: allergyFindings.enumerated().sorted { lhs, rhs in
                                     lhs.element.severity != rhs.element.severity ? lhs.element.severity > rhs.element.severity
                                         : lhs.offset < rhs.offset
                                 }.map(\.element),
                                 pairsWithoutFindings: quiet, sources: trail.sources, notices: trail.notices,
                                 disclaimer: MedAPIDisclaimer.text)
    }

    // MARK: Profiles

    func profile(_ entry: MedicineEntry, trail: LookupTrail, failures: inout [MedAPIError]) throws -> CheckProfile {
        var details: ConceptDetails?
        do {
            details = try resolve(entry.rxcui.map { .rxcui($0) } ?? .name(entry.name), trail: trail)
        } catch let error as MedAPIError {
            switch error {
            case .noSuchMedicine, .unknownCode:
                trail.notice("\(entry.name) is not in RxNorm; it was checked by its name as entered")
            case _ where error.allowsCacheFallback:
                failures.append(error)
                trail.notice("\(entry.name) could not be looked up (\(error.localizedDescription)); it was checked by its name only")
            default:
                throw error
            }
        }
        var ingredientNames = details?.ingredients.map(\.name) ?? []
        if ingredientNames.isEmpty { ingredientNames = [details?.concept.name ?? LabelText.collapse(entry.name)] }

        var classes: [DrugClass] = []
        try secondary("drug classes for \(entry.name)", trail) {
            classes = try pharmacologicClasses(ingredientNames: ingredientNames, trail: trail)
        }
        var label: (label: DrugLabel, source: MedAPISource)?
        try secondary("FDA label for \(entry.name)", trail) {
            label = try self.label(for: details, name: details?.concept.name ?? entry.name, trail: trail)
        }
        if label == nil && details != nil && !trail.notices.contains(where: { $0.hasPrefix("no FDA label for \(entry.name)") }) {
            trail.notice("openFDA has no label for \(entry.name); only the other medicines' labels speak about it")
        }

        var terms: [(String, TermMeaning)] = []
        var ownKeys = Set<String>()
        for ingredient in ingredientNames {
            terms.append((ingredient, .ingredient(ingredient)))
            ownKeys.insert(DrugVocabulary.key(ingredient))
        }
        if let brand = details?.concept, brand.tty == "BN" {
            terms.append((brand.name, .brand(brand.name)))
            ownKeys.insert(DrugVocabulary.key(brand.name))
        }
        for drugClass in classes {
            for term in DrugVocabulary.classTerms(drugClass) {
                terms.append((term, .drugClass(drugClass)))
                ownKeys.insert(DrugVocabulary.key(term))
            }
        }
        return CheckProfile(entry: entry, details: details, ingredientNames: ingredientNames, classes: classes,
                            label: label?.label, labelSource: label?.source, terms: terms, ownKeys: ownKeys)
    }

    /// "RxClass EPC", "RxClass ATC N06AB".
    static func classSource(_ drugClass: DrugClass) -> String {
        drugClass.type == "ATC1-4" ? "RxClass ATC \(drugClass.id)" : "RxClass \(drugClass.type)"
    }

    // MARK: Pairs

    func pairFindings(_ a: CheckProfile, _ b: CheckProfile) -> [InteractionFinding] {
        var findings: [InteractionFinding] = []
        let sharedIngredients = Set(a.ingredientNames.map { $0.lowercased() }).intersection(b.ingredientNames.map { $0.lowercased() })
        for ingredient in sharedIngredients.sorted() {
            findings.append(InteractionFinding(kind: .sameIngredient, severity: .moderate, medicines: [a.name, b.name],
                                               section: nil, term: ingredient,
                                               reason: "both contain \(ingredient): taking both adds up the dose",
                                               quote: nil, source: nil, dailyMedURL: nil))
        }
        if sharedIngredients.isEmpty {
            let bSpecific = Set(b.classes.filter(\.isSpecific).map { "\($0.type) \($0.id)" })
            for drugClass in a.classes where drugClass.isSpecific && bSpecific.contains("\(drugClass.type) \(drugClass.id)") {
                findings.append(InteractionFinding(kind: .sameClass, severity: .moderate, medicines: [a.name, b.name],
                                                   section: nil, term: drugClass.name,
                                                   reason: "both are in the class \(drugClass.name) (\(Self.classSource(drugClass))): a duplicated therapy",
                                                   quote: nil, source: nil, dailyMedURL: nil))
                break
            }
        }
        findings += labelFindings(speaker: a, about: b)
        findings += labelFindings(speaker: b, about: a)
        return findings
    }

    /// Where `speaker`'s label names `about`: the first mention in each section read.
    func labelFindings(speaker: CheckProfile, about: CheckProfile) -> [InteractionFinding] {
        guard let label = speaker.label else { return [] }
        var meanings: [String: TermMeaning] = [:]
        var terms: [String] = []
        for (term, meaning) in about.terms where !speaker.ownKeys.contains(DrugVocabulary.key(term)) && meanings[term] == nil {
            meanings[term] = meaning
            terms.append(term)
        }
        guard !terms.isEmpty else { return [] }
        var findings: [InteractionFinding] = []
        for section in LabelSection.allCases {
            guard let severity = section.interactionSeverity else { continue }
            let text = label.text(section).joined(separator: " ")
            guard !text.isEmpty, let mention = LabelText.firstMention(of: terms, in: text) else { continue }
            let why = meanings[mention.term]?.reason(matched: mention.matched, medicine: about.name) ?? "names \(mention.matched)"
            findings.append(InteractionFinding(kind: .labelMention, severity: severity, medicines: [speaker.name, about.name],
                                               section: section.title, term: mention.matched,
                                               reason: "the \(speaker.name) label's \(section.title) \(why)",
                                               quote: mention.quote, source: speaker.labelSource, dailyMedURL: label.dailyMedURL))
        }
        return findings
    }

    // MARK: Allergies

    /// The specific classes of the allergen itself, when RxClass knows it as a drug ("ampicillin"
    /// is a Penicillin-class Antibacterial); empty for anything else ("peanuts", "latex").
    func allergenClasses(_ allergy: AllergyEntry, trail: LookupTrail) throws -> [DrugClass] {
        var classes: [DrugClass] = []
        for term in DrugVocabulary.allergyTerms(allergy.substance).prefix(2) where classes.isEmpty {
            try secondary("drug classes for the allergy to \(allergy.substance)", trail) {
                classes = try self.classes(ofDrug: term, trail: trail).filter(\.isSpecific)
            }
        }
        return classes
    }

    func allergyFinding(_ allergy: AllergyEntry, _ medicine: CheckProfile, allergenClasses: [DrugClass]) -> AllergyFinding? {
        let terms = DrugVocabulary.allergyTerms(allergy.substance)
        let substance = LabelText.collapse(allergy.substance)
        var finding: AllergyFinding?

        // The allergen is (or contains) one of the medicine's ingredients.
        for ingredient in medicine.ingredientNames where finding == nil {
            if terms.contains(where: { LabelText.mentions($0, in: ingredient) }) || LabelText.mentions(ingredient, in: substance) {
                let reason = ingredient.lowercased() == medicine.name.lowercased() ? "\(medicine.name) is \(ingredient)"
                    : "\(medicine.name) contains \(ingredient)"
                finding = AllergyFinding(allergy: substance, medicine: medicine.name, severity: .high, matched: ingredient,
                                         reason: reason, quote: nil, section: nil, source: nil)
            }
        }
        // The allergy names a class the medicine belongs to ("penicillin": Penicillin-class Antibacterial).
        if finding == nil {
            search: for drugClass in medicine.classes {
                for classTerm in DrugVocabulary.classTerms(drugClass) where terms.contains(where: { LabelText.mentions($0, in: classTerm) }) {
                    finding = AllergyFinding(allergy: substance, medicine: medicine.name, severity: .high, matched: drugClass.name,
                                             reason: "\(medicine.ingredientNames.joined(separator: " and ")) is in the class \(drugClass.name) (\(Self.classSource(drugClass)))",
                                             quote: nil, section: nil, source: nil)
                    break search
                }
            }
        }
        // The allergen is a drug of the same specific class: cross-reactions are possible.
        if finding == nil {
            let medicineClasses = Set(medicine.classes.filter(\.isSpecific).map { "\($0.type) \($0.id)" })
            if let shared = allergenClasses.first(where: { medicineClasses.contains("\($0.type) \($0.id)") }) {
                finding = AllergyFinding(allergy: substance, medicine: medicine.name, severity: .moderate, matched: shared.name,
                                         reason: "\(substance) and \(medicine.ingredientNames.joined(separator: " and ")) are both in the class \(shared.name) (\(Self.classSource(shared))): cross-reactions are possible",
                                         quote: nil, section: nil, source: nil)
            }
        }
        // What the medicine's label says about the allergen: evidence for a finding, or a finding of its own.
        if let label = medicine.label {
            for section in [LabelSection.boxedWarning, .contraindications, .doNotUse, .warningsAndCautions, .warnings, .askDoctor] {
                let text = label.text(section).joined(separator: " ")
                guard !text.isEmpty, let mention = LabelText.firstMention(of: terms, in: text) else { continue }
                if finding == nil {
                    let severity: FindingSeverity = section.interactionSeverity == .high ? .high : .moderate
                    finding = AllergyFinding(allergy: substance, medicine: medicine.name, severity: severity, matched: mention.matched,
                                             reason: "the \(medicine.name) label's \(section.title) names \(mention.matched)",
                                             quote: nil, section: nil, source: nil)
                }
                finding?.quote = mention.quote
                finding?.section = section.title
                finding?.source = medicine.labelSource
                break
            }
        }
        return finding
    }
}
