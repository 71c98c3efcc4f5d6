import Foundation

/// The units the health log understands, each with its exact conversion to its metric's
/// canonical unit.
///
/// Conversion factors and where they come from:
/// - 1 US fluid ounce = 29.5735295625 ml exactly (1/128 US gallon of 231 cubic inches, with the
///   inch of 2.54 cm; NIST Handbook 44, Appendix C). A US cup is 8 US fluid ounces,
///   236.5882365 ml. (Nutrition labels in the US use a 240 ml "legal cup", 21 CFR 101.9(b)(5);
///   phr uses the customary cup and says so in `phr log --help`.)
/// - 1 lb = 0.45359237 kg exactly (the international yard and pound agreement of 1959).
/// - 1 kcal = 4.184 kJ (the thermochemical calorie, used on food labels).
/// - Glucose: 1 mmol/L = 18.0156 mg/dL, from the molar mass of glucose, C6H12O6 =
///   180.156 g/mol with IUPAC standard atomic weights (C 12.011, H 1.008, O 15.999), over
///   10 dL per litre. Labs often round it to 18; the difference is under 0.1%.
public enum HealthUnit: String, Codable, Sendable, CaseIterable {
    case millilitre = "ml"
    case centilitre = "cl"
    case decilitre = "dl"
    case litre = "l"
    case usFluidOunce = "fl oz"
    case usCup = "cup"
    case minute = "min"
    case hour = "h"
    case kilocalorie = "kcal"
    case kilojoule = "kJ"
    case kilogram = "kg"
    case pound = "lb"
    case millimetreOfMercury = "mmHg"
    case millimolePerLitre = "mmol/L"
    case milligramPerDecilitre = "mg/dL"

    public static let millilitresPerUSFluidOunce = 29.5735295625
    public static let millilitresPerUSCup = 8 * millilitresPerUSFluidOunce
    public static let kilogramsPerPound = 0.45359237
    public static let kilojoulesPerKilocalorie = 4.184
    public static let milligramsPerDecilitrePerMillimolePerLitre = 18.0156

    /// The metrics whose values can be written in this unit.
    public var metrics: [LogMetric] {
        switch self {
        case .millilitre, .centilitre, .decilitre, .litre, .usFluidOunce, .usCup: return [.water]
        case .minute, .hour: return [.sleep, .workout]
        case .kilocalorie, .kilojoule: return [.meal]
        case .kilogram, .pound: return [.weight]
        case .millimetreOfMercury: return [.bp]
        case .millimolePerLitre, .milligramPerDecilitre: return [.glucose]
        }
    }

    /// How many canonical units one of this unit is (ml, min, kcal, kg, mmHg, mmol/L).
    public var canonicalPerUnit: Double {
        switch self {
        case .millilitre, .minute, .kilocalorie, .kilogram, .millimetreOfMercury, .millimolePerLitre: return 1
        case .centilitre: return 10
        case .decilitre: return 100
        case .litre: return 1000
        case .usFluidOunce: return Self.millilitresPerUSFluidOunce
        case .usCup: return Self.millilitresPerUSCup
        case .hour: return 60
        case .kilojoule: return 1 / Self.kilojoulesPerKilocalorie
        case .pound: return Self.kilogramsPerPound
        case .milligramPerDecilitre: return 1 / Self.milligramsPerDecilitrePerMillimolePerLitre
        }
    }

    /// A value in this unit, in the canonical unit.
    public func toCanonical(_ value: Double) -> Double { value * canonicalPerUnit }

    /// A canonical value, in this unit.
    public func fromCanonical(_ value: Double) -> Double { value / canonicalPerUnit }

    /// How people type it ("millilitres", "fl.oz", "lbs", "mg/dl"), lowercased without spaces.
    static let spellings: [String: HealthUnit] = {
        var table: [String: HealthUnit] = [:]
        func add(_ unit: HealthUnit, _ names: [String]) { for name in names { table[name] = unit } }
        add(.millilitre, ["ml", "milliliter", "milliliters", "millilitre", "millilitres", "mls"])
        add(.centilitre, ["cl", "centiliter", "centiliters", "centilitre", "centilitres"])
        add(.decilitre, ["dl", "deciliter", "deciliters", "decilitre", "decilitres"])
        add(.litre, ["l", "liter", "liters", "litre", "litres", "ltr"])
        // For drinks, "oz" means the US fluid ounce, as on US bottles and cups.
        add(.usFluidOunce, ["floz", "fl.oz", "fl.oz.", "fluidounce", "fluidounces", "oz", "ounce", "ounces"])
        add(.usCup, ["cup", "cups"])
        add(.minute, ["m", "min", "mins", "minute", "minutes"])
        add(.hour, ["h", "hr", "hrs", "hour", "hours"])
        // Food "Calories" are kilocalories.
        add(.kilocalorie, ["kcal", "kcals", "cal", "cals", "calorie", "calories"])
        add(.kilojoule, ["kj", "kilojoule", "kilojoules"])
        add(.kilogram, ["kg", "kgs", "kilo", "kilos", "kilogram", "kilograms"])
        add(.pound, ["lb", "lbs", "pound", "pounds"])
        add(.millimetreOfMercury, ["mmhg"])
        add(.millimolePerLitre, ["mmol/l", "mmol", "mmol/liter", "mmol/litre"])
        add(.milligramPerDecilitre, ["mg/dl", "mg/100ml", "mg%"])
        return table
    }()

    /// The unit spelled `text` (any case, spaces ignored), if phr knows it.
    public static func named(_ text: String) -> HealthUnit? {
        spellings[text.lowercased().filter { !$0.isWhitespace }]
    }
}
