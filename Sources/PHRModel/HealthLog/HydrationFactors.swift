import Foundation

/// How much of a drink's volume counts toward the water goal, and why.
///
/// The figures come from the one controlled study that compared everyday drinks against
/// still water: Maughan et al. 2016 (`source`). 72 men drank 1 L of a drink; the beverage
/// hydration index (BHI) is the water retained two hours later relative to still water.
/// - Ten drinks were **not different from water** (cola, diet cola, hot tea, iced tea, coffee,
///   lager, orange juice, sparkling water, a sports drink): phr counts them as water, 1.00. The
///   study's point estimates for them are not used, since they were within noise.
/// - Three were **retained better**: an oral rehydration solution (BHI 1.54), full-fat milk
///   (1.50) and skimmed milk (1.58): phr counts them at their measured index.
/// - Any other drink is an **estimate**: counted as water (1.00) unless `--factor` says
///   otherwise, and shown as an estimate wherever its factor is shown.
///
/// The factor used is stored with each entry, so changing this table never rewrites history.
public enum HydrationFactors {
    public enum Basis: String, Codable, Sendable {
        /// The reference drink.
        case reference
        /// Measured not different from water; counted as water.
        case notDifferent = "not_different"
        /// Measured better retained; counted at its index.
        case measured
        /// Not measured: phr's estimate, or the user's own `--factor`.
        case estimate
    }

    public struct Drink: Codable, Sendable, Equatable {
        /// The name typed with --drink ("water", "skim-milk").
        public var name: String
        /// What the study tested under that name.
        public var tested: String?
        public var factor: Double
        public var basis: Basis
    }

    public static let source = "Maughan RJ, Watson P, Cordery PAA, et al. A randomized trial to assess the potential of different beverages to affect hydration status: development of a beverage hydration index. Am J Clin Nutr 2016;103(3):717-723. doi:10.3945/ajcn.115.114769"
    public static let shortSource = "Maughan et al. 2016"

    /// The drink every entry without --drink is.
    public static let defaultDrink = "water"

    public static let drinks: [Drink] = [
        Drink(name: "water", tested: "still water", factor: 1.00, basis: .reference),
        Drink(name: "sparkling", tested: "sparkling water", factor: 1.00, basis: .notDifferent),
        Drink(name: "tea", tested: "hot tea", factor: 1.00, basis: .notDifferent),
        Drink(name: "iced-tea", tested: "iced tea", factor: 1.00, basis: .notDifferent),
        Drink(name: "coffee", tested: "coffee", factor: 1.00, basis: .notDifferent),
        Drink(name: "soda", tested: "cola", factor: 1.00, basis: .notDifferent),
        Drink(name: "diet-soda", tested: "diet cola", factor: 1.00, basis: .notDifferent),
        Drink(name: "juice", tested: "orange juice", factor: 1.00, basis: .notDifferent),
        Drink(name: "beer", tested: "lager", factor: 1.00, basis: .notDifferent),
        Drink(name: "sports-drink", tested: "sports drink", factor: 1.00, basis: .notDifferent),
        Drink(name: "milk", tested: "full-fat milk", factor: 1.50, basis: .measured),
        Drink(name: "skim-milk", tested: "skimmed milk", factor: 1.58, basis: .measured),
        Drink(name: "ors", tested: "oral rehydration solution", factor: 1.54, basis: .measured),
    ]

    /// Other names people type for the drinks above.
    static let aliases: [String: String] = [
        "still": "water", "still-water": "water", "sparkling-water": "sparkling", "soda-water": "sparkling", "seltzer": "sparkling",
        "hot-tea": "tea", "cold-tea": "iced-tea", "cola": "soda", "pop": "soda", "diet-cola": "diet-soda", "orange-juice": "juice",
        "lager": "beer", "sports": "sports-drink", "isotonic": "sports-drink", "whole-milk": "milk", "full-fat-milk": "milk",
        "skimmed-milk": "skim-milk", "skim": "skim-milk", "skimmed": "skim-milk", "fat-free-milk": "skim-milk",
        "oral-rehydration-solution": "ors", "rehydration": "ors",
    ]

    /// A drink name as typed, normalised: lowercase, words joined by hyphens, aliases resolved.
    public static func normalise(_ text: String, field: Field) throws -> String {
        let words = text.lowercased().split { $0.isWhitespace || $0 == "_" || $0 == "-" }
        let name = words.joined(separator: "-")
        guard !name.isEmpty else { throw RecordError.invalidField(field: field, reason: "cannot be empty") }
        guard name.count <= 40, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
            throw RecordError.invalidField(field: field, reason: "'\(text)' is not a drink name; use letters, digits and hyphens, at most 40")
        }
        return aliases[name] ?? name
    }

    /// The known drink of that (normalised) name, or an estimate of 1.00 for any other.
    public static func drink(_ name: String) -> Drink {
        drinks.first { $0.name == name } ?? Drink(name: name, tested: nil, factor: 1.00, basis: .estimate)
    }

    /// What the factor of an entry rests on: the table's basis when the entry uses the table's
    /// factor, else an estimate (the user's own --factor).
    public static func basis(drink: String, factor: Double) -> Basis {
        let known = self.drink(drink)
        return known.factor == factor ? known.basis : .estimate
    }

    /// "counted as water (Maughan et al. 2016)", "measured 1.50 (Maughan et al. 2016)", "estimate".
    public static func explanation(of basis: Basis, factor: Double) -> String {
        switch basis {
        case .reference: return "the reference"
        case .notDifferent: return "not different from water (\(shortSource))"
        case .measured: return "retained better than water, index \(String(format: "%.2f", factor)) (\(shortSource))"
        case .estimate: return "an estimate"
        }
    }
}
