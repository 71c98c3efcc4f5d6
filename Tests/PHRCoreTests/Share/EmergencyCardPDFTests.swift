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

    @Test func existingFileIsRefused() throws {
        let fixture = try ShareFixture(label: "card-exists", documents: [], records: false)
        defer { fixture.remove() }
        _ = try Self.write(fixture)
        #expect(throws: ShareError.exists(path: "\(fixture.directory)/card.pdf")) { try Self.write(fixture) }
    }
}
