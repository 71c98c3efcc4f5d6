import Foundation

/// A health condition (diagnosis, problem), current or past.
public struct Condition: Codable, Sendable, Equatable {
    /// FHIR clinicalStatus.
    public enum Status: String, RecordChoice {
        case active, recurrence, relapse, inactive, remission, resolved
    }

    public var id: String
    public var uid: String
    public var name: String
    public var status: Status
    public var since: PartialDate?
    public var resolved: PartialDate?
    public var notes: String?
    public var codes: [Coding]
    public var source: RecordSource?
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, uid, name, status, since, resolved, notes, codes, source
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// Still a concern (what the emergency card lists).
    public var isCurrent: Bool { [.active, .recurrence, .relapse].contains(status) }

    public init(id: String, uid: String, name: String, status: Status, since: PartialDate?, resolved: PartialDate?, notes: String?,
                codes: [Coding], source: RecordSource?, createdAt: String, updatedAt: String) {
        self.id = id
        self.uid = uid
        self.name = name
        self.status = status
        self.since = since
        self.resolved = resolved
        self.notes = notes
        self.codes = codes
        self.source = source
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

}
