import Foundation
import GRDB

/// What imports need from every kind of record: its identity, its table, and how to write it.
/// The stores implement the rows; this lets one merge routine handle every kind.
protocol StoredRecord {
    var id: String { get set }
    var uid: String { get set }
    var source: RecordSource? { get }
    var updatedAt: String { get }
    /// The table and the record kind used in IDs and the search index.
    static var table: String { get }
    static func insertRow(_ db: Database, _ record: Self, profileID: Int64) throws
    static func updateRow(_ db: Database, _ record: Self, profileID: Int64) throws
}

extension Medication: StoredRecord {
    static var table: String { MedicationStore.table }
    static func insertRow(_ db: Database, _ record: Medication, profileID: Int64) throws { try MedicationStore.insert(db, record, profileID: profileID) }
    static func updateRow(_ db: Database, _ record: Medication, profileID: Int64) throws { try MedicationStore.update(db, record, profileID: profileID) }
}

extension Appointment: StoredRecord {
    static var table: String { AppointmentStore.table }
    static func insertRow(_ db: Database, _ record: Appointment, profileID: Int64) throws { try AppointmentStore.insert(db, record, profileID: profileID) }
    static func updateRow(_ db: Database, _ record: Appointment, profileID: Int64) throws { try AppointmentStore.update(db, record, profileID: profileID) }
}

extension Contact: StoredRecord {
    static var table: String { ContactStore.table }
    static func insertRow(_ db: Database, _ record: Contact, profileID: Int64) throws { try ContactStore.insert(db, record, profileID: profileID) }
    static func updateRow(_ db: Database, _ record: Contact, profileID: Int64) throws { try ContactStore.update(db, record, profileID: profileID) }
}

extension Allergy: StoredRecord {
    static var table: String { AllergyStore.table }
    static func insertRow(_ db: Database, _ record: Allergy, profileID: Int64) throws { try AllergyStore.insert(db, record, profileID: profileID) }
    static func updateRow(_ db: Database, _ record: Allergy, profileID: Int64) throws { try AllergyStore.update(db, record, profileID: profileID) }
}

extension Condition: StoredRecord {
    static var table: String { ConditionStore.table }
    static func insertRow(_ db: Database, _ record: Condition, profileID: Int64) throws { try ConditionStore.insert(db, record, profileID: profileID) }
    static func updateRow(_ db: Database, _ record: Condition, profileID: Int64) throws { try ConditionStore.update(db, record, profileID: profileID) }
}

extension Immunization: StoredRecord {
    static var table: String { ImmunizationStore.table }
    static func insertRow(_ db: Database, _ record: Immunization, profileID: Int64) throws { try ImmunizationStore.insert(db, record, profileID: profileID) }
    static func updateRow(_ db: Database, _ record: Immunization, profileID: Int64) throws { try ImmunizationStore.update(db, record, profileID: profileID) }
}

extension Observation: StoredRecord {
    static var table: String { ObservationStore.table }
    static func insertRow(_ db: Database, _ record: Observation, profileID: Int64) throws { try ObservationStore.insert(db, record, profileID: profileID) }
    static func updateRow(_ db: Database, _ record: Observation, profileID: Int64) throws { try ObservationStore.update(db, record, profileID: profileID) }
}
