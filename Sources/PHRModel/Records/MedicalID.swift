import Foundation

/// What first responders need to know, as on a phone's Medical ID: who, born when, blood type,
/// organ donation, height and weight, and notes. One per profile.
public struct MedicalID: Codable, Sendable, Equatable {
    public enum Sex: String, Codable, Sendable, CaseIterable {
        case female, male, other
    }

    public var name: String?
    public var dateOfBirth: CalendarDate?
    public var sex: Sex?
    public var bloodType: String?
    public var organDonor: Bool?
    public var heightCm: Double?
    public var weightKg: Double?
    public var notes: String?
    /// Identifiers from imported records (medical record number, insurance number...).
    public var identifiers: [SourceIdentifier]
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case name
        case dateOfBirth = "date_of_birth"
        case sex
        case bloodType = "blood_type"
        case organDonor = "organ_donor"
        case heightCm = "height_cm"
        case weightKg = "weight_kg"
        case notes, identifiers
        case updatedAt = "updated_at"
    }

    public static func empty(updatedAt: String) -> MedicalID {
        MedicalID(name: nil, dateOfBirth: nil, sex: nil, bloodType: nil, organDonor: nil, heightCm: nil, weightKg: nil, notes: nil,
                  identifiers: [], updatedAt: updatedAt)
    }

    public init(name: String?, dateOfBirth: CalendarDate?, sex: Sex?, bloodType: String?, organDonor: Bool?, heightCm: Double?,
                weightKg: Double?, notes: String?, identifiers: [SourceIdentifier], updatedAt: String) {
        self.name = name
        self.dateOfBirth = dateOfBirth
        self.sex = sex
        self.bloodType = bloodType
        self.organDonor = organDonor
        self.heightCm = heightCm
        self.weightKg = weightKg
        self.notes = notes
        self.identifiers = identifiers
        self.updatedAt = updatedAt
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decodeIfPresent(String.self, forKey: .name)
        dateOfBirth = try c.decodeIfPresent(CalendarDate.self, forKey: .dateOfBirth)
        sex = try c.decodeIfPresent(Sex.self, forKey: .sex)
        bloodType = try c.decodeIfPresent(String.self, forKey: .bloodType)
        organDonor = try c.decodeIfPresent(Bool.self, forKey: .organDonor)
        heightCm = try c.decodeIfPresent(Double.self, forKey: .heightCm)
        weightKg = try c.decodeIfPresent(Double.self, forKey: .weightKg)
        notes = try c.decodeIfPresent(String.self, forKey: .notes)
        identifiers = try c.decodeIfPresent([SourceIdentifier].self, forKey: .identifiers) ?? []
        updatedAt = try c.decode(String.self, forKey: .updatedAt)
    }

    /// Whole years on `today`.
    public func age(on today: CalendarDate) -> Int? {
        guard let born = dateOfBirth, born <= today else { return nil }
        var years = today.year - born.year
        if (today.month, today.day) < (born.month, born.day) { years -= 1 }
        return years
    }

    /// True when nothing is set.
    public var isEmpty: Bool {
        name == nil && dateOfBirth == nil && sex == nil && bloodType == nil && organDonor == nil && heightCm == nil
            && weightKg == nil && notes == nil && identifiers.isEmpty
    }
}
