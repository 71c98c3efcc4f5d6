import Foundation
import PHRCore
import Testing

/// The change journal (issue 25, item 4) through the real binary: every record kind of the
/// registry (RecordKind.all) is written by a phr command, and every write, edit and removal has
/// its journal row, in order, on this vault's device; a removal's row is its tombstone.
@Suite struct ChangeJournalTests {
    static let passphrase = "correct horse battery staple"
    static let env = ["PHR_PASSPHRASE": passphrase, "TZ": "Europe/Berlin", "PHR_TEST_NOW": "2026-05-10T10:00:00Z"]

    /// The journal and every journaled table's keys, read through PHRCore.
    static func read(_ cli: CLI) throws -> (entries: [ChangeJournal.Entry], device: String?, rows: [String: Int]) {
        let location = VaultLocation(path: cli.vault)
        let keyFile = try Vault.readKeyFile(at: location)
        let secret = try #require(try PassphraseSource.current(environment: ["PHR_PASSPHRASE": passphrase]))
        let vault = try Vault.open(at: location, keyFile: keyFile, keys: Vault.unlock(keyFile: keyFile, secret: secret))
        var rows: [String: Int] = [:]
        for kind in RecordKind.all { rows[kind.name] = try kind.count(in: vault) }
        return (try ChangeJournal.entries(in: vault), try ChangeJournal.device(of: vault), rows)
    }

    /// `phr ... --json` of a command that adds one record; its id.
    static func added(_ cli: CLI, _ arguments: [String]) throws -> String {
        let result = try cli.run(arguments + ["--json"], env)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        let record = (object as? [String: Any]) ?? ((object as? [[String: Any]])?.first?["document"] as? [String: Any])
        return try #require(record?["id"] as? String, "\(arguments): \(result.stdout)")
    }

    @Test func everyRecordKindIsJournaledWithItsRemovals() throws {
        let cli = try CLI(label: "journal")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let start = try Self.read(cli)
        let device = try #require(start.device)
        #expect(device.count == 32)
        // The first profile is journaled by the migration that made the journal, as an insert.
        #expect(start.entries.map(\.kind) == ["profile"] && start.entries.first?.operation == .insert, "\(start.entries)")

        let commands: [[String]] = [
            ["profile", "add", "Mia", "--relation", "child"],
            ["id", "set", "--height", "178cm"],
            ["appt", "add", "--with", "Dr. Lee", "--at", "2026-12-03 09:30"],
            ["contact", "add", "Kim", "--phone", "+49 30 1234567"],
            ["condition", "add", "Asthma"],
            ["immunization", "add", "Tetanus", "--date", "2025-01-01"],
            ["procedure", "add", "Appendectomy", "--date", "2009"],
            ["family", "add", "mother", "breast cancer", "--age", "52"],
            ["lab", "add", "ferritin", "12", "ng/mL", "--range", "30-400", "--date", "2024-03-18"],
            ["log", "water", "250ml"],
            ["goal", "set", "workout", "150min", "--per", "week"],
            ["log", "settings", "--serving", "300ml"],
            ["remind", "add", "water", "--mode", "default", "--window", "09:00-21:00"],
        ]
        for arguments in commands {
            let result = try cli.run(arguments, Self.env)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        let medication = try Self.added(cli, ["med", "add", "Metformin", "--dose", "500 mg", "--schedule", "08:00,20:00"])
        #expect(try cli.run(["med", "take", medication, "--at", "08:00"], Self.env).status == 0)
        let allergy = try Self.added(cli, ["allergy", "add", "Peanut"])
        let document = try Self.added(cli, ["doc", "add", "\(CLI.packageRoot)/Samples/documents/prescription-amoxicillin.pdf"])
        #expect(try cli.run(["doc", "edit", document, "--tag", "+insurance"], Self.env).status == 0)
        #expect(try cli.run(["allergy", "edit", allergy, "--reaction", "hives"], Self.env).status == 0)
        #expect(try cli.run(["allergy", "rm", allergy, "--yes"], Self.env).status == 0)

        let (entries, _, rows) = try Self.read(cli)
        // Every kind of the registry was written and journaled.
        for kind in RecordKind.all {
            #expect((rows[kind.name] ?? 0) > 0 || kind == .allergy, "no \(kind.name) was written")
            #expect(entries.contains { $0.kind == kind.name && $0.operation == .insert }, "\(kind.name) has no insert in the journal")
        }
        #expect(entries.allSatisfy { $0.device == device })
        #expect(entries.map(\.sequence) == entries.map(\.sequence).sorted() && Set(entries.map(\.sequence)).count == entries.count)
        // The allergy's life: insert, update, delete, in that order; the delete keeps its uid.
        let allergyLife = entries.filter { $0.kind == "allergy" && $0.record == allergy }
        #expect(allergyLife.map(\.operation) == [.insert, .update, .delete], "\(allergyLife)")
        #expect(allergyLife.last?.uid != nil && allergyLife.last?.uid == allergyLife.first?.uid)
        // A tag is a change of its document.
        #expect(entries.contains { $0.kind == "document" && $0.record == document && $0.operation == .update })
        // Records belong to a profile by its uid, which is the same for all of them.
        let profiles = Set(entries.filter { $0.kind != "profile" }.compactMap(\.profile))
        #expect(profiles.count == 1 && profiles.first?.count == 32, "\(profiles)")
        // Every record in the vault has a journal row.
        for kind in RecordKind.all where kind.table != "profile" {
            let journaled = Set(entries.filter { $0.kind == kind.name && $0.operation != .delete }.map(\.record))
            #expect(journaled.count >= (rows[kind.name] ?? 0), "\(kind.name): \(rows[kind.name] ?? 0) rows, \(journaled.count) journaled")
        }
    }

    /// SIGKILL in the middle of an import's transaction (paused after its 100th entry, the journal's
    /// rows for them written by the triggers) and at random moments: afterwards no record is
    /// without its journal row and no journal row is without its record, round after round.
    @Test func aKilledImportLeavesNoChangeWithoutItsJournalRowNorARowWithoutItsChange() throws {
        let cli = try CLI(label: "journal-kill")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        var generator = SystemRandomNumberGenerator()
        var killedMidImport = 0
        for round in 0..<4 {
            _ = try AppleHealthImportCommandTests.generate(cli, into: "apple\(round)", days: 20, start: "2026-0\(round + 1)-01")
            let atPoint = round % 2 == 0
            let environment = atPoint ? Self.env.merging(["PHR_TEST_PAUSE": "entries-written"]) { $1 } : Self.env
            let running = try InterruptionTests.Running(cli, ["import", "\(cli.directory)/apple\(round)/export.zip"], environment)
            if atPoint {
                let said = running.waitForPause()
                #expect(said.contains("paused at entries-written"), "round \(round): \(said)")
            } else {
                // The random moment is the point of these rounds, not a wait for something.
                Thread.sleep(forTimeInterval: Double.random(in: 0.05...0.6, using: &generator))
            }
            running.stop(with: SIGKILL)
            if running.process.terminationReason == .uncaughtSignal { killedMidImport += 1 }
            let (entries, _, rows) = try Self.read(cli)
            let alive = Set(entries.filter { $0.kind == "log_entry" }.map(\.record))
            #expect(alive.count == rows["log_entry"], "round \(round): \(rows["log_entry"] ?? 0) entries, \(alive.count) journaled")
            #expect(try cli.run(["check"], Self.env).status == 0)
        }
        #expect(killedMidImport >= 2, "the paused rounds were killed inside their transaction")
        // A last import that finishes: its entries and their journal rows are all there.
        _ = try AppleHealthImportCommandTests.generate(cli, into: "final", days: 5, start: "2026-06-01")
        #expect(try cli.run(["import", "\(cli.directory)/final/export.zip"], Self.env).status == 0)
        let (entries, _, rows) = try Self.read(cli)
        let journaled = Set(entries.filter { $0.kind == "log_entry" && $0.operation == .insert }.map(\.record))
        #expect((rows["log_entry"] ?? 0) > 0 && journaled.count == rows["log_entry"])
    }
}
