import Foundation

/// A person whose records the vault keeps. Every record belongs to one profile.
public struct Profile: Codable, Sendable, Equatable {
    public enum Relation: String, Codable, Sendable, CaseIterable {
        case `self`, child, parent, partner, other
    }

    public var id: Int64
    public var name: String
    public var relation: Relation
    public var createdAt: String
    /// The profile commands use when neither --profile nor PHR_PROFILE names one.
    public var isDefault: Bool

    enum CodingKeys: String, CodingKey {
        case id, name, relation
        case createdAt = "created_at"
        case isDefault = "default"
    }

    /// The name `phr init` gives the first profile.
    public static let initialName = "me"

    package init(id: Int64, name: String, relation: Relation, createdAt: String, isDefault: Bool) {
        self.id = id
        self.name = name
        self.relation = relation
        self.createdAt = createdAt
        self.isDefault = isDefault
    }
}
