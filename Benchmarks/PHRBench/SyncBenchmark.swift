import Foundation
import GRDB
import PHRCore

/// Issue 31's budgets for `phr sync`, measured through the release `phr` binary against a folder
/// remote, beside `rclone copy` of the same bytes to the same kind of remote:
/// - 10,000 changes (a month of heavy use: three years of health-log entries imported at once)
///   applied on another device in under 5 s, with peak memory under 150 MB;
/// - a sync with nothing to do under 200 ms;
/// - the first sync of a vault with 1 GB of documents within 1.2x of `rclone copy`.
enum SyncBenchmark {
    static let passphrase = "benchmark passphrase"

    /// Runs `phr ARGUMENTS` to its end, watching its memory; seconds and peak RSS (MB).
    static func phr(_ phr: String, _ arguments: [String], directory: String) throws -> (seconds: Double, peak: Double) {
        var environment = ProcessInfo.processInfo.environment
        environment["PHR_PASSPHRASE"] = passphrase
        let errors = directory + "/phr.stderr"
        let start = DispatchTime.now().uptimeNanoseconds
        let pid = try BenchProcess.spawn([phr] + arguments, environment: environment, stdout: .null, stderr: .file(errors))
        let monitor = RSSMonitor(pid: pid)
        let (status, _) = BenchProcess.wait(pid)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let memory = monitor.stop()
        guard status == 0 else {
            throw BenchmarkError.failed("phr \(arguments.joined(separator: " ")) exited \(status): \((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")
        }
        return (seconds, memory.main)
    }

    static func run() throws {
        let phr = try BenchProcess.phrExecutable()
        let directory = try Benchmark.scratchDirectory("sync")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let zone = TimeZone(identifier: "Europe/Berlin")!
        let time = TimeContext(now: Date(), zone: zone)

        // 1. Device A with 10,000 changes, sent; device B joins and applies them.
        let shared = "\(directory)/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        let (a, _) = try Vault.create(at: VaultLocation(path: "\(directory)/a"), passphrase: SecretBytes(copying: Array(passphrase.utf8)),
                                      parameters: ScryptParameters(log2N: 10, r: 8, p: 1))
        try SyncEngine.initialize(a)
        _ = try SyncEngine.addRemote(a, name: "shared", target: shared)
        var generator = LogGenerator(seed: 20_261_129, zone: zone)
        let entries = generator.entries(days: 3 * 365 + 1, endingOn: time.today(), now: time.now)
        let exportPath = "\(directory)/log.json"
        try ExportFile(profile: Profiles.initialName, entries: entries, exportedAt: Timestamp.string(time.now)).write(to: exportPath)
        _ = try RecordImport.run(path: exportPath, vault: a, profileName: Profiles.initialName, time: time)
        let changes = try ChangeJournal.entries(in: a).count
        let send = try Self.phr(phr, ["sync", "--vault", a.location.root], directory: directory)
        let contents = try SyncEnrolment.contents(of: a, remote: shared)
        let b = try SyncEnrolment.createVault(at: VaultLocation(path: "\(directory)/b"), contents: contents, keys: a.keys, remote: shared)
        let apply = try Self.phr(phr, ["sync", "--vault", b.location.root], directory: directory)
        let applied = try b.database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM log_entry") ?? 0 }
        // A sync with nothing to do, on each side.
        var idle: [Double] = []
        for _ in 0..<7 { idle.append(try Self.phr(phr, ["sync", "--vault", b.location.root], directory: directory).seconds) }
        idle.sort()
        let logs = (try? FileManager.default.contentsOfDirectory(atPath: shared + "/logs"))?.flatMap {
            (try? FileManager.default.contentsOfDirectory(atPath: shared + "/logs/" + $0)) ?? []
        }.count ?? 0
        let logBytes = FileManager.default.enumerator(atPath: shared + "/logs")?.allObjects.compactMap { ($0 as? String).flatMap {
            try? FileManager.default.attributesOfItem(atPath: shared + "/logs/" + $0)[.size] as? Int }
        }.reduce(0, +) ?? 0
        print("| \(changes) changes (\(entries.count) log entries), sent | \(String(format: "%.2f", send.seconds)) s | peak \(Int(send.peak)) MB |")
        print("| the same applied on another device | \(String(format: "%.2f", apply.seconds)) s | peak \(Int(apply.peak)) MB | \(applied) entries; budget: under 5 s, 150 MB |")
        print("| a sync with nothing to do (median of 7) | \(String(format: "%.0f", idle[3] * 1000)) ms | | budget: under 200 ms |")
        print("change logs: \(logs), \(logBytes / 1024) KiB on the remote")

        // 2. 1 GB of documents: the first sync against rclone copying the same blob files.
        let (c, _) = try Vault.create(at: VaultLocation(path: "\(directory)/c"), passphrase: SecretBytes(copying: Array(passphrase.utf8)),
                                      parameters: ScryptParameters(log2N: 10, r: 8, p: 1))
        try SyncEngine.initialize(c)
        let bigRemote = "\(directory)/big"
        try FileManager.default.createDirectory(atPath: bigRemote, withIntermediateDirectories: true)
        _ = try SyncEngine.addRemote(c, name: "big", target: bigRemote)
        var random = SplitMix64(seed: 31)
        let count = 200, size = 5 << 20
        var total: Int64 = 0
        for _ in 0..<count {
            var bytes = [UInt8](repeating: 0, count: size)
            for index in stride(from: 0, to: size, by: 8) {
                var value = random.next()
                withUnsafeBytes(of: &value) { raw in for offset in 0..<8 { bytes[index + offset] = raw[offset] } }
            }
            let stored = try c.blobs.store(bytes: bytes)
            try c.database.write { db in try c.blobs.register(stored, in: db) }
            total += Int64(size)
        }
        let rcloneTarget = "\(directory)/rclone-copy"
        let copy = try BenchProcess.run(["rclone", "copy", c.blobs.root, rcloneTarget, "--exclude", "tmp/**"])
        guard copy.status == 0 else { throw BenchmarkError.failed("rclone copy exited \(copy.status)") }
        let first = try Self.phr(phr, ["sync", "--vault", c.location.root], directory: directory)
        print("| first sync, \(count) documents, \(total >> 20) MB | rclone copy \(String(format: "%.2f", copy.seconds)) s | phr sync \(String(format: "%.2f", first.seconds)) s | \(String(format: "%.2f", first.seconds / copy.seconds))x | peak \(Int(first.peak)) MB | budget: within 1.2x |")
    }
}
