import PHRTypesetting

/// A hospital discharge summary after a pneumonia admission (type: discharge).
///
/// Document date: "Discharge date" 02/20/2025. Distractors: the date of birth, the admission
/// date 02/17/2025, last-dose dates and the follow-up appointment 02/27/2025.
struct DischargeSummaryDocument: SampleDocument {
    let fileName = "discharge-summary.pdf"
    private let hospital = SampleCast.hospital

    var metadata: PDFMetadata {
        PDFMetadata(title: "Discharge summary: community-acquired pneumonia (SAMPLE)",
                    author: "\(hospital.name) (fictitious)",
                    subject: "Synthetic sample discharge summary for phr, not a real medical record",
                    keywords: "sample, synthetic, discharge summary, pneumonia")
    }

    var template: PageTemplate {
        PageTemplate(source: "\(hospital.name) · Discharge summary · Encounter SGH-ENC-0000217",
                     runningHeader: "\(SampleCast.patientName) · DOB \(SampleCast.dateOfBirth) · MRN \(SampleCast.recordNumber) · Discharge summary (continued)")
    }

    func compose(in flow: DocumentFlow) {
        let accent = hospital.accent
        Letterhead(organization: hospital, title: "Discharge Summary",
                   subtitle: "Inpatient encounter SGH-ENC-0000217").draw(in: flow)
        flow.fields([
            Field("Patient", SampleCast.patientName),
            Field("MRN", SampleCast.recordNumber),
            Field("Date of birth", SampleCast.dateOfBirth),
            Field("Sex", SampleCast.sex),
            Field("Admission date", "02/17/2025"),
            Field("Discharge date", "02/20/2025", emphasized: true),
            Field("Attending physician", SampleCast.hospitalist),
            Field("Primary care", SampleCast.familyDoctor),
            Field("Length of stay", "3 days"),
            Field("Disposition", "Home, self-care"),
        ], columns: 2, boxed: true, after: 12)

        flow.heading("Diagnoses", accent: accent)
        flow.list([
            .markup("<b>Principal:</b> community-acquired pneumonia, right lower lobe (ICD-10 J18.1)"),
            .markup("<b>Secondary:</b> iron-deficiency anemia, newly found (ICD-10 D50.9)"),
            .markup("<b>Secondary:</b> mild dehydration, resolved (ICD-10 E86.0)"),
        ])

        flow.heading("Reason for admission", accent: accent)
        flow.paragraph(.plain("Three days of productive cough, fever to 38.9 °C and right-sided pleuritic chest pain. In the emergency department: respiratory rate 24/min, SpO₂ 91% on room air, WBC 14.2 ×10³/µL, CRP 96 mg/L. Chest radiograph showed right lower lobe consolidation."))

        flow.heading("Hospital course", accent: accent)
        flow.paragraph(.plain("Treated with intravenous ceftriaxone and oral azithromycin, intravenous fluids and supplemental oxygen by nasal cannula. Fever resolved within 36 hours and oxygen was stopped on hospital day 2. Antibiotics were changed to oral amoxicillin-clavulanate on day 3. Admission hemoglobin was 11.1 g/dL with an MCV of 75 fL; iron-deficiency anemia was suspected, oral iron was started and further work-up was left to the primary care physician. No gastrointestinal bleeding was reported. Blood cultures showed no growth at 48 hours."))

        flow.heading("Discharge medications", accent: accent, keep: 90)
        flow.table(Table(columns: [
            Table.Column("Medication", weight: 3.1),
            Table.Column("Dose", weight: 0.85),
            Table.Column("Route", weight: 0.6),
            Table.Column("Frequency", weight: 1.25),
            Table.Column("Status and instructions", weight: 2.4),
        ], rows: [
            .values([.strong("Amoxicillin-clavulanate 875 mg/125 mg tablet"), "1 tablet", "Oral", "Twice daily",
                     "New · 4 more days, last dose 02/24/2025"]),
            .values([.strong("Azithromycin 250 mg tablet"), "1 tablet", "Oral", "Once daily",
                     "New · 2 more days, last dose 02/22/2025"]),
            .values([.strong("Ferrous sulfate 325 mg tablet (65 mg iron)"), "1 tablet", "Oral", "Once daily",
                     "New · with water or juice, not with tea, coffee or antacids"]),
            .values([.strong("Acetaminophen 500 mg tablet"), "1–2 tablets", "Oral", "Every 6 hours as needed",
                     "Continue · for fever or pain, at most 3,000 mg a day"]),
            .values([.strong("Cetirizine 10 mg tablet"), "1 tablet", "Oral", "Once daily as needed",
                     "Continue · home medication for hay fever"]),
        ]), after: 10)

        flow.heading("Allergies", accent: accent, keep: 60)
        flow.table(Table(columns: [
            Table.Column("Substance", weight: 2.6),
            Table.Column("Reaction", weight: 2.2),
            Table.Column("Severity", weight: 1),
            Table.Column("Noted", weight: 1.1),
        ], rows: [
            .values([.strong("Sulfonamide antibiotics (sulfamethoxazole-trimethoprim)"), "Hives", "Moderate", "2009"]),
            .values([.strong("Latex"), "Contact dermatitis", "Mild", "2016"]),
        ]), after: 10)

        flow.heading("Follow-up", accent: accent)
        flow.list([
            .plain("Primary care visit with \(SampleCast.familyDoctor), \(SampleCast.familyPractice.name), on 02/27/2025 at 10:30 (Tel \(SampleCast.familyPractice.phone))."),
            .plain("Repeat CBC, iron studies and ferritin about 4 weeks after discharge; the order has been sent to \(SampleCast.laboratory.name)."),
            .plain("Repeat chest radiograph in 6 to 8 weeks to confirm that the consolidation has cleared."),
        ])

        flow.heading("Condition at discharge", accent: accent)
        flow.paragraph(.plain("Stable and improving. Afebrile for 48 hours; SpO₂ 97% on room air; eating and drinking normally; walking independently."))

        flow.heading("Instructions for the patient", accent: accent)
        flow.list([
            .plain("Finish all antibiotic doses, even if you feel well."),
            .plain("Return to the emergency department if you have trouble breathing, chest pain, confusion or a fever above 38.5 °C after 02/23/2025."),
            .plain("Rest at home for one week; you may return to desk work when your energy allows."),
        ], after: 16)

        Signature(name: SampleCast.hospitalist, role: "Attending physician · Hospital medicine",
                  caption: "Electronically signed 02/20/2025 15:10").draw(in: flow)
    }
}
