import Foundation
import GRDB
import Glibc

/// `phr import export.zip` (or the `export.xml` inside it): an Apple Health export into the
/// health log, and its Health Records (FHIR files in `clinical-records/`) through the FHIR
/// importer.
///
/// The export is read by `phr-render health-export` (PHRRender's HealthExportWorker), never in
/// this process: phr opens the file, hands the descriptor to the sandboxed worker, and checks
/// each entry that comes back as it checks typed ones. Nothing is written until the worker
/// has read the whole file; then everything goes in in one transaction, so a truncated zip or
/// a malformed XML changes nothing.
///
/// Each entry's uid is derived from what identifies its record in Apple Health (type, source,
/// times, value; for a night, its day), so importing a newer export adds only what is new, and a
/// night that was still going on at the last export is updated.
public struct AppleHealthImport {
    /// The worker's limits: a streaming reader needs little memory; the address-space limit
    /// leaves room for the Swift runtime's reservations.
    public var workerExecutable: String = RenderHelper.path
    public var memoryBytes = 1 << 30
    public var cpuSeconds = 1800

    public init() {}

    /// True if `path` looks like an Apple Health export: a zip archive, or XML whose start names
    /// the HealthData element. Reads at most the first 4 KB.
    public static func recognizes(_ path: String) -> Bool {
        guard let file = try? FileDescriptor.openForReading(path), let head = try? file.read(upTo: 4096) else { return false }
        if head.count >= 4 && head[0] == 0x50 && head[1] == 0x4B && head[2] == 3 && head[3] == 4 { return true }
        let text = String(decoding: head, as: UTF8.self)
        return text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }.hasPrefix("<") && text.contains("HealthData")
    }

    /// What the worker sent, checked.
    struct Reading {
        var entries: [AppleHealthEntry] = []
        var clinical: [(path: String, json: String)] = []
        var tallies: [AppleHealthTally] = []
        var exportDate: String?
    }

    /// Imports `path` into the profile (default profile unless named), in one transaction.
    public func run(path: String, vault: Vault, profileName: String?, time: TimeContext, dryRun: Bool,
                    progress: ((Int64, Int64) -> Void)? = nil) throws -> ImportReport {
        let reading = try read(path: path, zone: time.zone, progress: progress)
        struct Rollback: Error { let report: ImportReport }
        do {
            return try vault.database.write { db in
                let rowsBefore = try SearchIndex.indexedRows(db)
                let profile = try Profiles.resolve(db, name: profileName)
                var report = ImportReport(format: "Apple Health export", profile: profile.name)
                try write(db, reading, path: path, profileID: profile.id, time: time, report: &report)
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

    func read(path: String, zone: TimeZone, progress: ((Int64, Int64) -> Void)?) throws -> Reading {
        guard FileSystem.exists(path) else { throw RecordImportError.noSuchFile(path) }
        let file = try FileDescriptor.openForReading(path)
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw POSIXIOError(operation: "create", path: "a pipe", code: errno) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let settings = AppleHealthWorkerSettings(memoryBytes: memoryBytes, cpuSeconds: cpuSeconds, timeZone: zone.identifier)
        let pid: pid_t
        do {
            pid = try Sandbox.spawn(executable: workerExecutable, arguments: settings.arguments, environment: ["SWIFT_BACKTRACE=enable=no"],
                                    descriptors: [
                                        0: .devNull(flags: O_RDONLY),
                                        AppleHealthWorkerSettings.outputDescriptor: .descriptor(ends[1]),
                                        2: .devNull(flags: O_WRONLY),
                                        AppleHealthWorkerSettings.inputDescriptor: .descriptor(file.fd),
                                    ])
        } catch let error as Sandbox.SpawnError {
            close(ends[0])
            close(ends[1])
            throw AppleHealthError.workerUnavailable(path: workerExecutable, code: error.code)
        }
        close(ends[1])
        let messages = FileDescriptor(fd: ends[0], path: "the Apple Health worker")
        var reading = Reading()
        var outcome: Result<Bool, Error> = .success(false)
        do {
            outcome = .success(try collect(from: messages, into: &reading, path: path, progress: progress))
        } catch {
            outcome = .failure(error)
            Glibc.kill(pid, SIGKILL)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let finished = try outcome.get()
        guard finished, status == 0 else {
            let signal = status & 0x7F
            let how = signal == SIGXCPU ? "used its \(cpuSeconds) seconds of CPU time"
                : signal == SIGKILL ? "was killed (out of memory?)" : signal != 0 ? "crashed (signal \(signal))"
                : "stopped before the end (exit status \((status >> 8) & 0xFF))"
            throw AppleHealthError.workerFailed(path: path, reason: "the process reading it \(how)")
        }
        return reading
    }

    /// Reads the worker's messages until it closes the pipe. True when it said `finished`.
    private func collect(from pipe: FileDescriptor, into reading: inout Reading, path: String,
                         progress: ((Int64, Int64) -> Void)?) throws -> Bool {
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256 << 10)
        var finished = false
        let decoder = JSONDecoder()
        while true {
            let count = try chunk.withUnsafeMutableBytes { raw -> Int in
                while true {
                    let got = Glibc.read(pipe.fd, raw.baseAddress, raw.count)
                    if got < 0 && errno == EINTR { continue }
                    guard got >= 0 else { throw POSIXIOError(operation: "read", path: pipe.path, code: errno) }
                    return got
                }
            }
            if count == 0 { break }
            pending.append(contentsOf: chunk[0..<count])
            var start = 0
            while let newline = pending[start...].firstIndex(of: 0x0A) {
                guard !finished else { throw AppleHealthError.protocolViolation(detail: "a message after finished") }
                let message: AppleHealthMessage
                do {
                    message = try decoder.decode(AppleHealthMessage.self, from: Data(pending[start..<newline]))
                } catch {
                    throw AppleHealthError.protocolViolation(detail: "an unreadable message")
                }
                start = newline + 1
                switch message {
                case .progress(let read, let total):
                    progress?(read, total)
                case .entry(let entry):
                    reading.entries.append(entry)
                case .clinicalRecord(let name, let json):
                    guard json.utf8.count <= AppleHealthWorkerSettings.maximumClinicalRecordBytes else {
                        throw AppleHealthError.protocolViolation(detail: "an oversized Health Records file")
                    }
                    reading.clinical.append((name, json))
                case .tally(let tally):
                    reading.tallies.append(tally)
                case .finished(let exportDate):
                    reading.exportDate = exportDate
                    finished = true
                case .refused(let reason):
                    throw AppleHealthError.refused(path: path, reason: reason)
                }
            }
            pending.removeFirst(start)
            guard pending.count <= AppleHealthWorkerSettings.maximumLineBytes else {
                throw AppleHealthError.protocolViolation(detail: "a message longer than \(AppleHealthWorkerSettings.maximumLineBytes >> 20) MB")
            }
        }
        return finished
    }

    // MARK: Writing

    /// Adds the entries (checked as typed ones are) and the Health Records, counting per type.
    func write(_ db: Database, _ reading: Reading, path: String, profileID: Int64, time: TimeContext,
               report: inout ImportReport) throws {
        let stamp = Timestamp.string(time.now)
        var added: [String: Int] = [:], updated: [String: Int] = [:], unchanged: [String: Int] = [:], rejected: [String: Int] = [:]
        for (index, incoming) in reading.entries.enumerated() {
            var entry: LogEntry
            do {
                entry = try Self.logEntry(incoming, zone: time.zone, stamp: stamp)
                // Checked as a phr export's entry is; its ID is drawn only if it is new.
                entry.id = "000000"
                try PHRImporter.check(&entry)
            } catch let error as LocalizedError {
                report.reject("entry \(index + 1)", type: incoming.type, error.errorDescription ?? "bad data")
                rejected[incoming.type, default: 0] += 1
                continue
            }
            let existing = try Row.fetchOne(db, sql: "SELECT id, value, diastolic, at, start_at, note FROM log_entry WHERE profile_id = ? AND uid = ?",
                                            arguments: [profileID, entry.uid])
            guard let existing else {
                entry.id = try RecordID.generate(db, table: LogStore.table)
                try LogStore.insert(db, entry, profileID: profileID)
                added[incoming.type, default: 0] += 1
                continue
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
        let total = { (counts: [String: Int]) in counts.values.reduce(0, +) }
        if total(added) > 0 { report.added["log_entries"] = total(added) }
        if total(updated) > 0 { report.updated["log_entries"] = total(updated) }
        if total(unchanged) > 0 { report.unchanged["log_entries"] = total(unchanged) }
        var types: [ImportReport.TypeSummary] = []
        for tally in reading.tallies {
            types.append(ImportReport.TypeSummary(type: tally.type, records: tally.records, added: added[tally.type] ?? 0,
                                                  updated: updated[tally.type] ?? 0, alreadyThere: unchanged[tally.type] ?? 0,
                                                  summed: tally.summed, duplicates: tally.duplicates, skipped: tally.skipped,
                                                  rejected: tally.rejected + (rejected[tally.type] ?? 0)))
            if tally.skipped > 0 {
                report.skip("\(tally.skipped) \(tally.skipped == 1 ? "record" : "records")", type: tally.type, tally.reason ?? "not kept")
            }
            if tally.rejected > 0 {
                report.reject("\(tally.rejected) \(tally.rejected == 1 ? "record" : "records")", type: tally.type,
                              "an unreadable date, value or unit")
            }
        }
        report.types = types
        if let exportDate = reading.exportDate { report.notes.append("exported from Apple Health on \(exportDate)") }
        if !reading.clinical.isEmpty { try importHealthRecords(db, reading.clinical, path: path, profileID: profileID, time: time, report: &report) }
    }

    /// The Health Records files as one FHIR collection bundle, through the FHIR importer.
    private func importHealthRecords(_ db: Database, _ files: [(path: String, json: String)], path: String, profileID: Int64,
                                     time: TimeContext, report: inout ImportReport) throws {
        var resources: [String] = []
        for file in files {
            let bytes = Array(file.json.utf8)
            guard StrictJSON.tooDeep(bytes[...]) == nil, let json = try? JSONDecoder().decode(StrictJSON.self, from: Data(bytes)),
                  json["resourceType"]?.string != nil else {
                report.reject(file.path, type: "Health Records file", "not a FHIR resource in JSON")
                continue
            }
            resources.append(file.json)
        }
        guard !resources.isEmpty else { return }
        let text = "{\"resourceType\":\"Bundle\",\"type\":\"collection\",\"entry\":[" + resources.map { "{\"resource\":\($0)}" }.joined(separator: ",") + "]}"
        let json = try JSONDecoder().decode(StrictJSON.self, from: Data(text.utf8))
        let bundle = try FHIRBundle(json: json, path: path + " (clinical-records)")
        try FHIRImporter(bundle: bundle, path: path, profileID: profileID, time: time).run(db, report: &report)
    }

    /// The log entry an incoming entry is, with its uid from its key.
    static func logEntry(_ incoming: AppleHealthEntry, zone: TimeZone, stamp: String) throws -> LogEntry {
        guard let end = Timestamp.parse(incoming.end), incoming.end.hasSuffix("Z") else {
            throw RecordError.invalidField(field: "end", reason: "not a UTC time")
        }
        if let start = incoming.start {
            guard Timestamp.parse(start) != nil, start.hasSuffix("Z") else { throw RecordError.invalidField(field: "start", reason: "not a UTC time") }
        }
        guard (incoming.start != nil) == incoming.metric.isInterval, (incoming.diastolic != nil) == (incoming.metric == .bp),
              incoming.unit.metrics.contains(incoming.metric) else {
            throw RecordError.invalidField(field: "entry", reason: "fields that do not fit a \(incoming.metric.rawValue) entry")
        }
        let digest = try SHA256Hasher.hash(Array(("apple-health|" + incoming.key).utf8))
        let uid = "apple-health-" + digest.prefix(16).map { String(format: "%02x", $0) }.joined()
        return LogEntry(id: "", uid: uid, metric: incoming.metric, at: incoming.end, start: incoming.start, timeZone: zone.identifier,
                        day: LogEntry.day(of: end, in: zone), value: incoming.value, diastolic: incoming.diastolic, pulse: nil,
                        unit: incoming.unit, kind: incoming.kind, factor: incoming.metric == .water ? 1 : nil,
                        note: incoming.note, createdAt: stamp, updatedAt: stamp)
    }
}

/// Errors of the Apple Health import that are not the file's fault alone.
public enum AppleHealthError: PHRError, Equatable {
    /// phr-render could not be started.
    case workerUnavailable(path: String, code: Int32)
    /// The worker could not read the file (truncated zip, malformed XML, a zip bomb): nothing imported.
    case refused(path: String, reason: String)
    /// The worker died or stopped early (a hostile file can do that; nothing was imported).
    case workerFailed(path: String, reason: String)
    /// The worker sent something outside the protocol.
    case protocolViolation(detail: String)

    public var exitStatus: ExitStatus {
        switch self {
        case .workerUnavailable: return .unavailable
        case .refused, .workerFailed: return .dataError
        case .protocolViolation: return .failure
        }
    }

    public var errorDescription: String? {
        switch self {
        case .workerUnavailable(let path, let code): return "cannot start \(path) (\(String(cString: strerror(code))))"
        case .refused(let path, let reason): return "\(path): Apple Health export: \(reason)"
        case .workerFailed(let path, let reason): return "\(path): \(reason); nothing was imported"
        case .protocolViolation(let detail): return "the Apple Health reader sent \(detail); nothing was imported"
        }
    }

    public var hint: String? {
        switch self {
        case .workerUnavailable: return RenderHelper.installHint
        case .refused, .workerFailed: return "nothing was imported; export again from the Health app (profile picture, Export All Health Data) and import the new export.zip"
        case .protocolViolation: return "this is a bug in phr; please report it"
        }
    }
}
