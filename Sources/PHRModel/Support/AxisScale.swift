import Foundation

/// A value axis with round ticks (the web UI's SVG charts, the terminal's and the PDFs'): 0, 0.5, 1, 1.5 or 0, 20, 40, never 46.43 (the steps are 1, 2,
/// 2.5 or 5 times a power of ten), covering what it is given and no more than one step beyond.
public struct AxisScale: Equatable, Sendable {
    public let low: Double
    public let high: Double
    public let step: Double

    /// An axis from at most `low` to at least `high`, with about `ticks` ticks.
    public init(covering low: Double, _ high: Double, ticks: Int = 5) {
        // Not a number, or beyond what a chart can show: a plain 0 to 1.
        var low = low.isFinite && abs(low) < 1e300 ? low : 0, high = high.isFinite && abs(high) < 1e300 ? high : 1
        if !(high - low > 1e-12) {
            let pad = max(abs(high) * 0.1, 1)
            low -= pad
            high += pad
        }
        let raw = (high - low) / Double(max(1, ticks - 1))
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        let step = [1, 2, 2.5, 5, 10].map { $0 * magnitude }.first { $0 >= raw * (1 - 1e-9) } ?? 10 * magnitude
        self.step = step
        self.low = (low / step + 1e-9).rounded(.down) * step
        self.high = (high / step - 1e-9).rounded(.up) * step
    }

    /// Every tick, low to high.
    public var ticks: [Double] {
        let count = Int(((high - low) / step).rounded())
        return (0...count).map { Self.clean(low + Double($0) * step) }
    }

    /// A tick as written: as many decimals as the step needs ("2.5", "0.25", "40").
    public func label(_ value: Double) -> String {
        var decimals = 0
        while decimals < 6, abs(step * pow(10, Double(decimals)) - (step * pow(10, Double(decimals))).rounded()) > 1e-6 { decimals += 1 }
        let text = String(format: "%.\(decimals)f", value)
        return text == "-0" ? "0" : text
    }

    /// Where `value` falls between `bottom` (at `low`) and `top` (at `high`), in SVG units (y grows down).
    public func position(_ value: Double, top: Double, bottom: Double) -> Double {
        bottom - (value - low) / (high - low) * (bottom - top)
    }

    /// `value` without binary noise (0.30000000000000004 → 0.3).
    public static func clean(_ value: Double) -> Double { (value * 1e9).rounded() / 1e9 }

    /// The axis a chart of lab results draws them on, against a reference band from `bandLow`
    /// to `bandHigh`: the results, and the band only as far as it does not flatten them (a
    /// ferritin band of 8–400 under results of 8, 12 and 25 reaches past the top rather than
    /// squeezing the three into one row: issue 35, item 6), with a little room, round ticks, and
    /// no negative values for results that are not. The web UI's, the terminal's and the PDFs'
    /// lab charts all use it.
    public static func fitting(_ values: [Double], bandLow: Double?, bandHigh: Double?, ticks: Int) -> AxisScale? {
        guard let lowest = values.min(), let highest = values.max() else { return nil }
        // Equal results (all 0, or one result) get room around them: a tenth of their value, else 1.
        let spread = highest > lowest ? max(highest - lowest, abs(highest) * 0.1) : (highest != 0 ? abs(highest) * 0.1 : 1)
        var from = lowest, to = highest
        // The band counts while it stays within one and a half spreads of the results.
        if let low = bandLow, low >= lowest - 1.5 * spread { from = min(from, low) }
        if let high = bandHigh, high <= highest + 1.5 * spread { to = max(to, high) }
        let pad = max(to - from, spread) * 0.08
        let floor = lowest >= 0 ? max(0, from - pad) : from - pad
        return AxisScale(covering: floor, to + pad, ticks: ticks)
    }
}
