import Foundation

/// How health-log figures are written, the same in the terminal, in `--json` display fields
/// and in the PDF report (so a report can be checked against `phr stats`).
///
/// Totals and averages use the profile's units (litres or US fluid ounces, kilograms or
/// pounds, mmol/L or mg/dL); single entries are shown in the unit they were typed in.
public struct HealthFormat: Sendable {
    public let units: HealthSettings.Units
    public let glucoseUnit: HealthUnit

    public init(_ settings: HealthSettings) {
        units = settings.units
        glucoseUnit = settings.glucoseUnit
    }

    /// A total or average in the profile's units: "1.25 L", "750 ml", "42.3 fl oz", "7h 30m",
    /// "1,450 kcal", "72.5 kg", "5.4 mmol/L".
    public func amount(_ value: Double, _ metric: LogMetric) -> String {
        switch metric {
        case .water:
            if units == .us {
                let ounces = HealthUnit.usFluidOunce.fromCanonical(value)
                return "\(Self.number(ounces, decimals: ounces >= 100 ? 0 : 1)) fl oz"
            }
            if value < 1000 { return "\(Self.number(value, decimals: 0)) ml" }
            let litres = value / 1000
            return "\(Self.number(litres, decimals: litres >= 100 ? 0 : litres >= 10 ? 1 : 2)) L"
        case .sleep, .workout:
            return Self.duration(minutes: value)
        case .meal:
            return "\(Self.number(value, decimals: 0)) kcal"
        case .weight:
            return units == .us ? "\(Self.number(HealthUnit.pound.fromCanonical(value), decimals: 1)) lb"
                                : "\(Self.number(value, decimals: 1)) kg"
        case .bp:
            return "\(Self.number(value, decimals: 0)) mmHg"
        case .glucose:
            return glucose(value)
        }
    }

    /// A blood pressure: "120/80 mmHg".
    public func bloodPressure(systolic: Double, diastolic: Double) -> String {
        "\(Self.number(systolic, decimals: 0))/\(Self.number(diastolic, decimals: 0)) mmHg"
    }

    /// A glucose value in the profile's glucose unit.
    public func glucose(_ mmolPerLitre: Double) -> String {
        glucoseUnit == .milligramPerDecilitre
            ? "\(Self.number(HealthUnit.milligramPerDecilitre.fromCanonical(mmolPerLitre), decimals: 0)) mg/dL"
            : "\(Self.number(mmolPerLitre, decimals: 1)) mmol/L"
    }

    /// An entry's value as typed: "250 ml", "8 fl oz", "2 cups", "7h 30m", "2700 kJ", "160 lb",
    /// "120/80 mmHg, pulse 64", "97 mg/dL".
    public func entry(_ entry: LogEntry) -> String {
        switch entry.metric {
        case .bp:
            return bloodPressure(systolic: entry.value, diastolic: entry.diastolic ?? 0) + (entry.pulse.map { ", pulse \($0)" } ?? "")
        case .sleep, .workout:
            return Self.duration(minutes: entry.value)
        default:
            let typed = entry.unit.fromCanonical(entry.value)
            let decimals: Int
            switch entry.unit {
            case .millilitre, .kilocalorie, .kilojoule, .milligramPerDecilitre: decimals = 0
            case .usFluidOunce, .usCup, .kilogram, .pound, .millimolePerLitre, .centilitre, .decilitre: decimals = 1
            default: decimals = 2
            }
            let name = entry.unit == .usCup ? (typed == 1 ? "cup" : "cups") : entry.unit == .litre ? "L" : entry.unit.rawValue
            return "\(Self.number(typed, decimals: decimals)) \(name)"
        }
    }

    /// A goal: "2 L a day", "2h 30m a week", "2,500 kcal a day".
    public func goal(_ value: Double, _ metric: LogMetric, period: GoalPeriod) -> String {
        "\(amount(value, metric)) a \(period.rawValue)"
    }

    /// Minutes as "7h 30m", "45m", "52h 5m" (hours never roll over into days: totals of sleep
    /// read better in hours).
    public static func duration(minutes: Double) -> String {
        let total = Int(minutes.rounded())
        let (h, m) = (total / 60, total % 60)
        if h == 0 { return "\(m)m" }
        return m == 0 ? "\(h)h" : "\(h)h \(m)m"
    }

    /// Up to `decimals` decimals, trailing zeros dropped, thousands grouped with commas:
    /// 1450 → "1,450", 1.250 → "1.25", 72.0 → "72".
    public static func number(_ value: Double, decimals: Int) -> String {
        // Round half away from zero on the decimal value people see: 11.45 → "11.5", where
        // printf alone gives "11.4" (11.45 is stored as 11.4499…).
        let scale = pow(10, Double(decimals))
        var text = String(format: "%.\(decimals)f", (value * scale).rounded() / scale)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        if text == "-0" { text = "0" }
        let negative = text.hasPrefix("-")
        if negative { text.removeFirst() }
        let parts = text.split(separator: ".", maxSplits: 1)
        var whole = String(parts[0])
        var grouped = ""
        while whole.count > 3 {
            grouped = "," + whole.suffix(3) + grouped
            whole.removeLast(3)
        }
        grouped = whole + grouped
        if parts.count == 2 { grouped += "." + parts[1] }
        return (negative ? "-" : "") + grouped
    }

    /// A signed percentage: "+12%", "-4%", "0%".
    public static func percentChange(_ fraction: Double) -> String {
        let percent = Int((fraction * 100).rounded())
        return percent > 0 ? "+\(percent)%" : "\(percent)%"
    }
}
