import PHRTypesetting

/// An immunization record issued by the family practice (type: vaccination).
///
/// Document date: "Date of issue" 01/27/2025. Distractors: the date of birth and nine
/// administration dates in the table, several of them later in the year than the issue date.
struct VaccinationRecordDocument: SampleDocument {
    let fileName = "vaccination-record.pdf"
    private let practice = SampleCast.familyPractice

    var metadata: PDFMetadata {
        PDFMetadata(title: "Immunization record (SAMPLE)",
                    author: "\(practice.name) (fictitious)",
                    subject: "Synthetic sample vaccination record for phr, not a real medical record",
                    keywords: "sample, synthetic, immunization, vaccination")
    }

    var template: PageTemplate {
        PageTemplate(source: "\(practice.name) · Immunization record",
                     runningHeader: "\(SampleCast.patientName) · DOB \(SampleCast.dateOfBirth) · Immunization record (continued)")
    }

    func compose(in flow: DocumentFlow) {
        Letterhead(organization: practice, title: "Immunization Record",
                   subtitle: "Certified copy of the practice's records").draw(in: flow)
        flow.fields([
            Field("Patient", SampleCast.patientName),
            Field("Date of issue", "01/27/2025", emphasized: true),
            Field("Date of birth", SampleCast.dateOfBirth),
            Field("Record number", SampleCast.recordNumber),
            Field("Sex", SampleCast.sex),
            Field("Issued by", SampleCast.nurse),
        ], columns: 2, boxed: true, after: 14)

        flow.heading("Vaccinations administered or recorded", accent: practice.accent)
        let transcribed = Table.Cell.muted("Transcribed")
        let nurse: Table.Cell = "T. Example, RN"
        let doctor: Table.Cell = "J. Sample, MD"
        flow.table(Table(columns: [
            Table.Column("Vaccine", weight: 2.1),
            Table.Column("Dose", weight: 0.75),
            Table.Column("Date given", weight: 1.0),
            Table.Column("Lot number", weight: 1.15),
            Table.Column("Manufacturer", weight: 1.4),
            Table.Column("Route, site", weight: 1.1),
            Table.Column("Given by", weight: 1.25),
        ], rows: [
            .values([.strong("MMR"), "2 of 2", "08/19/1989", "SMPL-M8908", "Sample Biologics", "SC, L arm", transcribed]),
            .values([.strong("Hepatitis B (recombinant)"), "1 of 3", "09/16/1996", "SMPL-H9609", "Example Vaccines",
                     "IM, L deltoid", transcribed]),
            .values([.strong("Hepatitis B (recombinant)"), "2 of 3", "10/21/1996", "SMPL-H9610", "Example Vaccines",
                     "IM, L deltoid", transcribed]),
            .values([.strong("Hepatitis B (recombinant)"), "3 of 3", "03/17/1997", "SMPL-H9703", "Example Vaccines",
                     "IM, L deltoid", transcribed]),
            .values([.strong("Hepatitis A (inactivated)"), "1 of 2", "04/13/2015", "SMPL-A1504", "Sample Biologics",
                     "IM, R deltoid", doctor]),
            .values([.strong("Hepatitis A (inactivated)"), "2 of 2", "10/19/2015", "SMPL-A1510", "Sample Biologics",
                     "IM, R deltoid", doctor]),
            .values([.strong("Tdap"), "Booster", "06/14/2019", "SMPL-T1906", "Example Vaccines", "IM, L deltoid", nurse]),
            .values([.strong("Influenza 2024–25 (inactivated)"), "Annual", "10/14/2024", "SMPL-F2410", "Sample Biologics",
                     "IM, L deltoid", nurse]),
            .values([.strong("COVID-19 mRNA 2024–25"), "Annual", "10/14/2024", "SMPL-C2410", "Example Vaccines",
                     "IM, R deltoid", nurse]),
        ], fontSize: 8), after: 10)

        flow.heading("Next due", accent: practice.accent)
        flow.list([
            .plain("Influenza: every autumn; the 2025–2026 dose from September 2025."),
            .plain("COVID-19: follow the current seasonal recommendation."),
            .plain("Tetanus and diphtheria (Td or Tdap) booster: due 06/2029, ten years after the last dose."),
            .plain("Hepatitis A and hepatitis B series are complete; no boosters are recommended."),
        ])

        flow.heading("Notes", accent: practice.accent)
        flow.paragraph(.plain("Doses marked \u{201C}Transcribed\u{201D} were copied from earlier records provided by the patient. MMR = measles, mumps, rubella; Tdap = tetanus, diphtheria, pertussis; SC = subcutaneous; IM = intramuscular; L/R = left/right. Adverse reactions reported: none."),
                       after: 16)

        // The stamp overlaps the signature, so both must land on the same page.
        flow.ensureSpace(90)
        let signatureTop = flow.y
        Signature(name: SampleCast.nurse, role: "Immunization nurse · \(practice.name)",
                  caption: "Certified true copy, 01/27/2025").draw(in: flow)
        Stamp(lines: ["VERIFIED COPY", practice.name.uppercased()], color: Color(hex: 0x2B4FA8))
            .draw(on: flow.canvas, centerX: flow.right - 120, centerY: signatureTop + 36)
    }
}
