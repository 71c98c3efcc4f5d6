import Foundation

/// Something done to or for the person: an operation, a scope, a biopsy, a course of
/// radiotherapy ("appendectomy 2009", "colonoscopy 2024-03"). FHIR's Procedure, C-CDA's
/// Procedures section.
public struct Procedure: Codable, Sendable, Equatable {
    /// FHIR Procedure.status, without entered-in-error (such an entry is not kept).
    public enum Status: String, RecordChoice {
        case completed, inProgress = "in-progress", notDone = "not-done", onHold = "on-hold", stopped, preparation, unknown
    }

    public var id: String
    public var uid: String
    public var name: String
    /// When it was done (or began), as precisely as known; nil when the source does not say.
    public var date: PartialDate?
    public var status: Status
    /// Where on the body: "left knee", "colon".
    public var bodySite: String?
    /// Who did it, or where: "Dr Ortiz, Riverside Hospital".
    public var performer: String?
    public var notes: String?
    public var codes: [Coding]
    public var source: RecordSource?
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, uid, name, date, status
        case bodySite = "body_site"
        case performer, notes, codes, source
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(id: String, uid: String, name: String, date: PartialDate?, status: Status, bodySite: String?, performer: String?,
                notes: String?, codes: [Coding], source: RecordSource?, createdAt: String, updatedAt: String) {
        self.id = id
        self.uid = uid
        self.name = name
        self.date = date
        self.status = status
        self.bodySite = bodySite
        self.performer = performer
        self.notes = notes
        self.codes = codes
        self.source = source
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A condition a blood relative has or had: "mother: breast cancer at 52". One record per
/// relative and condition (FHIR's FamilyMemberHistory holds a relative's conditions; an import
/// keeps each as one of these).
public struct FamilyHistory: Codable, Sendable, Equatable {
    public var id: String
    public var uid: String
    /// Who, in words: "mother", "maternal grandfather", "brother".
    public var relation: String
    /// The relation as HL7 v3 RoleCode (MTH, FTH, MGRFTH...), when known: what FHIR and C-CDA use.
    public var relationCode: String?
    public var condition: String
    /// The relative's age when it began, in years.
    public var onsetAge: Int?
    /// Whether the relative died of it (nil: not said).
    public var causeOfDeath: Bool?
    public var notes: String?
    /// The condition's codes (SNOMED CT, ICD-10).
    public var codes: [Coding]
    public var source: RecordSource?
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, uid, relation
        case relationCode = "relation_code"
        case condition
        case onsetAge = "onset_age"
        case causeOfDeath = "cause_of_death"
        case notes, codes, source
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(id: String, uid: String, relation: String, relationCode: String?, condition: String, onsetAge: Int?, causeOfDeath: Bool?,
                notes: String?, codes: [Coding], source: RecordSource?, createdAt: String, updatedAt: String) {
        self.id = id
        self.uid = uid
        self.relation = relation
        self.relationCode = relationCode
        self.condition = condition
        self.onsetAge = onsetAge
        self.causeOfDeath = causeOfDeath
        self.notes = notes
        self.codes = codes
        self.source = source
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// HL7 v3 RoleCode for the family relations people name most, by their words (and back).
    public static let roleCodes: [(words: String, code: String)] = [
        ("mother", "MTH"), ("father", "FTH"), ("parent", "PRN"), ("sister", "SIS"), ("brother", "BRO"), ("sibling", "SIB"),
        ("half-sister", "HSIS"), ("half-brother", "HBRO"), ("twin sister", "TWINSIS"), ("twin brother", "TWINBRO"),
        ("daughter", "DAU"), ("son", "SON"), ("child", "CHILD"),
        ("grandmother", "GRMTH"), ("grandfather", "GRFTH"), ("grandparent", "GRPRN"),
        ("maternal grandmother", "MGRMTH"), ("maternal grandfather", "MGRFTH"),
        ("paternal grandmother", "PGRMTH"), ("paternal grandfather", "PGRFTH"),
        ("aunt", "AUNT"), ("uncle", "UNCLE"), ("maternal aunt", "MAUNT"), ("maternal uncle", "MUNCLE"),
        ("paternal aunt", "PAUNT"), ("paternal uncle", "PUNCLE"), ("cousin", "COUSN"), ("niece", "NIECE"), ("nephew", "NEPHEW"),
        ("granddaughter", "GRNDDAU"), ("grandson", "GRNDSON"), ("great-grandmother", "GGRMTH"), ("great-grandfather", "GGRFTH"),
        ("family member", "FAMMEMB"),
    ]

    /// The RoleCode of a relation in words ("Mother", "maternal grandmother"), nil for others.
    public static func roleCode(for words: String) -> String? {
        let key = words.lowercased().trimmingCharacters(in: .whitespaces)
        return roleCodes.first { $0.words == key }?.code
    }

    /// The words of a RoleCode ("MGRMTH" → "maternal grandmother"), nil for others.
    public static func relationWords(for code: String) -> String? {
        roleCodes.first { $0.code == code.uppercased() }?.words
    }
}
