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

/// A record written by a `ProfileRecordStore`: the store supplies the table and the row writes.
protocol StoreBackedRecord: StoredRecord, RowBacked {
    associatedtype Store: ProfileRecordStore where Store.Record == Self
}

extension StoreBackedRecord {
    static var table: String { Store.table }
    static func insertRow(_ db: Database, _ record: Self, profileID: Int64) throws { try Store.insert(db, record, profileID: profileID) }
    static func updateRow(_ db: Database, _ record: Self, profileID: Int64) throws { try Store.update(db, record, profileID: profileID) }
}

extension Medication: StoreBackedRecord { typealias Store = MedicationStore }
extension Appointment: StoreBackedRecord { typealias Store = AppointmentStore }
extension Contact: StoreBackedRecord { typealias Store = ContactStore }
extension Allergy: StoreBackedRecord { typealias Store = AllergyStore }
extension Condition: StoreBackedRecord { typealias Store = ConditionStore }
extension Immunization: StoreBackedRecord { typealias Store = ImmunizationStore }
extension Procedure: StoreBackedRecord { typealias Store = ProcedureStore }
extension FamilyHistory: StoreBackedRecord { typealias Store = FamilyHistoryStore }
extension Observation: StoreBackedRecord { typealias Store = ObservationStore }
