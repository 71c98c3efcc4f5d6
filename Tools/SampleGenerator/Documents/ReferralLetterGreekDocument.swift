import PHRTypesetting

/// A referral letter in Greek from a fictitious internist to a haematologist (type: referral).
///
/// The non-Latin sample: it exercises Greek text extraction, search without diacritics and
/// date guessing on day-first dates. Document date: "Ημερομηνία έκδοσης" (date of issue)
/// 25/03/2025, written DD/MM/YYYY as in Greece. Distractors: the date of birth 22/07/1984 and
/// the lab and treatment dates in the body.
struct ReferralLetterGreekDocument: SampleDocument {
    let fileName = "referral-letter-el.pdf"
    private let clinic = SampleCast.greekClinic

    var metadata: PDFMetadata {
        PDFMetadata(title: "Παραπεμπτικό σημείωμα: αιματολογική εκτίμηση (ΔΕΙΓΜΑ / SAMPLE)",
                    author: "\(clinic.name) (φανταστικό ιατρείο / fictitious clinic)",
                    subject: "Synthetic sample referral letter in Greek for phr, not a real medical record",
                    keywords: "sample, synthetic, referral, greek, δείγμα, παραπεμπτικό")
    }

    var template: PageTemplate {
        PageTemplate(watermark: "ΔΕΙΓΜΑ",
                     notice: "ΔΕΙΓΜΑ — ΔΕΝ ΕΙΝΑΙ ΠΡΑΓΜΑΤΙΚΟ ΙΑΤΡΙΚΟ ΕΓΓΡΑΦΟ · SAMPLE — NOT A REAL RECORD",
                     source: "\(clinic.name) · Παραπεμπτικό σημείωμα",
                     runningHeader: "\(SampleCast.patientNameGreek) · Ημ. γέννησης \(SampleCast.dateOfBirthGreek) · Παραπεμπτικό (συνέχεια)",
                     pageWord: "Σελίδα", ofWord: "από")
    }

    func compose(in flow: DocumentFlow) {
        let accent = clinic.accent
        Letterhead(organization: clinic, title: "Παραπεμπτικό σημείωμα",
                   subtitle: "Παραπομπή σε ειδικό ιατρό").draw(in: flow)
        flow.fields([
            Field("Ασθενής", "\(SampleCast.patientNameGreek) (\(SampleCast.patientName))"),
            Field("Ημερομηνία έκδοσης", "25/03/2025", emphasized: true),
            Field("Ημερομηνία γέννησης", SampleCast.dateOfBirthGreek),
            Field("Αρ. φακέλου", SampleCast.recordNumber),
            Field("Φύλο", "Άρρεν"),
            Field("Τηλέφωνο ασθενούς", SampleCast.phone),
        ], columns: 2, boxed: true, after: 12)

        flow.fields([
            Field("Προς", "Αιματολογικό Ιατρείο Δείγμα · υπόψη Δρ Μαρίας Υπόδειγμα, αιματολόγου"),
            Field("Θέμα", "Παραπομπή για αιματολογική εκτίμηση σιδηροπενικής αναιμίας", emphasized: true),
            Field("Προτεραιότητα", "Τακτική (εντός 4 εβδομάδων)"),
        ], columns: 1, after: 12)

        flow.paragraph(.plain("Αγαπητή συνάδελφε,"), after: 6)
        for paragraph in [
            "Σας παραπέμπω τον ασθενή μας κ. Αλέξη Παράδειγμα, 40 ετών, για αιματολογική εκτίμηση σιδηροπενικής αναιμίας. Η αναιμία διαπιστώθηκε κατά τη νοσηλεία του τον Φεβρουάριο του 2025 για πνευμονία του δεξιού κάτω λοβού, η οποία αντιμετωπίστηκε επιτυχώς με αντιβιοτικά.",
            "Παρά τη λήψη θειικού σιδήρου από του στόματος από τις 20/02/2025, ο πρόσφατος έλεγχος της 18/03/2025 δείχνει επιμένουσα μικροκυτταρική αναιμία με πολύ χαμηλή φερριτίνη (βλ. πίνακα). Ο ασθενής δεν αναφέρει εμφανή αιμορραγία από το πεπτικό ή άλλη απώλεια αίματος.",
            "Παρακαλώ για τη διερεύνηση της αιτιολογίας και για τις θεραπευτικές σας οδηγίες, συμπεριλαμβανομένης της πιθανής ανάγκης για ενδοφλέβια χορήγηση σιδήρου.",
        ] {
            flow.paragraph(.plain(paragraph), after: 7)
        }

        flow.heading("Πρόσφατες εργαστηριακές εξετάσεις", accent: accent, keep: 70)
        flow.table(Table(columns: [
            Table.Column("Εξέταση", weight: 2.6),
            Table.Column("Αποτέλεσμα", weight: 1.1, alignment: .right),
            Table.Column("Τιμές αναφοράς", weight: 1.4, alignment: .center),
            Table.Column("Μονάδες", weight: 0.9),
            Table.Column("Ημερομηνία", weight: 1.1),
        ], rows: [
            .values(["Αιμοσφαιρίνη", .alert("11,4"), "13,2 – 16,6", "g/dL", "18/03/2025"]),
            .values(["Μέσος όγκος ερυθρών (MCV)", .alert("76"), "80 – 100", "fL", "18/03/2025"]),
            .values(["Φερριτίνη", .alert("8"), "24 – 336", "ng/mL", "18/03/2025"]),
            .values(["Κορεσμός τρανσφερρίνης", .alert("8"), "20 – 50", "%", "18/03/2025"]),
        ]), after: 10)

        flow.heading("Αγωγή και αλλεργίες", accent: accent)
        flow.fields([
            Field("Τρέχουσα αγωγή", "θειικός σίδηρος 325 mg, 1 δισκίο ημερησίως, από 20/02/2025· σετιριζίνη 10 mg, 1 δισκίο επί ανάγκης"),
            Field("Αλλεργίες", "σουλφοναμίδες (κοτριμοξαζόλη): κνίδωση, μέτριας βαρύτητας· λάτεξ: δερματίτιδα εξ επαφής, ήπια"),
        ], columns: 1, after: 12)

        // The closing belongs with the signature; neither should start a page alone.
        flow.ensureSpace(110)
        flow.paragraph(.plain("Με εκτίμηση,"), after: 10)
        Signature(name: "Δρ Νίκος Δείγμα", role: "Παθολόγος · \(clinic.name) · Αρ. μητρώου 000000 (δείγμα)",
                  caption: "Υπογραφή και σφραγίδα ιατρού").draw(in: flow, width: 250)
    }
}
