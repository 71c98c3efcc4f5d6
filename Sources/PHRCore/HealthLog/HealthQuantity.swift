import Foundation

/// An amount as the user typed it, read: the value in its metric's canonical unit and the
/// unit it was written in (for showing it back the same way).
public struct HealthQuantity: Equatable, Sendable {
    public var value: Double
    public var unit: HealthUnit

    public init(value: Double, unit: HealthUnit) {
        self.value = value
        self.unit = unit
    }

    /// The amount in the unit it was typed in.
    public var typedAmount: Double { unit.fromCanonical(value) }
}

/// Reads amounts as people type them: "250ml", "0,5 l", "8 fl oz", "2 cups", "+" (one
/// serving), "7h30m", "45min", "650kcal", "72.5kg", "160 lb", "5.4mmol/L", "97 mg/dL",
/// "120/80".
///
/// A decimal comma is accepted ("0,5l"), but a comma followed by exactly three digits is
/// refused as ambiguous ("1,500ml" could be 1.5 or 1500).
public enum HealthQuantityParser {
    /// Plausible bounds of one entry, in canonical units: wide enough for any real reading,
    /// narrow enough to catch a wrong unit (72 lb typed as 72 kg passes; 7200 kg does not).
    static let bounds: [LogMetric: ClosedRange<Double>] = [
        .water: 1...5000, .sleep: 1...1440, .workout: 1...1440, .meal: 1...10000,
        .weight: 0.5...700, .glucose: 0.5...60,
    ]

    /// Water: a volume, servings ("2 servings", "1 glass"), or "+" / "+N" for one or N servings
    /// of `servingML` millilitres. Servings are stored in millilitres.
    public static func water(_ text: String, servingML: Double, field: Field) throws -> HealthQuantity {
        let typed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let servings: Double?
        if typed.hasPrefix("+") {
            let rest = typed.dropFirst()
            servings = rest.isEmpty ? 1 : Double(rest)
            guard servings != nil else { throw invalid(text, field: field, example: "'+' for one serving, '+2' for two") }
        } else if let (number, unit) = try? split(typed, field: field),
                  ["serving", "servings", "glass", "glasses"].contains(unit) {
            servings = number
        } else {
            servings = nil
        }
        if let servings {
            return try checked(HealthQuantity(value: servings * servingML, unit: .millilitre), .water, text: text, field: field)
        }
        return try checked(try measure(text, metric: .water, bare: nil, field: field,
                                       example: "250ml, 0.5l, 8floz, 2cups, 1serving or +"), .water, text: text, field: field)
    }

    /// A volume with a unit ("300ml", "10floz"), without servings: a serving size, a goal.
    public static func volume(_ text: String, field: Field, bounds: ClosedRange<Double> = 1...5000) throws -> HealthQuantity {
        let quantity = try measure(text, metric: .water, bare: nil, field: field, example: "250ml, 0.5l or 8floz")
        guard bounds.contains(quantity.value) else {
            throw RecordError.invalidField(field: field, reason: "'\(text)' is outside \(Int(bounds.lowerBound)) ml to \(Int(bounds.upperBound)) ml")
        }
        return quantity
    }

    /// Sleep or workout length: "7.5h", "7h30m", "45min", "1:30" (hours and minutes).
    public static func duration(_ text: String, metric: LogMetric, field: Field) throws -> HealthQuantity {
        try checked(try anyDuration(text, field: field), metric, text: text, field: field)
    }

    /// A duration of any length (a weekly goal can be many hours).
    public static func durationAllowingLong(_ text: String, field: Field) throws -> HealthQuantity {
        try anyDuration(text, field: field)
    }

    static func anyDuration(_ text: String, field: Field) throws -> HealthQuantity {
        let typed = text.lowercased().filter { !$0.isWhitespace }
        let example = "7.5h, 7h30m, 45min or 1:30"
        if typed.contains(":") {
            let parts = typed.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let hours = Int(parts[0]), parts[1].count == 2, let minutes = Int(parts[1]), minutes < 60, hours >= 0 else {
                throw invalid(text, field: field, example: example)
            }
            guard hours * 60 + minutes > 0 else { throw invalid(text, field: field, example: example) }
            return HealthQuantity(value: Double(hours * 60 + minutes), unit: .hour)
        }
        var total = 0.0
        var rest = Substring(typed)
        var units: [HealthUnit] = []
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isNumber || $0 == "." || $0 == "," }
            let name = rest.dropFirst(digits.count).prefix { !$0.isNumber && $0 != "." && $0 != "," }
            guard let value = try number(String(digits), text: text, field: field),
                  let unit = HealthUnit.named(String(name)), unit == .hour || unit == .minute, !units.contains(unit) else {
                throw invalid(text, field: field, example: example)
            }
            units.append(unit)
            total += unit.toCanonical(value)
            rest = rest.dropFirst(digits.count + name.count)
        }
        guard let first = units.first else { throw invalid(text, field: field, example: example) }
        // Hours then minutes, never "30m7h".
        if units.count == 2 && first != .hour { throw invalid(text, field: field, example: example) }
        return HealthQuantity(value: total, unit: first)
    }

    /// Meal energy: "650kcal", "2700kJ", or a bare number of kilocalories.
    public static func energy(_ text: String, field: Field, bounds: ClosedRange<Double>? = nil) throws -> HealthQuantity {
        let quantity = try measure(text, metric: .meal, bare: .kilocalorie, field: field, example: "650kcal or 2700kJ")
        guard let bounds else { return try checked(quantity, .meal, text: text, field: field) }
        guard bounds.contains(quantity.value) else {
            throw RecordError.invalidField(field: field, reason: "'\(text)' is outside \(Int(bounds.lowerBound)) to \(Int(bounds.upperBound)) kcal")
        }
        return quantity
    }

    /// Body weight: "72.5kg", "160lb".
    public static func weight(_ text: String, field: Field) throws -> HealthQuantity {
        try checked(try measure(text, metric: .weight, bare: nil, field: field, example: "72.5kg or 160lb"), .weight, text: text, field: field)
    }

    /// Blood glucose: "5.4mmol/L", "97mg/dL", or a bare number in `bareUnit`.
    public static func glucose(_ text: String, bareUnit: HealthUnit, field: Field) throws -> HealthQuantity {
        try checked(try measure(text, metric: .glucose, bare: bareUnit, field: field, example: "5.4mmol/L or 97mg/dL"),
                    .glucose, text: text, field: field)
    }

    /// Blood pressure "120/80" (mmHg, systolic over diastolic).
    public static func bloodPressure(_ text: String, field: Field) throws -> (systolic: Double, diastolic: Double) {
        var typed = text.lowercased().filter { !$0.isWhitespace }
        if typed.hasSuffix("mmhg") { typed.removeLast(4) }
        let parts = typed.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let systolic = Double(parts[0]), let diastolic = Double(parts[1]),
              systolic.isFinite, diastolic.isFinite else {
            throw invalid(text, field: field, example: "120/80 (systolic/diastolic, mmHg)")
        }
        guard (50...300).contains(systolic), (20...200).contains(diastolic) else {
            throw RecordError.invalidField(field: field, reason: "'\(text)' is outside 50–300 over 20–200 mmHg")
        }
        guard systolic > diastolic else {
            throw RecordError.invalidField(field: field, reason: "'\(text)': the first (systolic) value must be the higher one")
        }
        return (systolic, diastolic)
    }

    // MARK: Pieces

    /// A number followed by a unit of `metric` (or nothing, when `bare` is given).
    static func measure(_ text: String, metric: LogMetric, bare: HealthUnit?, field: Field, example: String) throws -> HealthQuantity {
        let (value, name) = try split(text.lowercased(), field: field)
        let unit: HealthUnit
        if name.isEmpty, let bare {
            unit = bare
        } else if let named = HealthUnit.named(name), named.metrics.contains(metric) {
            unit = named
        } else {
            throw invalid(text, field: field, example: example)
        }
        return HealthQuantity(value: unit.toCanonical(value), unit: unit)
    }

    /// "250 ml" → (250, "ml").
    static func split(_ text: String, field: Field) throws -> (Double, String) {
        let typed = text.trimmingCharacters(in: .whitespaces)
        let digits = typed.prefix { $0.isNumber || $0 == "." || $0 == "," }
        guard let value = try number(String(digits), text: text, field: field) else {
            throw invalid(text, field: field, example: "a number and a unit")
        }
        return (value, typed.dropFirst(digits.count).filter { !$0.isWhitespace })
    }

    /// A positive decimal number, with a point or a decimal comma.
    static func number(_ digits: String, text: String, field: Field) throws -> Double? {
        guard !digits.isEmpty else { return nil }
        if let comma = digits.firstIndex(of: ",") {
            let after = digits[digits.index(after: comma)...]
            if after.count == 3 && !digits.contains(".") {
                throw RecordError.invalidField(field: field, reason: "'\(text)' is ambiguous; write the number without a thousands separator, or with a decimal point")
            }
        }
        guard let value = Double(digits.replacingOccurrences(of: ",", with: ".")), value.isFinite else { return nil }
        guard value > 0 else { throw RecordError.invalidField(field: field, reason: "'\(text)' is zero; an entry needs an amount above 0") }
        return value
    }

    static func checked(_ quantity: HealthQuantity, _ metric: LogMetric, text: String, field: Field) throws -> HealthQuantity {
        guard let range = bounds[metric], let limits = boundsText[metric] else { return quantity }
        guard range.contains(quantity.value) else {
            throw RecordError.invalidField(field: field, reason: "'\(text)' is outside \(limits) for one entry")
        }
        return quantity
    }

    static let boundsText: [LogMetric: String] = [
        .water: "1 ml to 5 l", .sleep: "1 minute to 24 hours", .workout: "1 minute to 24 hours", .meal: "1 to 10000 kcal",
        .weight: "0.5 to 700 kg", .glucose: "0.5 to 60 mmol/L (9 to 1081 mg/dL)",
    ]

    static func invalid(_ text: String, field: Field, example: String) -> RecordError {
        RecordError.invalidField(field: field, reason: "'\(text)' is not an amount phr understands; use e.g. \(example)")
    }
}
