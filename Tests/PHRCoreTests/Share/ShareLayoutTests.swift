import Foundation
import Testing
@testable import PHRCore

/// What the pages look like when the records are long or not in Latin script: every mark stays
/// inside the page's printable area (checked on rendered pages), tables break across pages
/// with their header repeated, and text in Greek, Chinese and Arabic is real, extractable text
/// in fonts that have the glyphs.
@Suite struct ShareLayoutTests {
    static let greek = "Αλέξης Παράδειγμα"
    static let chinese = "王小明"
    static let arabic = "محمد الأحمد"

    static func fixture() throws -> ShareFixture {
        let fixture = try ShareFixture(label: "share-layout", documents: ["\(ShareFixture.samples)/referral-letter-el.pdf"], records: false)
        var id = MedicalIDStore.Input()
        id.name = "\(greek) \(chinese)"
        id.dateOfBirth = "1984-07-22"
        id.notes = "Pacemaker since 2019. " + String(repeating: "Carries a medical alert card in the wallet. ", count: 8)
        try MedicalIDStore(vault: fixture.vault, profile: fixture.profile, time: fixture.time).set(id)
        let medications = MedicationStore(vault: fixture.vault, profile: fixture.profile, time: fixture.time)
        for index in 1...60 {
            var input = MedicationStore.Input()
            input.name = index % 3 == 0 ? "\(chinese)片 \(index)" : "Medication number \(index) extended-release with a long brand name"
            input.dose = "\(index * 5) mg"
            input.times = "08:00,14:00,20:00"
            input.instructions = "Take with food; avoid grapefruit juice; do not crush or chew; number \(index)"
            input.prescriber = index % 2 == 0 ? "Dr. \(arabic)" : "Dr. Jordan Sample, Sample Family Practice, Anytown"
            // One row far taller than a page: it must continue on the next pages, not run off.
            if index == 30 { input.notes = (1...100).map { "Note line \($0) about this medication." }.joined(separator: "\n") }
            try medications.add(input)
        }
        var allergy = AllergyStore.Input()
        allergy.substance = "بنسلين (\(arabic))"
        allergy.reaction = "طفح جلدي"
        allergy.severity = "severe"
        try AllergyStore(vault: fixture.vault, profile: fixture.profile, time: fixture.time).add(allergy)
        var contact = ContactStore.Input()
        contact.name = "李华 (\(chinese))"
        contact.phone = "+86 10 5555 0100"
        contact.emergency = true
        try ContactStore(vault: fixture.vault, profile: fixture.profile, time: fixture.time).add(contact)
        return fixture
    }

    @Test(arguments: [Paper.a4, .letter])
    func longListsAndOtherScriptsStayInsideThePage(paper: Paper) throws {
        let fixture = try Self.fixture()
        defer { fixture.remove() }
        var request = fixture.request(recipient: "Dr. \(Self.arabic) / 李医生")
        request.paper = paper
        let result = try fixture.write(request)
        #expect(result.pages > 6)
        #expect(try PDFTools.pagesWithInkNearEdges(result.path).isEmpty)
        let size = try PDFTools.pageSize(result.path, page: 2)
        #expect(abs(size.width - paper.width) < 0.01 && abs(size.height - paper.height) < 0.01)

        let text = try PDFTools.text(result.path)
        // Arabic is checked without its lam-alef ligature, which poppler extracts in visual order.
        for name in [Self.greek, Self.chinese, "محمد", "李华", "طفح جلدي"] {
            #expect(text.contains(name), "\(name)")
        }
        for index in 1...60 { #expect(text.contains("\n\(index * 5) mg\n"), "medication \(index)") }
        // The tall row continues across pages: each of its lines exactly once.
        for line in [1, 50, 100] {
            #expect(text.components(separatedBy: "Note line \(line) about").count == 2, "note line \(line)")
        }
        // The table header is repeated on every page the medications table spans.
        let pagesWithHeader = try (2...result.summaryPages).filter { page in
            try PDFTools.text(result.path, first: page, last: page).contains("How taken")
        }
        #expect(pagesWithHeader.count >= 4)
        // The glyphs come from fonts that have them (fontconfig's fallback to Noto CJK, and to
        // DejaVu Sans or Noto Sans Arabic for Arabic), all embedded; none is a .notdef box.
        let fonts = try PDFTools.run("pdffonts", [result.path]).stdout.split(separator: "\n").dropFirst(2)
        #expect(fonts.contains { $0.contains("NotoSansCJK") })
        #expect(fonts.allSatisfy { $0.contains(" yes yes yes ") }, "every font embedded, subset, with a ToUnicode map")
    }
}
