import Foundation
import Testing
@testable import PHRCore

/// Document date guesses: spellings, labels, dates of birth, file names, and the medical corpus.
@Suite struct DocumentDateGuesserTests {
    func guess(_ text: String, fileName: String? = nil, dayFirst: Bool = false) -> String? {
        DocumentDateGuesser.guess(text: text, fileName: fileName, preferDayFirst: dayFirst)?.description
    }

    @Test(.corpus, arguments: [
        ("medical__discharge_summary_citycare.pdf", "2025-04-20"),
        ("medical__health_insurance_card.pdf", "2024-01-01"),  // the effective date, not the date of birth
        ("medical__lab_report_cbc_lipid_3p.pdf", "2026-02-27"),  // "Sample Collected: 27-Feb-2026"
        ("medical__prescription_reportlab_1.pdf", "2025-08-08"),
        ("medical__cms_mln_medical_record_documentation.pdf", "2023-07"),  // "MLN909160 July 2023"
    ])
    func theMedicalCorpusIsDatedRight(_ name: String, _ expected: String) throws {
        let file = ExtractionFixtures.file(name)
        let (_, pages) = try ExtractionFixtures.extract(file.path)
        #expect(guess(pages.map(\.text).joined(separator: "\n"), fileName: file.dest) == expected)
    }

    /// Hand-written page texts with the traps of the medical corpus (Tests/Fixtures/texts).
    @Test(arguments: [
        ("discharge-narrative.txt", "2025-04-20"),
        ("insurance-card.txt", "2024-01-01"),  // the effective date, not the date of birth
        ("lab-report-3-pages.txt", "2026-02-27"),  // "Sample Collected: 27-Feb-2026, 02:25 PM"
        ("prescription-table.txt", "2025-08-08"),
        ("record-keeping-fact-sheet.txt", "2023-07"),  // "FS-909160 July 2023"
    ])
    func theTextFixturesAreDatedRight(_ name: String, _ expected: String) throws {
        let text = try String(contentsOfFile: "\(TestSupport.packageRoot)/Tests/Fixtures/texts/\(name)", encoding: .utf8)
        #expect(guess(text) == expected)
    }

    /// The project's synthetic samples: every one also prints a date of birth and other dates
    /// (Samples/README.md, "What makes the date guess non-trivial").
    @Test(arguments: [
        ("prescription-amoxicillin.pdf", "2025-05-13"),
        ("insurance-card.pdf", "2024-12-16"),
        ("lab-report-cbc-ferritin.pdf", "2025-03-18"),
        ("discharge-summary.pdf", "2025-02-20"),
        ("vaccination-record.pdf", "2025-01-27"),
        ("referral-letter-el.pdf", "2025-03-25"),
        ("imaging-report-chest-xray.pdf", "2025-02-17"),
    ])
    func theSamplesAreDatedRightFromTheirTextAlone(_ name: String, _ expected: String) throws {
        let (_, pages) = try ExtractionFixtures.extract("\(ExtractionFixtures.samples)/\(name)")
        let guess = DocumentDateGuesser.guess(text: pages.map(\.text).joined(separator: "\n"))
        #expect(guess?.description == expected)
        #expect(guess?.label != nil, "the date next to its label, not a lucky unlabelled one")
    }

    @Test(arguments: [
        ("Date: 2025-03-12", "2025-03-12"),
        ("Date: 03/12/2025", "2025-03-12"),
        ("Date: 12.03.2025", "2025-03-12"),
        ("Date: 12 March 2025", "2025-03-12"),
        ("Date: March 12, 2025", "2025-03-12"),
        ("Date: 12-Mar-2025", "2025-03-12"),
        ("Date: 12th March 2025", "2025-03-12"),
        ("Date: Mar. 12th 2025", "2025-03-12"),
        ("Date: 2025/03/12", "2025-03-12"),
        ("Date: 03/12/25", "2025-03-12"),
        ("Date: 13/03/2025", "2025-03-13"),  // 13 cannot be a month: day first
        ("Date: 29.02.2024", "2024-02-29"),
    ])
    func commonSpellingsAreRead(_ text: String, _ expected: String) {
        #expect(guess(text) == expected)
    }

    @Test func impossibleDatesAndLookAlikesAreIgnored() {
        #expect(guess("Date: 2025-02-30") == nil)
        #expect(guess("Date: 29.02.2025") == nil)
        #expect(guess("Hemoglobin 12.0 - 17.5 g/dL, version 1.2.3, ISO 15189:2012, ID HF-2026-04521") == nil)
        #expect(guess("Phone +91-9876543210") == nil)
        #expect(guess("Build 1.12.2025.3") == nil)
    }

    @Test func labelsInOtherLanguagesCount() {
        #expect(guess("Ημερομηνία γέννησης: 22/07/1984\nΗμερομηνία έκδοσης: 25/03/2025\nαπό τις 20/02/2025") == "2025-03-25")
        #expect(guess("Geburtsdatum: 22.07.1984\nDatum: 25.03.2025") == "2025-03-25")
        #expect(guess("Date de naissance : 22/07/1984") == nil)
    }

    @Test func datesOfBirthAreNeverTheDocumentDate() {
        #expect(guess("Date of Birth: 05/15/1985\nPatient seen today.") == nil)
        #expect(guess("DOB 1985-06-15") == nil)
        #expect(guess("D.O.B.: 15.06.1985") == nil)
        #expect(guess("a Male born on 1985-06-15, presented on 2025-04-20") == "2025-04-20")
        #expect(guess("Date of birth\n1985-06-15") == nil)
    }

    @Test func labelledDatesBeatUnlabelledOnes() {
        let text = """
            Clinic newsletter printed 2024-12-01
            Patient: Jane Example   DOB: 1980-01-01
            Sample collected: 2025-02-03 08:15
            Reported: 2025-02-04
            """
        #expect(DocumentDateGuesser.guess(text: text) == DocumentDateGuess(year: 2025, month: 2, day: 3, label: "sample collected"))
        #expect(guess("Seen on 2024-01-01 for a cough.\nDate of service: 2024-02-02") == "2024-02-02")
        #expect(guess("Next appointment: 2025-06-01\nVisit date 2025-05-01") == "2025-05-01")
        #expect(guess("Expiry date: 2027-01-31\n2025-01-31") == "2025-01-31")
    }

    @Test func aLabelOnTheLineAboveCounts() {
        #expect(guess("Report generated 2024-01-01 for review.\nDate of service\n2025-03-12") == "2025-03-12")
    }

    @Test func slashesAreMonthFirstUnlessAskedOtherwise() {
        #expect(guess("Date: 03/04/2025") == "2025-03-04")
        #expect(guess("Date: 03/04/2025", dayFirst: true) == "2025-04-03")
        #expect(guess("Date: 03.04.2025") == "2025-04-03")
    }

    @Test func theFileNameHelpsWhenTheTextHasNoLabelledDate() {
        #expect(guess("", fileName: "/home/me/scans/2025-03-12 blood test.jpg") == "2025-03-12")
        #expect(guess("", fileName: "scan_20250312_0001.pdf") == "2025-03-12")
        #expect(guess("Seen 2024-01-01", fileName: "2025-03-12_lab.pdf") == "2025-03-12")
        #expect(guess("Date: 2024-01-01", fileName: "2025-03-12_lab.pdf") == "2024-01-01")
        #expect(guess("", fileName: "IMG_1234.jpg") == nil)
        #expect(DocumentDateGuesser.guess(text: "", fileName: "2025-03-12.pdf")?.label == "file name")
    }

    @Test func aMonthAndYearAloneIsTheLastResort() {
        #expect(guess("Fact sheet, July 2023") == "2023-07")
        #expect(guess("Fact sheet, July 2023. Issued 2023-08-02") == "2023-08-02")
    }

    @Test func theLabelIsReported() {
        #expect(DocumentDateGuesser.guess(text: "Discharge date: 2025-01-05")?.label == "discharge date")
        #expect(DocumentDateGuesser.guess(text: "Collected on 12 March 2025")?.label == "collected")
        #expect(DocumentDateGuesser.guess(text: "Seen 2025-01-05")?.label == nil)
    }
}
