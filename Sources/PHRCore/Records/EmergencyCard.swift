import Foundation
import GRDB

/// What `phr emergency` shows: who this is and what a first responder must know, from the
/// medical ID, active allergies (most dangerous first), current conditions, medications taken
/// now, and emergency contacts.
public struct EmergencyCard: Codable, Sendable, Equatable {
    public struct AllergyLine: Codable, Sendable, Equatable {
        public var substance: String
        public var severity: String?
        public var criticality: String?
        public var reaction: String?
    }

    public struct MedicationLine: Codable, Sendable, Equatable {
        public var name: String
        public var dose: String?
        public var schedule: String
    }

    public struct ContactLine: Codable, Sendable, Equatable {
        public var name: String
        public var relation: String?
        public var phone: String
    }

    public var profile: String
    public var name: String?
    public var dateOfBirth: String?
    public var age: Int?
    public var sex: String?
    public var bloodType: String?
    public var organDonor: Bool?
    public var heightCm: Double?
    public var weightKg: Double?
    public var notes: String?
    public var allergies: [AllergyLine]
    public var conditions: [String]
    public var medications: [MedicationLine]
    public var contacts: [ContactLine]

    enum CodingKeys: String, CodingKey {
        case profile, name
        case dateOfBirth = "date_of_birth"
        case age, sex
        case bloodType = "blood_type"
        case organDonor = "organ_donor"
        case heightCm = "height_cm"
        case weightKg = "weight_kg"
        case notes, allergies, conditions, medications, contacts
    }

    public static func build(vault: Vault, profile: Profile, time: TimeContext) throws -> EmergencyCard {
        let today = time.today()
        return try vault.database.read { db in
            let id = try MedicalIDStore.fetch(db, profileID: profile.id)
            // In the order `allergy list`, `condition list` and `med list` show them. Contacts stay
            // in the order they were added: the first one is the one to call first.
            let allergies = AllergyStore.ordered(try AllergyStore.all(db, profileID: profile.id).filter { $0.status == .active })
            let conditions = ConditionStore.ordered(try ConditionStore.all(db, profileID: profile.id).filter(\.isCurrent))
            let medications = MedicationStore.ordered(try MedicationStore.all(db, profileID: profile.id).filter { $0.isActive(on: today) })
            let contacts = try ContactStore.all(db, profileID: profile.id).filter(\.emergency)
            return EmergencyCard(
                profile: profile.name, name: id?.name, dateOfBirth: id?.dateOfBirth?.description, age: id?.age(on: today),
                sex: id?.sex?.rawValue, bloodType: id?.bloodType, organDonor: id?.organDonor, heightCm: id?.heightCm,
                weightKg: id?.weightKg, notes: id?.notes,
                allergies: allergies.map { AllergyLine(substance: $0.substance, severity: $0.severity?.rawValue,
                                                       criticality: $0.criticality?.rawValue, reaction: $0.reaction) },
                conditions: conditions.map(\.name),
                medications: medications.map { MedicationLine(name: $0.name, dose: $0.dose, schedule: $0.schedule.summary) },
                contacts: contacts.map { ContactLine(name: $0.name, relation: $0.relation, phone: $0.phone) })
        }
    }
}
