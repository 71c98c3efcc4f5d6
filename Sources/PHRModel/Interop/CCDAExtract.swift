import Foundation

/// What phr-render's C-CDA reader (`phr-render ccda`) answers: the document's header and its
/// entries as plain values, or why it refused the XML.
///
/// The reader knows C-CDA's shape (where a medication's RxNorm code or a result's reference range
/// is) but decides nothing about records; phr checks every value it sends with the limits typed
/// input has (`CCDAImporter`, `RecordValidation`), as it would a file, since the worker parsed
/// untrusted XML. HL7 times stay as the document wrote them ("20150622103000-0500").
public enum CCDAReadResult: Codable, Sendable, Equatable {
    case document(CCDADocument)
    case refused(CCDARefusal)
}

/// One line of the reader's answer, which is JSON lines: each entry as soon as it is read, then
/// the result, whose document lists no entries (they came before it). phr decodes the entries
/// while the reader is still parsing, and a refusal after some entries still refuses the file.
public enum CCDAReadMessage: Codable, Sendable, Equatable {
    case entry(CCDAEntry)
    case result(CCDAReadResult)
}

/// Why the reader refused a file, before or while parsing it.
public enum CCDARefusal: Codable, Sendable, Equatable {
    /// Well-formed XML whose root is not a CDA ClinicalDocument.
    case notCDA(root: String, namespace: String?)
    /// It declares entities (`<!ENTITY`): what entity-expansion bombs and external-entity
    /// attacks need, and what no C-CDA document has.
    case entities
    /// Elements nested deeper than the reader's bound.
    case tooDeep(limit: Int)
    /// More elements, attributes or text than the reader keeps for one document.
    case tooLarge(reason: String)
    /// Not well-formed XML: libxml2's first error and its line.
    case malformed(line: Int, message: String)
    /// A CDA document whose body is not structured (a scanned PDF or text in nonXMLBody).
    case unstructured
}

/// An HL7 v3 II: an identifier's root (an OID or UUID) and extension.
public struct CCDAIdentifier: Codable, Sendable, Equatable, Hashable {
    public var root: String
    public var `extension`: String?

    public init(root: String, extension: String? = nil) {
        self.root = root
        self.extension = `extension`
    }
}

/// An HL7 v3 CD: a code in a code system (an OID), its display name and original text, and its
/// translations (flat: translations of translations are listed too).
public struct CCDACode: Codable, Sendable, Equatable {
    public var code: String?
    public var system: String?
    public var display: String?
    public var originalText: String?
    public var nullFlavor: String?
    public var translations: [CCDACode]

    public init(code: String? = nil, system: String? = nil, display: String? = nil, originalText: String? = nil,
                nullFlavor: String? = nil, translations: [CCDACode] = []) {
        self.code = code
        self.system = system
        self.display = display
        self.originalText = originalText
        self.nullFlavor = nullFlavor
        self.translations = translations
    }
}

/// A physical quantity (PQ): a number as written and its UCUM unit.
public struct CCDAQuantity: Codable, Sendable, Equatable {
    public var value: String?
    public var unit: String?

    public init(value: String?, unit: String?) {
        self.value = value
        self.unit = unit
    }
}

/// A result's value: its xsi:type and what that type holds.
public struct CCDAValue: Codable, Sendable, Equatable {
    /// PQ, ST, CD, CO, CE, INT, REAL, BL, IVL_PQ, ED...
    public var type: String
    public var quantity: CCDAQuantity?
    public var low: CCDAQuantity?
    public var high: CCDAQuantity?
    public var code: CCDACode?
    public var text: String?
    public var nullFlavor: String?

    public init(type: String, quantity: CCDAQuantity? = nil, low: CCDAQuantity? = nil, high: CCDAQuantity? = nil,
                code: CCDACode? = nil, text: String? = nil, nullFlavor: String? = nil) {
        self.type = type
        self.quantity = quantity
        self.low = low
        self.high = high
        self.code = code
        self.text = text
        self.nullFlavor = nullFlavor
    }
}

/// An observation's reference range: low and high, or only words.
public struct CCDARange: Codable, Sendable, Equatable {
    public var low: CCDAQuantity?
    public var high: CCDAQuantity?
    public var text: String?

    public init(low: CCDAQuantity?, high: CCDAQuantity?, text: String?) {
        self.low = low
        self.high = high
        self.text = text
    }
}

/// An HL7 time: one point (`value`) or an interval (`low`, `high`), as written.
public struct CCDATime: Codable, Sendable, Equatable {
    public var value: String?
    public var low: String?
    public var high: String?

    public init(value: String? = nil, low: String? = nil, high: String? = nil) {
        self.value = value
        self.low = low
        self.high = high
    }

    /// When it started or happened.
    public var start: String? { low ?? value }
}

/// The patient (recordTarget/patientRole).
public struct CCDAPatient: Codable, Sendable, Equatable {
    public var name: String?
    public var birthTime: String?
    /// administrativeGenderCode: F, M, UN...
    public var gender: String?
    public var identifiers: [CCDAIdentifier]

    public init(name: String?, birthTime: String?, gender: String?, identifiers: [CCDAIdentifier]) {
        self.name = name
        self.birthTime = birthTime
        self.gender = gender
        self.identifiers = identifiers
    }
}

/// One clinical statement of a section, as phr keeps it.
public struct CCDAEntry: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        case medication, allergy, problem, immunization, result, vitalSign = "vital-sign", encounter, procedure
        case familyHistory = "family-history", socialHistory = "social-history"
        /// A device used or implanted (Medical Equipment) and an advance directive: kept as
        /// lines of the medical ID's notes, where the emergency card shows them.
        case device, advanceDirective = "advance-directive"
    }

    public var kind: Kind
    /// Where it is: "section[3] entry[2]", "section[5] entry[0] component[4]".
    public var location: String
    /// What it is in C-CDA's words ("Medication Activity"), for the report.
    public var type: String
    /// A reason the reader already has for not importing it (no known allergies...).
    public var skip: String?
    public var ids: [CCDAIdentifier] = []
    public var status: String?
    public var moodCode: String?
    public var negated = false
    /// What: the drug, vaccine, substance, problem, test or kind of visit.
    public var code: CCDACode?
    /// A name in words where there is no code (manufacturedMaterial/name, playingEntity/name).
    public var name: String?
    public var time: CCDATime?
    public var value: CCDAValue?
    public var interpretations: [CCDACode] = []
    public var ranges: [CCDARange] = []
    /// The result organizer (panel) it belongs to.
    public var panel: CCDACode?
    public var dose: CCDAQuantity?
    public var route: CCDACode?
    /// A PIVL_TS period: "every 8 h".
    public var period: CCDAQuantity?
    /// A precondition: taken as needed.
    public var asNeeded = false
    public var instructions: String?
    /// Allergies: the kind of reaction (allergy observation value), reactions, severity, criticality.
    public var allergyType: CCDACode?
    public var reactions: [CCDACode] = []
    public var severity: CCDACode?
    public var criticality: CCDACode?
    /// A status observation's value (R1.1 problem and allergy status: active, inactive, resolved).
    public var statusValue: CCDACode?
    /// The concern act's statusCode around a problem or allergy (active, completed, suspended).
    public var concernStatus: String?
    public var lot: String?
    /// Who: the prescriber or the clinician seen; where: the facility.
    public var performer: String?
    public var place: String?
    /// Encounter diagnoses and indications.
    public var reasons: [CCDACode] = []
    /// Procedures: where on the body (targetSiteCode).
    public var bodySite: CCDACode?
    /// Family history: the relative (relatedSubject/code, HL7 RoleCode), their age when the
    /// condition began (an Age Observation), and whether they died of it (a Death Observation).
    public var relation: CCDACode?
    public var age: CCDAQuantity?
    public var causeOfDeath = false

    public init(kind: Kind, location: String, type: String) {
        self.kind = kind
        self.location = location
        self.type = type
    }
}

/// A section or element phr does not import, with the reason: reported, never dropped silently.
public struct CCDASkip: Codable, Sendable, Equatable {
    public var location: String
    public var type: String
    public var reason: String

    public init(location: String, type: String, reason: String) {
        self.location = location
        self.type = type
        self.reason = reason
    }
}

/// A C-CDA document as the reader saw it.
public struct CCDADocument: Codable, Sendable, Equatable {
    /// ClinicalDocument/templateId roots, with the extension after a colon when there is one.
    public var templates: [String] = []
    public var id: CCDAIdentifier?
    public var code: CCDACode?
    public var title: String?
    public var effectiveTime: String?
    public var patient: CCDAPatient?
    public var entries: [CCDAEntry] = []
    public var skipped: [CCDASkip] = []

    public init() {}
}
