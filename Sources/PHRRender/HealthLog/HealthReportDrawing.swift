import Foundation
import PHRModel
import PHRTypesetting

/// `phr report`, drawn in the worker with the share bundle's typography.
enum HealthReportDrawing {
    /// Draws the report into `output`; returns the page count and where the charts are.
    static func draw(_ job: ReportRenderJob, to output: PDFCanvas.Output) throws -> (pages: Int, charts: [ReportChartPlacement]) {
        let report = job.report
        let time = job.time
        let composer = HealthReportComposer(report: report, time: time)
        let metadata = PDFMetadata(title: "Health report: \(report.patientName), \(report.period.from) to \(report.period.to)",
                                   author: report.patientName, subject: "Personal health log: habits, measurements, medications",
                                   keywords: "health report, water, sleep, workouts, meals, weight, blood pressure, glucose",
                                   creator: job.generator, creationDate: Timestamp.string(time.now))
        let pagination = try PaginatedRenderer.render(to: output, frame: BundleStyle.reportFrame(job.paper), metadata: metadata,
                                                      decoration: composer.decoration, compose: composer.compose)
        return (pagination.pageCount, composer.charts)
    }
}
