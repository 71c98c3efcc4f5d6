import Foundation

/// `phr med alternatives`: products with the same ingredients and strength, generic and brand.
extension MedicineLookup {
    static let productTypes = ["IN", "SCD", "SBD"]

    /// Products interchangeable in substance with the medicine: for a product, its generic
    /// product (same ingredients, strength and dose form) and every brand of it; for an
    /// ingredient or brand name, one such group per strength and form, only products with
    /// exactly the same ingredients (no combinations). Generics come first in each group.
    /// Whether a swap is right for a person is for their pharmacist or doctor to say.
    public func alternatives(_ reference: MedicineReference) throws -> AlternativesReport {
        let trail = LookupTrail()
        let details = try resolve(reference, trail: trail)
        let concept = details.concept
        let ingredientNames = details.ingredients.map(\.name)
        var groups: [AlternativeGroup] = []

        if RxTermType.genericProducts.contains(concept.tty) {
            let brands = try related(concept.rxcui, termTypes: Self.productTypes, trail: trail).filter { $0.tty == "SBD" }
            groups = [group(generic: concept, brands: brands, asked: concept.rxcui)]
        } else if RxTermType.brandedProducts.contains(concept.tty) {
            let generics = details.related.filter { RxTermType.genericProducts.contains($0.tty) }
            if generics.isEmpty {
                groups = [group(generic: nil, brands: [concept], asked: concept.rxcui)]
                trail.notice("RxNorm links \(concept.name) to no generic product")
            }
            for generic in generics {
                let brands = try related(generic.rxcui, termTypes: Self.productTypes, trail: trail).filter { $0.tty == "SBD" }
                groups.append(group(generic: generic, brands: brands + [concept], asked: concept.rxcui))
            }
        } else {
            groups = try groupsByStrength(details, ingredientNames: ingredientNames, trail: trail)
        }
        if groups.isEmpty {
            trail.notice(ingredientNames.isEmpty ? "RxNorm lists no ingredients for \(concept.name)"
                         : "RxNorm lists no products with exactly the ingredients of \(concept.name)")
        }
        return AlternativesReport(query: reference.description, concept: concept, ingredients: details.ingredients,
                                  groups: groups, sources: trail.sources, notices: trail.notices,
                                  disclaimer: MedAPIDisclaimer.text)
    }

    /// For an ingredient, brand name or dose form: the generic products with exactly its
    /// ingredients, each with its brands.
    private func groupsByStrength(_ details: ConceptDetails, ingredientNames: [String], trail: LookupTrail) throws -> [AlternativeGroup] {
        let generics = details.related.filter { $0.tty == "SCD" && RxProductName($0.name).hasExactly(ingredients: ingredientNames) }
        var brandsByGeneric: [String: [RxConcept]] = [:]
        if details.concept.tty == "BN" {
            // A brand name's own related products are only that brand's; ask for each product's other brands.
            for generic in generics {
                brandsByGeneric[generic.rxcui] = try related(generic.rxcui, termTypes: Self.productTypes, trail: trail)
                    .filter { $0.tty == "SBD" }
            }
        } else {
            let byName = Dictionary(generics.map { ($0.name.lowercased(), $0.rxcui) }, uniquingKeysWith: { first, _ in first })
            for branded in details.related where branded.tty == "SBD" && RxProductName(branded.name).hasExactly(ingredients: ingredientNames) {
                if let generic = byName[RxProductName(branded.name).generic.lowercased()] {
                    brandsByGeneric[generic, default: []].append(branded)
                }
            }
        }
        return generics.map { generic in
            group(generic: generic, brands: brandsByGeneric[generic.rxcui] ?? [], asked: details.concept.rxcui)
        }.sorted { lhs, rhs in
            (lhs.generic?.name ?? "").compare(rhs.generic?.name ?? "", options: [.numeric, .caseInsensitive]) == .orderedAscending
        }
    }

    private func group(generic: RxConcept?, brands: [RxConcept], asked: String) -> AlternativeGroup {
        var products: [AlternativeProduct] = []
        if let generic {
            products.append(AlternativeProduct(rxcui: generic.rxcui, name: generic.name, tty: generic.tty, kind: .generic,
                                               brand: nil, isAsked: generic.rxcui == asked))
        }
        var seen = Set(products.map(\.rxcui))
        let sortedBrands = brands.sorted {
            (RxProductName($0.name).brand ?? $0.name).compare(RxProductName($1.name).brand ?? $1.name,
                                                                options: [.numeric, .caseInsensitive]) == .orderedAscending
        }
        for brand in sortedBrands where seen.insert(brand.rxcui).inserted {
            products.append(AlternativeProduct(rxcui: brand.rxcui, name: brand.name, tty: brand.tty, kind: .brand,
                                               brand: RxProductName(brand.name).brand, isAsked: brand.rxcui == asked))
        }
        return AlternativeGroup(generic: generic, products: products)
    }
}
