import Foundation
import GRDB

/// Where `phr med check` and `phr med recalls` get a profile's current medicines and allergies.
/// The records code may supply its own; `VaultMedicationRecords` reads the vault's tables.
public protocol MedicationListSource {
    func activeMedications() throws -> [MedicineEntry]
    func activeAllergies() throws -> [AllergyEntry]
}

/// Where `phr med resolve` finds medicines stored without an RxCUI (added offline, or imported
/// without codes) and records what RxNorm says they are.
public protocol MedicationResolutionStore {
    func unresolvedMedications() throws -> [MedicineEntry]
    func recordResolution(_ resolved: ResolvedMedicine, forMedication id: String) throws
}

/// Reads and updates a profile's medications and allergies in the vault (the `medication` and
/// `allergy` tables of Schema+Records.swift): active medicines are those with status active,
/// started, and not past their end date; an RxCUI is the medication's RxNorm coding in `codes`.
/// Columns the schema does not have are not asked for, and a vault without the tables has no
/// medicines, so this works across schema versions.
public struct VaultMedicationRecords: MedicationListSource, MedicationResolutionStore {
    static let rxNormSystem = "http://www.nlm.nih.gov/research/umls/rxnorm"

    let database: VaultDatabase
    let profileID: Int64
    let today: String

    public init(vault: Vault, profileID: Int64, today: CalendarDate = CalendarDate(Date())) {
        database = vault.database
        self.profileID = profileID
        self.today = today.description
    }

    public func activeMedications() throws -> [MedicineEntry] {
        try database.read { db in
            guard try db.tableExists("medication") else { return [] }
            let columns = Set(try db.columns(in: "medication").map(\.name))
            var conditions = ["profile_id = ?"]
            var arguments: [DatabaseValueConvertible] = [profileID]
            if columns.contains("status") {
                // A medication stopped as of a future day (`med stop --on`) is still taken until then.
                if columns.contains("stopped_on") {
                    conditions.append("(status = 'active' OR (status = 'stopped' AND stopped_on > ?))")
                    arguments.append(today)
                } else {
                    conditions.append("status = 'active'")
                }
            }
            // Dates may be partial ("2026", "2026-03"): compare today cut to the same length.
            if columns.contains("start_date") {
                conditions.append("(start_date IS NULL OR start_date <= substr(?, 1, length(start_date)))")
                arguments.append(today)
            }
            if columns.contains("end_date") {
                conditions.append("(end_date IS NULL OR end_date >= substr(?, 1, length(end_date)))")
                arguments.append(today)
            }
            return try entries(db, columns: columns, where: conditions.joined(separator: " AND "), arguments: arguments)
        }
    }

    public func activeAllergies() throws -> [AllergyEntry] {
        try database.read { db in
            guard try db.tableExists("allergy") else { return [] }
            let columns = Set(try db.columns(in: "allergy").map(\.name))
            let reaction = columns.contains("reaction") ? "reaction" : "NULL"
            let severity = columns.contains("severity") ? "severity" : "NULL"
            let active = columns.contains("status") ? " AND status = 'active'" : ""
            return try Row.fetchAll(db, sql: """
                SELECT id, substance, \(reaction) AS reaction, \(severity) AS severity FROM allergy
                WHERE profile_id = ?\(active) ORDER BY substance
                """, arguments: [profileID]).map {
                AllergyEntry(id: $0["id"], substance: $0["substance"], reaction: $0["reaction"], severity: $0["severity"])
            }
        }
    }

    /// The profile's medication whose ID starts with `prefix` (any status), when the text could
    /// be an ID (three or more ID characters) and one matches; nil otherwise, so the text can be
    /// taken as a medicine name. Several matches throw `RecordError.ambiguous`.
    public func medication(idPrefix prefix: String) throws -> MedicineEntry? {
        let typed = prefix.lowercased()
        guard (3...16).contains(typed.count), typed.allSatisfy({ RecordID.alphabet.contains($0) }) else { return nil }
        return try database.read { db in
            guard try db.tableExists("medication") else { return nil }
            let id: String
            do {
                id = try RecordID.resolve(db, table: "medication", kind: "medication", prefix: typed, profileID: profileID)
            } catch RecordError.notFound {
                return nil
            }
            let columns = Set(try db.columns(in: "medication").map(\.name))
            return try entries(db, columns: columns, where: "profile_id = ? AND id = ?", arguments: [profileID, id]).first
        }
    }

    public func unresolvedMedications() throws -> [MedicineEntry] {
        try database.read { db in
            guard try db.tableExists("medication") else { return [] }
            let columns = Set(try db.columns(in: "medication").map(\.name))
            return try entries(db, columns: columns, where: "profile_id = ?", arguments: [profileID]).filter { $0.rxcui == nil }
        }
    }

    /// Adds the RxNorm coding to the medication's codes (keeping the others) and marks it updated.
    public func recordResolution(_ resolved: ResolvedMedicine, forMedication id: String) throws {
        try database.write { db in
            guard try db.tableExists("medication"), try db.columns(in: "medication").contains(where: { $0.name == "codes" }) else {
                throw RecordError.notFound(kind: "medication", id: id)
            }
            guard let text = try String.fetchOne(db, sql: "SELECT codes FROM medication WHERE id = ? AND profile_id = ?",
                                                 arguments: [id, profileID]) else {
                throw RecordError.notFound(kind: "medication", id: id)
            }
            var codes = Self.decodeCodes(text).filter { $0.system != Self.rxNormSystem }
            codes.insert(StoredCoding(system: Self.rxNormSystem, code: resolved.concept.rxcui, display: resolved.concept.name), at: 0)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let json = String(decoding: try encoder.encode(codes), as: UTF8.self)
            try db.execute(sql: "UPDATE medication SET codes = ?, updated_at = ? WHERE id = ? AND profile_id = ?",
                           arguments: [json, Timestamp.string(Date()), id, profileID])
        }
    }

    private func entries(_ db: Database, columns: Set<String>, where condition: String,
                         arguments: [DatabaseValueConvertible]) throws -> [MedicineEntry] {
        let codes = columns.contains("codes") ? "codes" : "'[]'"
        return try Row.fetchAll(db, sql: """
            SELECT id, name, \(codes) AS codes FROM medication WHERE \(condition) ORDER BY name COLLATE NOCASE, id
            """, arguments: StatementArguments(arguments)).map { row in
            let rxcui = Self.decodeCodes(row["codes"]).first { $0.system == Self.rxNormSystem }?.code
            return MedicineEntry(id: row["id"], name: row["name"], rxcui: rxcui.flatMap { RxNavParser.isRxCUI($0) ? $0 : nil })
        }
    }

    /// A coding as the records store it (FHIR's system, code, display), JSON with sorted keys.
    struct StoredCoding: Codable, Equatable {
        var system: String?
        var code: String
        var display: String?
    }

    static func decodeCodes(_ text: String?) -> [StoredCoding] {
        guard let text, let codes = try? JSONDecoder().decode([StoredCoding].self, from: Data(text.utf8)) else { return [] }
        return codes
    }
}
