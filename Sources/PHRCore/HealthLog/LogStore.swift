import Foundation
import GRDB

/// Adding, listing, changing and removing the health-log entries of one profile. How typed
/// input becomes an entry is in LogStore+Input.swift.
public struct LogStore {
    public let vault: Vault
    public let profile: Profile
    public let time: TimeContext

    static let table = LogEntry.databaseTableName
    /// The record kind in IDs, errors and the search index (`phr search kind:log`).
    static let kind = "log"

    public init(vault: Vault, profile: Profile, time: TimeContext) {
        self.vault = vault
        self.profile = profile
        self.time = time
    }

    /// Which entries `list` returns.
    public struct Filter: Sendable {
        public var metric: LogMetric?
        public var since: CalendarDate?
        public var until: CalendarDate?
        /// The newest this many; nil for all in range.
        public var limit: Int?
        public init(metric: LogMetric? = nil, since: CalendarDate? = nil, until: CalendarDate? = nil, limit: Int? = nil) {
            self.metric = metric
            self.since = since
            self.until = until
            self.limit = limit
        }
    }

    // MARK: Reading

    /// Entries matching `filter`, newest first.
    public func list(_ filter: Filter = Filter()) throws -> [LogEntry] {
        var sql = "SELECT * FROM log_entry WHERE profile_id = ?"
        var arguments: StatementArguments = [profile.id]
        if let metric = filter.metric {
            sql += " AND metric = ?"
            arguments += [metric.rawValue]
        }
        if let since = filter.since {
            sql += " AND day >= ?"
            arguments += [since.description]
        }
        if let until = filter.until {
            sql += " AND day <= ?"
            arguments += [until.description]
        }
        sql += " ORDER BY at DESC, rowid DESC"
        if let limit = filter.limit {
            sql += " LIMIT ?"
            arguments += [limit]
        }
        let query = sql
        return try vault.database.read { db in try LogEntry.fetchAll(db, sql: query, arguments: arguments) }
    }

    public func get(_ prefix: String) throws -> LogEntry {
        try vault.database.read { db in try resolve(db, prefix) }
    }

    func resolve(_ db: Database, _ prefix: String) throws -> LogEntry {
        try RecordRows.resolve(db, LogEntry.self, kind: Self.kind, prefix: prefix, profileID: profile.id)
    }

    /// The newest weight entry, for BMI and the calorie suggestion.
    public func latestWeight() throws -> LogEntry? {
        try vault.database.read { db in try Self.latest(db, metric: .weight, profileID: profile.id) }
    }

    static func latest(_ db: Database, metric: LogMetric, profileID: Int64) throws -> LogEntry? {
        try LogEntry.fetchOne(db, sql: "SELECT * FROM log_entry WHERE profile_id = ? AND metric = ? ORDER BY at DESC, rowid DESC LIMIT 1",
                              arguments: [profileID, metric.rawValue])
    }

    /// Every entry of a profile, oldest first (the order of exports).
    static func all(_ db: Database, profileID: Int64) throws -> [LogEntry] {
        try RecordRows.all(db, LogEntry.self, profileID: profileID, orderBy: [Column("at"), Column("created_at")])
    }

    // MARK: A day at a glance

    /// Where a habit stands on one day: what counts so far and the goal that day.
    public struct DayProgress: Codable, Sendable, Equatable {
        public var metric: LogMetric
        public var day: CalendarDate
        public var total: Double
        public var entries: Int
        public var goal: EffectiveGoal
        /// Whether the day's goal is met (for a weekly goal: the week's so far).
        public var met: Bool
        /// For a weekly goal: the week's total so far.
        public var weekTotal: Double?

        enum CodingKeys: String, CodingKey {
            case metric, day, total, entries, goal, met
            case weekTotal = "week_total"
        }
    }

    /// The total of a habit on `day` against its goal (and the week's, for a weekly goal).
    public func progress(_ metric: LogMetric, on day: CalendarDate) throws -> DayProgress {
        try vault.database.read { db in try progressInTransaction(db, metric, on: day) }
    }

    func progressInTransaction(_ db: Database, _ metric: LogMetric, on day: CalendarDate) throws -> DayProgress {
        do {
            let book = try GoalBook.load(db, profileID: profile.id)
            let goal = book.goal(metric, on: day)
            let sums = try Row.fetchOne(db, sql: """
                SELECT coalesce(sum(value * coalesce(factor, 1)), 0) AS total, count(*) AS entries FROM log_entry
                WHERE profile_id = ? AND metric = ? AND day = ?
                """, arguments: [profile.id, metric.rawValue, day.description])!
            let total: Double = sums["total"]
            let entries: Int = sums["entries"]
            guard goal.period == .week else {
                return DayProgress(metric: metric, day: day, total: total, entries: entries, goal: goal,
                                   met: goal.isMet(by: total, logged: entries > 0), weekTotal: nil)
            }
            let monday = day.monday
            let week: Double = try Double.fetchOne(db, sql: """
                SELECT coalesce(sum(value * coalesce(factor, 1)), 0) FROM log_entry
                WHERE profile_id = ? AND metric = ? AND day BETWEEN ? AND ?
                """, arguments: [profile.id, metric.rawValue, monday.description, day.description]) ?? 0
            return DayProgress(metric: metric, day: day, total: total, entries: entries, goal: goal,
                               met: goal.isMet(by: week, logged: week > 0), weekTotal: week)
        }
    }

    // MARK: Removing

    @discardableResult
    public func remove(_ prefix: String) throws -> LogEntry {
        try vault.database.write { db in
            let entry = try resolve(db, prefix)
            try RecordRows.delete(db, table: Self.table, kind: Self.kind, id: entry.id)
            return entry
        }
    }

    // MARK: Rows and search

    static func insert(_ db: Database, _ entry: LogEntry, profileID: Int64) throws {
        try RecordFields.refuseControlCharacters(inStringsOf: entry)
        try ProfileRow(record: entry, profileID: profileID).insert(db)
        try index(db, entry, profileID: profileID)
    }

    static func update(_ db: Database, _ entry: LogEntry, profileID: Int64) throws {
        try RecordFields.refuseControlCharacters(inStringsOf: entry)
        try entry.update(db)
        try index(db, entry, profileID: profileID)
    }

    /// Log entries are found by metric, drink, workout type, meal and note: "coffee",
    /// "kind:log run", "headache" in a note.
    static func index(_ db: Database, _ entry: LogEntry, profileID: Int64) throws {
        let format = HealthFormat(.defaults)
        var title = "\(entry.metric.title): \(format.entry(entry))"
        if let kind = entry.kind { title += " (\(kind.replacingOccurrences(of: "-", with: " ")))" }
        let body = [entry.note, "\(entry.metric.rawValue) on \(entry.day)"].compactMap { $0 }.joined(separator: "\n")
        try SearchIndex.replace(db, kind: kind, recordID: entry.id, profileID: profileID, entries: [
            SearchIndex.Entry(title: title, tags: ["log", entry.metric.rawValue] + (entry.kind.map { [$0] } ?? []), body: body,
                              type: entry.metric.rawValue, date: entry.day.description),
        ])
    }
}

extension LogEntry: StoredRecord, RowBacked {
    static var table: String { LogStore.table }
    var source: RecordSource? { nil }
    static func insertRow(_ db: Database, _ record: LogEntry, profileID: Int64) throws { try LogStore.insert(db, record, profileID: profileID) }
    static func updateRow(_ db: Database, _ record: LogEntry, profileID: Int64) throws { try LogStore.update(db, record, profileID: profileID) }
}
