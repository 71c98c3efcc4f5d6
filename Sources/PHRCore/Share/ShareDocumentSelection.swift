import Foundation
import GRDB

/// Which documents a bundle carries.
///
/// The bundle holds the union of two sets:
/// - every document named with `--doc`, whatever its type or date;
/// - the documents a filter matches: those of the `--doc-type` types (every type but `bill`
///   when none is given) dated on or after `--since`. Without `--doc`, `--doc-type` or `--since`
///   the filter is the default, the last twelve months; with `--doc-type` alone there is no
///   date limit; with only `--doc` there is no filter.
///
/// A document's date is its document date, or the day it was added when it has none. Bills are
/// left out unless asked for: a clinician needs results and letters, not invoices. Documents the
/// filter matches whose original cannot be drawn (it needs a password, or was unreadable when
/// added) are skipped and reported; one named with `--doc` fails the command instead.
enum ShareDocumentSelection {
    struct Selection {
        var documents: [Document]
        var skipped: [ShareResult.SkippedDocument]
    }

    /// The default window without any document option.
    static let defaultMonths = 12

    static func select(_ db: Database, store: DocumentStore, request: ShareRequest, today: CalendarDate) throws -> Selection {
        guard request.sections.contains(.documents) else { return Selection(documents: [], skipped: []) }
        var chosen: [String: Document] = [:]
        for prefix in request.documentIDs {
            let document = try store.resolve(db, prefix)
            if let reason = unembeddableReason(document) {
                throw ShareError.documentNotEmbeddable(id: document.id, reason: reason)
            }
            chosen[document.id] = document
        }
        var skipped: [ShareResult.SkippedDocument] = []
        if !request.documentTypes.isEmpty || request.since != nil || request.documentIDs.isEmpty {
            let types = request.documentTypes.isEmpty
                ? Set(DocumentType.allCases.filter { $0 != .bill }.map(\.rawValue))
                : Set(request.documentTypes.map { $0.lowercased() })
            let from = request.since ?? (request.documentTypes.isEmpty ? monthsBefore(today, defaultMonths) : nil)
            let rows = try Row.fetchAll(db, sql: DocumentStore.selectSQL + " WHERE d.profile_id = ?", arguments: [store.profile.id])
            for row in rows {
                let document = try Document(row: row, tags: DocumentStore.tags(db, documentID: row["id"]))
                guard chosen[document.id] == nil, types.contains(document.type) else { continue }
                if let from, day(of: document) < from { continue }
                if let reason = unembeddableReason(document) {
                    skipped.append(ShareResult.SkippedDocument(id: document.id, title: document.title, reason: reason))
                    continue
                }
                chosen[document.id] = document
            }
        }
        // Newest first, as `phr doc list` shows them and as clinicians read a record.
        let ordered = chosen.values.sorted { a, b in
            (day(of: a), a.addedAt, b.id) > (day(of: b), b.addedAt, a.id)
        }
        return Selection(documents: ordered, skipped: skipped.sorted { $0.id < $1.id })
    }

    /// The day a document counts as: its document date, else the day it was added.
    static func day(of document: Document) -> CalendarDate {
        if let date = document.date.flatMap(CalendarDate.init) { return date }
        return CalendarDate(String(document.addedAt.prefix(10))) ?? CalendarDate(year: 1970, month: 1, day: 1)!
    }

    /// Why the original cannot be drawn into a bundle, from what extraction found when it was added.
    static func unembeddableReason(_ document: Document) -> String? {
        switch document.outcome {
        case .passwordRequired: return "its original is a password-protected PDF"
        case .unreadable: return "its original could not be read when it was added"
        case .indexed, .ocr, .partial, .noText, .junkText: return nil
        }
    }

    /// The same day `months` months earlier (the last day of the month when it has fewer days).
    static func monthsBefore(_ day: CalendarDate, _ months: Int) -> CalendarDate {
        let total = day.year * 12 + (day.month - 1) - months
        let year = total / 12
        let month = total % 12 + 1
        return CalendarDate(year: year, month: month, day: min(day.day, CalendarDate.daysIn(month: month, year: year)))!
    }
}
