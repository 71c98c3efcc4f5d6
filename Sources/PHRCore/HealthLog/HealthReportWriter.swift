import Foundation
import PHRTypesetting

/// Writes `phr report`: a plaintext PDF the user asked for, so it is written as every phr
/// export is: to a temporary file beside the destination (mode 0600), moved into place only
/// when complete, never replacing a file unless `force`.
public enum HealthReportWriter {
    /// What was written.
    public struct Result: Codable, Sendable {
        public var path: String
        public var pages: Int
        public var bytes: Int64
        public var paper: String
        public var charts: [ReportChartPlacement]
    }

    public static func write(_ report: HealthReport, to path: String, time: TimeContext, paper: Paper, force: Bool,
                             generator: String) throws -> Result {
        let composer = HealthReportComposer(report: report, time: time)
        let metadata = PDFMetadata(title: "Health report: \(report.patientName), \(report.period.from) to \(report.period.to)",
                                   author: report.patientName, subject: "Personal health log: habits, measurements, medications",
                                   keywords: "health report, water, sleep, workouts, meals, weight, blood pressure, glucose",
                                   creator: generator, creationDate: Timestamp.string(time.now))
        let output = try OutputFile(destination: path, replace: force)
        var written: Int64 = 0
        let pagination: Pagination
        do {
            pagination = try PaginatedRenderer.render(to: .stream { chunk in
                try output.write(chunk)
                written += Int64(chunk.count)
            }, frame: BundleStyle.reportFrame(paper), metadata: metadata, decoration: composer.decoration, compose: composer.compose)
            try output.commit()
        } catch let error as TypesettingError {
            output.abandon()
            throw RecordError.notApplicable(reason: "cannot draw the report: \(error.localizedDescription)", hint: nil)
        } catch {
            output.abandon()
            throw error
        }
        return Result(path: path, pages: pagination.pageCount, bytes: written, paper: paper.rawValue, charts: composer.charts)
    }
}
