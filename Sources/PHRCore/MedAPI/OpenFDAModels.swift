import Foundation

/// A page of openFDA results with its `meta` block: how many matched in all, and when FDA last
/// updated the data set.
public struct OpenFDAPage<Result: Sendable>: Sendable {
    public var total: Int?
    public var lastUpdated: String?
    public var results: [Result]
}

/// The sections of a drug label (SPL) phr reads, by their openFDA field names.
/// https://open.fda.gov/apis/drug/label/searchable-fields/
public enum LabelSection: String, CaseIterable, Codable, Sendable {
    case boxedWarning = "boxed_warning"
    case indications = "indications_and_usage"
    case contraindications
    case warnings
    case warningsAndCautions = "warnings_and_cautions"
    case precautions
    case drugInteractions = "drug_interactions"
    case dosageFormsAndStrengths = "dosage_forms_and_strengths"
    // Over-the-counter "Drug Facts" labels put the same information under these headings.
    case purpose
    case activeIngredient = "active_ingredient"
    case doNotUse = "do_not_use"
    case askDoctor = "ask_doctor"
    case askDoctorOrPharmacist = "ask_doctor_or_pharmacist"
    case whenUsing = "when_using"

    /// The heading people know it by.
    public var title: String {
        switch self {
        case .boxedWarning: return "boxed warning"
        case .indications: return "indications and usage"
        case .contraindications: return "contraindications"
        case .warnings: return "warnings"
        case .warningsAndCautions: return "warnings and precautions"
        case .precautions: return "precautions"
        case .drugInteractions: return "drug interactions"
        case .dosageFormsAndStrengths: return "dosage forms and strengths"
        case .purpose: return "purpose"
        case .activeIngredient: return "active ingredient"
        case .doNotUse: return "do not use"
        case .askDoctor: return "ask a doctor before use"
        case .askDoctorOrPharmacist: return "ask a doctor or pharmacist before use"
        case .whenUsing: return "when using this product"
        }
    }

    /// The sections the interaction check reads, with how serious a mention there is: a boxed
    /// warning or a contraindication (and a Drug Facts "Do not use") is high; the rest moderate.
    public var interactionSeverity: FindingSeverity? {
        switch self {
        case .boxedWarning, .contraindications, .doNotUse: return .high
        case .drugInteractions, .warnings, .warningsAndCautions, .precautions, .askDoctorOrPharmacist: return .moderate
        default: return nil
        }
    }
}

/// How serious a finding of the interaction check is.
public enum FindingSeverity: String, Codable, Sendable, Comparable, CaseIterable {
    case moderate, high

    public static func < (lhs: FindingSeverity, rhs: FindingSeverity) -> Bool {
        lhs == .moderate && rhs == .high
    }
}

/// One drug label (a structured product label, SPL) from openFDA's `/drug/label.json`.
public struct DrugLabel: Codable, Sendable, Equatable {
    /// The SPL set ID: the same for every version of one product's label.
    public var setID: String
    public var splID: String?
    public var version: String?
    /// YYYY-MM-DD.
    public var effectiveDate: String?
    public var brandNames: [String]
    public var genericNames: [String]
    public var manufacturers: [String]
    public var substanceNames: [String]
    public var productType: String?
    public var routes: [String]
    /// The RxCUIs FDA links the label to (usually products: SCD, SBD).
    public var rxcuis: [String]
    /// Section texts by openFDA field name (`LabelSection` raw values), each a list of
    /// paragraphs as openFDA gives them.
    public var sections: [String: [String]]

    public func text(_ section: LabelSection) -> [String] { sections[section.rawValue] ?? [] }

    /// What the label is for, in a few words: "Celexa (citalopram hydrobromide)".
    public var title: String {
        let brand = brandNames.first
        let generic = genericNames.first?.lowercased()
        switch (brand, generic) {
        case let (brand?, generic?) where brand.lowercased() != generic: return "\(brand) (\(generic))"
        case let (brand?, _): return brand
        case let (nil, generic?): return generic
        default: return "label \(setID)"
        }
    }

    /// The label on DailyMed, where a person can read all of it.
    public var dailyMedURL: String { "https://dailymed.nlm.nih.gov/dailymed/lookup.cfm?setid=\(setID)" }
}

/// A product from openFDA's NDC directory (`/drug/ndc.json`).
public struct NDCProduct: Codable, Sendable, Equatable {
    public struct Ingredient: Codable, Sendable, Equatable {
        public var name: String
        public var strength: String?
    }

    public struct Package: Codable, Sendable, Equatable {
        public var ndc: String
        public var description: String?
    }

    public var productNDC: String
    public var brandName: String?
    public var genericName: String?
    public var labeler: String?
    public var dosageForm: String?
    public var routes: [String]
    public var productType: String?
    public var marketingCategory: String?
    public var activeIngredients: [Ingredient]
    public var packages: [Package]
    public var rxcuis: [String]
    public var pharmacologicClasses: [String]
}

/// One FDA enforcement report (a recall) from `/drug/enforcement.json`.
public struct Recall: Codable, Sendable, Equatable {
    public var recallNumber: String
    /// Class I (serious harm likely), Class II (temporary or reversible harm), Class III (unlikely to harm).
    public var classification: String?
    /// Ongoing, Completed, Terminated, Pending.
    public var status: String?
    public var reason: String?
    public var productDescription: String?
    public var recallingFirm: String?
    /// YYYY-MM-DD: when FDA published the report.
    public var reportDate: String?
    public var initiationDate: String?
    public var terminationDate: String?
    public var distribution: String?
    /// Lot numbers and expiry dates affected, as the firm wrote them.
    public var codeInfo: String?
    public var voluntaryMandated: String?
    public var rxcuis: [String]
    public var genericNames: [String]
    public var brandNames: [String]
}
