import Foundation

/// A vertical bar chart: one bar per category (a day, a week), a value axis with round ticks,
/// and an optional goal line. Values may be negative; bars then grow down from zero.
///
/// Labels under the bars are thinned out when they would collide (every second, fifth... label
/// is kept), so thirty days fit in a column; value labels over the bars appear only where there
/// is room for them.
public struct BarChart: Sendable {
    public struct Bar: Sendable {
        public var label: String
        public var value: Double
        /// Overrides the chart's colour for this bar (a day over the limit, say).
        public var color: Color?
        /// Text over the bar instead of the formatted value; "" for none.
        public var valueLabel: String?

        public init(_ label: String, _ value: Double, color: Color? = nil, valueLabel: String? = nil) {
            self.label = label
            self.value = value
            self.color = color
            self.valueLabel = valueLabel
        }
    }

    public var bars: [Bar]
    /// Shown above the value axis, e.g. "ml" or "hours".
    public var unit: String?
    /// The top of the value axis; by default a round number at or above the largest value and goal.
    public var maximum: Double?
    /// A dashed horizontal line, e.g. a daily target.
    public var goal: Double?
    public var goalLabel: String?
    public var color: Color
    public var fontSize: Double
    /// Digits after the decimal point in value and tick labels.
    public var decimals: Int

    public init(bars: [Bar], unit: String? = nil, maximum: Double? = nil, goal: Double? = nil, goalLabel: String? = nil,
                color: Color = Color(hex: 0x2F6690), fontSize: Double = 7, decimals: Int = 0) {
        self.bars = bars
        self.unit = unit
        self.maximum = maximum
        self.goal = goal
        self.goalLabel = goalLabel
        self.color = color
        self.fontSize = fontSize
        self.decimals = decimals
    }

    /// Ticks from the lowest to the highest value axis mark, evenly spaced at a 1, 2 or 5 step.
    func ticks() -> [Double] {
        let values = bars.map(\.value) + (goal.map { [$0] } ?? [])
        let low = min(0, values.min() ?? 0)
        let high = max(maximum ?? 0, values.max() ?? 0, low == 0 ? 1e-9 : 0)
        // About five intervals: enough marks to read a bar against, few enough to stay apart.
        let step = Self.niceStep((high - low) / 5)
        let first = (low / step).rounded(.down) * step
        var top = (high / step).rounded(.up) * step
        if let maximum, maximum >= high { top = maximum }
        return stride(from: first, through: top + step / 2, by: step).map { $0 }
    }

    /// The smallest of 1, 2 or 5 times a power of ten not below `raw`.
    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        let magnitude = pow(10, floor(log10(raw)))
        for factor in [1.0, 2, 5, 10] where factor * magnitude >= raw { return factor * magnitude }
        return 10 * magnitude
    }

    func format(_ value: Double) -> String {
        String(format: "%.\(decimals)f", value)
    }
}

extension PDFCanvas {
    /// Draws `chart` inside `frame`: value labels left, bars in the middle, category labels below.
    public func drawBarChart(_ chart: BarChart, in frame: Rect) {
        let small = TextStyle(size: chart.fontSize, color: .muted)
        let ticks = chart.ticks()
        guard let low = ticks.first, let high = ticks.last, high > low else { return }
        let axisWidth = (ticks.map { measureText(.plain(chart.format($0)), style: small).width }.max() ?? 0) + 6
        let labelHeight = measureText(.plain("Ag"), style: small).height
        // The unit (left) and the goal's key (right) on a line above the plot: a goal label drawn
        // on its line would collide with the bars that reach it (issue 35, item 6).
        let unitHeight = chart.unit == nil && chart.goalLabel == nil ? 0 : labelHeight + 2
        // Room above the plot for the value label of a bar that reaches the top tick, and
        // below it for the category labels.
        let headroom = labelHeight + 2
        let plot = Rect(x: frame.x + axisWidth, y: frame.y + unitHeight + headroom, width: frame.width - axisWidth,
                        height: frame.height - unitHeight - headroom - labelHeight - 4)
        guard plot.width > 0, plot.height > 0 else { return }
        func yPosition(_ value: Double) -> Double { plot.maxY - (value - low) / (high - low) * plot.height }

        if let unit = chart.unit {
            drawText(.plain(unit), x: frame.x, y: frame.y, style: small)
        }
        for tick in ticks {
            let y = yPosition(tick)
            line(fromX: plot.x, y: y, toX: plot.maxX, y: y, width: tick == 0 ? 0.7 : 0.3, color: tick == 0 ? .muted : .hairline)
            drawText(.plain(chart.format(tick)), x: frame.x, y: y - labelHeight / 2, width: axisWidth - 4, style: small.aligned(.right))
        }

        let slot = plot.width / Double(max(chart.bars.count, 1))
        let barWidth = slot * 0.7
        let widestLabel = chart.bars.map { measureText(.plain($0.label), style: small).width }.max() ?? 0
        // Keep every n-th category label so neighbours never touch.
        let labelEvery = max(1, Int((widestLabel + 4) / slot) + 1)
        let zero = yPosition(max(low, min(0, high)))
        for (index, bar) in chart.bars.enumerated() {
            let x = plot.x + slot * Double(index) + (slot - barWidth) / 2
            let top = yPosition(bar.value)
            rectangle(x: x, y: min(top, zero), width: barWidth, height: abs(zero - top), fill: bar.color ?? chart.color)
            let text = bar.valueLabel ?? chart.format(bar.value)
            if !text.isEmpty, measureText(.plain(text), style: small).width <= slot {
                let labelY = bar.value >= 0 ? top - labelHeight - 1 : top + 1
                drawText(.plain(text), x: plot.x + slot * Double(index), y: labelY, width: slot, style: small.aligned(.center))
            }
            if index % labelEvery == 0 {
                let center = plot.x + slot * (Double(index) + 0.5)
                drawText(.plain(bar.label), x: center - (widestLabel + 4) / 2, y: plot.maxY + 3, width: widestLabel + 4,
                         style: small.aligned(.center))
            }
        }

        if let goal = chart.goal, goal >= low, goal <= high {
            let y = yPosition(goal)
            line(fromX: plot.x, y: y, toX: plot.maxX, y: y, width: 0.8, color: .alert, dash: 3)
            if let label = chart.goalLabel {
                // The key: a short dashed stroke and the words, top right, clear of every bar.
                let size = measureText(.plain(label), style: small.colored(.alert))
                let keyY = frame.y + labelHeight / 2
                line(fromX: plot.maxX - size.width - 16, y: keyY, toX: plot.maxX - size.width - 4, y: keyY, width: 0.8, color: .alert, dash: 3)
                drawText(.plain(label), x: plot.maxX - size.width, y: frame.y, style: small.colored(.alert))
            }
        }
    }
}

extension DocumentFlow {
    /// A bar chart `height` points tall across the content width, kept on one page.
    public func barChart(_ chart: BarChart, height: Double, after: Double = 10) {
        ensureSpace(height)
        canvas.drawBarChart(chart, in: Rect(x: left, y: y, width: width, height: height))
        y += height + after
    }
}
