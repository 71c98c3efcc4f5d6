import Foundation

/// An allergy or intolerance: the substance, what it does, and how bad it gets.
public struct Allergy: Codable, Sendable, Equatable {
    public enum Severity: String, Codable, Sendable, CaseIterable {
        case mild, moderate, severe
    }

    /// The risk of a life-threatening reaction (FHIR criticality).
    public enum Criticality: String, RecordChoice {
        case low, high
        case unableToAssess = "unable-to-assess"
    }

    public enum Category: String, RecordChoice {
        case food, medication, environment, biologic
    }

    public enum Status: String, RecordChoice {
        case active, inactive, resolved
    }

    public var id: String
    public var uid: String
    public var substance: String
    public var reaction: String?
    /// How bad the reactions were (FHIR reaction.severity).
    public var severity: Severity?
    public var criticality: Criticality?
    public var category: Category?
    public var status: Status
    public var since: PartialDate?
    public var notes: String?
    public var codes: [Coding]
    public var source: RecordSource?
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, uid, substance, reaction, severity, criticality, category, status, since, notes, codes, source
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(id: String, uid: String, substance: String, reaction: String?, severity: Severity?, criticality: Criticality?,
                category: Category?, status: Status, since: PartialDate?, notes: String?, codes: [Coding], source: RecordSource?,
                createdAt: String, updatedAt: String) {
        self.id = id
        self.uid = uid
        self.substance = substance
        self.reaction = reaction
        self.severity = severity
        self.criticality = criticality
        self.category = category
        self.status = status
        self.since = since
        self.notes = notes
        self.codes = codes
        self.source = source
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// For ordering by danger: severe (or high criticality) first.
    package var dangerRank: Int {
        if severity == .severe || criticality == .high { return 0 }
        if severity == .moderate { return 1 }
        if severity == .mild { return 2 }
        return 3
    }
}
