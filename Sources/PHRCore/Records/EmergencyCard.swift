import Foundation
import GRDB

extension EmergencyCard {
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
