import Foundation

/// Someone to call: a relative, a doctor, a pharmacy. Emergency contacts appear on the
/// emergency card.
public struct Contact: Codable, Sendable, Equatable {
    public var id: String
    public var uid: String
    public var name: String
    public var phone: String
    /// mother, neighbour, GP... as the user says it.
    public var relation: String?
    public var email: String?
    public var emergency: Bool
    public var notes: String?
    public var source: RecordSource?
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, uid, name, phone, relation, email, emergency, notes, source
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(id: String, uid: String, name: String, phone: String, relation: String?, email: String?, emergency: Bool,
                notes: String?, source: RecordSource?, createdAt: String, updatedAt: String) {
        self.id = id
        self.uid = uid
        self.name = name
        self.phone = phone
        self.relation = relation
        self.email = email
        self.emergency = emergency
        self.notes = notes
        self.source = source
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

}
