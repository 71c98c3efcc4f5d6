import Foundation
import GRDB
import PHRCore

/// Issue 25's budget for the change journal: under 10% on writes. The same writes go into two
/// vaults, one as phr makes it and one with the journal's triggers dropped, alternately, five
/// times each, in alternating order (the medians are compared): a phr export of three years of log entries imported in
/// one transaction (the bulk path, one journal row per entry), and 1,000 contacts added one command
/// at a time (the typed path, one transaction each).
enum JournalBenchmark {
    static let passphrase = "benchmark passphrase"
    static let runs = 5

    static func run() throws {
        let directory = try Benchmark.scratchDirectory("journal")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let zone = TimeZone(identifier: "Europe/Berlin")!
        let time = TimeContext(now: Date(), zone: zone)
        var generator = LogGenerator(seed: 20_261_128, zone: zone)
        let entries = generator.entries(days: 3 * 365 + 1, endingOn: time.today(), now: time.now)
        let exportPath = "\(directory)/log.json"
        try ExportFile(profile: Profiles.initialName, entries: entries, exportedAt: Timestamp.string(time.now)).write(to: exportPath)

        var importTimes: [Bool: [Double]] = [true: [], false: []]
        var contactTimes: [Bool: [Double]] = [true: [], false: []]
        var journalRows = 0
        for round in 0..<runs {
            // Alternate which goes first, so neither always finds the caches warm.
            for journaled in round % 2 == 0 ? [true, false] : [false, true] {
                let vaultPath = "\(directory)/vault-\(round)-\(journaled)"
                let (vault, _) = try Vault.create(at: VaultLocation(path: vaultPath), passphrase: SecretBytes(copying: Array(passphrase.utf8)),
                                                  parameters: ScryptParameters(log2N: 10, r: 8, p: 1))
                if !journaled {
                    try vault.database.write { db in
                        for name in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'journal_%'") {
                            try db.execute(sql: "DROP TRIGGER \(name)")
                        }
                    }
                }
                let profile = try vault.database.read { db in try Profiles.resolve(db, name: nil) }
                importTimes[journaled]!.append(try Benchmark.time {
                    _ = try RecordImport.run(path: exportPath, vault: vault, profileName: profile.name, time: time)
                })
                let contacts = ContactStore(vault: vault, profile: profile, time: time)
                contactTimes[journaled]!.append(try Benchmark.time {
                    for index in 0..<1_000 {
                        var input = ContactStore.Input()
                        input.name = "Contact \(index)"
                        input.phone = "+49 30 \(1_000_000 + index)"
                        _ = try contacts.add(input)
                    }
                })
                if journaled { journalRows = try ChangeJournal.entries(in: vault).count }
            }
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        let importRatio = median(importTimes[true]!) / median(importTimes[false]!)
        let contactRatio = median(contactTimes[true]!) / median(contactTimes[false]!)
        print("| \(entries.count) log entries, one import | \(String(format: "%.3f", median(importTimes[false]!))) s | "
              + "\(String(format: "%.3f", median(importTimes[true]!))) s | \(String(format: "%.2f", importRatio))x |")
        print("| 1,000 contacts, one add each | \(String(format: "%.3f", median(contactTimes[false]!))) s | "
              + "\(String(format: "%.3f", median(contactTimes[true]!))) s | \(String(format: "%.2f", contactRatio))x |")
        print("journal rows in a journaled vault: \(journalRows); budget: under 1.10x")
    }
}
