import Foundation

/// What an import did: counts per record kind, and each entry it skipped with the reason.
///
/// An entry is skipped either because phr does not keep it (a Claim, a repeating event, a
/// "no known allergy" statement) or because it is bad data (`rejected`: a field out of the
/// limits typed input has, a date outside the accepted years, a broken FHIR element). A file
/// with rejected entries is partly imported: the rest goes in, and `phr import` exits 65.
public struct ImportReport: Codable, Sendable, Equatable {
    /// An entry left out, and why.
    public struct Skip: Codable, Sendable, Equatable {
        /// Where in the file: "entry[12]", "documents[0]", "event 3".
        public var entry: String
        /// The resource or record type: "Claim", "AllergyIntolerance", "document".
        public var type: String
        /// Why; the fields and next steps it names are spelled by the front end.
        public var reason: Message
        /// True when the entry was refused as bad data, false when phr just does not keep it.
        public var rejected: Bool

        public init(entry: String, type: String, reason: Message, rejected: Bool = false) {
            self.entry = entry
            self.type = type
            self.reason = reason
            self.rejected = rejected
        }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            entry = try c.decode(String.self, forKey: .entry)
            type = try c.decode(String.self, forKey: .type)
            reason = try c.decode(Message.self, forKey: .reason)
            rejected = try c.decodeIfPresent(Bool.self, forKey: .rejected) ?? false
        }
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
    /// Entries kept after an attribute phr could not read was left out or mended (an "unknown"
    /// date sentinel, an end before the start, a time with too few digits), each with what was
    /// done. They are counted in `added`/`updated`/`unchanged` like any other: a repair is a
    /// note on a kept entry, not a fate of its own.
    public var repaired: [Skip]
    /// Other things worth saying: medical ID fields filled, links dropped.
    public var notes: [String]
    /// Per record type of the source, for imports that read many types into one kind (an Apple
    /// Health export); nil otherwise.
    public var types: [TypeSummary]?

    /// What became of the records of one type of the source file.
    public struct TypeSummary: Codable, Sendable, Equatable {
        public var type: String
        /// Records of this type in the file.
        public var records: Int
        /// Entries added, updated, and found already there.
        public var added: Int
        public var updated: Int
        public var alreadyThere: Int
        /// Records summed into another entry (further sleep stages of a night).
        public var summed: Int
        /// Records dropped because a source of higher priority recorded the same time, or
        /// because the file holds the same record twice (`duplicateNote` says which).
        public var duplicates: Int
        /// Records not kept, and refused as bad data (each listed in `skipped` with the reason).
        public var skipped: Int
        public var rejected: Int
        /// What one record is when not an Apple Health record ("day", "session"); nil otherwise.
        public var unit: String? = nil
        /// How `duplicates` is worded when not "of a higher-priority source".
        public var duplicateNote: String? = nil

        enum CodingKeys: String, CodingKey {
            case type, records, added, updated
            case alreadyThere = "already_there"
            case summed, duplicates, skipped, rejected, unit
            case duplicateNote = "duplicate_note"
        }
    }

    enum CodingKeys: String, CodingKey {
        case format, profile
        case createdProfile = "created_profile"
        case dryRun = "dry_run"
        case added, updated, unchanged, skipped, repaired, notes, types
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        format = try c.decode(String.self, forKey: .format)
        profile = try c.decode(String.self, forKey: .profile)
        createdProfile = try c.decode(Bool.self, forKey: .createdProfile)
        dryRun = try c.decode(Bool.self, forKey: .dryRun)
        added = try c.decode([String: Int].self, forKey: .added)
        updated = try c.decode([String: Int].self, forKey: .updated)
        unchanged = try c.decode([String: Int].self, forKey: .unchanged)
        skipped = try c.decode([Skip].self, forKey: .skipped)
        repaired = try c.decodeIfPresent([Skip].self, forKey: .repaired) ?? []
        notes = try c.decode([String].self, forKey: .notes)
        types = try c.decodeIfPresent([TypeSummary].self, forKey: .types)
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
        repaired = []
        notes = []
    }

    /// The record kinds in the order reports list them.
    public static let kinds = ["medical_id", "medical_id_notes", "medications", "doses", "appointments", "contacts", "allergies", "conditions",
                               "immunizations", "procedures", "family_history", "observations", "log_entries", "goals", "reminders", "health_settings"]

    mutating func count(_ outcome: MergeOutcome, _ kind: String) {
        switch outcome {
        case .added: added[kind, default: 0] += 1
        case .updated: updated[kind, default: 0] += 1
        case .unchanged: unchanged[kind, default: 0] += 1
        }
    }

    mutating func skip(_ entry: String, type: String, _ reason: Message) {
        skipped.append(Skip(entry: entry, type: type, reason: reason))
    }

    /// An entry refused as bad data; the rest of the file is still imported.
    mutating func reject(_ entry: String, type: String, _ reason: Message) {
        skipped.append(Skip(entry: entry, type: type, reason: reason, rejected: true))
    }

    /// An entry kept after `what` was done to an attribute it could not keep as it was.
    mutating func repair(_ entry: String, type: String, _ what: String) {
        repaired.append(Skip(entry: entry, type: type, reason: Message(what)))
    }

    /// How many entries were refused as bad data: nonzero means the file was partly imported.
    public var rejectedCount: Int { skipped.filter(\.rejected).count }

    /// Records added or changed.
    public var changedCount: Int { added.values.reduce(0, +) + updated.values.reduce(0, +) }
}

/// What happened to one record of an import.
enum MergeOutcome {
    case added, updated, unchanged
}
