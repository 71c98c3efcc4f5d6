/// Every kind of record a person keeps in a vault, in one list: the table it lives in, its name in
/// the change journal, its key in a `phr export` file and the share-bundle section that shows it.
/// The journal's triggers (Schema+Journal.swift) cover exactly these tables, and a test walks this
/// list so a kind added here without a journal, or there without an entry here, fails.
public struct RecordKind: Sendable, Hashable {
    /// Its `kind` in the change journal.
    public let name: String
    /// The table its rows live in.
    public let table: String
    /// Its key in the phr export format (Schemas/export-v1/); doses are inside their medication.
    public let exportKey: String?
    /// The share-bundle section that shows it, nil when none does.
    public let shareSection: ShareSection?

    public static let profile = RecordKind(name: "profile", table: "profile", exportKey: "profile", shareSection: nil)
    public static let document = RecordKind(name: "document", table: "document", exportKey: "documents", shareSection: .documents)
    public static let medicalID = RecordKind(name: "medical_id", table: "medical_id", exportKey: "medical_id", shareSection: .summary)
    public static let medication = RecordKind(name: "medication", table: "medication", exportKey: "medications", shareSection: .medications)
    public static let dose = RecordKind(name: "dose", table: "dose", exportKey: "medications.doses", shareSection: nil)
    public static let appointment = RecordKind(name: "appointment", table: "appointment", exportKey: "appointments",
                                               shareSection: .appointments)
    public static let contact = RecordKind(name: "contact", table: "contact", exportKey: "contacts", shareSection: .contacts)
    public static let allergy = RecordKind(name: "allergy", table: "allergy", exportKey: "allergies", shareSection: .allergies)
    public static let condition = RecordKind(name: "condition", table: "condition", exportKey: "conditions", shareSection: .conditions)
    public static let immunization = RecordKind(name: "immunization", table: "immunization", exportKey: "immunizations",
                                                shareSection: .immunizations)
    public static let procedure = RecordKind(name: "procedure", table: "procedure", exportKey: "procedures", shareSection: nil)
    public static let familyHistory = RecordKind(name: "family_history", table: "family_history", exportKey: "family_history",
                                                 shareSection: nil)
    public static let observation = RecordKind(name: "observation", table: "observation", exportKey: "observations",
                                               shareSection: .results)
    public static let logEntry = RecordKind(name: "log_entry", table: "log_entry", exportKey: "log_entries", shareSection: nil)
    public static let goal = RecordKind(name: "goal", table: "log_goal", exportKey: "goals", shareSection: nil)
    public static let healthSettings = RecordKind(name: "health_settings", table: "log_setting", exportKey: "health_settings",
                                                  shareSection: nil)
    public static let reminder = RecordKind(name: "reminder", table: "reminder", exportKey: "reminders", shareSection: nil)

    /// Every kind, parents before children (a profile before its records, a medication before
    /// its doses).
    public static let all: [RecordKind] = [
        profile, document, medicalID, medication, dose, appointment, contact, allergy, condition, immunization,
        procedure, familyHistory, observation, logEntry, goal, healthSettings, reminder,
    ]
}
