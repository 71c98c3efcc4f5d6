import Foundation

/// A medicine name resolved to RxNorm: what `phr med add NAME` stores when online.
public struct ResolvedMedicine: Codable, Sendable, Equatable {
    /// As the person typed it.
    public var query: String
    public var concept: RxConcept
    /// The active ingredients (IN concepts), by name.
    public var ingredients: [RxConcept]
    public var sources: [MedAPISource]
    public var notices: [String]
}

/// What `phr med info` shows.
public struct MedicineInfo: Codable, Sendable {
    public var query: String
    public var concept: RxConcept
    public var ingredients: [RxConcept]
    public var brandNames: [String]
    /// The generic names: the ingredients, or for a product its generic product.
    public var genericNames: [String]
    public var doseForms: [String]
    /// Strengths as RxNorm writes its clinical drug components: "citalopram 20 MG".
    public var strengths: [String]
    /// Pharmacologic classes from RxClass (established class, mechanism, structure, ATC level 4).
    public var classes: [DrugClass]
    public var label: LabelSummary?
    /// For a medicine given by NDC: RxNav's status of the code and openFDA's directory entry.
    public var ndc: NDCDetails?
    public var sources: [MedAPISource]
    public var notices: [String]
    public var disclaimer: String
}

/// The parts of a label `phr med info` shows, headings removed, whitespace collapsed.
public struct LabelSummary: Codable, Sendable, Equatable {
    public var setID: String
    public var title: String
    public var manufacturer: String?
    public var effectiveDate: String?
    public var productType: String?
    public var indications: String?
    public var boxedWarning: String?
    /// Warnings and precautions (or, on older and OTC labels, warnings).
    public var warnings: String?
    public var contraindications: String?
    public var dailyMedURL: String

    init(_ label: DrugLabel) {
        setID = label.setID
        title = label.title
        manufacturer = label.manufacturers.first
        effectiveDate = label.effectiveDate
        productType = label.productType
        func text(_ sections: LabelSection...) -> String? {
            for section in sections {
                let paragraphs = label.text(section).map { LabelText.withoutHeading($0, section: section) }.filter { !$0.isEmpty }
                if !paragraphs.isEmpty { return paragraphs.joined(separator: " ") }
            }
            return nil
        }
        indications = text(.indications, .purpose)
        boxedWarning = text(.boxedWarning)
        warnings = text(.warningsAndCautions, .warnings, .precautions)
        contraindications = text(.contraindications, .doNotUse)
        dailyMedURL = label.dailyMedURL
    }
}

public struct NDCDetails: Codable, Sendable, Equatable {
    public var code: String
    public var status: NDCStatus?
    public var products: [NDCProduct]
}

/// What `phr med alternatives` shows: products with the same ingredients and strength.
public struct AlternativesReport: Codable, Sendable {
    public var query: String
    public var concept: RxConcept
    public var ingredients: [RxConcept]
    /// One group per generic product (same ingredients, strength and dose form), the generic
    /// first, then its brands.
    public var groups: [AlternativeGroup]
    public var sources: [MedAPISource]
    public var notices: [String]
    public var disclaimer: String
}

public struct AlternativeGroup: Codable, Sendable, Equatable {
    /// The generic product (SCD) the group is about; nil for brands RxNorm links to no generic.
    public var generic: RxConcept?
    public var products: [AlternativeProduct]
}

public struct AlternativeProduct: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable { case generic, brand }

    public var rxcui: String
    public var name: String
    public var tty: String
    public var kind: Kind
    /// The brand name, for a branded product: "Lipitor".
    public var brand: String?
    /// True for the product the person asked about.
    public var isAsked: Bool
}

/// A medicine to check or look up recalls for, as the records hold it.
public struct MedicineEntry: Codable, Sendable, Equatable {
    /// The record ID, when it comes from the vault.
    public var id: String?
    public var name: String
    /// Its RxCUI, when it was resolved.
    public var rxcui: String?

    public init(id: String? = nil, name: String, rxcui: String? = nil) {
        self.id = id
        self.name = name
        self.rxcui = rxcui
    }
}

/// An allergy to check medicines against.
public struct AllergyEntry: Codable, Sendable, Equatable {
    public var id: String?
    public var substance: String
    public var reaction: String?
    public var severity: String?

    public init(id: String? = nil, substance: String, reaction: String? = nil, severity: String? = nil) {
        self.id = id
        self.substance = substance
        self.reaction = reaction
        self.severity = severity
    }
}

/// What `phr med check` shows.
public struct InteractionReport: Codable, Sendable {
    public var medicines: [CheckedMedicine]
    public var allergies: [AllergyEntry]
    /// Between medicines, most serious first.
    public var findings: [InteractionFinding]
    /// Between allergies and medicines, most serious first.
    public var allergyFindings: [AllergyFinding]
    /// Pairs of medicines checked without a finding, by name.
    public var pairsWithoutFindings: [[String]]
    public var sources: [MedAPISource]
    public var notices: [String]
    public var disclaimer: String
}

/// A medicine as the check understood it.
public struct CheckedMedicine: Codable, Sendable, Equatable {
    public var entry: MedicineEntry
    /// The RxNorm concept, when the name could be resolved.
    public var concept: RxConcept?
    public var ingredients: [String]
    /// Pharmacologic class names it was checked by.
    public var classes: [String]
    /// The label its text was read from.
    public var labelTitle: String?
    public var labelSetID: String?
}

public struct InteractionFinding: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        /// One medicine's label names the other (an ingredient or a class it belongs to).
        case labelMention = "label_mention"
        /// Both contain the same ingredient: taking both doubles it.
        case sameIngredient = "same_ingredient"
        /// Both belong to the same specific class: a duplicated therapy.
        case sameClass = "same_class"
    }

    public var kind: Kind
    public var severity: FindingSeverity
    /// The two medicines, by name; for a label mention, the one whose label speaks first.
    public var medicines: [String]
    /// The label section that says it ("contraindications"), for label mentions.
    public var section: String?
    /// The words found ("linezolid", "MAOIs", or the shared ingredient or class).
    public var term: String
    /// Why it counts, in words.
    public var reason: String
    /// The sentence from the label, for label mentions.
    public var quote: String?
    public var source: MedAPISource?
    public var dailyMedURL: String?
}

public struct AllergyFinding: Codable, Sendable, Equatable {
    public var allergy: String
    public var medicine: String
    public var severity: FindingSeverity
    /// What matched: an ingredient name or a class name.
    public var matched: String
    public var reason: String
    /// A sentence from the medicine's label about this allergy, when it has one.
    public var quote: String?
    public var section: String?
    public var source: MedAPISource?
}

/// What `phr med recalls` shows.
public struct RecallsReport: Codable, Sendable {
    public var medicines: [MedicineRecalls]
    public var sources: [MedAPISource]
    public var notices: [String]
    public var disclaimer: String
}

public struct MedicineRecalls: Codable, Sendable, Equatable {
    public var medicine: MedicineEntry
    /// The ingredient names searched for.
    public var searchedFor: [String]
    /// Reports openFDA has in all for the search (the list holds the newest).
    public var total: Int?
    public var recalls: [RecallEntry]
}

public struct RecallEntry: Codable, Sendable, Equatable {
    public var recall: Recall
    /// True when FDA links the report to the very product (RxCUI) the person takes.
    public var matchesProduct: Bool
}
