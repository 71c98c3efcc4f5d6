import Foundation
import GRDB
import Glibc

/// `phr sync`: sends this device's changes as a new change log and applies the logs of the
/// vault's other devices, through a remote that only ever gains write-once files.
///
/// One run:
/// 1. reads the remote's new logs (its own included: a log a killed run wrote but never recorded
///    is adopted, not written twice), authenticating each before anything changes (a tampered
///    object stops the run with nothing applied), and fetches the blobs their documents need;
/// 2. uploads the blobs of this vault's documents that the remote lacks;
/// 3. in one write transaction: turns the change journal since the last push into change logs
///    (one field's change carries its new value and a clock stamp) and writes them, then applies
///    the other devices' logs in causal order, each log once (its (device, sequence) is recorded
///    in the same transaction).
///
/// Merge: a field changed on one side takes that value; a field changed on both sides without
/// either having seen the other's change takes the later stamp, and the other value is kept as a
/// conflict (`phr sync conflicts`); a record removed on one side and changed on the other is
/// kept, with a conflict saying so; the same scheduled dose logged on two devices is one dose.
public struct SyncEngine {
    public let vault: Vault
    public let remote: any SyncRemote
    /// Most changes in one log (a month of heavy use is about 10,000 changes: two logs).
    static let changesPerLog = 5_000
    /// About the most JSON in one log; a single larger change (a very long document's text) makes
    /// a log of its own, up to what a reader accepts (SyncLogObject.limit).
    static let bytesPerLog = 16 << 20

    /// A generous guess of a change's JSON size (text may be escaped, bytes are base64).
    static func estimatedSize(_ change: SyncChange) -> Int {
        (change.fields ?? [:]).reduce(200 + change.identity.utf8.count) { sum, item in
            switch item.value {
            case .text(let text): return sum + item.key.utf8.count + 16 + text.utf8.count * 2
            case .bytes(let data): return sum + item.key.utf8.count + 16 + data.count * 4 / 3
            default: return sum + item.key.utf8.count + 32
            }
        }
    }

    public init(vault: Vault, remote: any SyncRemote) {
        self.vault = vault
        self.remote = remote
    }

    /// What a run did.
    public struct Report: Codable, Sendable, Equatable {
        public var remote: String
        public var sentChanges = 0
        public var sentLogs = 0
        public var sentBlobs = 0
        public var receivedLogs = 0
        public var appliedChanges = 0
        public var receivedBlobs = 0
        /// Logs of other devices that wait for an earlier log that has not arrived yet.
        public var waitingLogs = 0
        public var newConflicts = 0
        /// The same dose logged on two devices, counted once.
        public var mergedDoses = 0
        /// Logs written by a newer phr, with kinds of record this one does not know: left on the
        /// remote, unapplied, until phr is upgraded here.
        public var newerLogs = 0

        enum CodingKeys: String, CodingKey {
            case remote, sentChanges = "sent_changes", sentLogs = "sent_logs", sentBlobs = "sent_blobs", receivedLogs = "received_logs"
            case appliedChanges = "applied_changes", receivedBlobs = "received_blobs", waitingLogs = "waiting_logs"
            case newConflicts = "new_conflicts", mergedDoses = "merged_doses", newerLogs = "newer_logs"
        }
    }

    /// Where a run is, for a progress bar: blobs received, blobs sent, then changes applied.
    public enum Stage: Sendable {
        case receivingBlobs, sendingBlobs, applying
    }

    // MARK: Setting up

    /// Makes this vault ready to sync: a new random sync key (the first device; the others get it
    /// when they join).
    public static func initialize(_ vault: Vault) throws {
        try vault.database.write { db in
            guard try !SyncState.isInitialized(db) else { throw SyncError.alreadyInitialized }
            try SyncState.set(db, "sync_key", try SecureRandom.bytes(32).hex)
            try SyncState.set(db, "sync_pushed", "0")
        }
    }

    public static func isInitialized(_ vault: Vault) throws -> Bool {
        try vault.database.read { db in try SyncState.isInitialized(db) }
    }

    public struct Remote: Codable, Sendable, Equatable {
        public var name: String
        public var target: String
        public var addedAt: String

        enum CodingKeys: String, CodingKey {
            case name, target, addedAt = "added_at"
        }
    }

    public static func remotes(_ vault: Vault) throws -> [Remote] {
        try vault.database.read { db in
            try Row.fetchAll(db, sql: "SELECT name, target, added_at FROM sync_remote ORDER BY name").map {
                Remote(name: $0["name"], target: $0["target"], addedAt: $0["added_at"])
            }
        }
    }

    /// Adds a remote: a folder (which must exist) or `rclone:REMOTE:PATH`.
    public static func addRemote(_ vault: Vault, name: String, target: String, now: Date = Date()) throws -> Remote {
        guard (1...40).contains(name.count), name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            throw SyncError.badRemoteName(name)
        }
        let stored: String
        if target.hasPrefix("rclone:") {
            stored = try RcloneRemote(target: target).description
        } else {
            stored = try folder(target, apartFrom: vault.location.root)
        }
        return try vault.database.write { db in
            guard try SyncState.isInitialized(db) else { throw SyncError.notInitialized }
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sync_remote WHERE name = ?)", arguments: [name])! {
                throw SyncError.remoteExists(name)
            }
            let remote = Remote(name: name, target: stored, addedAt: Timestamp.string(now))
            try db.execute(sql: "INSERT INTO sync_remote (name, target, added_at) VALUES (?, ?, ?)",
                           arguments: [remote.name, remote.target, remote.addedAt])
            return remote
        }
    }

    public static func removeRemote(_ vault: Vault, name: String) throws {
        try vault.database.write { db in
            try db.execute(sql: "DELETE FROM sync_remote WHERE name = ?", arguments: [name])
            if db.changesCount == 0 { throw SyncError.noRemote(name) }
        }
    }

    /// The remote `name`, or the only one when `name` is nil.
    public static func remote(_ vault: Vault, name: String?) throws -> any SyncRemote {
        guard try isInitialized(vault) else { throw SyncError.notInitialized }
        let remotes = try remotes(vault)
        let chosen: Remote?
        if let name { chosen = remotes.first { $0.name == name } } else { chosen = remotes.count == 1 ? remotes[0] : nil }
        guard let chosen else {
            if name == nil, remotes.count > 1 {
                throw SyncError.badTarget("", reason: "this vault has \(remotes.count) remotes: name one (\(remotes.map(\.name).joined(separator: ", ")))")
            }
            throw SyncError.noRemote(name)
        }
        return try remote(target: chosen.target)
    }

    /// The folder `target` names, absolute, with symbolic links resolved; refused when it does
    /// not exist, is inside the vault `vaultRoot`, or holds it (a vault in a synced folder is what
    /// sync is there to avoid: a file syncer splits its database from its journal).
    public static func folder(_ target: String, apartFrom vaultRoot: String) throws -> String {
        func resolved(_ path: String) -> String {
            let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
            return URL(fileURLWithPath: (absolute as NSString).standardizingPath).resolvingSymlinksInPath().path
        }
        let folder = resolved(target)
        guard FileSystem.isDirectory(folder) else { throw SyncError.badTarget(target, reason: "no such folder") }
        let vault = resolved(vaultRoot)
        if (folder + "/").hasPrefix(vault + "/") { throw SyncError.badTarget(target, reason: "a folder inside the vault") }
        if (vault + "/").hasPrefix(folder + "/") {
            throw SyncError.badTarget(target, reason: "the vault is inside this folder; sync through a folder of its own, beside the vault")
        }
        return folder
    }

    /// The remote a target names: `rclone:NAME:PATH`, else a folder.
    public static func remote(target: String) throws -> any SyncRemote {
        if target.hasPrefix("rclone:") { return try RcloneRemote(target: target) }
        guard FileSystem.isDirectory(target) else { throw SyncError.badTarget(target, reason: "no such folder on this device") }
        return FolderRemote(root: target)
    }

    // MARK: Running

    /// One sync: send, then receive. `progress` hears (stage, done, total).
    public func run(progress: (Stage, Int, Int) -> Void = { _, _, _ in }) throws -> Report {
        var report = Report(remote: remote.description)
        let (key, device, applied) = try vault.database.read { db in
            (try SyncState.key(db), try SyncState.device(db), try SyncState.applied(db))
        }
        let vaultID = vault.keyFile.vaultID
        try checkMarker(key: key)

        // 1. The remote's logs this device has not applied, authenticated before anything changes.
        var pulled: [SyncLogBody] = []
        for other in try remote.list("logs") where other.count == 32 && other.allSatisfy({ $0.isHexDigit }) {
            let done = applied[other] ?? 0
            let sequences = try remote.list("logs/\(other)").compactMap(SyncLogObject.sequence(ofName:)).filter { $0 > done }.sorted()
            for sequence in sequences {
                let path = SyncLogObject.path(device: other, sequence: sequence)
                guard let bytes = try remote.read(path, limit: SyncLogObject.limit) else { continue }
                pulled.append(try SyncLogObject.open(bytes, key: key, vault: vaultID, device: other, sequence: sequence))
            }
        }
        // Their documents' blobs, authenticated as they arrive.
        // A document's blob is named in its identity (profile, blob), so a change that brings a
        // document back without naming its blob still fetches it.
        func blob(of change: SyncChange) -> String? {
            guard change.kind == RecordKind.document.name, change.operation == .set else { return nil }
            return change.identity.components(separatedBy: SyncKind.separator).last
        }
        // No `phr check --repair` removes a blob between its arrival and the commit that names it.
        let blobLock = try vault.blobs.writerLock()
        defer { blobLock.release() }
        var needed: [String] = []
        var seenBlobs = Set<String>()
        for body in pulled where body.device != device {
            for change in body.changes {
                if let name = blob(of: change), seenBlobs.insert(name).inserted, access(vault.blobs.path(for: name), F_OK) != 0 {
                    needed.append(name)
                }
            }
        }
        var missingBlobs = Set<String>()
        for (index, name) in needed.enumerated() {
            progress(.receivingBlobs, index, needed.count)
            let temporary = try vault.blobs.temporaryPath()
            do {
                try remote.fetch(FolderRemote.blobPath(name), to: temporary)
            } catch {
                unlink(temporary)
                // A blob the log names but the remote lacks yet (a file syncer still copying it):
                // the log waits for the next run, and is counted as waiting.
                missingBlobs.insert(name)
                continue
            }
            do {
                try vault.blobs.adopt(name: name, from: temporary)
            } catch VaultError.integrity {
                throw SyncError.tampered(object: FolderRemote.blobPath(name), reason: "fails authentication")
            }
            report.receivedBlobs += 1
        }

        var held = 0
        if !missingBlobs.isEmpty {
            let before = pulled.count
            pulled.removeAll { body in body.device != device && body.changes.contains { blob(of: $0).map(missingBlobs.contains) ?? false } }
            held = before - pulled.count
        }

        // 2. This vault's blobs the remote lacks.
        let remoteBlobs = try remote.blobNames()
        let localBlobs = try vault.database.read { db in try String.fetchAll(db, sql: "SELECT name FROM blob ORDER BY name") }
        let missing = localBlobs.filter { !remoteBlobs.contains($0) }
        if !missing.isEmpty {
            report.sentBlobs += try remote.upload(blobs: missing, from: vault.blobs.root) { progress(.sendingBlobs, $0, missing.count) }
        }
        TestPause.here(.syncBlobsPushed)

        // 3. Send and apply, in one transaction.
        try vault.database.write { db in
            var clock = SyncClock(last: try SyncState.value(db, "sync_clock"), device: device)
            var merge = Merge(db: db, device: device, clock: clock)
            // This device's own logs a killed run wrote and never recorded.
            // (Read again inside the transaction: another sync of this vault may have recorded
            // them since.)
            let recorded = try SyncState.applied(db)[device] ?? 0
            for body in pulled.sorted(by: { $0.sequence < $1.sequence }) where body.device == device && body.sequence > recorded {
                try merge.adopt(body)
            }
            clock = merge.clock
            let sent = try send(db, device: device, key: key, vaultID: vaultID, clock: &clock, remoteBlobs: remoteBlobs.union(missing))
            report.sentLogs = sent.logs
            report.sentChanges = sent.changes
            report.sentBlobs += sent.blobs
            merge.clock = clock
            // The others' logs, each once its writer's earlier logs and everything it had seen
            // are applied here.
            var waiting = pulled.filter { $0.device != device }.sorted { ($0.device, $0.sequence) < ($1.device, $1.sequence) }
            let newer = waiting.filter { body in body.changes.contains { SyncKind.named($0.kind) == nil } }
            report.newerLogs = newer.count
            waiting.removeAll { body in body.changes.contains { SyncKind.named($0.kind) == nil } }
            let total = waiting.reduce(0) { $0 + $1.changes.count }
            var done = 0
            var paused = false
            var progressed = true
            while progressed {
                progressed = false
                var applied = try SyncState.applied(db)
                for body in waiting where Self.ready(body, applied: applied) {
                    guard (applied[body.device] ?? 0) < body.sequence else { continue }
                    try merge.apply(body) {
                        done += 1
                        if !paused, total > 1, done >= total / 2 {
                            paused = true
                            TestPause.here(.syncApplying)
                        }
                        if done % 200 == 0 { progress(.applying, done, total) }
                    }
                    applied[body.device] = body.sequence
                    report.receivedLogs += 1
                    progressed = true
                }
                waiting.removeAll { (applied[$0.device] ?? 0) >= $0.sequence }
            }
            report.waitingLogs = waiting.count + held
            report.appliedChanges = merge.applied
            report.newConflicts = merge.conflicts
            report.mergedDoses = merge.mergedDoses
            try SyncState.set(db, "sync_clock", merge.clock.stamp)
            try db.execute(sql: "INSERT INTO vault_info (key, value) VALUES ('sync_last', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                           arguments: [Timestamp.string(Date())])
        }
        return report
    }

    /// Whether every log `body`'s writer had applied is applied here, and its own previous one.
    static func ready(_ body: SyncLogBody, applied: [String: Int64]) -> Bool {
        guard (applied[body.device] ?? 0) == body.sequence - 1 else { return false }
        for (device, sequence) in body.vector where device != body.device {
            if (applied[device] ?? 0) < sequence { return false }
        }
        return true
    }

    /// The remote's `phr-sync.json`, written by the first device that syncs through it; a remote
    /// that holds another vault's is refused.
    private func checkMarker(key: SecretBytes) throws {
        let mark = try HMACSHA256.mac(key: key, Array("phr-sync remote".utf8)).hex
        let text = "{\"format\":1,\"vault\":\"\(mark)\"}\n"
        if let existing = try remote.read("phr-sync.json", limit: 4096) {
            guard String(decoding: existing, as: UTF8.self) == text else { throw SyncError.otherVault(remote.description) }
            return
        }
        if try !remote.create("phr-sync.json", bytes: Array(text.utf8)) {
            guard let existing = try remote.read("phr-sync.json", limit: 4096), String(decoding: existing, as: UTF8.self) == text else {
                throw SyncError.otherVault(remote.description)
            }
        }
    }

    // MARK: Sending

    /// Turns the journal since the last push into change logs, writes them to the remote and
    /// records them as applied here.
    private func send(_ db: Database, device: String, key: SecretBytes, vaultID: String, clock: inout SyncClock,
                      remoteBlobs: Set<String>) throws -> (logs: Int, changes: Int, blobs: Int) {
        let pushed = try SyncState.pushed(db)
        let entries = try ChangeJournal.entries(db, after: pushed)
        var order: [(kind: SyncKind, local: String)] = []
        var seen = Set<String>()
        for entry in entries {
            guard let kind = SyncKind.named(entry.kind) else { continue }
            let local = kind.localKey(of: entry)
            if seen.insert(kind.name + SyncKind.separator + local).inserted { order.append((kind, local)) }
        }
        // Fields a settled conflict asks to send again.
        for row in try Row.fetchAll(db, sql: "SELECT DISTINCT kind, identity FROM sync_field WHERE stamp = ''") {
            guard let kind = SyncKind.named(row["kind"]), let local = try kind.local(db, identity: row["identity"]) else { continue }
            if seen.insert(kind.name + SyncKind.separator + local).inserted { order.append((kind, local)) }
        }
        order = order.enumerated().sorted { ($0.element.kind.rank, $0.offset) < ($1.element.kind.rank, $1.offset) }.map(\.element)

        var changes: [SyncChange] = []
        var blobs = 0
        for (kind, local) in order {
            if let row = try kind.row(db, local: local) {
                let identity = try kind.identity(db, of: row)
                let fields = try kind.fields(db, of: row)
                let stored = try SyncState.fields(db, kind: kind.name, identity: identity)
                let record = try SyncState.record(db, kind: kind.name, identity: identity)
                let isNew = record == nil || record?.removed == true
                var changed = isNew ? fields : fields.filter { field, value in
                    guard let state = stored[field] else { return true }
                    return state.value != value || state.stamp.isEmpty
                }
                for group in kind.mustAgree where group.contains(where: { changed[$0] != nil }) {
                    for field in group { changed[field] = fields[field] ?? changed[field] }
                }
                if changed.isEmpty { continue }
                let id: String? = kind.shape == .profile ? nil : (row["id"] as DatabaseValue?).flatMap { String.fromDatabaseValue($0) }
                changes.append(SyncChange(kind: kind.name, identity: identity, operation: .set, stamp: clock.tick(), fields: changed, id: id))
                // A document added since the blobs were sent (another command, during this run).
                if kind.shape == .document, let blob = fields["blob_name"]?.text, !remoteBlobs.contains(blob) {
                    blobs += try remote.upload(blobs: [blob], from: vault.blobs.root) { _ in }
                }
            } else if let identity = try SyncState.identity(db, kind: kind.name, local: local) {
                changes.append(SyncChange(kind: kind.name, identity: identity, operation: .remove, stamp: clock.tick(), fields: nil, id: nil))
            }
        }
        let through = entries.last?.sequence ?? pushed
        guard !changes.isEmpty else {
            try SyncState.set(db, "sync_pushed", String(through))
            return (0, 0, blobs)
        }
        var vector = try SyncState.applied(db)
        var sequence = vector[device] ?? 0
        // At most `changesPerLog` changes and about `bytesPerLog` of JSON in a log: a document's
        // page text and word boxes make some changes large.
        var chunks: [[SyncChange]] = [[]]
        var size = 0
        for change in changes {
            let estimate = Self.estimatedSize(change)
            if !chunks[chunks.count - 1].isEmpty, chunks[chunks.count - 1].count >= Self.changesPerLog || size + estimate > Self.bytesPerLog {
                chunks.append([])
                size = 0
            }
            chunks[chunks.count - 1].append(change)
            size += estimate
        }
        var merge = Merge(db: db, device: device, clock: clock)
        for (index, chunk) in chunks.enumerated() {
            sequence += 1
            vector[device] = sequence
            let body = SyncLogBody(device: device, sequence: sequence, vector: vector, journal: through, changes: chunk)
            let object = try SyncLogObject.seal(body, key: key, vault: vaultID)
            guard object.count <= SyncLogObject.limit else {
                throw SyncError.damagedState("a change too large for a change log (\(object.count >> 20) MiB); nothing was sent")
            }
            guard try remote.create(SyncLogObject.path(device: device, sequence: sequence), bytes: object) else {
                throw SyncError.remote("\(SyncLogObject.path(device: device, sequence: sequence)) already exists: is another sync of this vault running on this device?")
            }
            if index == chunks.count / 2 { TestPause.here(.syncLogWritten) }
            try merge.recordOwn(body)
        }
        try SyncState.set(db, "sync_pushed", String(through))
        return (chunks.count, changes.count, blobs)
    }
}
