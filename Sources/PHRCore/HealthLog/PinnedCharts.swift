import GRDB

/// The health-log charts a profile pinned to the web UI's Today ("water, month"), kept in
/// `vault_info` (encrypted like the rest) under the profile's id. A display preference of this
/// vault: not part of the records, not exported, not in the change journal.
public enum PinnedCharts {
    /// A chart: a metric over a period ("week", "month", "year").
    public struct Pin: Hashable, Sendable {
        public var metric: LogMetric
        public var period: String

        public init?(metric: LogMetric, period: String) {
            guard Self.periods.contains(period) else { return nil }
            self.metric = metric
            self.period = period
        }

        public static let periods = ["week", "month", "year"]
        var text: String { "\(metric.rawValue):\(period)" }
    }

    /// The most charts Today shows.
    public static let most = 4

    static func key(_ profile: Profile) -> String { "pinned_charts:\(profile.id)" }

    /// The profile's pins, oldest first; unknown or damaged entries are left out.
    public static func pins(_ vault: Vault, profile: Profile) throws -> [Pin] {
        let stored = try vault.database.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM vault_info WHERE key = ?", arguments: [key(profile)])
        } ?? ""
        return stored.split(separator: ",").compactMap { item in
            let parts = item.split(separator: ":").map(String.init)
            guard parts.count == 2, let metric = LogMetric(rawValue: parts[0]) else { return nil }
            return Pin(metric: metric, period: parts[1])
        }
    }

    /// Pins `pin` (at most `most`: the oldest goes), or unpins it; pinning what is pinned (or
    /// unpinning what is not) changes nothing. The pins after.
    @discardableResult
    public static func set(_ pin: Pin, pinned: Bool, vault: Vault, profile: Profile) throws -> [Pin] {
        try vault.database.write { db in
            let stored = try String.fetchOne(db, sql: "SELECT value FROM vault_info WHERE key = ?", arguments: [key(profile)]) ?? ""
            var pins = stored.split(separator: ",").map(String.init).filter { !$0.isEmpty }
            let at = pins.firstIndex(of: pin.text)
            if !pinned, let at {
                pins.remove(at: at)
            } else if pinned, at == nil {
                pins.append(pin.text)
                if pins.count > most { pins.removeFirst(pins.count - most) }
            }
            try db.execute(sql: "INSERT INTO vault_info (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                           arguments: [key(profile), pins.joined(separator: ",")])
            return pins.compactMap { item in
                let parts = item.split(separator: ":").map(String.init)
                return parts.count == 2 ? LogMetric(rawValue: parts[0]).flatMap { Pin(metric: $0, period: parts[1]) } : nil
            }
        }
    }
}
