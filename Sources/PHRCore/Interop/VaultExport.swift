import Foundation
import GRDB

/// Writes `phr export`: one profile's records in the phr export format.
public enum VaultExport {
    /// The export of `profile`, read in one transaction so it is consistent.
    public static func build(vault: Vault, profile: Profile, time: TimeContext, generator: String) throws -> PHRExport {
        let documents = try DocumentStore(vault: vault, profile: profile).list()
            .sorted { ($0.addedAt, $0.id) < ($1.addedAt, $1.id) }
        return try vault.database.read { db in
            let id = profile.id
            return PHRExport(
                format: PHRExport.formatName, version: PHRExport.currentVersion, generator: generator,
                exportedAt: Timestamp.string(time.now), profile: .init(name: profile.name, relation: profile.relation),
                medicalID: try MedicalIDStore.fetch(db, profileID: id),
                medications: try MedicationStore.all(db, profileID: id).map { medication in
                    PHRExport.MedicationEntry(medication: medication, doses: try Dose.all(db, medicationID: medication.id))
                },
                appointments: try AppointmentStore.all(db, profileID: id),
                contacts: try ContactStore.all(db, profileID: id),
                allergies: try AllergyStore.all(db, profileID: id),
                conditions: try ConditionStore.all(db, profileID: id),
                immunizations: try ImmunizationStore.all(db, profileID: id),
                procedures: try ProcedureStore.all(db, profileID: id),
                familyHistory: try FamilyHistoryStore.all(db, profileID: id),
                observations: try ObservationStore.all(db, profileID: id),
                documents: documents,
                logEntries: try LogStore.all(db, profileID: id),
                goals: try Goal.all(db, profileID: id),
                reminders: try ReminderStore.all(db, profileID: id),
                healthSettings: try HealthSettingsStore.isSet(db, profileID: id) ? try HealthSettingsStore.fetch(db, profileID: id) : nil)
        }
    }

    /// Writes the export to `path` (mode 0600), refusing to replace a file unless `force`.
    public static func write(_ export: PHRExport, to path: String, force: Bool) throws {
        if FileSystem.exists(path) && !force { throw InteropError.exists(path: path) }
        try OutputFile.write(Array(try export.encoded()), to: path, replace: force, exists: { InteropError.exists(path: $0) })
    }
}
