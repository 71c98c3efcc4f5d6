import Foundation
import Testing
@testable import PHRCore

/// `phr emergency --pdf`: the wallet card at ID-1 size, front and back, then a full page.
@Suite struct EmergencyCardPDFTests {
    static func write(_ fixture: ShareFixture, paper: Paper = .a4) throws -> EmergencyCardPDF.Result {
        let card = try EmergencyCard.build(vault: fixture.vault, profile: fixture.profile, time: fixture.time)
        return try EmergencyCardPDF.write(card, to: "\(fixture.directory)/card.pdf", paper: paper, replace: false, time: fixture.time,
                                          generator: "phr tests")
    }

    @Test func cardSidesAreWalletSizedAndThePageHasTheSameFacts() throws {
        let fixture = try ShareFixture(label: "card", documents: [])
        defer { fixture.remove() }
        let result = try Self.write(fixture)
        #expect(result.pages == 3)
        // ISO/IEC 7810 ID-1: 85.60 x 53.98 mm.
        for page in [1, 2] {
            let size = try PDFTools.pageSize(result.path, page: page)
            #expect(abs(size.width - 85.60 * 72 / 25.4) < 0.05 && abs(size.height - 53.98 * 72 / 25.4) < 0.05, "page \(page): \(size)")
        }
        let page = try PDFTools.pageSize(result.path, page: 3)
        #expect(abs(page.width - 595.276) < 0.01 && abs(page.height - 841.89) < 0.01)

        let front = try PDFTools.text(result.path, first: 1, last: 1)
        for fact in ["Alex Example", "A+", "Penicillin", "Iron-deficiency anemia"] { #expect(front.contains(fact), "front: \(fact)") }
        let back = try PDFTools.text(result.path, first: 2, last: 2)
        for fact in ["Ferrous", "325 mg", "Cetirizine", "Sam Example", "555-0101"] { #expect(back.contains(fact), "back: \(fact)") }
        let full = try PDFTools.text(result.path, first: 3, last: 3)
        for fact in ["Alex Example", "A+", "Penicillin", "anaphylaxis", "Ferrous sulfate", "Sam Example", "555-0101"] {
            #expect(full.contains(fact), "full page: \(fact)")
        }
        #expect(try PDFTools.pagesWithInkNearEdges(result.path, band: 24).filter { $0 == 3 }.isEmpty)
        #expect(try PDFTools.outline(result.path).map(\.title) == ["Wallet card, front", "Wallet card, back", "Emergency information"])
    }

    @Test func longListsAreShortenedOnTheCardButCompleteOnThePage() throws {
        let fixture = try ShareFixture(label: "card-long", documents: [])
        defer { fixture.remove() }
        let medications = MedicationStore(vault: fixture.vault, profile: fixture.profile, time: fixture.time)
        for index in 1...40 {
            var input = MedicationStore.Input()
            input.name = "Longname-medication-\(index)"
            input.dose = "\(index) mg"
            input.times = "08:00,20:00"
            try medications.add(input)
        }
        let result = try Self.write(fixture, paper: .letter)
        let back = try PDFTools.text(result.path, first: 2, last: 2)
        #expect(back.contains("more, see the full page"))
        #expect(back.contains("Sam Example"), "the contacts keep their place")
        let rest = try PDFTools.text(result.path, first: 3, last: result.pages)
        for index in 1...40 { #expect(rest.contains("Longname-medication-\(index) "), "\(index)") }
        let page = try PDFTools.pageSize(result.path, page: 3)
        #expect(page.width == 612 && page.height == 792)
        #expect(try PDFTools.pagesWithInkNearEdges(result.path).filter { $0 >= 3 }.isEmpty)
    }

    static let notes = "Pacemaker (Medtronic Azure XT DR MRI SureScan) implanted 2019 for complete heart block: no MRI without cardiology "
        + "clearance, no diathermy. Epilepsy since childhood, last seizure 2023; rescue buccal midazolam 10 mg in the blue bag. "
        + "Type 1 diabetes with insulin pump; if found confused check glucose first. Advance directive on file with Dr. Gray. "
        + "Lives alone; spare key with the neighbour at number 12."
    static let allergies = ["Penicillin", "Sulfonamides", "Latex", "Peanuts", "Iodinated contrast", "Aspirin", "Codeine", "Shellfish"]
    static let conditions = ["Complete heart block", "Epilepsy", "Type 1 diabetes", "Asthma", "Hypertension", "Chronic kidney disease stage 3",
                             "Hypothyroidism", "Atrial fibrillation", "Glaucoma", "Osteoporosis"]
    static let medications = ["Levetiracetam", "Insulin-aspart", "Lisinopril", "Levothyroxine", "Apixaban", "Salbutamol", "Latanoprost",
                              "Alendronate", "Metoprolol", "Atorvastatin", "Furosemide", "Omeprazole"]
    static let contacts = [("Jane Doe", "sister", "+1 555 0100 123"), ("Dr. Gray", "GP", "+44 20-7946-0958"),
                           ("Sam Example-Longname", "partner", "+1 (555) 010-2233")]

    /// A medical ID with long notes, and many records of each kind.
    static func fillUp(_ fixture: ShareFixture) throws {
        var id = MedicalIDStore.Input()
        id.name = "Alex Example"
        id.dateOfBirth = "1984-07-22"
        id.bloodType = "O+"
        id.organDonor = "yes"
        id.notes = notes
        try MedicalIDStore(vault: fixture.vault, profile: fixture.profile, time: fixture.time).set(id)
        for substance in allergies {
            var input = AllergyStore.Input()
            input.substance = substance
            input.severity = "severe"
            input.reaction = "anaphylaxis with throat swelling"
            try AllergyStore(vault: fixture.vault, profile: fixture.profile, time: fixture.time).add(input)
        }
        for name in conditions {
            var input = ConditionStore.Input()
            input.name = name
            try ConditionStore(vault: fixture.vault, profile: fixture.profile, time: fixture.time).add(input)
        }
        for name in medications {
            var input = MedicationStore.Input()
            input.name = name
            input.dose = "500 mg"
            input.times = "08:00,20:00"
            try MedicationStore(vault: fixture.vault, profile: fixture.profile, time: fixture.time).add(input)
        }
        for (name, relation, phone) in contacts {
            var input = ContactStore.Input()
            input.name = name
            input.relation = relation
            input.phone = phone
            input.emergency = true
            try ContactStore(vault: fixture.vault, profile: fixture.profile, time: fixture.time).add(input)
        }
    }

    /// A clinician gets one sheet: long notes (a pacemaker) and many records still fit the full
    /// page, the notes on it with the name, not alone on a page after it.
    @Test func aFullMedicalIDWithLongNotesFitsOnePage() throws {
        let fixture = try ShareFixture(label: "card-full", documents: [], records: false)
        defer { fixture.remove() }
        try Self.fillUp(fixture)
        let result = try Self.write(fixture)
        #expect(result.pages == 3, "the full page spilled onto \(result.pages - 2) pages")
        let page = try PDFTools.text(result.path, first: 3, last: 3).replacingOccurrences(of: "\n", with: " ")
        for fact in ["Alex Example", "O+", "Pacemaker", "Advance directive on file"] + Self.allergies + Self.conditions + Self.medications {
            #expect(page.contains(fact), "full page: \(fact)")
        }
        #expect(try PDFTools.pagesWithInkNearEdges(result.path).filter { $0 >= 3 }.isEmpty)
    }

    /// A number broken after a hyphen or a space reads as two numbers: on the wallet card each
    /// stays on one line, wherever the text before it ends (here "+44" used to end a line).
    @Test func phoneNumbersAreNeverSplitOnTheWalletCard() throws {
        let fixture = try ShareFixture(label: "card-phones", documents: [], records: false)
        defer { fixture.remove() }
        try Self.fillUp(fixture)
        let result = try Self.write(fixture)
        let back = try PDFTools.text(result.path, first: 2, last: 2)
        #expect(back.contains("IN AN EMERGENCY CALL"))
        for (_, _, phone) in Self.contacts {
            #expect(back.contains(phone), "\(phone) is split across lines:\n\(back)")
        }
        let page = try PDFTools.text(result.path, first: 3, last: 3)
        for (_, _, phone) in Self.contacts { #expect(page.contains(phone), "full page: \(phone)") }
    }

    @Test func existingFileIsRefused() throws {
        let fixture = try ShareFixture(label: "card-exists", documents: [], records: false)
        defer { fixture.remove() }
        _ = try Self.write(fixture)
        #expect(throws: ShareError.exists(path: "\(fixture.directory)/card.pdf")) { try Self.write(fixture) }
    }
}
