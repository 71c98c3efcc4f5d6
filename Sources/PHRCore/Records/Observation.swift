import Foundation
import GRDB

extension Observation {
    /// The columns by their Codable keys; the source from its own columns.
    public init(row: Row) throws {
        self = try FetchableRecordDecoder().decode(Self.self, from: row)
        source = RecordSourceColumns.read(row)
        lab = LabDetails.read(row)
    }

    public static let databaseTableName = "observation"

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["uid"] = uid
        container["name"] = name
        container["category"] = category
        container["status"] = status
        container["effective"] = effective
        container["value_number"] = valueNumber
        container["value_unit"] = valueUnit
        container["value_text"] = valueText
        container["value_codes"] = valueCodes.map(JSONColumn.encode)
        container["components"] = JSONColumn.encode(components)
        container["notes"] = notes
        container["codes"] = JSONColumn.encode(codes)
        RecordSourceColumns.write(source, to: &container)
        LabDetails.write(lab, to: &container)
        container["created_at"] = createdAt
        container["updated_at"] = updatedAt
    }
}

/// The observations of one profile.
public struct ObservationStore: ProfileRecordStore {
    public let vault: Vault
    public let profile: Profile

    static let kind = "observation"

    public init(vault: Vault, profile: Profile) {
        self.vault = vault
        self.profile = profile
    }

    /// Newest first; with `code`, only observations carrying that code (a LOINC code, say).
    public func list(code: String? = nil) throws -> [Observation] {
        try vault.database.read { db in try Self.all(db, profileID: profile.id) }
            .filter { observation in code.map { wanted in observation.codes.contains { $0.code == wanted } } ?? true }
            .sorted { ($0.effective ?? "", $1.id) > ($1.effective ?? "", $0.id) }
    }

    public func get(_ prefix: String) throws -> Observation {
        try record(prefix)
    }

    @discardableResult
    public func remove(_ prefix: String) throws -> Observation {
        try removeRecord(prefix)
    }

    static func index(_ db: Database, _ observation: Observation, profileID: Int64) throws {
        // The body is what a hit's snippet shows: the result and its notes. The analyte's
        // synonyms and the codes are searched as tags, so a hit does not show the index's word
        // list ("ferritin ferritin serum serum ferritin ferritine…", issue 35, item 9).
        let body = [observation.valueDescription, observation.notes].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "\n")
        let words = [observation.labSearchText, CodingText.searchable(observation.codes), observation.valueCodes.flatMap(CodingText.searchable)]
            .compactMap { $0 }.filter { !$0.isEmpty }
        try SearchIndex.replace(db, kind: kind, recordID: observation.id, profileID: profileID, entries: [
            SearchIndex.Entry(title: observation.name, tags: ["observation"] + (observation.category.map { [$0] } ?? []) + words, body: body,
                              type: observation.category, date: observation.effective.map { String($0.prefix(10)) }
                                  .flatMap { CalendarDate($0)?.description }),
        ])
    }
}

extension Observation: RowBacked {}
