import PHRTypesetting

/// A printed electronic prescription for amoxicillin 500 mg (type: prescription).
///
/// Document date: "Date of issue" 05/13/2025. Distractors a date guesser must pass over: the
/// date of birth and the "Valid until" date.
struct PrescriptionDocument: SampleDocument {
    let fileName = "prescription-amoxicillin.pdf"
    private let practice = SampleCast.familyPractice

    var metadata: PDFMetadata {
        PDFMetadata(title: "Prescription: amoxicillin 500 mg (SAMPLE)",
                    author: "\(practice.name) (fictitious)",
                    subject: "Synthetic sample prescription for phr, not a real medical record",
                    keywords: "sample, synthetic, prescription, amoxicillin")
    }

    var template: PageTemplate {
        PageTemplate(source: "\(practice.name) · Prescription Rx-0000123-SAMPLE",
                     runningHeader: "\(SampleCast.patientName) · DOB \(SampleCast.dateOfBirth) · Prescription")
    }

    func compose(in flow: DocumentFlow) {
        Letterhead(organization: practice, title: "Prescription",
                   subtitle: "Electronic prescription · patient copy").draw(in: flow)

        flow.fields([
            Field("Patient", SampleCast.patientName),
            Field("Date of issue", "05/13/2025", emphasized: true),
            Field("Date of birth", SampleCast.dateOfBirth),
            Field("Rx number", "Rx-0000123-SAMPLE"),
            Field("Address", SampleCast.address),
            Field("Patient phone", SampleCast.phone),
        ], columns: 2, boxed: true, after: 14)

        flow.heading("Prescriber", accent: practice.accent)
        flow.fields([
            Field("Prescriber", SampleCast.familyDoctor),
            Field("Specialty", "Family medicine"),
            Field("NPI", "0000000000 (sample)"),
            Field("DEA", "XX0000000 (sample)"),
            Field("Practice", practice.name),
            Field("Practice phone", practice.phone),
        ], columns: 2, after: 12)

        flow.heading("Medication", accent: practice.accent, keep: 150)
        drawMedication(in: flow)

        flow.heading("Dispensing pharmacy", accent: practice.accent)
        flow.paragraph(.markup("Sent electronically to <b>\(escapeMarkup(SampleCast.pharmacy))</b>"), after: 3)
        flow.fields([
            Field("Transmission", "e-prescription SMP-000000"),
            Field("Valid until", "11/13/2025"),
        ], columns: 2, after: 12)

        flow.heading("Instructions for the patient", accent: practice.accent)
        flow.list([
            .plain("Take every dose for the full 10 days, even after you feel better."),
            .plain("Amoxicillin can be taken with or without food."),
            .plain("Stop and call the practice at \(practice.phone) if you get a rash, swelling of the face or lips, or difficulty breathing."),
            .plain("Allergies on file: sulfonamide antibiotics (hives), latex (contact dermatitis). No known penicillin allergy."),
        ], after: 18)

        Signature(name: SampleCast.familyDoctor, role: "Family Medicine · \(practice.name)",
                  caption: "Electronically signed 05/13/2025 09:41").draw(in: flow, trailing: true)
    }

    /// The ℞ block: the drug in large type, then the order details as aligned fields.
    private func drawMedication(in flow: DocumentFlow) {
        let canvas = flow.canvas
        let indent = 44.0
        canvas.drawText(.plain("℞"), x: flow.left + 2, y: flow.y - 6,
                        style: TextStyle(family: "Noto Serif", size: 34, color: practice.accent))
        let name = canvas.drawText(.plain("Amoxicillin 500 mg capsule"), x: flow.left + indent, y: flow.y,
                                   style: TextStyle(size: 14, bold: true))
        flow.y += name.height
        let generic = canvas.drawText(.plain("Generic: amoxicillin (as trihydrate) · oral capsule · penicillin-class antibiotic"),
                                      x: flow.left + indent, y: flow.y, style: .small.sized(8.5))
        flow.y += generic.height + 8

        let details = [
            Field("Sig", "Take 1 capsule by mouth twice daily for 10 days"),
            Field("Dispense", "20 (twenty) capsules"),
            Field("Refills", "0 (zero)"),
            Field("Days supply", "10"),
            Field("Substitution", "Generic substitution permitted"),
            Field("Diagnosis", "Streptococcal pharyngitis (ICD-10 J02.0)"),
        ]
        let labelWidth = 86.0
        for field in details {
            let label = TextStyle.body.colored(.muted)
            let value = canvas.measureText(.plain(field.value), width: flow.width - indent - labelWidth, style: .body)
            canvas.drawText(.plain(field.label + ":"), x: flow.left + indent, y: flow.y, width: labelWidth, style: label)
            canvas.drawText(.plain(field.value), x: flow.left + indent + labelWidth, y: flow.y,
                            width: flow.width - indent - labelWidth, style: .body)
            flow.y += value.height + 3
        }
        flow.y += 10
    }
}
