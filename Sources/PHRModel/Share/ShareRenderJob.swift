import Foundation

/// What the parent hands the drawing worker for `phr share` (inside a `RenderJob`), and what
/// any drawing worker reports back: everything the bundle shows, nothing that opens the vault.
package struct ShareRenderJob: Codable {
    package var content: ShareContent
    package var options: ShareLayoutOptions
    /// The encryption password as qpdf takes it (SASLprep'd UTF-8), or nil for a plain PDF.
    package var password: String?
    /// "now" as an ISO 8601 instant, and the user's zone: the worker prints dates as the
    /// command's TimeContext would.
    package var now: String
    package var zone: String

    package var time: TimeContext { TimeContext(isoNow: now, zone: zone) }

    package init(
        content: ShareContent,
        options: ShareLayoutOptions,
        password: String? = nil,
        now: String,
        zone: String
    ) {
        self.content = content
        self.options = options
        self.password = password
        self.now = now
        self.zone = zone
    }
}

/// The choices that shape the PDF, apart from the records themselves.
package struct ShareLayoutOptions: Codable, Equatable {
    package var recipient: String
    package var sections: [ShareSection]
    package var paper: Paper
    /// No --doc, --doc-type or --since was given: the manifest explains the default window.
    package var defaultDocumentWindow: Bool
    package var generator: String

    package init(
        recipient: String,
        sections: [ShareSection],
        paper: Paper,
        defaultDocumentWindow: Bool,
        generator: String
    ) {
        self.recipient = recipient
        self.sections = sections
        self.paper = paper
        self.defaultDocumentWindow = defaultDocumentWindow
        self.generator = generator
    }
}

/// The worker's answer, on its descriptor 3 once the PDF has been written to its standard output.
package enum ShareRenderResult: Codable, Equatable {
    /// A share bundle or an emergency card: its pages, how many of them come before the
    /// documents, and the first page of each document.
    case drawn(pages: Int, summaryPages: Int, documentFirstPages: [Int])
    /// A health report: its pages and where its charts are.
    case report(pages: Int, charts: [ReportChartPlacement])
    /// Page images: the document's page count and each asked page's image (in order on the output).
    case pageImages(pageCount: Int, images: [PageImageResult])
    /// A document that cannot be drawn (its ID and why), or the reason encryption or drawing failed.
    case documentFailed(id: String, reason: String)
    case encryptionFailed(reason: String)
    case typesettingFailed(reason: String)
}
