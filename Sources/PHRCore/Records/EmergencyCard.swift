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
            // The weight is the newer of the medical ID's and the health log's last one.
            var weightKg = id?.weightKg
            var weightLoggedOn: String?
            if let logged = try LogStore.latest(db, metric: .weight, profileID: profile.id),
               weightKg == nil || logged.instant >= (id.flatMap { Timestamp.parse($0.updatedAt) } ?? .distantPast) {
                weightKg = (logged.value * 10).rounded() / 10
                weightLoggedOn = logged.day.description
            }
            return EmergencyCard(
                profile: profile.name, name: id?.name, dateOfBirth: id?.dateOfBirth?.description, age: id?.age(on: today),
                sex: id?.sex?.rawValue, bloodType: id?.bloodType, organDonor: id?.organDonor, heightCm: id?.heightCm,
                weightKg: weightKg, weightLoggedOn: weightLoggedOn, notes: id?.notes,
                allergies: allergies.map { AllergyLine(substance: $0.substance, severity: $0.severity?.rawValue,
                                                       criticality: $0.criticality?.rawValue, reaction: $0.reaction) },
                conditions: conditions.map(\.name),
                medications: medications.map { MedicationLine(name: $0.name, dose: $0.dose, schedule: $0.schedule.summary) },
                contacts: contacts.map { ContactLine(name: $0.name, relation: $0.relation, phone: $0.phone) })
        }
    }
}
