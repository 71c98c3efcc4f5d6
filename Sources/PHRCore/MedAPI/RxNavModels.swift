import Foundation

/// An RxNorm concept: a medicine at one level of detail, from an ingredient ("citalopram", IN)
/// to a branded product ("citalopram 20 MG Oral Tablet [Celexa]", SBD).
/// https://www.nlm.nih.gov/research/umls/rxnorm/docs/appendix5.html lists the term types.
public struct RxConcept: Codable, Sendable, Hashable {
    public var rxcui: String
    public var name: String
    /// The RxNorm term type: IN, PIN, MIN, BN, SCD, SBD, SCDC, DF...
    public var tty: String
    /// RxNorm's other spelling, when it has one ("Zyrtec Itchy Eye 0.025 % Ophthalmic Solution").
    public var synonym: String?

    public init(rxcui: String, name: String, tty: String, synonym: String? = nil) {
        self.rxcui = rxcui
        self.name = name
        self.tty = tty
        self.synonym = synonym
    }

    /// The term type in words: "ingredient", "brand name", "branded drug"...
    public var kind: String { RxTermType.describe(tty) }
}

/// RxNorm term types in words, and the groups phr reasons with.
public enum RxTermType {
    public static func describe(_ tty: String) -> String {
        switch tty {
        case "IN": return "ingredient"
        case "PIN": return "precise ingredient"
        case "MIN": return "multiple ingredients"
        case "BN": return "brand name"
        case "SCD": return "generic drug"
        case "SBD": return "branded drug"
        case "SCDC": return "generic drug component"
        case "SBDC": return "branded drug component"
        case "SCDF": return "generic dose form"
        case "SBDF": return "branded dose form"
        case "SCDG": return "generic dose form group"
        case "SBDG": return "branded dose form group"
        case "DF": return "dose form"
        case "DFG": return "dose form group"
        case "GPCK": return "generic pack"
        case "BPCK": return "branded pack"
        default: return tty.isEmpty ? "concept" : tty
        }
    }

    /// Products a person takes, with a strength and a form: generic (SCD, GPCK) or branded.
    static let products: Set<String> = ["SCD", "SBD", "GPCK", "BPCK"]
    static let genericProducts: Set<String> = ["SCD", "GPCK"]
    static let brandedProducts: Set<String> = ["SBD", "BPCK"]
    static let ingredients: Set<String> = ["IN", "PIN", "MIN"]
}

/// A candidate from RxNav's approximate match: the nearest concepts to a misspelt or partial name.
public struct ApproximateMatch: Codable, Sendable, Equatable {
    public var rxcui: String
    /// Present for candidates from RxNorm itself; other sources' atoms may come without one.
    public var name: String?
    public var score: Double?
    public var rank: Int?
    public var source: String?
}

/// A drug class from RxClass: an established pharmacologic class (EPC), a mechanism of action
/// (MOA), a chemical structure (CHEM), an ATC group, a MeSH pharmacologic action (MESHPA)...
/// https://lhncbc.nlm.nih.gov/RxNav/applications/RxClassIntro.html
public struct DrugClass: Codable, Sendable, Hashable {
    public var id: String
    public var name: String
    /// RxClass class type: EPC, MOA, PE, CHEM, ATC1-4, MESHPA, VA, DISEASE...
    public var type: String
    /// How the drug relates to it (has_epc, has_moa, isa...).
    public var relation: String?
    /// Who says so (DAILYMED, FDASPL, MEDRT, ATC, MESH...).
    public var source: String?

    public init(id: String, name: String, type: String, relation: String? = nil, source: String? = nil) {
        self.id = id
        self.name = name
        self.type = type
        self.relation = relation
        self.source = source
    }

    /// "Serotonin Reuptake Inhibitor (EPC)".
    public var label: String { "\(name) (\(type))" }

    /// Classes that say what a drug is pharmacologically, as labels name them; disease classes
    /// ("may treat"), physiologic effects and pharmacokinetic roles are left out because label
    /// text mentions them for other reasons. ATC counts only at level 4 (five-character codes
    /// such as N06AB): the levels above are too broad ("ANTIDEPRESSANTS").
    var isPharmacologic: Bool {
        switch type {
        case "EPC", "MOA", "CHEM", "MESHPA": return true
        case "ATC1-4": return id.count == 5
        default: return false
        }
    }

    /// Classes narrow enough that two drugs sharing one are alternatives for each other (a
    /// duplicated therapy) or may cross-react in an allergy.
    var isSpecific: Bool {
        switch type {
        case "EPC", "CHEM": return true
        case "ATC1-4": return id.count == 5
        default: return false
        }
    }
}

/// RxNav's answer about an NDC: whether it is current and which product (RxCUI) it belongs to.
public struct NDCStatus: Codable, Sendable, Equatable {
    public var ndc: String
    /// ACTIVE, OBSOLETE, ALIEN, UNKNOWN.
    public var status: String?
    public var rxcui: String?
    public var conceptName: String?
    public var conceptStatus: String?
}
