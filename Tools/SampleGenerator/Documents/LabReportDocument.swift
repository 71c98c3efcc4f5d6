import PHRTypesetting

/// A two-page laboratory report: CBC with differential, then iron studies (type: lab).
///
/// Document date: "Collected" 03/18/2025. Distractors: the date of birth and the "Received" and
/// "Reported" dates. The values describe iron-deficiency anaemia and agree with each other
/// (MCV = Hct / RBC, MCH = Hgb / RBC, saturation = iron / TIBC).
struct LabReportDocument: SampleDocument {
    let fileName = "lab-report-cbc-ferritin.pdf"
    private let lab = SampleCast.laboratory

    var metadata: PDFMetadata {
        PDFMetadata(title: "Laboratory report: CBC and iron studies (SAMPLE)",
                    author: "\(lab.name) (fictitious)",
                    subject: "Synthetic sample laboratory report for phr, not a real medical record",
                    keywords: "sample, synthetic, laboratory, cbc, ferritin, iron")
    }

    var template: PageTemplate {
        PageTemplate(source: "\(lab.name) · Laboratory report · Accession SRL-0000318",
                     runningHeader: "\(SampleCast.patientName) · DOB \(SampleCast.dateOfBirth) · Accession SRL-0000318 · Collected 03/18/2025 · Final report (continued)")
    }

    private static let columns = [
        Table.Column("Test", weight: 3.0),
        Table.Column("Result", weight: 1.0, alignment: .right),
        Table.Column("Flag", weight: 0.7, alignment: .center),
        Table.Column("Reference range", weight: 1.5, alignment: .center),
        Table.Column("Units", weight: 1.1),
    ]

    func compose(in flow: DocumentFlow) {
        Letterhead(organization: lab, title: "Laboratory Report", subtitle: "Final report").draw(in: flow)
        flow.fields([
            Field("Patient", SampleCast.patientName),
            Field("Collected", "03/18/2025 08:12", emphasized: true),
            Field("Date of birth", SampleCast.dateOfBirth),
            Field("Received", "03/18/2025 09:05"),
            Field("Sex", SampleCast.sex),
            Field("Reported", "03/19/2025 14:37"),
            Field("Patient ID", SampleCast.recordNumber),
            Field("Accession", "SRL-0000318"),
            Field("Ordering physician", SampleCast.familyDoctor),
            Field("Specimen", "Whole blood (EDTA); serum"),
            Field("Ordering practice", SampleCast.familyPractice.name),
            Field("Fasting", "Yes, 10 hours"),
        ], columns: 2, boxed: true, after: 14)

        flow.heading("Complete blood count (CBC) with differential", accent: lab.accent)
        flow.table(Table(columns: Self.columns, rows: [
            .values(["White blood cells (WBC)", "6.4", "", "4.0 – 10.5", "×10³/µL"]),
            .values(["Red blood cells (RBC)", "4.62", "", "4.50 – 5.90", "×10⁶/µL"]),
            .values(["Hemoglobin", .alert("11.4"), .alert("L"), "13.2 – 16.6", "g/dL"]),
            .values(["Hematocrit", .alert("35.2"), .alert("L"), "38.3 – 48.6", "%"]),
            .values(["MCV", .alert("76"), .alert("L"), "80 – 100", "fL"]),
            .values(["MCH", .alert("24.7"), .alert("L"), "27.0 – 33.0", "pg"]),
            .values(["MCHC", "32.4", "", "32.0 – 36.0", "g/dL"]),
            .values(["RDW-CV", .alert("16.8"), .alert("H"), "11.5 – 14.5", "%"]),
            .values(["Platelets", "388", "", "150 – 400", "×10³/µL"]),
            .values(["MPV", "9.8", "", "7.5 – 11.5", "fL"]),
            .group("Differential (automated)"),
            .values(["Neutrophils", "58", "", "40 – 75", "%"]),
            .values(["Lymphocytes", "31", "", "20 – 45", "%"]),
            .values(["Monocytes", "7", "", "2 – 10", "%"]),
            .values(["Eosinophils", "3", "", "0 – 6", "%"]),
            .values(["Basophils", "1", "", "0 – 2", "%"]),
            .values(["Neutrophils, absolute", "3.71", "", "1.80 – 7.70", "×10³/µL"]),
            .values(["Lymphocytes, absolute", "1.98", "", "1.00 – 4.80", "×10³/µL"]),
        ]), after: 8)
        flow.paragraph(.plain("Smear review: microcytic, hypochromic red cells with mild anisocytosis; no blasts seen. Iron studies: page 2."),
                       style: TextStyle.body.sized(8.5).colored(.muted).spaced(1.1))

        // Real laboratories print each panel on its own page; the sample keeps that layout so
        // the report has a second page for page-level indexing to find.
        flow.pageBreak()

        flow.heading("Iron studies", accent: lab.accent)
        flow.table(Table(columns: Self.columns, rows: [
            .values(["Iron, serum", .alert("38"), .alert("L"), "65 – 175", "µg/dL"]),
            .values(["Total iron-binding capacity (TIBC)", .alert("452"), .alert("H"), "250 – 450", "µg/dL"]),
            .values(["Unsaturated iron-binding capacity (UIBC)", .alert("414"), .alert("H"), "111 – 343", "µg/dL"]),
            .values(["Transferrin saturation", .alert("8"), .alert("L"), "20 – 50", "%"]),
            .values(["Ferritin", .alert("8"), .alert("L"), "24 – 336", "ng/mL"]),
        ]), after: 12)

        flow.heading("Interpretation", accent: lab.accent)
        flow.paragraph(.plain("Microcytic, hypochromic anemia with low ferritin, low serum iron and low transferrin saturation, with a raised TIBC: the pattern of iron deficiency. Ferritin below 15 ng/mL is highly specific for depleted iron stores. Suggest evaluation for the source of iron loss and a repeat CBC with ferritin 8 to 12 weeks after starting iron replacement."))

        flow.heading("Notes", accent: lab.accent)
        flow.list([
            .plain("Flags: H = above the reference range, L = below the reference range."),
            .plain("Reference ranges are for adult males and are specific to this laboratory and method."),
            .plain("CBC by impedance and flow cytometry; iron and TIBC by colorimetry; ferritin by immunoassay."),
            .plain("Previous result for comparison: hemoglobin 11.1 g/dL on 02/17/2025 (Sample General Hospital)."),
        ], style: TextStyle.body.sized(8.5).spaced(1.1), after: 16)

        flow.paragraph(.markup("<b>End of report.</b> Results were verified and released by the laboratory director."),
                       style: TextStyle.body.sized(8.5), after: 18)
        Signature(name: SampleCast.labDirector, role: "Laboratory director · Clinical pathology",
                  caption: "Released 03/19/2025 14:37").draw(in: flow)
    }
}
