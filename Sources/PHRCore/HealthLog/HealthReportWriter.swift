import Foundation

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
