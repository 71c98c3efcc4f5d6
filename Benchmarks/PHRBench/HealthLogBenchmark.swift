import Foundation
import PHRCore

/// Issue 8's benchmark: three years of daily entries across every metric (over 10,000), then
/// `phr stats --year` (budget: 50 ms in-process) and `phr report --days 365` (budget: 2 s),
/// in-process and as whole `phr` processes.
///
/// The log is synthetic (a seeded generator, the same on every run) and ends today, since the
/// release `phr` reads the real clock. It enters the vault the way a user's would come from
/// another vault: one `phr import` of a phr export, in one transaction, search index included.
/// The vault uses a cheap scrypt, so process figures leave out the ~0.6 s a default passphrase
/// costs when `phr unlock` is not holding the keys.
enum HealthLogBenchmark {
    static let days = 3 * 365 + 1
    static let minimumEntries = 10_000
    static let inProcessRuns = 21
    static let reportRuns = 5
    static let processRuns = 5
    static let zone = "Europe/Berlin"
    static let passphrase = "benchmark passphrase"
    static let statsBudget = 0.050
    static let reportBudget = 2.0

    static func run() throws {
        let phr = try BenchProcess.phrExecutable()
        let directory = try Benchmark.scratchDirectory("healthlog")
        // PHR_BENCH_KEEP=1 keeps the vault for poking at afterwards.
        let keep = ProcessInfo.processInfo.environment["PHR_BENCH_KEEP"] == "1"
        defer {
            if keep { print("kept \(directory)") } else { try? FileManager.default.removeItem(atPath: directory) }
        }
        let vaultPath = "\(directory)/vault"
        let (vault, _) = try Vault.create(at: VaultLocation(path: vaultPath), passphrase: SecretBytes(copying: Array(passphrase.utf8)),
                                          parameters: ScryptParameters(log2N: 10, r: 8, p: 1))
        let profile = try vault.database.read { db in try Profiles.resolve(db, name: nil) }
        let time = TimeContext(now: Date(), zone: TimeZone(identifier: zone)!)

        // 1. Three years of entries, written as a phr export and imported.
        var generator = LogGenerator(seed: 20_260_101, zone: time.zone)
        let entries = generator.entries(days: days, endingOn: time.today(), now: time.now)
        guard entries.count >= minimumEntries else { throw BenchmarkError.failed("only \(entries.count) entries generated") }
        let exportPath = "\(directory)/log.json"
        try ExportFile(profile: profile.name, entries: entries, exportedAt: Timestamp.string(time.now)).write(to: exportPath)
        var imported = 0
        let importSeconds = try Benchmark.time {
            imported = try RecordImport.run(path: exportPath, vault: vault, profileName: profile.name, time: time).added["log_entries"] ?? 0
        }
        guard imported == entries.count else { throw BenchmarkError.failed("imported \(imported) of \(entries.count) entries") }
        try GoalStore(vault: vault, profile: profile, time: time).set("workout", "150min", per: "week",
                                                                    since: time.today().adding(days: -400).description)
        let size = FileSystem.fileSize("\(vaultPath)/vault.db") ?? 0
        print("\(entries.count) entries over \(days) days (\(String(format: "%.1f", Double(entries.count) / Double(days))) a day), imported in "
              + "\(String(format: "%.2f", importSeconds)) s; database \(String(format: "%.1f", Double(size) / 1e6)) MB")

        // 2. In-process: exactly what the commands compute.
        let stats = HealthStats(vault: vault, profile: profile, time: time)
        let year = StatsPeriod.year(endingOn: time.today())
        var summary: HealthStats.Summary?
        let statsSeconds = try Benchmark.median(runs: inProcessRuns) { summary = try stats.summary(year) }
        let loggedDays = summary?.habits.first { $0.metric == .water }?.daysLogged ?? 0
        let reportPath = "\(directory)/report.pdf"
        var pages = 0
        let reportSeconds = try Benchmark.median(runs: reportRuns) {
            let report = try HealthReport.build(vault: vault, profile: profile, time: time, days: 365)
            pages = try HealthReportWriter.write(report, to: reportPath, time: time, paper: .a4, force: true, generator: "phr-bench").pages
        }

        // 3. Whole processes, as a user runs them.
        var environment = ProcessInfo.processInfo.environment
        environment["PHR_VAULT"] = vaultPath
        environment["PHR_PASSPHRASE"] = passphrase
        environment["TZ"] = zone
        func process(_ arguments: [String], runs: Int) throws -> Double {
            var times: [Double] = []
            for _ in 0..<runs {
                let result = try BenchProcess.run([phr] + arguments, environment: environment)
                guard result.status == 0 else { throw BenchmarkError.failed("phr \(arguments.joined(separator: " ")) exited \(result.status)") }
                times.append(result.seconds)
            }
            return times.sorted()[times.count / 2]
        }
        let statsProcess = try process(["stats", "--year"], runs: processRuns)
        let reportProcess = try process(["report", "--days", "365", "--out", reportPath, "--force"], runs: processRuns)

        print("water logged on \(loggedDays) of 365 days; the year's report has \(pages) pages")
        Benchmark.row("", ["median", "budget", "verdict"])
        func verdict(_ seconds: Double, _ budget: Double) -> String { seconds <= budget ? "within" : "OVER" }
        Benchmark.row("stats --year, in-process", [milliseconds(statsSeconds), milliseconds(statsBudget), verdict(statsSeconds, statsBudget)])
        Benchmark.row("report --days 365, in-process", [milliseconds(reportSeconds), milliseconds(reportBudget), verdict(reportSeconds, reportBudget)])
        Benchmark.row("phr stats --year, process", [milliseconds(statsProcess), "—", "—"])
        Benchmark.row("phr report --days 365, process", [milliseconds(reportProcess), milliseconds(reportBudget), verdict(reportProcess, reportBudget)])
    }

    static func milliseconds(_ seconds: Double) -> String {
        seconds < 1 ? String(format: "%.1f ms", seconds * 1000) : String(format: "%.2f s", seconds)
    }
}

/// Deterministic daily habits: six drinks, a night's sleep, a workout on most days, three
/// meals, a morning weight, a blood pressure every third day and a fasting glucose every fourth.
struct LogGenerator {
    var state: UInt64
    let zone: TimeZone

    init(seed: UInt64, zone: TimeZone) {
        state = seed
        self.zone = zone
    }

    /// A number in 0..<bound from a 64-bit LCG (Knuth's MMIX constants).
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }

    mutating func entries(days: Int, endingOn last: CalendarDate, now: Date) -> [LogEntry] {
        var result: [LogEntry] = []
        let drinks = ["water", "water", "coffee", "tea", "water", "milk"]
        let workouts = ["run", "cycling", "swim", "yoga", "strength"]
        let meals = [("breakfast", "07:45", 300, 500), ("lunch", "12:30", 500, 900), ("dinner", "19:00", 500, 1000)]
        var weight = 82.0
        func instant(_ day: CalendarDate, _ clock: String) -> Date { LocalDateTime(date: day, time: LocalTime(clock)!).instant(in: zone) }
        func add(_ metric: LogMetric, _ at: Date, minutes: Double? = nil, value: Double = 0, unit: HealthUnit, kind: String? = nil,
                 factor: Double? = nil, diastolic: Double? = nil, pulse: Int? = nil) {
            guard at <= now else { return }
            let stamp = Timestamp.string(at)
            let index = result.count
            result.append(LogEntry(id: Self.id(index), uid: "bench-\(index)", metric: metric, at: stamp,
                                   start: minutes.map { Timestamp.string(at.addingTimeInterval(-$0 * 60)) }, timeZone: zone.identifier,
                                   day: LogEntry.day(of: at, in: zone), value: minutes ?? value, diastolic: diastolic, pulse: pulse,
                                   unit: unit, kind: kind, factor: factor, note: nil, createdAt: stamp, updatedAt: stamp))
        }
        for offset in (0..<days).reversed() {
            let day = last.adding(days: -offset)
            for (slot, clock) in ["07:30", "10:00", "12:30", "15:00", "17:30", "20:00"].enumerated() {
                let drink = drinks[(slot + next(drinks.count)) % drinks.count]
                add(.water, instant(day, clock), value: Double(150 + next(31) * 10), unit: .millilitre, kind: drink,
                    factor: HydrationFactors.drink(drink).factor)
            }
            let wake = instant(day, String(format: "%02d:%02d", 6 + next(2), next(60)))
            add(.sleep, wake, minutes: Double(360 + next(181)), unit: .hour)
            if next(10) < 6 {
                let end = instant(day, String(format: "18:%02d", next(60)))
                add(.workout, end, minutes: Double(20 + next(71)), unit: .minute, kind: workouts[next(workouts.count)])
            }
            for (meal, clock, low, high) in meals {
                add(.meal, instant(day, clock), value: Double(low + next(high - low + 1)), unit: .kilocalorie, kind: meal)
            }
            // A random walk pulled back towards 82 kg.
            weight += Double(next(7) - 3) / 10 + (82 - weight) * 0.05
            add(.weight, instant(day, "06:45"), value: (weight * 10).rounded() / 10, unit: .kilogram)
            if offset % 3 == 0 {
                add(.bp, instant(day, "06:50"), value: Double(112 + next(25)), unit: .millimetreOfMercury,
                    diastolic: Double(70 + next(15)), pulse: 55 + next(25))
            }
            if offset % 4 == 0 {
                add(.glucose, instant(day, "06:55"), value: Double(42 + next(20)) / 10, unit: .millimolePerLitre, kind: "fasting")
            }
        }
        return result
    }

    /// A record ID in phr's alphabet (lowercase Crockford base32): "bn" and the index.
    static func id(_ index: Int) -> String {
        let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz")
        var digits = ""
        var rest = index
        repeat {
            digits = String(alphabet[rest % 32]) + digits
            rest /= 32
        } while rest > 0
        return "bn" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// A phr export holding only a health log (Schemas/export-v1), for `phr import`.
struct ExportFile: Encodable {
    struct ProfileInfo: Encodable {
        let name: String
        let relation = "self"
    }

    let format = "phr-export"
    let version = 1
    let generator = "phr-bench"
    let exportedAt: String
    let profile: ProfileInfo
    let medications: [String] = []
    let appointments: [String] = []
    let contacts: [String] = []
    let allergies: [String] = []
    let conditions: [String] = []
    let immunizations: [String] = []
    let observations: [String] = []
    let documents: [String] = []
    let logEntries: [LogEntry]

    enum CodingKeys: String, CodingKey {
        case format, version, generator
        case exportedAt = "exported_at"
        case profile, medications, appointments, contacts, allergies, conditions, immunizations, observations, documents
        case logEntries = "log_entries"
    }

    init(profile: String, entries: [LogEntry], exportedAt: String) {
        self.profile = ProfileInfo(name: profile)
        logEntries = entries
        self.exportedAt = exportedAt
    }

    func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path))
    }
}
