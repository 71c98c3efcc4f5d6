import Foundation

/// What the drawing worker is asked to draw, as JSON on its standard input: everything the PDF
/// shows, nothing that opens the vault. The parent gathers it from the records; the worker,
/// which has no key, draws it.
package enum RenderJob: Codable {
    /// `phr share`: the summary and the documents (given as descriptors 4 onwards).
    case share(ShareRenderJob)
    /// `phr emergency --pdf`: the wallet card and the full page.
    case emergency(EmergencyRenderJob)
    /// `phr report`: the health report.
    case report(ReportRenderJob)
    /// The web UI's viewer: pages of one document (descriptor 4) as PNG images.
    case pages(PageImagesJob)

    /// How many documents go with the job.
    package var documentCount: Int {
        switch self {
        case .share(let job): return job.content.documents.count
        case .pages: return 1
        case .emergency, .report: return 0
        }
    }
}

/// The emergency card's facts and how to print them.
package struct EmergencyRenderJob: Codable {
    package var card: EmergencyCard
    package var paper: Paper
    /// "now" as an ISO 8601 instant, and the user's zone: dates print as the command's would.
    package var now: String
    package var zone: String
    package var generator: String

    package var time: TimeContext { TimeContext(isoNow: now, zone: zone) }

    package init(card: EmergencyCard, paper: Paper, now: String, zone: String, generator: String) {
        self.card = card
        self.paper = paper
        self.now = now
        self.zone = zone
        self.generator = generator
    }
}

/// A health report's figures and how to print them.
package struct ReportRenderJob: Codable {
    package var report: HealthReport
    package var paper: Paper
    package var now: String
    package var zone: String
    package var generator: String

    package var time: TimeContext { TimeContext(isoNow: now, zone: zone) }

    package init(report: HealthReport, paper: Paper, now: String, zone: String, generator: String) {
        self.report = report
        self.paper = paper
        self.now = now
        self.zone = zone
        self.generator = generator
    }
}

extension TimeContext {
    /// The TimeContext a job carries as text.
    package init(isoNow: String, zone: String) {
        self.init(now: Timestamp.parse(isoNow) ?? Date(), zone: TimeZone(identifier: zone) ?? TimeZone(identifier: "UTC")!)
    }
}

/// Pages of one document drawn as PNG images, for a viewer that must not parse the original:
/// the worker writes the images one after another on its output; the result gives their sizes.
package struct PageImagesJob: Codable, Equatable {
    /// The original's media type (application/pdf or an image type).
    package var mediaType: String
    /// The pages wanted, from 0; pages past the end are reported, not drawn.
    package var pages: [Int]
    /// The box each image must fit, in pixels.
    package var maximumWidth: Int
    package var maximumHeight: Int

    /// The largest box a job may ask for (a 300 DPI A3 page is 3508 x 4961).
    package static let largestSide = 5000
    /// The most pages one job may draw.
    package static let mostPages = 64

    package init(mediaType: String, pages: [Int], maximumWidth: Int, maximumHeight: Int) {
        self.mediaType = mediaType
        self.pages = pages
        self.maximumWidth = maximumWidth
        self.maximumHeight = maximumHeight
    }
}

/// One page the viewer asked for: how many PNG bytes it takes on the output, or why it was not drawn.
package struct PageImageResult: Codable, Equatable, Sendable {
    package var page: Int
    package var bytes: Int
    package var failure: String?

    package init(page: Int, bytes: Int, failure: String? = nil) {
        self.page = page
        self.bytes = bytes
        self.failure = failure
    }
}
