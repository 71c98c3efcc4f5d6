import Foundation
import GRDB
import Glibc

/// The phone exports `phr import` reads into the health log, and what differs between them.
public enum HealthExportFormat: String, Sendable, Equatable {
    /// `export.zip` from the Health app (or the `export.xml` inside it).
    case appleHealth
    /// Google Fit's part of a Google Takeout: the .zip, the extracted folder, or its
    /// `Daily activity metrics.csv` alone (docs/health-log.md says what is read).
    case googleFit

    /// How the report and errors name it.
    public var name: String {
        switch self {
        case .appleHealth: return "Apple Health export"
        case .googleFit: return "Google Fit Takeout"
        }
    }

    /// The phr-render subcommand that reads it.
    var subcommand: String {
        switch self {
        case .appleHealth: return "health-export"
        case .googleFit: return "fit-takeout"
        }
    }

    /// What an entry's uid starts with; the rest is a digest of the worker's key.
    var uidPrefix: String {
        switch self {
        case .appleHealth: return "apple-health"
        case .googleFit: return "google-fit"
        }
    }

    /// What to do when the export cannot be read.
    var hint: String {
        switch self {
        case .appleHealth:
            return "nothing was imported; export again from the Health app (profile picture, Export All Health Data) and import the new export.zip"
        case .googleFit:
            return "nothing was imported; download Fit again from Google Takeout (takeout.google.com, Fit, CSV and JSON) and import the new .zip, or the folder it extracts to"
        }
    }

    /// The format `path` looks like, reading at most its first 4 KB (never parsing it: the
    /// worker does that): a folder is a Takeout folder; a zip whose first member lies under
    /// `Takeout/` is a Takeout, any other zip an Apple Health export; XML naming HealthData
    /// is Apple's export.xml; text whose first line starts with a `Date` column is Takeout's
    /// daily CSV. nil for anything else.
    /// The format of a file already open, read from its start with pread (its offset stays).
    static func recognize(_ file: FileDescriptor) -> HealthExportFormat? {
        var info = stat()
        guard fstat(file.fd, &info) == 0 else { return nil }
        if info.st_mode & S_IFMT == S_IFDIR { return .googleFit }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let got = buffer.withUnsafeMutableBytes { pread(file.fd, $0.baseAddress, $0.count, 0) }
        guard got >= 0 else { return nil }
        let head = Array(buffer[0..<got])
        if head.count >= 4 && head[0] == 0x50 && head[1] == 0x4B && head[2] == 3 && head[3] == 4 {
            // The local header: the name's length at offset 26, the name at 30.
            if head.count >= 30 {
                let length = Int(head[26]) | Int(head[27]) << 8
                let name = head.count >= 30 + length ? String(decoding: head[30..<(30 + length)], as: UTF8.self) : ""
                if name.hasPrefix("Takeout/") { return .googleFit }
            }
            return .appleHealth
        }
        let text = String(decoding: head, as: UTF8.self).drop { $0 == "\u{FEFF}" }
        if text.drop(while: \.isWhitespace).hasPrefix("<") && text.contains("HealthData") { return .appleHealth }
        if text.hasPrefix("Date,") || text.hasPrefix("\"Date\",") { return .googleFit }
        return nil
    }
}

/// `phr import` of a phone export into the health log: an Apple Health export (and its Health
/// Records, the FHIR files in `clinical-records/`, through the FHIR importer), or Google Fit's
/// Takeout.
///
/// The export is read by phr-render (PHRRender's HealthExportWorker or FitTakeoutWorker), never
/// in this process: phr opens the file or folder, hands the descriptor to the sandboxed worker,
/// and checks each entry that comes back as it checks typed ones, writing it as it comes inside
/// one transaction that commits only once the worker has read the whole export, so a truncated
/// zip or a malformed XML or CSV changes nothing, and phr never holds the export in memory.
///
/// Each entry's uid is derived from what identifies its record in the export (Apple: type,
/// source, times, value, for a night its day; Google Fit: a day's weight by its date, a session
/// by its activity and start), so importing a newer export adds only what is new, and what
/// changed since (a night still going on at the last export, a day weighed again) is updated.
public struct HealthExportImport {
    public let format: HealthExportFormat
    /// The worker's limits: a streaming reader needs little memory; the address-space limit
    /// leaves room for the Swift runtime's reservations.
    public var workerExecutable: String = RenderHelper.path
    public var memoryBytes = 1 << 30
    public var cpuSeconds = 1800
    /// Wall-clock seconds before the worker is killed: twice its CPU time, since the parent's
    /// writing (about 0.4 ms a kept entry) holds the worker back while it waits on the pipe.
    public var timeout = 3600.0

    public init(format: HealthExportFormat) {
        self.format = format
    }

    /// What the worker sent, checked, but its entries: they go into the vault as they come.
    struct Reading {
        var entries = 0
        var clinical: [(path: String, json: String, fhirVersion: String?)] = []
        var tallies: [HealthExportTally] = []
        var exportDate: String?
    }

    /// Imports `path` into the profile (default profile unless named), in one transaction.
    public func run(path: String, vault: Vault, profileName: String?, time: TimeContext, dryRun: Bool,
                    progress: ((Int64, Int64) -> Void)? = nil) throws -> ImportReport {
        try run(input: InputPath(path), vault: vault, profileName: profileName, time: time, dryRun: dryRun, progress: progress)
    }

    /// `run` of a path given as bytes (a name that is not UTF-8 too).
    public func run(input: InputPath, vault: Vault, profileName: String?, time: TimeContext, dryRun: Bool,
                    progress: ((Int64, Int64) -> Void)? = nil) throws -> ImportReport {
        let path = input.display
        let file = try RecordImport.open(input, allowDirectory: true)
        return try run(file: file, path: path, vault: vault, profileName: profileName, time: time, dryRun: dryRun, progress: progress)
    }

    func run(file: FileDescriptor, path: String, vault: Vault, profileName: String?, time: TimeContext, dryRun: Bool,
             progress: ((Int64, Int64) -> Void)?) throws -> ImportReport {
        struct Rollback: Error { let report: ImportReport }
        do {
            // One transaction from the first entry to the last: each entry goes in as the worker
            // sends it (phr never holds the whole export: a million records would take hundreds
            // of megabytes), and a refusal or a worker that dies rolls all of it back.
            return try vault.database.write { db in
                let rowsBefore = try SearchIndex.indexedRows(db)
                let profile = try Profiles.resolve(db, name: profileName)
                var report = ImportReport(format: format.name, profile: profile.name)
                let writer = EntryWriter(db: db, profileID: profile.id, time: time, importer: self)
                let reading = try read(file: file, path: path, zone: time.zone, progress: progress, entry: writer.add)
                try write(db, reading, writer, path: path, profileID: profile.id, time: time, report: &report)
                if dryRun {
                    report.dryRun = true
                    throw Rollback(report: report)
                }
                try SearchIndex.compactAfterBulkChange(db, rowsBefore: rowsBefore)
                return report
            }
        } catch let rollback as Rollback {
            return rollback.report
        }
    }

    // MARK: The worker

    func read(file: FileDescriptor, path: String, zone: TimeZone, progress: ((Int64, Int64) -> Void)?,
              entry: (HealthExportEntry) throws -> Void) throws -> Reading {
        // A Takeout folder is handed over as a descriptor too: the worker reads under it with openat.
        let memoryBytes = try ReaderMemory.limit(default: self.memoryBytes)
        let settings = HealthExportWorkerSettings(memoryBytes: memoryBytes, cpuSeconds: cpuSeconds, timeZone: zone.identifier)
        let worker = WorkerClient(executable: workerExecutable, arguments: settings.arguments(subcommand: format.subcommand),
                                  environment: WorkerClient.environment(), timeout: timeout, memoryBytes: memoryBytes)
        var reading = Reading()
        var messages = MessageReader(format: format, path: path)
        let ending: WorkerClient.Ending
        do {
            ending = try withoutActuallyEscaping(entry) { entry in
                try worker.run(
                    inputs: [0: .devNull(flags: O_RDONLY), HealthExportWorkerSettings.inputDescriptor: .descriptor(file.fd)],
                    outputs: [.init(descriptor: HealthExportWorkerSettings.outputDescriptor) { chunk in
                        try messages.take(chunk, into: &reading, progress: progress, entry: entry)
                    }])
            }
        } catch WorkerClient.Failure.unavailable(let code) {
            throw HealthExportError.workerUnavailable(path: workerExecutable, code: code)
        } catch WorkerClient.Failure.timedOut(let seconds) {
            throw HealthExportError.workerFailed(format: format, path: path, reason: "reading it \(WorkerClient.Failure.tookLonger(seconds))")
        }
        guard messages.finished, messages.pendingBytes == 0, ending.status == 0 else {
            if ending.memoryExhausted { throw HealthExportError.readerOutOfMemory(format: format, path: path, limit: memoryBytes) }
            let how = WorkerTermination.how(ending, cpuSeconds: cpuSeconds, memoryBytes: memoryBytes, failed: "stopped before the end")
                ?? "stopped before the end (exit status 0)"
            throw HealthExportError.workerFailed(format: format, path: path, reason: "the process reading it \(how)")
        }
        return reading
    }

    /// The worker's messages, a JSON line each, as its pipe delivers them. Nothing the worker
    /// sends is kept without a bound: it may be the one that was subverted.
    struct MessageReader {
        let format: HealthExportFormat
        let path: String
        private(set) var finished = false
        private var pending: [UInt8] = []
        private var clinicalBytes = 0
        private let decoder = JSONDecoder()

        init(format: HealthExportFormat, path: String) {
            self.format = format
            self.path = path
        }

        /// Bytes of an unfinished line.
        var pendingBytes: Int { pending.count }

        mutating func take(_ chunk: ArraySlice<UInt8>, into reading: inout Reading, progress: ((Int64, Int64) -> Void)?,
                           entry: (HealthExportEntry) throws -> Void) throws {
            pending.append(contentsOf: chunk)
            var start = 0
            while let newline = pending[start...].firstIndex(of: 0x0A) {
                guard !finished else { throw HealthExportError.protocolViolation(format: format, detail: "a message after finished") }
                let message: HealthExportMessage
                do {
                    message = try decoder.decode(HealthExportMessage.self, from: Data(pending[start..<newline]))
                } catch {
                    throw HealthExportError.protocolViolation(format: format, detail: "an unreadable message")
                }
                start = newline + 1
                try handle(message, into: &reading, progress: progress, entry: entry)
            }
            pending.removeFirst(start)
            guard pending.count <= HealthExportWorkerSettings.maximumLineBytes else {
                throw HealthExportError.protocolViolation(format: format, detail: "a message longer than \(HealthExportWorkerSettings.maximumLineBytes >> 20) MB")
            }
        }

        private mutating func handle(_ message: HealthExportMessage, into reading: inout Reading, progress: ((Int64, Int64) -> Void)?,
                                     entry: (HealthExportEntry) throws -> Void) throws {
            switch message {
            case .progress(let read, let total):
                progress?(read, total)
            case .entry(let incoming):
                guard reading.entries < HealthExportWorkerSettings.maximumEntries else {
                    throw HealthExportError.protocolViolation(format: format, detail: "more than \(HealthExportWorkerSettings.maximumEntries) entries")
                }
                reading.entries += 1
                try entry(incoming)
            case .clinicalRecord(let name, let json, let version):
                guard json.utf8.count <= HealthExportWorkerSettings.maximumClinicalRecordBytes else {
                    throw HealthExportError.protocolViolation(format: format, detail: "an oversized Health Records file")
                }
                clinicalBytes += json.utf8.count
                guard clinicalBytes <= HealthExportWorkerSettings.maximumClinicalTotalBytes,
                      reading.clinical.count < HealthExportWorkerSettings.maximumClinicalFiles else {
                    throw HealthExportError.protocolViolation(format: format, detail: "more Health Records than phr reads")
                }
                reading.clinical.append((name, json, version))
            case .tally(let tally):
                guard reading.tallies.count < 100_000 else {
                    throw HealthExportError.protocolViolation(format: format, detail: "more than 100000 record types")
                }
                reading.tallies.append(tally)
            case .finished(let exportDate):
                reading.exportDate = exportDate
                finished = true
            case .refused(let reason):
                throw HealthExportError.refused(format: format, path: path, reason: reason)
            }
        }
    }

    // MARK: Writing

    /// Writes each entry as it arrives (checked as typed ones are), counting per type.
    final class EntryWriter {
        let db: Database
        let profileID: Int64
        let time: TimeContext
        let importer: HealthExportImport
        let stamp: String
        var added: [String: Int] = [:], updated: [String: Int] = [:], unchanged: [String: Int] = [:], rejected: [String: Int] = [:]
        /// Nights already in the log from another source (issue 35, item 2), per type.
        var otherSource: [String: Int] = [:]
        /// Entries refused as bad data: where, which type, why.
        var refused: [(entry: String, type: String, reason: String)] = []
        private var index = 0

        init(db: Database, profileID: Int64, time: TimeContext, importer: HealthExportImport) {
            self.db = db
            self.profileID = profileID
            self.time = time
            self.importer = importer
            stamp = Timestamp.string(time.now)
        }

        func add(_ incoming: HealthExportEntry) throws {
            index += 1
            var entry: LogEntry
            do {
                entry = try importer.logEntry(incoming, zone: time.zone, stamp: stamp)
                // Checked as a phr export's entry is; its ID is drawn only if it is new.
                entry.id = "000000"
                try PHRImporter.check(&entry)
            } catch let error as LocalizedError {
                if refused.count < 100_000 {
                    refused.append(("entry \(index)", incoming.type, error.errorDescription ?? "bad data"))
                }
                rejected[incoming.type, default: 0] += 1
                return
            }
            let existing = try Row.fetchOne(db, sql: "SELECT id, value, diastolic, at, start_at, note FROM log_entry WHERE profile_id = ? AND uid = ?",
                                            arguments: [profileID, entry.uid])
            guard let existing else {
                // One night from two sources (Apple Health and Google Fit, or typed) is one
                // night: the one recorded first stays, the import says so.
                if entry.metric == .sleep, let start = entry.start, try HealthExportImport.nightRecordedElsewhere(db, profileID: profileID, start: start, end: entry.at,
                                                                                                 uidPrefix: importer.format.uidPrefix) {
                    otherSource[incoming.type, default: 0] += 1
                    return
                }
                entry.id = try RecordID.generate(db, table: LogStore.table)
                try LogStore.insert(db, entry, profileID: profileID)
                added[incoming.type, default: 0] += 1
                if added.values.reduce(0, +) == 100 { TestPause.here(.entriesWritten) }
                return
            }
            let same = existing["value"] as Double == entry.value && existing["diastolic"] as Double? == entry.diastolic
                && existing["at"] as String == entry.at && existing["start_at"] as String? == entry.start && existing["note"] as String? == entry.note
            if same {
                unchanged[incoming.type, default: 0] += 1
            } else {
                entry.id = existing["id"]
                entry.createdAt = try String.fetchOne(db, sql: "SELECT created_at FROM log_entry WHERE id = ?", arguments: [entry.id]) ?? stamp
                try LogStore.update(db, entry, profileID: profileID)
                updated[incoming.type, default: 0] += 1
            }
        }
    }

    /// Whether a sleep entry of another source (another export, or typed) covers at least half
    /// of the shorter of it and `start`...`end`.
    static func nightRecordedElsewhere(_ db: Database, profileID: Int64, start: String, end: String, uidPrefix: String) throws -> Bool {
        guard let from = Timestamp.parse(start), let to = Timestamp.parse(end) else { return false }
        let rows = try Row.fetchAll(db, sql: """
            SELECT start_at, at FROM log_entry WHERE profile_id = ? AND metric = 'sleep' AND start_at < ? AND at > ?
                AND substr(uid, 1, ?) != ?
            """, arguments: [profileID, end, start, uidPrefix.count + 1, uidPrefix + "-"])
        return rows.contains { row in
            guard let otherFrom = Timestamp.parse(row[0] as String), let otherTo = Timestamp.parse(row[1] as String) else { return false }
            let overlap = min(to, otherTo).timeIntervalSince(max(from, otherFrom))
            return overlap > 0 && overlap >= 0.5 * min(to.timeIntervalSince(from), otherTo.timeIntervalSince(otherFrom))
        }
    }
}

extension HealthExportImport {
    /// Counts what the writer did per type, with the tallies and the Health Records.
    func write(_ db: Database, _ reading: Reading, _ writer: EntryWriter, path: String, profileID: Int64, time: TimeContext,
               report: inout ImportReport) throws {
        let (added, updated, unchanged, rejected) = (writer.added, writer.updated, writer.unchanged, writer.rejected)
        for refusal in writer.refused { report.reject(refusal.entry, type: refusal.type, Message(refusal.reason)) }
        let total = { (counts: [String: Int]) in counts.values.reduce(0, +) }
        if total(added) > 0 { report.added["log_entries"] = total(added) }
        if total(updated) > 0 { report.updated["log_entries"] = total(updated) }
        if total(unchanged) > 0 { report.unchanged["log_entries"] = total(unchanged) }
        var types: [ImportReport.TypeSummary] = []
        for tally in reading.tallies {
            types.append(ImportReport.TypeSummary(type: tally.type, records: tally.records, added: added[tally.type] ?? 0,
                                                  updated: updated[tally.type] ?? 0, alreadyThere: unchanged[tally.type] ?? 0,
                                                  summed: tally.summed, duplicates: tally.duplicates,
                                                  skipped: tally.skipped + (writer.otherSource[tally.type] ?? 0),
                                                  rejected: tally.rejected + (rejected[tally.type] ?? 0), unit: tally.unit,
                                                  duplicateNote: tally.duplicateNote))
            let unit = tally.unit ?? "record"
            if tally.skipped > 0 {
                report.skip("\(tally.skipped) \(unit)\(tally.skipped == 1 ? "" : "s")", type: tally.type, Message(tally.reason ?? "not kept"))
            }
            if let nights = writer.otherSource[tally.type], nights > 0 {
                report.skip("\(nights) \(unit)\(nights == 1 ? "" : "s")", type: tally.type,
                            "already in the log from another source (an earlier import, or typed): one night is counted once, the first recorded kept")
            }
            if tally.rejected > 0 {
                report.reject("\(tally.rejected) \(unit)\(tally.rejected == 1 ? "" : "s")", type: tally.type,
                              "an unreadable date, value or unit")
            }
            if tally.repaired > 0 {
                report.repair("\(tally.repaired) \(unit)\(tally.repaired == 1 ? "" : "s")", type: tally.type,
                              tally.repairNote ?? "an unreadable attribute left out")
            }
        }
        report.types = types
        if let exportDate = reading.exportDate { report.notes.append("exported from Apple Health on \(exportDate)") }
        if !reading.clinical.isEmpty { try importHealthRecords(db, reading.clinical, path: path, profileID: profileID, time: time, report: &report) }
    }

    /// The Health Records files as one FHIR collection bundle, through the FHIR importer. Each
    /// file is in the release export.xml names for it (`fhirVersion`), else the one its shape
    /// gives away, and is read in R4's shape: one phone holds DSTU2 files from one portal and
    /// R4 files from another.
    private func importHealthRecords(_ db: Database, _ files: [(path: String, json: String, fhirVersion: String?)], path: String,
                                     profileID: Int64, time: TimeContext, report: inout ImportReport) throws {
        var resources: [StrictJSON] = []
        var older: [FHIRVersion: Int] = [:]
        for file in files {
            let bytes = Array(file.json.utf8)
            guard StrictJSON.tooDeep(bytes[...]) == nil, let json = try? JSONDecoder().decode(StrictJSON.self, from: Data(bytes)),
                  json["resourceType"]?.string != nil else {
                report.reject(file.path, type: "Health Records file", "not a FHIR resource in JSON")
                continue
            }
            let version = FHIRVersion.named(file.fhirVersion) ?? FHIRVersion.shape(json) ?? .r4
            if version != .r4 { older[version, default: 0] += 1 }
            resources.append(FHIRVersion.upgraded(resource: json, from: version))
        }
        guard !resources.isEmpty else { return }
        for (version, count) in older.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            report.notes.append("Health Records: \(count) file\(count == 1 ? "" : "s") in FHIR \(version.rawValue), read where phr maps \(version.rawValue) to R4")
        }
        let json = StrictJSON.object(["resourceType": .string("Bundle"), "type": .string("collection"),
                                      "entry": .array(resources.map { .object(["resource": $0]) })])
        let bundle = try FHIRBundle(json: json, path: path + " (clinical-records)")
        try FHIRImporter(bundle: bundle, path: path, profileID: profileID, time: time).run(db, report: &report)
    }

    /// The log entry an incoming entry is, with its uid from its key.
    func logEntry(_ incoming: HealthExportEntry, zone: TimeZone, stamp: String) throws -> LogEntry {
        guard let end = Timestamp.parse(incoming.end), incoming.end.hasSuffix("Z") else {
            throw RecordError.invalidField(field: Field.path("end"), reason: "not a UTC time")
        }
        if let start = incoming.start {
            guard Timestamp.parse(start) != nil, start.hasSuffix("Z") else { throw RecordError.invalidField(field: Field.path("start"), reason: "not a UTC time") }
        }
        guard (incoming.start != nil) == incoming.metric.isInterval, (incoming.diastolic != nil) == (incoming.metric == .bp),
              incoming.unit.metrics.contains(incoming.metric) else {
            throw RecordError.invalidField(field: Field.path("entry"), reason: "fields that do not fit a \(incoming.metric.rawValue) entry")
        }
        let digest = try SHA256Hasher.hash(Array((format.uidPrefix + "|" + incoming.key).utf8))
        let uid = format.uidPrefix + "-" + Array(digest.prefix(16)).hex
        return LogEntry(id: "", uid: uid, metric: incoming.metric, at: incoming.end, start: incoming.start, timeZone: zone.identifier,
                        day: LogEntry.day(of: end, in: zone), value: incoming.value, diastolic: incoming.diastolic, pulse: nil,
                        unit: incoming.unit, kind: incoming.kind, factor: incoming.metric == .water ? 1 : nil,
                        note: incoming.note, createdAt: stamp, updatedAt: stamp)
    }
}

/// Errors of a phone-export import that are not one entry's fault alone.
public enum HealthExportError: PHRError, Equatable {
    /// phr-render could not be started.
    case workerUnavailable(path: String, code: Int32)
    /// The worker could not read the export (truncated zip, malformed XML or CSV, a zip bomb): nothing imported.
    case refused(format: HealthExportFormat, path: String, reason: String)
    /// The worker died or stopped early (a hostile file can do that; nothing was imported).
    case workerFailed(format: HealthExportFormat, path: String, reason: String)
    /// The worker sent something outside the protocol.
    case protocolViolation(format: HealthExportFormat, detail: String)
    /// The worker needed more memory than a reader may use (`limit` bytes); nothing was imported.
    case readerOutOfMemory(format: HealthExportFormat, path: String, limit: Int)

    public var exitStatus: ExitStatus {
        switch self {
        case .workerUnavailable: return .unavailable
        case .refused, .workerFailed: return .dataError
        case .protocolViolation: return .failure
        case .readerOutOfMemory: return .unavailable
        }
    }

    public var message: Message {
        switch self {
        case .workerUnavailable(let path, let code): return "cannot start \(path) (\(String(cString: strerror(code))))"
        case .refused(let format, let path, let reason): return "\(path): \(format.name): \(reason)"
        case .workerFailed(_, let path, let reason): return "\(path): \(reason); nothing was imported"
        case .protocolViolation(let format, let detail):
            return "the \(format == .appleHealth ? "Apple Health" : "Google Fit") reader sent \(detail); nothing was imported"
        case .readerOutOfMemory(let format, let path, let limit):
            return "\(path): reading the \(format.name) needed more than the \(ReaderMemory.describe(limit)) a reader may use; nothing was imported"
        }
    }

    public var hint: Message? {
        switch self {
        case .workerUnavailable: return Message(RenderHelper.installHint)
        case .refused(let format, _, _), .workerFailed(let format, _, _): return Message(format.hint)
        case .protocolViolation: return "this is a bug in phr; please report it"
        case .readerOutOfMemory(_, _, let limit): return ReaderMemory.hint(after: limit)
        }
    }
}
