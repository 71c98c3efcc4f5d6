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

    /// How many documents go with the job.
    package var documentCount: Int {
        if case .share(let job) = self { return job.content.documents.count }
        return 0
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
