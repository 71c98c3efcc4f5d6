import Foundation

/// What the parent hands the share worker (`phr __share-worker`), as JSON on its standard input,
/// and what the worker reports back: everything the bundle shows, nothing that opens the vault.
struct ShareRenderJob: Codable {
    var content: ShareContent
    var options: ShareLayoutOptions
    /// The encryption password as qpdf takes it (SASLprep'd UTF-8), or nil for a plain PDF.
    var password: String?
    /// "now" as an ISO 8601 instant, and the user's zone: the worker prints dates as the
    /// command's TimeContext would.
    var now: String
    var zone: String

    var time: TimeContext {
        TimeContext(now: Timestamp.parse(now) ?? Date(), zone: TimeZone(identifier: zone) ?? TimeZone(identifier: "UTC")!)
    }
}

/// The choices that shape the PDF, apart from the records themselves.
struct ShareLayoutOptions: Codable, Equatable {
    var recipient: String
    var sections: [ShareSection]
    var paper: Paper
    /// No --doc, --doc-type or --since was given: the manifest explains the default window.
    var defaultDocumentWindow: Bool
    var generator: String
}

/// The worker's answer, on its descriptor 3 once the PDF has been written to its standard output.
enum ShareRenderResult: Codable, Equatable {
    case drawn(pages: Int, summaryPages: Int, documentFirstPages: [Int])
    /// A document that cannot be drawn (its ID and why), or the reason encryption or drawing failed.
    case documentFailed(id: String, reason: String)
    case encryptionFailed(reason: String)
    case typesettingFailed(reason: String)
}
