import Foundation

/// What an import did: counts per record kind, and each entry it skipped with the reason.
public struct ImportReport: Codable, Sendable, Equatable {
    /// An entry left out, and why.
    public struct Skip: Codable, Sendable, Equatable {
        /// Where in the file: "entry[12]", "documents[0]", "event 3".
        public var entry: String
        /// The resource or record type: "Claim", "AllergyIntolerance", "document".
        public var type: String
        public var reason: String
    }

    /// "phr export v1", "FHIR R4 Bundle (transaction)", "iCalendar".
    public var format: String
    public var profile: String
    /// True when the import made the profile (a phr export of a profile this vault lacked).
    public var createdProfile: Bool
    /// True for --dry-run: the counts say what would happen; nothing was written.
    public var dryRun: Bool
    /// Records added, by kind ("medications", "doses", ...).
    public var added: [String: Int]
    /// Records that were already there and changed (a newer copy, a rescheduled invitation).
    public var updated: [String: Int]
    /// Records that were already there and stayed as they were.
    public var unchanged: [String: Int]
    public var skipped: [Skip]
    /// Other things worth saying: medical ID fields filled, links dropped.
    public var notes: [String]

    enum CodingKeys: String, CodingKey {
        case format, profile
        case createdProfile = "created_profile"
        case dryRun = "dry_run"
        case added, updated, unchanged, skipped, notes
    }

    init(format: String, profile: String) {
        self.format = format
        self.profile = profile
        createdProfile = false
        dryRun = false
        added = [:]
        updated = [:]
        unchanged = [:]
        skipped = []
        notes = []
    }

    /// The record kinds in the order reports list them.
    public static let kinds = ["medical_id", "medications", "doses", "appointments", "contacts", "allergies", "conditions",
                               "immunizations", "observations", "log_entries", "goals", "reminders", "health_settings"]

    mutating func count(_ outcome: MergeOutcome, _ kind: String) {
        switch outcome {
        case .added: added[kind, default: 0] += 1
        case .updated: updated[kind, default: 0] += 1
        case .unchanged: unchanged[kind, default: 0] += 1
        }
    }

    mutating func skip(_ entry: String, type: String, _ reason: String) {
        skipped.append(Skip(entry: entry, type: type, reason: reason))
    }

    /// Records added or changed.
    public var changedCount: Int { added.values.reduce(0, +) + updated.values.reduce(0, +) }
}

/// What happened to one record of an import.
enum MergeOutcome {
    case added, updated, unchanged
}
