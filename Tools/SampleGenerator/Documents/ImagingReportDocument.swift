import PHRTypesetting

/// A radiology report for a two-view chest X-ray (type: imaging).
///
/// Document date: "Date of service" 02/17/2025. Distractors: the date of birth and the
/// recommended follow-up window.
struct ImagingReportDocument: SampleDocument {
    let fileName = "imaging-report-chest-xray.pdf"
    private let department = SampleCast.radiology

    var metadata: PDFMetadata {
        PDFMetadata(title: "Radiology report: chest X-ray, 2 views (SAMPLE)",
                    author: "\(department.name), Department of Radiology (fictitious)",
                    subject: "Synthetic sample imaging report for phr, not a real medical record",
                    keywords: "sample, synthetic, radiology, imaging, chest x-ray")
    }

    var template: PageTemplate {
        PageTemplate(source: "\(department.name) · Radiology report · Accession SGH-XR-0000917",
                     runningHeader: "\(SampleCast.patientName) · DOB \(SampleCast.dateOfBirth) · Radiology report (continued)")
    }

    func compose(in flow: DocumentFlow) {
        let accent = department.accent
        Letterhead(organization: department, title: "Radiology Report",
                   subtitle: "Final report · Diagnostic radiography").draw(in: flow)
        flow.fields([
            Field("Patient", SampleCast.patientName),
            Field("Date of service", "02/17/2025", emphasized: true),
            Field("Date of birth", SampleCast.dateOfBirth),
            Field("Accession", "SGH-XR-0000917"),
            Field("MRN", SampleCast.recordNumber),
            Field("Location", "Emergency department"),
            Field("Referring physician", SampleCast.hospitalist),
            Field("Priority", "Urgent"),
        ], columns: 2, boxed: true, after: 12)

        flow.fields([Field("Examination", "XR CHEST, 2 VIEWS (PA AND LATERAL)", emphasized: true)],
                    columns: 1, after: 4)

        flow.heading("Clinical indication", accent: accent)
        flow.paragraph(.plain("Cough and fever to 38.9 °C for three days, right-sided pleuritic chest pain. Evaluate for pneumonia."))

        flow.heading("Comparison", accent: accent)
        flow.paragraph(.plain("None available."))

        flow.heading("Technique", accent: accent)
        flow.paragraph(.plain("Frontal (PA) and lateral radiographs of the chest, obtained upright in full inspiration."))

        flow.heading("Findings", accent: accent)
        for (structure, finding) in [
            ("Lungs", "Patchy and confluent airspace opacity in the right lower lobe, with air bronchograms, obscuring the right hemidiaphragm on the lateral view. The left lung is clear. No pulmonary nodules or masses."),
            ("Pleura", "Trace blunting of the right costophrenic angle, which may be a very small effusion. No pneumothorax."),
            ("Heart and mediastinum", "Normal heart size. Normal mediastinal and hilar contours."),
            ("Bones and soft tissues", "No acute osseous abnormality. Soft tissues unremarkable."),
        ] {
            flow.paragraph(.markup("<b>\(escapeMarkup(structure)):</b> \(escapeMarkup(finding))"), after: 5)
        }

        flow.heading("Impression", accent: accent)
        flow.list([
            .markup("<b>Right lower lobe airspace consolidation, consistent with pneumonia in this clinical setting.</b>"),
            .plain("Possible trace right pleural effusion."),
            .plain("Follow-up chest radiograph in 6 to 8 weeks after treatment is recommended to document resolution."),
        ], numbered: true, after: 8)
        flow.paragraph(.plain("The finding of pneumonia was communicated to \(SampleCast.hospitalist) by telephone at 16:45 on the day of the examination."),
                       style: TextStyle.body.sized(8.5).colored(.muted).spaced(1.1), after: 18)

        Signature(name: SampleCast.radiologist, role: "Diagnostic radiology",
                  caption: "Dictated 16:20 · electronically signed 16:42").draw(in: flow)
    }
}
