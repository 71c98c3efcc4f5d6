import Foundation
import GRDB
import Testing
@testable import PHRCore

/// Which documents a bundle carries (ShareDocumentSelection): the default window, bills, types,
/// --since, --doc, and originals that cannot be drawn.
@Suite struct ShareDocumentSelectionTests {
    /// The samples (dated 2024-12-16 to 2025-05-13) plus a bill dated 2025-04-30.
    static func fixture(now: String) throws -> ShareFixture {
        let directory = try TestSupport.temporaryDirectory("bill")
        defer { TestSupport.remove(directory) }
        let fixture = try ShareFixture(label: "select", time: TimeContext(now: Timestamp.parse(now)!, zone: TimeZone(identifier: "UTC")!),
                                       records: false)
        // A copy made unique by a trailing PDF comment, so it is not the duplicate of a sample.
        var bytes = try #require(FileManager.default.contents(atPath: "\(ShareFixture.samples)/prescription-amoxicillin.pdf"))
        bytes.append(Data("\n% a bill\n".utf8))
        try bytes.write(to: URL(fileURLWithPath: "\(directory)/bill.pdf"))
        var options = DocumentImporter.Options()
        options.type = "bill"
        options.date = "2025-04-30"
        let importer = DocumentImporter(vault: fixture.vault, profile: fixture.profile,
                                        extractor: TextExtractor(workerExecutable: TestSupport.renderBinary))
        _ = try importer.add(["\(directory)/bill.pdf"], options: options)
        return fixture
    }

    static func select(_ fixture: ShareFixture, _ configure: (inout ShareRequest) -> Void = { _ in }) throws -> [Document] {
        var request = fixture.request()
        configure(&request)
        return try fixture.vault.database.read { db in
            try ShareDocumentSelection.select(db, store: DocumentStore(vault: fixture.vault, profile: fixture.profile),
                                              request: request, today: fixture.time.today())
        }.documents
    }

    @Test func defaultIsTheLastTwelveMonthsWithoutBills() throws {
        let fixture = try Self.fixture(now: "2025-12-20T12:00:00Z")
        defer { fixture.remove() }
        let chosen = try Self.select(fixture)
        // From 2024-12-20: the insurance card of 2024-12-16 is too old, the bill is left out.
        #expect(chosen.map(\.date) == ["2025-05-13", "2025-03-25", "2025-03-18", "2025-02-20", "2025-02-17", "2025-01-27"])
        #expect(!chosen.contains { $0.type == "bill" })
    }

    @Test func typesHaveNoDateLimitAndSinceMovesTheWindow() throws {
        let fixture = try Self.fixture(now: "2026-11-22T12:00:00Z")
        defer { fixture.remove() }
        #expect(try Self.select(fixture).isEmpty, "nothing in the last 12 months")
        #expect(try Self.select(fixture) { $0.documentTypes = ["lab", "BILL"] }.map(\.type) == ["bill", "lab"])
        #expect(try Self.select(fixture) { $0.since = CalendarDate("2025-03-18") }.map(\.date) == ["2025-05-13", "2025-03-25", "2025-03-18"])
        #expect(try Self.select(fixture) { $0.since = CalendarDate("2025-03-01"); $0.documentTypes = ["lab", "imaging"] }.map(\.type) == ["lab"])
    }

    @Test func namedDocumentsAreAlwaysIncluded() throws {
        let fixture = try Self.fixture(now: "2026-11-22T12:00:00Z")
        defer { fixture.remove() }
        let card = try #require(fixture.documents.first { $0.type == "insurance" })
        #expect(try Self.select(fixture) { $0.documentIDs = [String(card.id.prefix(4))] }.map(\.id) == [card.id])
        let chosen = try Self.select(fixture) { $0.documentIDs = [card.id]; $0.documentTypes = ["imaging"] }
        #expect(chosen.map(\.type) == ["imaging", "insurance"])
        #expect(throws: RecordError.notFound(kind: "document", id: "zzzzzz")) {
            try Self.select(fixture) { $0.documentIDs = ["zzzzzz"] }
        }
    }

    @Test func originalsThatCannotBeDrawnAreSkippedOrRefused() throws {
        let fixture = try Self.fixture(now: "2025-06-15T12:00:00Z")
        defer { fixture.remove() }
        let locked = fixture.documents[0]
        try fixture.vault.database.write { db in
            try db.execute(sql: "UPDATE document SET outcome = 'password_required' WHERE id = ?", arguments: [locked.id])
        }
        var request = fixture.request()
        let selection = try fixture.vault.database.read { db in
            try ShareDocumentSelection.select(db, store: DocumentStore(vault: fixture.vault, profile: fixture.profile),
                                              request: request, today: fixture.time.today())
        }
        #expect(!selection.documents.contains { $0.id == locked.id })
        #expect(selection.skipped.map(\.id) == [locked.id])
        request.documentIDs = [locked.id]
        #expect(throws: ShareError.documentNotEmbeddable(id: locked.id, reason: "its original is a password-protected PDF")) {
            try fixture.write(request)
        }
    }

    @Test func monthsBeforeKeepsTheDayWithinTheMonth() {
        #expect(ShareDocumentSelection.monthsBefore(CalendarDate("2025-03-31")!, 1) == CalendarDate("2025-02-28"))
        #expect(ShareDocumentSelection.monthsBefore(CalendarDate("2024-02-29")!, 12) == CalendarDate("2023-02-28"))
        #expect(ShareDocumentSelection.monthsBefore(CalendarDate("2025-01-15")!, 12) == CalendarDate("2024-01-15"))
    }
}
