/// Guesses a document's type from its text, title and file name; the user can always override it.
///
/// Each type has cue phrases with weights (a "reference range" says lab far more than "result"
/// does). Only the first page or so of text counts (`bodyLength`): that is where a document
/// says what it is, and a fact sheet that mentions "a therapy discharge summary" on page 2 is not
/// one. A cue counts once however often it occurs; a cue in the heading (the first lines), the
/// title or the file name counts twice. The best type needs `minimumScore`, else `other`.
public enum DocumentTypeGuesser {
    /// The score below which the guess is `other`.
    public static let minimumScore = 5.0
    /// How much of the start of the text counts as heading.
    static let headingLength = 300
    /// How much of the start of the text is looked at (about one page).
    static let bodyLength = 4_000

    /// The most likely type.
    public static func guess(text: String, title: String? = nil, fileName: String? = nil) -> DocumentType {
        let ranked = scores(text: text, title: title, fileName: fileName)
            .sorted { $0.value != $1.value ? $0.value > $1.value : order($0.key) < order($1.key) }
        guard let best = ranked.first, best.value >= minimumScore else { return .other }
        return best.key
    }

    /// Every type's score (types without any cue are absent).
    static func scores(text: String, title: String?, fileName: String?) -> [DocumentType: Double] {
        let body = TextNormalizer.fold(String(text.prefix(bodyLength)))
        let heading = TextNormalizer.fold(String(text.prefix(headingLength)))
            + TextNormalizer.fold(title ?? "")
            + TextNormalizer.fold(fileName.map(stem) ?? "")
        var scores: [DocumentType: Double] = [:]
        for (type, cues) in cues {
            var score = 0.0
            for (phrase, weight) in cues {
                let needle = " \(phrase) "
                if heading.contains(needle) {
                    score += weight * 2
                } else if body.contains(needle) {
                    score += weight
                }
            }
            if score > 0 { scores[type] = score }
        }
        return scores
    }

    /// A file name without its directory and extension.
    private static func stem(_ fileName: String) -> String {
        let base = fileName.split(separator: "/").last.map(String.init) ?? fileName
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return base }
        return String(base[..<dot])
    }

    /// Ties go to the more specific type.
    private static func order(_ type: DocumentType) -> Int {
        DocumentType.allCases.firstIndex(of: type) ?? 0
    }

    /// Cue phrases with weights, folded as `TextNormalizer` folds text (lowercase, no accents, no
    /// punctuation). English first, then Greek (the samples include a Greek referral letter).
    static let cues: [DocumentType: [(String, Double)]] = rawCues.mapValues { cues in
        cues.map { (TextNormalizer.phrase($0.0), $0.1) }
    }

    private static let rawCues: [DocumentType: [(String, Double)]] = [
        .prescription: [
            ("prescription", 5), ("medical prescription", 3), ("rx", 2), ("medicine name", 3),
            ("medication name", 2), ("dispense", 2), ("refills", 3), ("refill", 2), ("sig", 1),
            ("dosage", 1.5), ("tablets", 1), ("capsules", 1), ("take one", 1), ("pharmacy", 1),
            ("prescriber", 2), ("prescribed by", 2), ("dea", 1),
            ("συνταγη", 5), ("ιατρικη συνταγη", 6),
        ],
        .insurance: [
            ("insurance card", 6), ("member id card", 6), ("health insurance", 2), ("member id", 3), ("policy number", 3),
            ("policy no", 3), ("group number", 3), ("member name", 2), ("subscriber", 2),
            ("insurance", 2), ("insurance provider", 2), ("payer", 1), ("coverage", 1), ("copay", 2), ("copays", 2),
            ("explanation of benefits", 5), ("deductible", 1.5), ("plan", 0.5),
            ("ασφαλιση", 2), ("ασφαλιστικη καρτα", 6), ("ασφαλισμενος", 2),
        ],
        .lab: [
            ("lab report", 6), ("laboratory report", 6), ("laboratory", 3), ("test name", 3),
            ("reference range", 4), ("reference ranges", 4), ("reference interval", 4), ("specimen", 2),
            ("sample collected", 3), ("collected", 1), ("result", 1), ("results", 1), ("units", 1),
            ("hemoglobin", 2), ("cholesterol", 2), ("complete blood count", 3), ("cbc", 2),
            ("lipid", 2), ("glucose", 1), ("pathology", 2), ("urinalysis", 3), ("diagnostics", 1),
            ("εργαστηριακες εξετασεις", 3), ("τιμες αναφορας", 4), ("αιματολογικες εξετασεις", 3),
        ],
        .imaging: [
            ("radiology", 4), ("radiology report", 6), ("radiograph", 3), ("x ray", 3), ("xray", 3),
            ("ct scan", 3), ("computed tomography", 3), ("mri", 3), ("magnetic resonance", 3),
            ("ultrasound", 3), ("sonography", 3), ("mammogram", 3), ("mammography", 3),
            ("impression", 2), ("findings", 1.5), ("contrast", 1), ("imaging", 2), ("radiologist", 3),
            ("ακτινογραφια", 4), ("αξονικη τομογραφια", 4), ("μαγνητικη τομογραφια", 4), ("υπερηχογραφημα", 4),
        ],
        .discharge: [
            ("discharge summary", 7), ("discharge", 2), ("date of discharge", 3), ("discharge date", 3),
            ("admission date", 2), ("date of admission", 2), ("hospital course", 3),
            ("discharge instructions", 3), ("discharge condition", 3), ("discharged", 2),
            ("εξιτηριο", 6), ("ενημερωτικο σημειωμα εξοδου", 7),
        ],
        .visit: [
            ("visit summary", 5), ("after visit summary", 6), ("office visit", 4), ("progress note", 4),
            ("clinic note", 4), ("chief complaint", 3), ("history of present illness", 3),
            ("assessment and plan", 3), ("consultation", 2), ("vital signs", 1), ("follow up", 1),
            ("encounter", 2), ("reason for visit", 3),
        ],
        .vaccination: [
            ("vaccination", 4), ("vaccine", 3), ("immunization", 4), ("immunisation", 4),
            ("vaccination record", 6), ("vaccination certificate", 7), ("immunization record", 6),
            ("booster", 2), ("lot number", 2), ("dose 1", 1), ("dose 2", 1),
            ("εμβολιο", 3), ("εμβολιασμος", 4), ("βιβλιαριο εμβολιασμων", 6),
        ],
        .referral: [
            ("referral", 4), ("referral letter", 6), ("reason for referral", 5), ("referred to", 3),
            ("referring physician", 2), ("referring doctor", 2), ("kindly see", 2), ("please see", 1),
            ("παραπεμπτικο", 5), ("παραπεμπτικο σημειωμα", 6), ("παραπομπη", 4), ("παραπεμπω", 3),
        ],
        .bill: [
            ("invoice", 4), ("bill", 2), ("billing statement", 5), ("statement", 1), ("amount due", 4),
            ("balance due", 4), ("total due", 3), ("total charges", 3), ("charges", 1.5),
            ("payment due", 3), ("please pay", 3), ("receipt", 3), ("amount paid", 3),
            ("claim form", 3), ("health insurance claim form", 6),
            ("τιμολογιο", 4), ("αποδειξη πληρωμης", 4),
        ],
    ]
}
