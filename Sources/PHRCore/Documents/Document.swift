import Foundation
import GRDB

extension Document {
    init(row: Row, tags: [String]) throws {
        try self.init(
            id: row["id"],
            profile: row["profile"],
            title: row["title"],
            type: row["type"],
            typeSource: row["type_source"],
            date: row["date"],
            dateSource: row["date_source"],
            provider: row["provider"],
            note: row["note"],
            tags: tags,
            fileName: row["file_name"],
            mediaType: row["media_type"],
            outcome: StoredValue.decode(row["outcome"], as: ExtractionOutcome.self, table: "document", column: "outcome"),
            outcomeDetail: row["outcome_detail"],
            pageCount: row["page_count"],
            textPages: row["text_pages"],
            size: row["size"],
            sha256: Array(row["sha256"] as Data).hex,
            extractor: row["extractor"],
            addedAt: row["added_at"],
            updatedAt: row["updated_at"],
            ocr: StoredValue.decode(row["ocr"], as: DocumentOCRState.self, table: "document", column: "ocr"),
            blobName: row["blob_name"]
        )
    }
}

/// Stored as its raw value, the same spelling as in the JSON output.
extension ExtractionOutcome: DatabaseValueConvertible {}

extension DocumentOCRState: DatabaseValueConvertible {}

/// What OCR made of one page of a document.
public struct DocumentPageOCR: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable, CaseIterable, DatabaseValueConvertible {
        /// Text by OCR.
        case read
        /// Text by OCR below the confidence floor: searchable, ranked below other hits.
        case lowConfidence = "low_confidence"
        /// OCR found no text.
        case empty
        /// OCR could not run on the page; `detail` says why.
        case failed
    }

    public var page: Int
    public var status: Status
    /// Mean word confidence, 0 to 100.
    public var confidence: Double?
    /// Why OCR failed, or what it had to do ("turned 180 degrees").
    public var detail: String?

    public init(page: Int, status: Status, confidence: Double? = nil, detail: String? = nil) {
        self.page = page
        self.status = status
        self.confidence = confidence
        self.detail = detail
    }

    /// The record for an extracted page, or nil if OCR had nothing to do with it.
    init?(_ page: ExtractedPage) {
        guard page.source == .ocr || page.ocrFailed else { return nil }
        let status: Status
        if page.ocrFailed {
            status = .failed
        } else if page.quality == .text {
            status = page.isLowConfidenceOCR ? .lowConfidence : .read
        } else {
            status = .empty
        }
        self.init(page: page.number, status: status, confidence: page.ocrConfidence, detail: page.note)
    }
}
