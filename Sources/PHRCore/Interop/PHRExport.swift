import Foundation

/// The phr export format, version 1: one profile's records as JSON (Schemas/export-v1/).
///
/// Everything but document bytes: the medical ID, medications with their dose logs,
/// appointments, contacts, allergies, conditions, immunizations, observations, the metadata of
/// documents, and the health log (entries, goals, reminders and its settings). Records keep their IDs, uids, codes, sources and timestamps, so an
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
    /// The health log. Exports written before it existed lack these keys; they read as empty.
    public var logEntries: [LogEntry] = []
    public var goals: [Goal] = []
    public var reminders: [Reminder] = []
    /// Present only when the profile changed a setting.
    public var healthSettings: HealthSettings?

    enum CodingKeys: String, CodingKey {
        case format, version, generator
        case exportedAt = "exported_at"
        case profile
        case medicalID = "medical_id"
        case medications, appointments, contacts, allergies, conditions, immunizations, observations, documents
        case logEntries = "log_entries"
        case goals, reminders
        case healthSettings = "health_settings"
    }

    /// The JSON text of an export: sorted keys, two-space indentation, a final newline.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }
}

extension PHRExport {
    /// Reads an export; the health-log keys may be missing (exports from before it existed).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        format = try c.decode(String.self, forKey: .format)
        version = try c.decode(Int.self, forKey: .version)
        generator = try c.decode(String.self, forKey: .generator)
        exportedAt = try c.decode(String.self, forKey: .exportedAt)
        profile = try c.decode(ProfileInfo.self, forKey: .profile)
        medicalID = try c.decodeIfPresent(MedicalID.self, forKey: .medicalID)
        medications = try c.decode([MedicationEntry].self, forKey: .medications)
        appointments = try c.decode([Appointment].self, forKey: .appointments)
        contacts = try c.decode([Contact].self, forKey: .contacts)
        allergies = try c.decode([Allergy].self, forKey: .allergies)
        conditions = try c.decode([Condition].self, forKey: .conditions)
        immunizations = try c.decode([Immunization].self, forKey: .immunizations)
        observations = try c.decode([Observation].self, forKey: .observations)
        documents = try c.decode([Document].self, forKey: .documents)
        logEntries = try c.decodeIfPresent([LogEntry].self, forKey: .logEntries) ?? []
        goals = try c.decodeIfPresent([Goal].self, forKey: .goals) ?? []
        reminders = try c.decodeIfPresent([Reminder].self, forKey: .reminders) ?? []
        healthSettings = try c.decodeIfPresent(HealthSettings.self, forKey: .healthSettings)
    }
}
