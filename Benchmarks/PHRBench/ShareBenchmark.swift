import Foundation
import Glibc
import PHRCore

/// Issue 6's benchmark: `phr share` writing a bundle with 50 embedded pages, its wall time
/// (budget: under 2 s) and peak memory, plain and encrypted, beside poppler's `pdfunite` joining
/// the same 50 pages (the floor for putting pages of several PDFs into one file).
///
/// The documents are unique copies of the seven samples (9 pages a round), added with the real
/// `phr doc add` and chosen so their pages add up to exactly 50; the vault also holds a typical
/// set of records, so the summary pages are drawn too. The release `phr` runs as a subprocess,
/// as a user would run it; its peak resident set is VmHWM polled from /proc (RSSMonitor).
enum ShareBenchmark {
    static let embeddedPages = 50
    static let runs = 5
    static let passphrase = IngestBenchmark.passphrase

    /// The repository this benchmark was built from, for its Samples/.
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    static func run() throws {
        let phr = try BenchProcess.phrExecutable()
        let directory = try Benchmark.scratchDirectory("share")
        defer { try? FileManager.default.removeItem(atPath: directory) }

        // 1. Copies of the samples until their pages add up to exactly 50.
        let samples = packageRoot + "/Samples/documents"
        let originals = try FileManager.default.contentsOfDirectory(atPath: samples).filter { $0.hasSuffix(".pdf") }.sorted()
        var pages: [String: Int] = [:]
        for name in originals { pages[name] = try IngestBenchmark.pageCount("\(samples)/\(name)") }
        var chosen: [String] = []
        var total = 0
        var round = 0
        while total < embeddedPages {
            round += 1
            for name in originals where total + pages[name]! <= embeddedPages {
                let copy = "\(directory)/copy\(round)-\(name)"
                try IngestBenchmark.makeUniqueCopy(of: "\(samples)/\(name)", at: copy, round: round)
                chosen.append(copy)
                total += pages[name]!
            }
        }

        // 2. A vault with those documents and a typical set of records.
        let vaultPath = "\(directory)/vault"
        let add = try IngestBenchmark.timedAdd(phr: phr, vault: vaultPath, arguments: chosen)
        try addRecords(vaultPath)
        print("\(chosen.count) documents, \(total) pages (unique copies of the samples), added in \(String(format: "%.2f", add.seconds)) s;")
        print("records: 12 medications, 4 allergies, 3 conditions, 6 immunizations, 3 appointments, 2 contacts")

        // 3. `phr share` plain and encrypted, and pdfunite, alternately, median of the runs.
        var environment = ProcessInfo.processInfo.environment
        environment["PHR_PASSPHRASE"] = passphrase
        let passwordFile = "\(directory)/bundle-password"
        try Data("correct horse battery staple\n".utf8).write(to: URL(fileURLWithPath: passwordFile))
        var plain: [Measurement] = []
        var encrypted: [Measurement] = []
        var united: [Double] = []
        var bundlePages = 0
        for run in 1...runs {
            let out = "\(directory)/bundle\(run).pdf"
            plain.append(try timedShare(phr, ["--vault", vaultPath, "--for", "Dr. Lee", "--out", out, "--since", "2000-01-01"], environment))
            if run == 1 { bundlePages = try IngestBenchmark.pageCount(out) }
            encrypted.append(try timedShare(phr, ["--vault", vaultPath, "--for", "Dr. Lee", "--out", "\(directory)/secret\(run).pdf",
                                                  "--since", "2000-01-01", "--password-file", passwordFile], environment))
            let start = DispatchTime.now().uptimeNanoseconds
            let result = try BenchProcess.run(["pdfunite"] + chosen + ["\(directory)/united\(run).pdf"])
            guard result.status == 0 else { throw BenchmarkError.failed("pdfunite exited \(result.status)") }
            united.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        let summaryPages = bundlePages - total
        print("phr share: release build, cover and \(summaryPages - 1) summary pages, then the \(total) pages embedded; median of \(runs)")
        print("peak RSS: of the phr command (which decrypts) and of its share worker (which draws and encrypts)")
        Benchmark.row("", ["wall time", "RSS phr", "RSS worker", "budget"])
        func row(_ label: String, _ runs: [Measurement]) {
            let seconds = IngestBenchmark.median(runs.map(\.seconds))
            Benchmark.row(label, [String(format: "%.3f s", seconds), String(format: "%.0f MB", IngestBenchmark.median(runs.map(\.command))),
                                  String(format: "%.0f MB", IngestBenchmark.median(runs.map(\.worker))),
                                  seconds < 2 ? "< 2 s: ok" : "< 2 s: OVER"])
        }
        row("phr share (\(bundlePages) pages)", plain)
        row("phr share --password-file", encrypted)
        Benchmark.row("pdfunite of the \(total) pages (peer)", [String(format: "%.3f s", IngestBenchmark.median(united)), "", "", ""])
    }

    struct Measurement {
        var seconds: Double
        /// Peak resident set of the phr command and of its share worker, in MB.
        var command: Double
        var worker: Double
    }

    /// Wall time and peak memory of one `phr share`.
    static func timedShare(_ phr: String, _ arguments: [String], _ environment: [String: String]) throws -> Measurement {
        let start = DispatchTime.now().uptimeNanoseconds
        let pid = try BenchProcess.spawn([phr, "share"] + arguments, environment: environment)
        let monitor = RSSMonitor(pid: pid)
        let (status, _) = BenchProcess.wait(pid)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let peaks = monitor.stop()
        guard status == 0 else { throw BenchmarkError.failed("phr share exited \(status)") }
        return Measurement(seconds: seconds, command: peaks.main, worker: peaks.largestChild)
    }

    /// The records of a patient with a few chronic conditions, through the library.
    static func addRecords(_ vaultPath: String) throws {
        let location = VaultLocation(path: vaultPath)
        let keyFile = try Vault.readKeyFile(at: location)
        let vault = try Vault.open(at: location, keyFile: keyFile,
                                   keys: Vault.unlock(keyFile: keyFile, secret: SecretBytes(copying: Array(passphrase.utf8))))
        let profile = try vault.database.read { db in try Profiles.resolve(db, name: nil) }
        let time = TimeContext.current()
        var id = MedicalIDStore.Input()
        id.name = "Alex Example"
        id.dateOfBirth = "1984-07-22"
        id.bloodType = "A+"
        try MedicalIDStore(vault: vault, profile: profile, time: time).set(id)
        let medications = MedicationStore(vault: vault, profile: profile, time: time)
        for index in 1...12 {
            var input = MedicationStore.Input()
            input.name = "Medication \(index)"
            input.dose = "\(index * 10) mg"
            input.times = "08:00,20:00"
            input.instructions = "with food"
            try medications.add(input)
        }
        let allergies = AllergyStore(vault: vault, profile: profile, time: time)
        for substance in ["Penicillin", "Latex", "Peanuts", "Sulfonamides"] {
            var input = AllergyStore.Input()
            input.substance = substance
            input.reaction = "hives"
            try allergies.add(input)
        }
        let conditions = ConditionStore(vault: vault, profile: profile, time: time)
        for name in ["Hypertension", "Type 2 diabetes", "Asthma"] {
            var input = ConditionStore.Input()
            input.name = name
            try conditions.add(input)
        }
        let immunizations = ImmunizationStore(vault: vault, profile: profile, time: time)
        for year in 2019...2024 {
            var input = ImmunizationStore.Input()
            input.vaccine = "Influenza, seasonal"
            input.date = "\(year)-10-14"
            try immunizations.add(input)
        }
        let appointments = AppointmentStore(vault: vault, profile: profile, time: time)
        for days in [10, 40, 90] {
            var input = AppointmentStore.Input()
            input.with = "Dr. Lee"
            input.at = "\(time.today().adding(days: days)) 09:30"
            try appointments.add(input)
        }
        let contacts = ContactStore(vault: vault, profile: profile, time: time)
        for name in ["Sam Example", "Robin Example"] {
            var input = ContactStore.Input()
            input.name = name
            input.phone = "555-0101"
            input.emergency = true
            try contacts.add(input)
        }
    }
}
