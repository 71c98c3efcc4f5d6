import Foundation

/// Reads RxNorm's normative product names, which spell out what a product is:
/// "amlodipine 5 MG / atorvastatin 10 MG Oral Tablet [Caduet]" is the components (ingredient
/// and strength) separated by " / ", the dose form, and for a branded product its brand in
/// brackets. A branded product's name without the bracket is its generic product's name.
/// https://www.nlm.nih.gov/research/umls/rxnorm/docs/techdoc.html (section 6, normal forms)
struct RxProductName: Equatable {
    /// The name without the brand: the generic product's name.
    var generic: String
    var brand: String?
    /// "amlodipine 5 MG", "atorvastatin 10 MG ..." (the last one still carries the dose form).
    var components: [String]

    init(_ name: String) {
        var base = name.trimmingCharacters(in: .whitespaces)
        var brand: String?
        if base.hasSuffix("]"), let open = base.range(of: " [", options: .backwards) {
            brand = String(base[open.upperBound..<base.index(before: base.endIndex)])
            base = String(base[..<open.lowerBound])
        }
        // Packs ("{2 (...) / 5 (...) } Pack") nest products; their components are not simple.
        components = base.hasPrefix("{") ? [base] : base.components(separatedBy: " / ")
        generic = base
        self.brand = brand
    }

    /// Whether the product contains exactly these ingredients: as many components as
    /// ingredients, each starting with one ingredient's name (salts such as "metoprolol
    /// succinate" start with the ingredient's name too).
    func hasExactly(ingredients names: [String]) -> Bool {
        guard !names.isEmpty, components.count == names.count else { return false }
        let lowered = components.map { $0.lowercased() }
        return names.allSatisfy { name in
            let ingredient = name.lowercased()
            return lowered.contains { $0 == ingredient || $0.hasPrefix(ingredient + " ") }
        }
    }
}
