import Foundation

/// Where a chart of a health report was drawn (points, origin top-left of its page), for
/// checking a rendered report: the bars of a habit chart, or the points of a measurement chart.
public struct ReportChartPlacement: Codable, Sendable, Equatable {
    public var metric: LogMetric
    /// From 1.
    public var page: Int
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    /// Each bar's value in the chart's unit (habits), or each day's mean (measurements), in order.
    public var values: [Double]

    package init(metric: LogMetric, page: Int, x: Double, y: Double, width: Double, height: Double, values: [Double]) {
        self.metric = metric
        self.page = page
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.values = values
    }
}

/// Writes `phr report`: a plaintext PDF the user asked for, so it is written as every phr
/// export is: to a temporary file beside the destination (mode 0600), moved into place only
/// when complete, never replacing a file unless `force`. phr-render draws it (`ShareRenderer`).
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
                             generator: String, renderer: ShareRenderer = ShareRenderer()) throws -> Result {
        let job = ReportRenderJob(report: report, paper: paper, now: Timestamp.string(time.now), zone: time.zone.identifier,
                                  generator: generator)
        let output = try OutputFile(destination: path, replace: force, exists: { ShareError.exists(path: $0) })
        let drawn: (pages: Int, charts: [ReportChartPlacement])
        do {
            switch try renderer.render(.report(job), into: output) {
            case .report(let pages, let charts):
                drawn = (pages, charts)
            case .typesettingFailed(let reason):
                throw ShareError.drawing(what: "the report", reason: reason)
            default:
                throw ShareError.renderer(reason: "the process drawing the report gave an unexpected answer")
            }
            try output.commit()
        } catch ShareError.renderer(let reason) {
            output.abandon()
            throw ShareError.drawing(what: "the report", reason: reason)
        } catch {
            output.abandon()
            throw error
        }
        return Result(path: path, pages: drawn.pages, bytes: FileSystem.fileSize(path) ?? 0, paper: paper.rawValue, charts: drawn.charts)
    }
}
