import Foundation
import GRDB
import PHRCore

/// Issue 29's budgets for the web UI's screens: each page under 50 ms of the agent's own time
/// (Server-Timing) on a vault of 10,000 documents, three years of log, 200 lab results, ten
/// medications with three months of doses and a hundred appointments; a chart page under
/// 100 ms; no page over 300 kB. The agent is `phr serve` started as a user starts it, asked by a
/// plain HTTP/1.1 client (a connection per request).
enum ScreensBenchmark {
    static let runs = 30
    static let passphrase = "benchmark passphrase"

    /// Fills `vault` as the screens benchmark measures it: 10,000 document rows (no files),
    /// three years of log, 200 lab results, ten medications with three months of doses and a
    /// hundred appointments. Also the vault of the `phr mcp` benchmark.
    static func fill(_ vault: Vault, profile: Profile, time: TimeContext, directory: String) throws {
        let today = time.today()
        let types = ["lab", "imaging", "prescription", "visit", "insurance", "bill", "other"]
        try vault.database.write { db in
            let now = Timestamp.string(time.now)
            for index in 0..<10_000 {
                let id = String(format: "b%05d", index)
                let name = String(format: "%064x", index + 1)
                try db.execute(sql: "INSERT INTO blob (name, size, sha256, created_at) VALUES (?, 0, ?, ?)",
                               arguments: [name, Data(repeating: UInt8(index & 0xff), count: 32), now])
                let day = today.plus(-(index % 3650))
                try db.execute(sql: """
                    INSERT INTO document (id, profile_id, blob_name, file_name, media_type, title, type, type_source, date,
                        date_source, outcome, page_count, text_pages, size, sha256, extractor, added_at, updated_at, ocr)
                    VALUES (?, ?, ?, ?, 'application/pdf', ?, ?, 'guessed', ?, 'guessed', 'indexed', 2, 2, 0, ?, 'phr-bench', ?, ?, 'not_needed')
                    """, arguments: [id, profile.id, name, id + ".pdf", "Document \(index)", types[index % types.count], day.description,
                                     Data(repeating: UInt8(index & 0xff), count: 32), now, now])
            }
        }
        var generator = LogGenerator(seed: 20_260_101, zone: time.zone)
        let entries = generator.entries(days: HealthLogBenchmark.days, endingOn: today, now: time.now)
        let exportPath = "\(directory)/log.json"
        try ExportFile(profile: profile.name, entries: entries, exportedAt: Timestamp.string(time.now)).write(to: exportPath)
        _ = try RecordImport.run(path: exportPath, vault: vault, profileName: profile.name, time: time)

        let labs = LabStore(vault: vault, profile: profile, time: time)
        let analytes: [(String, String, String, Double, Double)] = [
            ("ferritin", "ng/mL", "30-400", 20, 180), ("hemoglobin", "g/dL", "12-16", 11, 15), ("glucose", "mg/dL", "70-99", 80, 130),
            ("TSH", "mIU/L", "0.4-4.0", 0.8, 5), ("HbA1c", "%", "4.0-5.6", 5, 7), ("creatinine", "mg/dL", "0.6-1.2", 0.7, 1.4),
            ("LDL cholesterol", "mg/dL", "<100", 80, 160), ("vitamin D", "ng/mL", "30-100", 15, 45),
        ]
        for (index, analyte) in analytes.enumerated() {
            for visit in 0..<25 {
                var input = LabStore.Input(name: analyte.0, value: Observation.number(analyte.3 + (analyte.4 - analyte.3) * Double((visit * 7 + index) % 11) / 10),
                                           unit: analyte.1)
                input.range = analyte.2
                input.date = today.plus(-visit * 43 - index).description
                try labs.add(input)
            }
        }

        let medications = MedicationStore(vault: vault, profile: profile, time: time)
        for index in 0..<10 {
            var input = MedicationStore.Input()
            input.name = "Medication \(index)"
            input.dose = "\(index + 1) mg"
            input.times = index % 2 == 0 ? "08:00" : "08:00,20:00"
            let medication = try medications.add(input)
            // Three months of doses, taken at their times (as the dose log stores a take).
            try vault.database.write { db in
                try db.execute(sql: "UPDATE medication SET created_at = ? WHERE id = ?",
                               arguments: [Timestamp.string(time.now.addingTimeInterval(-92 * 86400)), medication.id])
            }
            let log = DoseLog(vault: vault, profile: profile, time: time)
            for day in 1...90 where day % 9 != 0 {
                let date = today.plus(-day)
                for clock in index % 2 == 0 ? ["08:00"] : ["08:00", "20:00"] {
                    let instant = LocalDateTime(date: date, time: LocalTime(clock)!).instant(in: time.zone)
                    _ = try log.take(medication.id, at: instant.addingTimeInterval(600), force: true)
                }
            }
        }
        let appointments = AppointmentStore(vault: vault, profile: profile, time: time)
        for index in 0..<100 {
            var input = AppointmentStore.Input()
            input.with = "Clinic \(index % 12)"
            input.at = "\(today.plus(index * 11 - 900).description) \(String(format: "%02d", 8 + index % 9)):30"
            input.location = "Room \(index)"
            try appointments.add(input)
        }
    }

    /// A new vault in `directory` (cheap scrypt), filled as above: the vault, its profile, its
    /// path and the seconds filling took.
    static func filledVault(in directory: String) throws -> (Vault, Profile, String, Double) {
        let vaultPath = "\(directory)/vault"
        let (vault, _) = try Vault.create(at: VaultLocation(path: vaultPath), passphrase: SecretBytes(copying: Array(passphrase.utf8)),
                                          parameters: ScryptParameters(log2N: 10, r: 8, p: 1))
        let profile = try vault.database.read { db in try Profiles.resolve(db, name: nil) }
        let time = TimeContext.current()
        // Document rows (no files: the screens read rows), three years of log, lab results,
        // medications with their doses, appointments.
        let filled = try Benchmark.time { try fill(vault, profile: profile, time: time, directory: directory) }
        return (vault, profile, vaultPath, filled)
    }

    static func run() throws {
        let phr = try BenchProcess.phrExecutable()
        let directory = try Benchmark.scratchDirectory("screens")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (vault, profile, vaultPath, filled) = try filledVault(in: directory)
        let time = TimeContext.current()
        let labCount = try LabStore(vault: vault, profile: profile, time: time).list().count
        let (documents, entries, doses, appointmentCount) = try vault.database.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM document")!, try Int.fetchOne(db, sql: "SELECT count(*) FROM log_entry")!,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM dose")!, try Int.fetchOne(db, sql: "SELECT count(*) FROM appointment")!)
        }
        print(String(format: "vault: %d documents, %d log entries over three years, %d lab results, 10 medications with %d doses, %d appointments (filled in %.1f s)",
                     documents, entries, labCount, doses, appointmentCount, filled))
        let ferritin = try LabStore(vault: vault, profile: profile, time: time).summaries().first { $0.displayName == "Ferritin" }?.latest?.observation.id ?? ""
        let medication = try MedicationStore(vault: vault, profile: profile, time: time).list().last?.id ?? ""

        // The agent, started as a user starts it.
        var environment = ProcessInfo.processInfo.environment
        environment["PHR_PASSPHRASE"] = passphrase
        environment["XDG_RUNTIME_DIR"] = "\(directory)/run"
        try FileManager.default.createDirectory(atPath: "\(directory)/run", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let started = try BenchProcess.output([phr, "serve", "--detach", "--json", "--vault", vaultPath, "--for", "1h"], environment: environment)
        guard started.status == 0, let ready = try JSONSerialization.jsonObject(with: Data(started.text.utf8)) as? [String: Any],
              let url = ready["url"] as? String, let launchFile = ready["launch_file"] as? String else {
            throw BenchmarkError.failed("phr serve --detach exited \(started.status): \(started.text)")
        }
        defer { _ = try? BenchProcess.run([phr, "lock", "--vault", vaultPath], environment: environment) }
        let client = try HTTPClient(url: url)
        let page = try String(contentsOfFile: launchFile, encoding: .utf8)
        guard let tokenRange = page.range(of: #"name="token" value="[0-9a-f]{64}""#, options: .regularExpression) else {
            throw BenchmarkError.failed("no token in the launch file")
        }
        let token = String(page[tokenRange].dropFirst(#"name="token" value=""#.count).dropLast())
        let launch = try client.request("POST", "/launch", body: "token=\(token)", headers: ["Origin": "null"])
        guard let cookie = launch.header("set-cookie")?.split(separator: ";").first.map(String.init) else {
            throw BenchmarkError.failed("the launch was refused: \(launch.status)")
        }

        // Each screen: a warm-up GET, then `runs` timed ones.
        let screens: [(String, String, Double)] = [
            ("Today", "/", 0.050), ("Documents, first 50", "/documents", 0.050),
            ("Timeline, first 50", "/timeline", 0.050), ("Timeline, page 100", "/timeline?page=100", 0.050), ("Health record", "/records", 0.050), ("Settings", "/settings", 0.050),
            ("Medications", "/medications", 0.050), ("A medication (month of doses)", "/medications/\(medication)", 0.050),
            ("Appointments (month)", "/appointments", 0.050), ("Lab results (8 tests)", "/labs", 0.050),
            ("Ferritin chart (25 results)", "/labs/\(ferritin)", 0.100),
            ("Water, week chart", "/log?metric=water&period=week", 0.100), ("Water, month chart", "/log?metric=water&period=month", 0.100),
            ("Water, year chart", "/log?metric=water&period=year", 0.100), ("Sleep, year chart", "/log?metric=sleep&period=year", 0.100),
        ]
        let ms = SearchBenchmark.milliseconds
        print("round trips with a plain client, one connection per request; 'server' is the agent's own time (Server-Timing)")
        Benchmark.row("", ["median", "p95", "server p95", "size", "budget"])
        for (name, path, budget) in screens {
            let first = try client.request("GET", path, headers: ["Cookie": cookie])
            guard first.status == 200 else { throw BenchmarkError.failed("\(path) answered \(first.status)") }
            var round: [Double] = []
            var server: [Double] = []
            for _ in 0..<runs {
                var answer: HTTPClient.Answer?
                round.append(try Benchmark.time { answer = try client.request("GET", path, headers: ["Cookie": cookie]) })
                if let seconds = answer?.serverSeconds { server.append(seconds) }
            }
            Benchmark.row(name, [ms(SearchBenchmark.percentile(round, 0.5)), ms(SearchBenchmark.percentile(round, 0.95)),
                                 ms(SearchBenchmark.percentile(server, 0.95)), String(format: "%.0f kB", Double(first.bytes.count) / 1000),
                                 String(format: "%.0f ms, 300 kB", budget * 1000)])
        }
    }
}
