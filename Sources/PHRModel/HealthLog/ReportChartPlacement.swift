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
