import Foundation
import GRDB

/// One row per profile, keyed by `profile_id` (added by `ProfileRow`); the columns are the
/// Codable keys, so the database and `phr export` read and write the same fields.
extension HealthSettings: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "log_setting"
}

/// Reading and changing the health-log settings of one profile.
public struct HealthSettingsStore {
    public let vault: Vault
    public let profile: Profile
    public let time: TimeContext

    public init(vault: Vault, profile: Profile, time: TimeContext) {
        self.vault = vault
        self.profile = profile
        self.time = time
    }

    /// What `phr log settings` takes; nil keeps a setting, "" resets it to its default.
    public struct Input: Sendable {
        public var serving: String?
        public var activity: String?
        public var units: String?
        public var glucoseUnit: String?
        public init() {}

        public var isEmpty: Bool { serving == nil && activity == nil && units == nil && glucoseUnit == nil }
    }

    public func get() throws -> HealthSettings {
        try vault.database.read { db in try Self.fetch(db, profileID: profile.id) }
    }

    @discardableResult
    public func set(_ input: Input) throws -> HealthSettings {
        var settings = try vault.database.read { db in try Self.fetch(db, profileID: profile.id) }
        if let text = input.serving {
            if text.isEmpty {
                settings.servingML = HealthSettings.defaultServingML
            } else {
                let quantity = try HealthQuantityParser.volume(text, field: Field.serving)
                settings.servingML = (quantity.value * 10).rounded() / 10
            }
        }
        if let text = input.activity {
            settings.activityLevel = text.isEmpty ? nil : try HealthSettings.ActivityLevel.parse(text, field: Field.activity)
        }
        if let text = input.units {
            settings.units = text.isEmpty ? .metric : HealthSettings.Units(rawValue: try RecordFields.choice(
                text, field: Field.units, allowed: HealthSettings.Units.allCases.map(\.rawValue)))!
        }
        if let text = input.glucoseUnit {
            if text.isEmpty {
                settings.glucoseUnit = .millimolePerLitre
            } else {
                guard let unit = HealthUnit.named(text), unit.metrics == [.glucose] else {
                    throw RecordError.invalidField(field: Field.glucoseUnit, reason: "'\(text)' is not mmol/L or mg/dL")
                }
                settings.glucoseUnit = unit
            }
        }
        settings.updatedAt = Timestamp.string(time.now)
        let saved = settings
        try vault.database.write { db in try Self.save(db, saved, profileID: profile.id) }
        return saved
    }

    static func fetch(_ db: Database, profileID: Int64) throws -> HealthSettings {
        try HealthSettings.fetchOne(db, key: profileID) ?? .defaults
    }

    /// Whether the profile has settings of its own (exports leave defaults out).
    static func isSet(_ db: Database, profileID: Int64) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM log_setting WHERE profile_id = ?)", arguments: [profileID])!
    }

    static func save(_ db: Database, _ settings: HealthSettings, profileID: Int64) throws {
        var settings = settings
        if settings.updatedAt == nil { settings.updatedAt = Timestamp.string(Date()) }
        try ProfileRow(record: settings, profileID: profileID).upsert(db)
    }
}
