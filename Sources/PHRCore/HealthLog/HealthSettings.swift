import Foundation
import GRDB

/// A profile's health-log settings: the size of one serving of water, the activity level the
/// calorie suggestion uses, and the units totals are shown in.
public struct HealthSettings: Codable, Sendable, Equatable {
    /// Lifestyle categories of FAO/WHO/UNU 2004 (table 5.3), which the calorie suggestion
    /// multiplies the resting energy expenditure by (GoalSuggester.swift).
    public enum ActivityLevel: String, Codable, Sendable, CaseIterable {
        case sedentary, moderate, vigorous

        public static func parse(_ text: String, field: String) throws -> ActivityLevel {
            let synonyms: [String: ActivityLevel] = ["light": .sedentary, "low": .sedentary, "active": .moderate,
                                                     "moderately-active": .moderate, "very-active": .vigorous, "high": .vigorous]
            let typed = text.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: " ", with: "-")
            guard let level = ActivityLevel(rawValue: typed) ?? synonyms[typed] else {
                throw RecordError.invalidField(field: field, reason: "'\(text)' is not an activity level; use sedentary, moderate or vigorous")
            }
            return level
        }
    }

    /// Units for totals and averages: litres, kilograms (metric) or US fluid ounces, pounds.
    public enum Units: String, Codable, Sendable, CaseIterable {
        case metric, us
    }

    /// The water serving ("phr log water +"): 250 ml unless set, the seed apps' glass.
    public static let defaultServingML = 250.0

    public var servingML: Double
    public var activityLevel: ActivityLevel?
    public var units: Units
    /// mmol/L or mg/dL: how glucose is shown, and what a bare glucose number means.
    public var glucoseUnit: HealthUnit
    /// nil while nothing was set (the defaults apply).
    public var updatedAt: String?

    enum CodingKeys: String, CodingKey {
        case servingML = "serving_ml"
        case activityLevel = "activity_level"
        case units
        case glucoseUnit = "glucose_unit"
        case updatedAt = "updated_at"
    }

    public static let defaults = HealthSettings(servingML: defaultServingML, activityLevel: nil, units: .metric,
                                                glucoseUnit: .millimolePerLitre, updatedAt: nil)

    public init(servingML: Double, activityLevel: ActivityLevel?, units: Units, glucoseUnit: HealthUnit, updatedAt: String?) {
        self.servingML = servingML
        self.activityLevel = activityLevel
        self.units = units
        self.glucoseUnit = glucoseUnit
        self.updatedAt = updatedAt
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        servingML = try c.decode(Double.self, forKey: .servingML)
        activityLevel = try c.decodeIfPresent(ActivityLevel.self, forKey: .activityLevel)
        units = try c.decode(Units.self, forKey: .units)
        glucoseUnit = try c.decode(HealthUnit.self, forKey: .glucoseUnit)
        guard glucoseUnit.metrics == [.glucose] else {
            throw DecodingError.dataCorruptedError(forKey: .glucoseUnit, in: c, debugDescription: "use mmol/L or mg/dL")
        }
        updatedAt = try c.decodeIfPresent(String.self, forKey: .updatedAt)
    }

}

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
                let quantity = try HealthQuantityParser.volume(text, field: "--serving")
                settings.servingML = (quantity.value * 10).rounded() / 10
            }
        }
        if let text = input.activity {
            settings.activityLevel = text.isEmpty ? nil : try HealthSettings.ActivityLevel.parse(text, field: "--activity")
        }
        if let text = input.units {
            settings.units = text.isEmpty ? .metric : HealthSettings.Units(rawValue: try RecordFields.choice(
                text, field: "--units", allowed: HealthSettings.Units.allCases.map(\.rawValue)))!
        }
        if let text = input.glucoseUnit {
            if text.isEmpty {
                settings.glucoseUnit = .millimolePerLitre
            } else {
                guard let unit = HealthUnit.named(text), unit.metrics == [.glucose] else {
                    throw RecordError.invalidField(field: "--glucose-unit", reason: "'\(text)' is not mmol/L or mg/dL")
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
