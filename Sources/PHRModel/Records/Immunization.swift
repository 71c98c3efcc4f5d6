import Foundation

/// A vaccine given: which, when, which dose of the series, and the lot.
public struct Immunization: Codable, Sendable, Equatable {
    public var id: String
    public var uid: String
    public var vaccine: String
    /// When it was given; nil when the source does not say (a card, an export without a date).
    public var date: PartialDate?
    /// The dose's number in its series (FHIR protocolApplied.doseNumber).
    public var doseNumber: Int?
    public var lot: String?
    public var notes: String?
    public var codes: [Coding]
    public var source: RecordSource?
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, uid, vaccine, date
        case doseNumber = "dose_number"
        case lot, notes, codes, source
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    public init(id: String, uid: String, vaccine: String, date: PartialDate?, doseNumber: Int?, lot: String?, notes: String?,
                codes: [Coding], source: RecordSource?, createdAt: String, updatedAt: String) {
        self.id = id
        self.uid = uid
        self.vaccine = vaccine
        self.date = date
        self.doseNumber = doseNumber
        self.lot = lot
        self.notes = notes
        self.codes = codes
        self.source = source
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

}
