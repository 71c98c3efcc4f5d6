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
        /// Doses that could not be read (index, what is wrong), refused when importing.
        var unreadableDoses: [(index: Int, reason: String)] = []

        enum CodingKeys: String, CodingKey { case doses }

        public init(medication: Medication, doses: [Dose]) {
            self.medication = medication
            self.doses = doses
        }

        public init(from decoder: Decoder) throws {
            medication = try Medication(from: decoder)
            let elements = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent([LossyElement<Dose>].self, forKey: .doses) ?? []
            doses = elements.compactMap(\.value)
            for (index, element) in elements.enumerated() {
                if let error = element.error { unreadableDoses.append((index, PHRExport.reason(error, entry: "doses[\(index)]"))) }
            }
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
    /// Exports written before procedures and family history existed lack these keys; they read as empty.
    public var procedures: [Procedure] = []
    public var familyHistory: [FamilyHistory] = []
    public var observations: [Observation]
    /// Metadata only: an export carries no document files (`phr backup` moves those).
    public var documents: [Document]
    /// The health log. Exports written before it existed lack these keys; they read as empty.
    public var logEntries: [LogEntry] = []
    public var goals: [Goal] = []
    public var reminders: [Reminder] = []
    /// Present only when the profile changed a setting.
    public var healthSettings: HealthSettings?
    /// Records that could not be read (a date outside 1900-2200, a field of the wrong type),
    /// each refused on its own so the rest of the file is still imported. Not written.
    var unreadable: [ImportReport.Skip] = []

    enum CodingKeys: String, CodingKey {
        case format, version, generator
        case exportedAt = "exported_at"
        case profile
        case medicalID = "medical_id"
        case medications, appointments, contacts, allergies, conditions, immunizations, procedures
        case familyHistory = "family_history"
        case observations, documents
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
    /// Each record is read on its own: one that cannot be read is listed in `unreadable`.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        format = try c.decode(String.self, forKey: .format)
        version = try c.decode(Int.self, forKey: .version)
        generator = try c.decode(String.self, forKey: .generator)
        exportedAt = try c.decode(String.self, forKey: .exportedAt)
        profile = try c.decode(ProfileInfo.self, forKey: .profile)
        var unreadable: [ImportReport.Skip] = []
        func records<T: Decodable>(_ key: CodingKeys, _ type: String, required: Bool = true) throws -> [T] {
            let elements = required ? try c.decode([LossyElement<T>].self, forKey: key)
                : try c.decodeIfPresent([LossyElement<T>].self, forKey: key) ?? []
            for (index, element) in elements.enumerated() {
                if let error = element.error {
                    let entry = "\(key.stringValue)[\(index)]"
                    unreadable.append(ImportReport.Skip(entry: entry, type: type, reason: Message(PHRExport.reason(error, entry: entry)), rejected: true))
                }
            }
            return elements.compactMap(\.value)
        }
        if (try? c.decodeNil(forKey: .medicalID)) == false {
            let element = try c.decode(LossyElement<MedicalID>.self, forKey: .medicalID)
            medicalID = element.value
            if let error = element.error {
                unreadable.append(ImportReport.Skip(entry: "medical_id", type: "medical ID", reason: Message(PHRExport.reason(error, entry: "medical_id")),
                                                    rejected: true))
            }
        } else {
            medicalID = nil
        }
        medications = try records(.medications, "medication")
        for (index, entry) in medications.enumerated() {
            for dose in entry.unreadableDoses {
                unreadable.append(ImportReport.Skip(entry: "medications[\(index)].doses[\(dose.index)]", type: "dose", reason: Message(dose.reason), rejected: true))
            }
        }
        appointments = try records(.appointments, "appointment")
        contacts = try records(.contacts, "contact")
        allergies = try records(.allergies, "allergy")
        conditions = try records(.conditions, "condition")
        immunizations = try records(.immunizations, "immunization")
        procedures = try records(.procedures, "procedure", required: false)
        familyHistory = try records(.familyHistory, "family history", required: false)
        observations = try records(.observations, "observation")
        documents = try records(.documents, "document")
        logEntries = try records(.logEntries, "log entry", required: false)
        goals = try records(.goals, "goal", required: false)
        reminders = try records(.reminders, "reminder", required: false)
        healthSettings = try c.decodeIfPresent(HealthSettings.self, forKey: .healthSettings)
        self.unreadable = unreadable
    }

    /// What is wrong with one record, its path inside the record: "start: '9999-12-31T23:59'
    /// is not YYYY-MM-DDTHH:MM".
    static func reason(_ error: DecodingError, entry: String) -> String {
        var (location, reason) = RecordImport.describe(error)
        // The path runs from the top of the file; the entry is already named.
        if let range = location.range(of: entry + ".") { location = String(location[range.upperBound...]) }
        else if location.hasSuffix(entry) { return reason }
        return "\(location): \(reason)"
    }
}

/// One element of an array of records, read on its own so that one bad record does not make
/// the whole file unreadable. Only decoding errors are caught; anything else still fails.
struct LossyElement<T: Decodable>: Decodable {
    let value: T?
    let error: DecodingError?

    init(from decoder: Decoder) throws {
        do {
            value = try T(from: decoder)
            error = nil
        } catch let failure as DecodingError {
            value = nil
            error = failure
        }
    }
}
