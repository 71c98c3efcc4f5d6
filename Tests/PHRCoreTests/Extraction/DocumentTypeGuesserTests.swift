import Foundation
import Testing
@testable import PHRCore

/// Document type guesses on the medical corpus, on hand-written texts with its traps, and on
/// obviously typed synthetic documents.
@Suite struct DocumentTypeGuesserTests {
    @Test(.corpus, arguments: [
        ("medical__discharge_summary_citycare.pdf", DocumentType.discharge),
        ("medical__health_insurance_card.pdf", .insurance),
        ("medical__lab_report_cbc_lipid_3p.pdf", .lab),
        ("medical__prescription_reportlab_1.pdf", .prescription),
        // A Medicare fact sheet about record keeping: it mentions claims, billing, lab orders and
        // referring physicians in passing, and is none of them.
        ("medical__cms_mln_medical_record_documentation.pdf", .other),
    ])
    func theMedicalCorpusIsTypedRight(_ name: String, _ expected: DocumentType) throws {
        let file = ExtractionFixtures.file(name)
        let (summary, pages) = try ExtractionFixtures.extract(file.path)
        let text = pages.map(\.text).joined(separator: "\n")
        #expect(DocumentTypeGuesser.guess(text: text, title: summary.metadata.title, fileName: file.dest) == expected)
    }

    /// Hand-written page texts with the traps of the medical corpus (Tests/Fixtures/texts).
    @Test(arguments: [
        ("discharge-narrative.txt", DocumentType.discharge),
        ("insurance-card.txt", .insurance),
        ("lab-report-3-pages.txt", .lab),
        ("prescription-table.txt", .prescription),
        // About record keeping: it mentions claims, billing, lab orders and referring physicians
        // in passing, and is none of them.
        ("record-keeping-fact-sheet.txt", .other),
    ])
    func theTextFixturesAreTypedRight(_ name: String, _ expected: DocumentType) throws {
        let text = try String(contentsOfFile: "\(TestSupport.packageRoot)/Tests/Fixtures/texts/\(name)", encoding: .utf8)
        #expect(DocumentTypeGuesser.guess(text: text) == expected)
    }

    /// The project's synthetic samples (Samples/README.md lists the expected answers), one in Greek.
    @Test(arguments: [
        ("prescription-amoxicillin.pdf", DocumentType.prescription),
        ("insurance-card.pdf", .insurance),
        ("lab-report-cbc-ferritin.pdf", .lab),
        ("discharge-summary.pdf", .discharge),
        ("vaccination-record.pdf", .vaccination),
        ("referral-letter-el.pdf", .referral),
        ("imaging-report-chest-xray.pdf", .imaging),
    ])
    func theSamplesAreTypedRightFromTheirTextAlone(_ name: String, _ expected: DocumentType) throws {
        let (summary, pages) = try ExtractionFixtures.extract("\(ExtractionFixtures.samples)/\(name)")
        #expect(summary.outcome == .indexed)
        #expect(DocumentTypeGuesser.guess(text: pages.map(\.text).joined(separator: "\n")) == expected)
    }

    @Test(arguments: [
        ("Rx\nPatient: Jane Example\nAmoxicillin 500 mg capsules\nSig: take one capsule three times daily\nDispense: 21\nRefills: 0", DocumentType.prescription),
        ("Member ID: XJ-4411\nGroup number: 7781\nSubscriber: Jane Example\nCopay: $20 primary care", .insurance),
        ("Laboratory report\nSpecimen: serum\nTest name  Result  Units  Reference range\nGlucose  92  mg/dL  70-99", .lab),
        ("Radiology report\nExam: chest X-ray, two views\nFindings: lungs are clear.\nImpression: no acute disease.", .imaging),
        ("Discharge summary\nAdmission date: 2025-01-02\nDischarge date: 2025-01-05\nHospital course: uneventful.", .discharge),
        ("Office visit\nChief complaint: sore throat\nHistory of present illness: three days.\nAssessment and plan: rest.", .visit),
        ("Immunization record\nVaccine: influenza, quadrivalent\nLot number: AB123\nDose 1 administered 2024-10-01", .vaccination),
        ("Referral letter\nDear colleague, kindly see Ms Example.\nReason for referral: persistent knee pain.", .referral),
        ("Invoice 2291\nTotal charges: $180.00\nAmount due: $40.00\nPlease pay by 2025-04-01", .bill),
        ("Notes from the support group meeting. We talked about sleep and walking.", .other),
        ("", .other),
    ])
    func obviouslyTypedDocumentsAreTypedRight(_ text: String, _ expected: DocumentType) {
        #expect(DocumentTypeGuesser.guess(text: text) == expected)
    }

    @Test func theFileNameAndTitleAreHints() {
        #expect(DocumentTypeGuesser.guess(text: "", fileName: "/scans/2025-03-12 lab report.pdf") == .lab)
        #expect(DocumentTypeGuesser.guess(text: "", fileName: "vaccination_certificate.jpg") == .vaccination)
        #expect(DocumentTypeGuesser.guess(text: "", title: "Discharge summary") == .discharge)
        #expect(DocumentTypeGuesser.guess(text: "", fileName: "IMG_2041.jpg") == .other)
    }

    @Test func accentsAndCaseDoNotMatter() {
        #expect(DocumentTypeGuesser.guess(text: "DISCHARGE SUMMARY – Hôpital") == .discharge)
        #expect(TextNormalizer.fold("X-Ray: Résumé!") == " x ray resume ")
    }
}
