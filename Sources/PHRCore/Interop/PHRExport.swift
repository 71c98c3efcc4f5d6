import Foundation

/// The phr export format, version 1: one profile's records as JSON (Schemas/export-v1/).
///
/// Everything but document bytes: the medical ID, medications with their dose logs,
/// appointments, contacts, allergies, conditions, immunizations, observations, and the
/// metadata of documents. Records keep their IDs, uids, codes, sources and timestamps, so an
/// export imported into an empty vault exports again byte for byte.
public struct PHRExport: Codable, Sendable {
    public static let formatName = "phr-export"
    public static let currentVersion = 1

    public struct ProfileInfo: Codable, Sendable, Equatable {
        public var name: String
        public var relation: Profile.Relation
    }

    /// A medication with its dose log, as one JSON object.
    public struct MedicationEntry: Codable, Sendable {
        public var medication: Medication
        public var doses: [Dose]

        enum CodingKeys: String, CodingKey { case doses }

        public init(medication: Medication, doses: [Dose]) {
            self.medication = medication
            self.doses = doses
        }

        public init(from decoder: Decoder) throws {
            medication = try Medication(from: decoder)
            doses = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent([Dose].self, forKey: .doses) ?? []
        }

        public func encode(to encoder: Encoder) throws {
            try medication.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(doses, forKey: .doses)
        }
    }

    public var format: String
    public var version: Int
    /// The phr that wrote it ("phr 0.1.0").
    public var generator: String
    public var exportedAt: String
    public var profile: ProfileInfo
    public var medicalID: MedicalID?
    public var medications: [MedicationEntry]
    public var appointments: [Appointment]
    public var contacts: [Contact]
    public var allergies: [Allergy]
    public var conditions: [Condition]
    public var immunizations: [Immunization]
    public var observations: [Observation]
    /// Metadata only: an export carries no document files (`phr backup` moves those).
    public var documents: [Document]

    enum CodingKeys: String, CodingKey {
        case format, version, generator
        case exportedAt = "exported_at"
        case profile
        case medicalID = "medical_id"
        case medications, appointments, contacts, allergies, conditions, immunizations, observations, documents
    }

    /// The JSON text of an export: sorted keys, two-space indentation, a final newline.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }
}
