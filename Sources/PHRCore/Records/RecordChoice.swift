import Foundation
import GRDB

/// Stored as their raw text (the schema's CHECK lists them).
extension Allergy.Criticality: DatabaseValueConvertible {}
extension Allergy.Category: DatabaseValueConvertible {}
extension Allergy.Status: DatabaseValueConvertible {}
extension Condition.Status: DatabaseValueConvertible {}
extension Observation.Status: DatabaseValueConvertible {}

extension RecordFields {
    /// One of `T`'s values, typed in any case, or the error naming `field` and the choices.
    public static func choice<T: RecordChoice>(_ value: String, field: Field, as type: T.Type) throws -> T {
        // `choice` returns a spelling from `names`, so the raw value always exists.
        T(rawValue: try choice(value, field: field, allowed: T.names))!
    }
}
