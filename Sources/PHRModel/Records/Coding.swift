import Foundation

/// A code from a terminology, as FHIR writes it: the system's URI, the code, and the text the
/// source showed for it. Records keep every coding they were imported with, in order.
public struct Coding: Codable, Hashable, Sendable {
    public var system: String?
    public var code: String
    public var display: String?

    public init(system: String?, code: String, display: String? = nil) {
        self.system = system
        self.code = code
        self.display = display
    }

    /// The well-known systems phr names in its output (FHIR's canonical URIs).
    public enum System {
        public static let rxNorm = "http://www.nlm.nih.gov/research/umls/rxnorm"
        public static let snomed = "http://snomed.info/sct"
        public static let loinc = "http://loinc.org"
        public static let cvx = "http://hl7.org/fhir/sid/cvx"
        public static let icd10 = "http://hl7.org/fhir/sid/icd-10"
        public static let icd10CM = "http://hl7.org/fhir/sid/icd-10-cm"
        public static let atc = "http://www.whocc.no/atc"
        public static let ucum = "http://unitsofmeasure.org"
    }

    /// "RxNorm", "SNOMED CT", ... for a known system; the URI otherwise.
    public var systemName: String {
        switch system {
        case System.rxNorm: return "RxNorm"
        case System.snomed: return "SNOMED CT"
        case System.loinc: return "LOINC"
        case System.cvx: return "CVX"
        case System.icd10, System.icd10CM: return "ICD-10"
        case System.atc: return "ATC"
        case nil: return "code"
        case let other?: return other
        }
    }

    /// "RxNorm 665078".
    public var label: String { "\(systemName) \(code)" }
}

extension Array where Element == Coding {
    /// The first code from `system`, e.g. a medication's RxCUI.
    public func code(in system: String) -> String? {
        first { $0.system == system }?.code
    }

    /// What to call a coded thing: the first display text, preferring `systems` in order.
    public func preferredDisplay(systems: [String] = []) -> String? {
        for system in systems {
            if let display = first(where: { $0.system == system && $0.display?.isEmpty == false })?.display { return display }
        }
        return first { $0.display?.isEmpty == false }?.display
    }
}

/// A business identifier from a record's source (FHIR `Identifier`: system and value).
public struct SourceIdentifier: Codable, Hashable, Sendable {
    public var system: String?
    public var value: String

    public init(system: String?, value: String) {
        self.system = system
        self.value = value
    }
}

/// Where an imported record came from: the key that makes importing it again a no-op, and the
/// source's own identifiers, kept for writing the record back out (FHIR IPS).
public struct RecordSource: Codable, Hashable, Sendable {
    /// "fhir:identifier:urn:oid:1.2.3|abc", "fhir:urn:uuid:…" or "fhir:Condition/123".
    public var key: String
    public var identifiers: [SourceIdentifier]

    public init(key: String, identifiers: [SourceIdentifier] = []) {
        self.key = key
        self.identifiers = identifiers
    }

    enum CodingKeys: String, CodingKey { case key, identifiers }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        key = try c.decode(String.self, forKey: .key)
        identifiers = try c.decodeIfPresent([SourceIdentifier].self, forKey: .identifiers) ?? []
    }
}
