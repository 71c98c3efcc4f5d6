import Foundation
import GRDB

/// Getting reminders to the channels: each reminder `phr remind due --notify` shows is queued
/// for every channel in the same transaction that marks it shown, then sent; what a channel
/// did not take stays queued and is retried on later runs with backoff (1, 2, 4 ... minutes, at
/// most an hour apart) until it is delivered or too old to be useful (`lifetime`), when it is
/// given up and counted. One channel's failure never holds up another: each channel's queue is
/// worked on its own, and a channel that fails is left alone for the rest of the run.
///
/// Offline (`PHR_OFFLINE=1`) the network channels are held: what they have queued stays queued,
/// untouched (no attempt counted, no backoff), and goes out on the first run without it, as long
/// as it is still within its lifetime; past that it is given up and counted like any reminder
/// too old to send (a dose reminder half a day late could prompt a second dose).
public struct ReminderDelivery: Sendable {
    public let vault: Vault
    public let profile: Profile
    public let time: TimeContext
    public let sender: ReminderChannelSender
    /// How the front end names next steps in the notifications.
    public let spelling: any MessageSpelling

    /// At most this many deliveries per channel and run, so a long backlog cannot stall a timer.
    public static let perRun = 20
    /// How long a run holds the deliveries it took: another run (two timers, or a timer and a
    /// person, overlapping) leaves them alone meanwhile, and takes them over if the run that
    /// held them died. Longer than a run's sends can take (perRun at the channel timeout).
    public static let lease: TimeInterval = 15 * 60

    public init(vault: Vault, profile: Profile, time: TimeContext, sender: ReminderChannelSender, spelling: any MessageSpelling) {
        self.vault = vault
        self.profile = profile
        self.time = time
        self.sender = sender
        self.spelling = spelling
    }

    /// How long after it fell due a reminder is still worth sending.
    public static func lifetime(_ kind: Reminder.Kind) -> TimeInterval {
        switch kind {
        case .water: return 2 * 3600
        case .med, .appt: return 12 * 3600
        }
    }

    /// The wait before the next attempt after `failures` failed ones.
    public static func backoff(afterFailures failures: Int) -> TimeInterval {
        min(3600, 60 * pow(2, Double(max(0, min(failures, 12) - 1))))
    }

    /// Queues `reminders` for every channel of the profile (inside the caller's transaction).
    static func queue(_ db: Database, _ reminders: [DueReminder], profileID: Int64, now: Date) throws {
        guard !reminders.isEmpty else { return }
        let channels = try String.fetchAll(db, sql: "SELECT id FROM reminder_channel WHERE profile_id = ?", arguments: [profileID])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let stamp = Timestamp.string(now)
        for reminder in reminders {
            let json = String(decoding: try encoder.encode(reminder), as: UTF8.self)
            let due = Timestamp.parse(reminder.at) ?? now
            let expires = Timestamp.string(max(due, now).addingTimeInterval(lifetime(reminder.kind)))
            for channel in channels {
                try db.execute(sql: """
                    INSERT OR IGNORE INTO reminder_delivery (channel_id, key, reminder, next_attempt_at, expires_at, created_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """, arguments: [channel, reminder.key, json, stamp, expires, stamp])
            }
        }
    }

    /// What one run did for one channel.
    public struct ChannelReport: Encodable, Sendable, Equatable {
        public var channel: String
        public var kind: ReminderChannel.Kind
        public var sent: Int
        /// Deliveries attempted that failed (0 or 1: a failing channel is left for this run).
        public var failed: Int
        /// Deliveries dropped this run because they became too old.
        public var gaveUp: Int
        /// Deliveries due but kept queued because PHR_OFFLINE=1 holds this network channel.
        public var held: Int
        public var error: String?

        enum CodingKeys: String, CodingKey {
            case channel, kind, sent, failed
            case gaveUp = "gave_up"
            case held, error
        }
    }

    private struct Pending: Sendable {
        var key: String
        var reminder: DueReminder
        var attempts: Int
        var nextAttempt: Date
        var expires: Date
    }

    /// Sends what is queued and due, channel by channel.
    @discardableResult
    public func deliver() throws -> [ChannelReport] {
        let now = time.now
        let stamp = Timestamp.string(now)
        let leased = Timestamp.string(now.addingTimeInterval(Self.lease))
        let decoder = JSONDecoder()
        // Drop what is too old, counting it per channel, and take what is due now, in the same
        // transaction: its next attempt moves to the end of this run's lease, so an overlapping
        // run does not send it a second time.
        let (channels, work, expired) = try vault.database.write { db -> ([ReminderChannel], [String: [Pending]], [String: Int]) in
            let channels = try ReminderChannelStore.all(db, profileID: profile.id)
            var work: [String: [Pending]] = [:]
            var expired: [String: Int] = [:]
            for channel in channels {
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM reminder_delivery WHERE channel_id = ? ORDER BY created_at, rowid",
                                            arguments: [channel.id])
                for row in rows {
                    let key: String = row["key"]
                    let text: String = row["reminder"]
                    let expires = Timestamp.parse(row["expires_at"]) ?? now
                    guard expires > now, let reminder = try? decoder.decode(DueReminder.self, from: Data(text.utf8)) else {
                        try db.execute(sql: "DELETE FROM reminder_delivery WHERE channel_id = ? AND key = ?", arguments: [channel.id, key])
                        expired[channel.id, default: 0] += 1
                        continue
                    }
                    work[channel.id, default: []].append(Pending(key: key, reminder: reminder, attempts: row["attempts"],
                                                                 nextAttempt: Timestamp.parse(row["next_attempt_at"]) ?? now, expires: expires))
                }
                if let count = expired[channel.id] {
                    try db.execute(sql: "UPDATE reminder_channel SET given_up = given_up + ? WHERE id = ?", arguments: [count, channel.id])
                }
                let due = (work[channel.id] ?? []).filter { $0.nextAttempt <= now }
                if sender.holds(channel) {
                    work[channel.id] = due
                    continue
                }
                let taken = Array(due.prefix(Self.perRun))
                for pending in taken {
                    try db.execute(sql: "UPDATE reminder_delivery SET next_attempt_at = ? WHERE channel_id = ? AND key = ?",
                                   arguments: [leased, channel.id, pending.key])
                }
                work[channel.id] = taken
            }
            return (channels, work, expired)
        }
        // Each channel on its own thread: one that is slow (up to its 10 seconds) or down holds
        // up no other. Their writes to the vault are serialised by the database.
        let results = ChannelResults(count: channels.count)
        let group = DispatchGroup()
        for (index, channel) in channels.enumerated() {
            let due = work[channel.id] ?? []
            let gaveUp = expired[channel.id] ?? 0
            group.enter()
            let thread = Thread { [self] in
                results.set(index, Result { try deliver(due, to: channel, gaveUp: gaveUp, now: now, stamp: stamp, leased: leased) })
                group.leave()
            }
            thread.start()
        }
        group.wait()
        return try results.all()
    }

    /// The results of the channels' threads, by channel.
    private final class ChannelResults: @unchecked Sendable {
        private let lock = NSLock()
        private var results: [Result<ChannelReport, Error>?]

        init(count: Int) {
            results = Array(repeating: nil, count: count)
        }

        func set(_ index: Int, _ result: Result<ChannelReport, Error>) {
            lock.lock()
            results[index] = result
            lock.unlock()
        }

        func all() throws -> [ChannelReport] {
            lock.lock()
            defer { lock.unlock() }
            return try results.map { try $0!.get() }
        }
    }

    /// Sends one channel's due deliveries, in order, until one fails.
    private func deliver(_ due: [Pending], to channel: ReminderChannel, gaveUp: Int, now: Date, stamp: String,
                         leased: String) throws -> ChannelReport {
        var report = ChannelReport(channel: channel.id, kind: channel.kind, sent: 0, failed: 0, gaveUp: gaveUp, held: 0, error: nil)
        if sender.holds(channel) {
            report.held = due.count
            return report
        }
        for pending in due.prefix(Self.perRun) {
            do {
                try sender.send(ChannelMessage(pending.reminder, details: channel.details, spelling: spelling), via: channel)
                try vault.database.write { db in
                    try db.execute(sql: "DELETE FROM reminder_delivery WHERE channel_id = ? AND key = ?", arguments: [channel.id, pending.key])
                    try db.execute(sql: """
                        UPDATE reminder_channel SET delivered = delivered + 1, last_attempt_at = ?, last_success_at = ?, last_error = NULL
                        WHERE id = ?
                        """, arguments: [stamp, stamp, channel.id])
                }
                report.sent += 1
            } catch let failure as ChannelFailure {
                let next = Timestamp.string(now.addingTimeInterval(Self.backoff(afterFailures: pending.attempts + 1)))
                try vault.database.write { db in
                    try db.execute(sql: """
                        UPDATE reminder_delivery SET attempts = attempts + 1, next_attempt_at = ?, last_error = ?
                        WHERE channel_id = ? AND key = ?
                        """, arguments: [next, failure.reason, channel.id, pending.key])
                    // The rest of this channel's queue waits as long: the channel is down. What
                    // this run took and did not try is released to the same time.
                    try db.execute(sql: """
                        UPDATE reminder_delivery SET next_attempt_at = ? WHERE channel_id = ? AND (next_attempt_at < ? OR next_attempt_at = ?)
                        """, arguments: [next, channel.id, next, leased])
                    try db.execute(sql: "UPDATE reminder_channel SET last_attempt_at = ?, last_error = ? WHERE id = ?",
                                   arguments: [stamp, failure.reason, channel.id])
                }
                report.failed += 1
                report.error = failure.reason
                break
            }
        }
        return report
    }

    /// What became of one channel's test notification.
    public enum TestOutcome: Equatable, Sendable {
        case sent
        case failed(ChannelFailure)
        /// Not sent: PHR_OFFLINE=1 and the channel posts over the network.
        case held
    }

    /// Sends the test notification through each channel (or the one `prefix` names) now,
    /// recording the outcome of those it tried; a held channel's record is left as it was.
    public func test(_ prefix: String?) throws -> [(ReminderChannel, TestOutcome)] {
        let store = ReminderChannelStore(vault: vault, profile: profile, time: time)
        let channels = try prefix.map { [try store.get($0)] } ?? store.list()
        guard !channels.isEmpty else { throw ReminderChannelError.noChannels }
        let stamp = Timestamp.string(time.now)
        var results: [(ReminderChannel, TestOutcome)] = []
        for channel in channels {
            if sender.holds(channel) {
                results.append((channel, .held))
                continue
            }
            var failure: ChannelFailure?
            do {
                try sender.send(.test, via: channel)
            } catch let error as ChannelFailure {
                failure = error
            }
            try vault.database.write { db in
                if let failure {
                    try db.execute(sql: "UPDATE reminder_channel SET last_attempt_at = ?, last_error = ? WHERE id = ?",
                                   arguments: [stamp, failure.reason, channel.id])
                } else {
                    try db.execute(sql: "UPDATE reminder_channel SET last_attempt_at = ?, last_success_at = ?, last_error = NULL WHERE id = ?",
                                   arguments: [stamp, stamp, channel.id])
                }
            }
            results.append((channel, failure.map { .failed($0) } ?? .sent))
        }
        return results
    }

    /// Each channel with how many deliveries it still owes and when the next attempt is.
    public struct ChannelStatus: Encodable, Sendable {
        public var channel: ReminderChannel
        public var pending: Int
        public var nextAttemptAt: String?
        /// Why nothing goes to this channel now ("PHR_OFFLINE=1"), or nil.
        public var heldBy: String?

        enum CodingKeys: String, CodingKey {
            case pending
            case nextAttemptAt = "next_attempt_at"
            case heldBy = "held_by"
        }

        public func encode(to encoder: Encoder) throws {
            try channel.encode(to: encoder)
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(pending, forKey: .pending)
            try c.encode(nextAttemptAt, forKey: .nextAttemptAt)
            try c.encode(heldBy, forKey: .heldBy)
        }
    }

    public func status() throws -> [ChannelStatus] {
        try vault.database.read { db in
            try ReminderChannelStore.all(db, profileID: profile.id).map { channel in
                let row = try Row.fetchOne(db, sql: "SELECT count(*) AS n, min(next_attempt_at) AS next FROM reminder_delivery WHERE channel_id = ?",
                                           arguments: [channel.id])
                let pending: Int = row?["n"] ?? 0
                return ChannelStatus(channel: channel, pending: pending, nextAttemptAt: pending > 0 ? row?["next"] : nil,
                                     heldBy: sender.holds(channel) ? "\(OfflineMode.variable)=1" : nil)
            }
        }
    }
}
