import Foundation

/// What `phr emergency` shows: who this is and what a first responder must know, from the
/// medical ID, active allergies (most dangerous first), current conditions, medications taken
/// now, and emergency contacts.
public struct EmergencyCard: Codable, Sendable, Equatable {
    public struct AllergyLine: Codable, Sendable, Equatable {
        public var substance: String
        public var severity: String?
        public var criticality: String?
        public var reaction: String?

        package init(substance: String, severity: String? = nil, criticality: String? = nil, reaction: String? = nil) {
            self.substance = substance
            self.severity = severity
            self.criticality = criticality
            self.reaction = reaction
        }
    }

    public struct MedicationLine: Codable, Sendable, Equatable {
        public var name: String
        public var dose: String?
        public var schedule: String

        package init(name: String, dose: String? = nil, schedule: String) {
            self.name = name
            self.dose = dose
            self.schedule = schedule
        }
    }

    public struct ContactLine: Codable, Sendable, Equatable {
        public var name: String
        public var relation: String?
        public var phone: String

        package init(name: String, relation: String? = nil, phone: String) {
            self.name = name
            self.relation = relation
            self.phone = phone
        }
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
    /// The day `weightKg` was logged, when it is the health log's newest weight (newer than the
    /// medical ID's); nil when it is the medical ID's.
    public var weightLoggedOn: String?
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
        case weightLoggedOn = "weight_logged_on"
        case notes, allergies, conditions, medications, contacts
    }

    package init(
        profile: String,
        name: String? = nil,
        dateOfBirth: String? = nil,
        age: Int? = nil,
        sex: String? = nil,
        bloodType: String? = nil,
        organDonor: Bool? = nil,
        heightCm: Double? = nil,
        weightKg: Double? = nil,
        weightLoggedOn: String? = nil,
        notes: String? = nil,
        allergies: [AllergyLine],
        conditions: [String],
        medications: [MedicationLine],
        contacts: [ContactLine]
    ) {
        self.profile = profile
        self.name = name
        self.dateOfBirth = dateOfBirth
        self.age = age
        self.sex = sex
        self.bloodType = bloodType
        self.organDonor = organDonor
        self.heightCm = heightCm
        self.weightKg = weightKg
        self.weightLoggedOn = weightLoggedOn
        self.notes = notes
        self.allergies = allergies
        self.conditions = conditions
        self.medications = medications
        self.contacts = contacts
    }
}
