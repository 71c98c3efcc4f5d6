import Foundation
import GRDB
import Testing
@testable import PHRCore
@testable import PHRModel

/// Sync's promise as a property: three devices of one vault make random changes of every kind
/// of record (adds, edits, removals, doses, documents, lab results, log entries, goals, settings,
/// reminders, profiles), sync through a folder in random orders while objects arrive late and out
/// of order, and in the end (everyone synced) every device holds the same records, and every
/// value any device ever sent is either current, overwritten by a change that saw it, removed by
/// a removal that saw it, or listed as a conflict.
///
/// Seeded: `PHR_TEST_SEED=N` replays a run; the seed is in every failure message.
@Suite struct SyncConvergenceTests {
    /// A folder remote whose listing hides some objects, as a file syncer that has not copied
    /// them yet would (later logs can appear before earlier ones).
    struct DelayingRemote: SyncRemote {
        let folder: FolderRemote
        let hidden: Set<String>
        var description: String { folder.description }

        func list(_ directory: String) throws -> [String] {
            try folder.list(directory).filter { !hidden.contains(directory + "/" + $0) }.shuffled()
        }
        func read(_ path: String, limit: Int) throws -> [UInt8]? {
            hidden.contains(path) ? nil : try folder.read(path, limit: limit)
        }
        func create(_ path: String, bytes: [UInt8]) throws -> Bool { try folder.create(path, bytes: bytes) }
        func create(_ path: String, copying source: String) throws -> Bool { try folder.create(path, copying: source) }
        func fetch(_ path: String, to destination: String) throws {
            if hidden.contains(path) { throw SyncError.remote("\(path) has not arrived") }
            try folder.fetch(path, to: destination)
        }
        func blobNames() throws -> Set<String> {
            try folder.blobNames().filter { !hidden.contains(FolderRemote.blobPath($0)) }
        }
        func upload(blobs names: [String], from root: String, progress: (Int) -> Void) throws -> Int {
            try folder.upload(blobs: names, from: root, progress: progress)
        }
    }

    /// A splitmix64 generator, so a seed replays a run.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let time = TimeContext(now: Timestamp.parse("2026-05-10T10:00:00Z")!, zone: TimeZone(identifier: "Europe/Berlin")!)
    static let words = ["hives", "rash", "cough", "asthma", "Dr. Lee", "Dr. Kim", "mild", "left knee", "annual", "follow-up",
                        "morning", "with food", "Ferritin", "Penicillin", "Latex", "Peanut", "pollen", "aspirin", "Tetanus", "MMR"]

    /// The logical state of a vault: every record by kind and identity, with its fields.
    static func state(_ vault: Vault) throws -> [String: [String: SyncValue]] {
        try vault.database.read { db in
            var state: [String: [String: SyncValue]] = [:]
            for kind in SyncKind.all {
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \(kind.table)") {
                    state[kind.name + "|" + (try kind.identity(db, of: row))] = try kind.fields(db, of: row)
                }
            }
            return state
        }
    }

    /// One random change on `vault`; false when the change was refused (nothing written).
    static func operate(_ vault: Vault, _ random: inout Seeded, documents: inout Int) throws {
        let profiles = try vault.database.read { db in try Profiles.all(db) }
        guard let profile = profiles.randomElement(using: &random) else { return }
        let time = Self.time
        func word() -> String { words.randomElement(using: &random)! }
        func ids(_ table: String) throws -> [String] {
            try vault.database.read { db in try String.fetchAll(db, sql: "SELECT id FROM \(table) WHERE profile_id = ? ORDER BY id", arguments: [profile.id]) }
        }
        let choice = Int.random(in: 0..<100, using: &random)
        switch choice {
        case 0..<12:
            let store = AllergyStore(vault: vault, profile: profile, time: time)
            let existing = try ids("allergy")
            var input = AllergyStore.Input()
            if existing.isEmpty || Bool.random(using: &random) && existing.count < 6 {
                input.substance = word()
                _ = try store.add(input)
            } else if Int.random(in: 0..<4, using: &random) == 0 {
                _ = try store.remove(existing.randomElement(using: &random)!)
            } else {
                switch Int.random(in: 0..<3, using: &random) {
                case 0: input.reaction = word()
                case 1: input.severity = ["mild", "moderate", "severe"].randomElement(using: &random)
                default: input.notes = word() + " " + word()
                }
                _ = try store.edit(existing.randomElement(using: &random)!, input)
            }
        case 12..<20:
            let store = ContactStore(vault: vault, profile: profile, time: time)
            let existing = try ids("contact")
            var input = ContactStore.Input()
            if existing.isEmpty || existing.count < 3 && Bool.random(using: &random) {
                input.name = word()
                input.phone = "+49 30 \(Int.random(in: 1_000_000...9_999_999, using: &random))"
                _ = try store.add(input)
            } else if Int.random(in: 0..<4, using: &random) == 0 {
                _ = try store.remove(existing.randomElement(using: &random)!)
            } else {
                if Bool.random(using: &random) { input.email = "\(word().filter(\.isLetter).lowercased())@example.org" } else { input.notes = word() }
                _ = try store.edit(existing.randomElement(using: &random)!, input)
            }
        case 20..<26:
            let store = ConditionStore(vault: vault, profile: profile, time: time)
            let existing = try ids("condition")
            var input = ConditionStore.Input()
            if existing.isEmpty || Bool.random(using: &random) {
                input.name = word()
                _ = try store.add(input)
            } else {
                input.notes = word()
                _ = try store.edit(existing.randomElement(using: &random)!, input)
            }
        case 26..<30:
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                var input = ImmunizationStore.Input()
                input.vaccine = word()
                input.date = "2025-0\(Int.random(in: 1...9, using: &random))-01"
                _ = try ImmunizationStore(vault: vault, profile: profile, time: time).add(input)
            case 1:
                var input = ProcedureStore.Input()
                input.name = word()
                _ = try ProcedureStore(vault: vault, profile: profile, time: time).add(input)
            default:
                var input = FamilyHistoryStore.Input()
                input.relation = ["mother", "father", "sister"].randomElement(using: &random)
                input.condition = word()
                _ = try FamilyHistoryStore(vault: vault, profile: profile, time: time).add(input)
            }
        case 30..<40:
            let store = MedicationStore(vault: vault, profile: profile, time: time)
            let existing = try ids("medication")
            if existing.count < 3 {
                var input = MedicationStore.Input()
                input.name = word()
                input.times = "08:00, 20:00"
                _ = try store.add(input)
            } else if Int.random(in: 0..<6, using: &random) == 0 {
                _ = try store.remove(existing.randomElement(using: &random)!)
            } else {
                var input = MedicationStore.Input()
                if Bool.random(using: &random) { input.dose = "\(Int.random(in: 1...4, using: &random)) tablet(s)" } else { input.notes = word() }
                _ = try store.edit(existing.randomElement(using: &random)!, input)
            }
        case 40..<55:
            // Doses at the same few slots on every device: the same dose logged twice is one.
            let existing = try ids("medication")
            guard let medication = existing.randomElement(using: &random) else { return }
            let day = Int.random(in: 1...4, using: &random)
            let hour = Bool.random(using: &random) ? "06" : "18"
            let instant = Timestamp.parse("2026-05-0\(day)T\(hour):00:00Z")!
            _ = try DoseLog(vault: vault, profile: profile, time: time).take(medication, at: instant, force: true)
        case 55..<67:
            let store = LogStore(vault: vault, profile: profile, time: time)
            var input = LogStore.Input()
            input.amount = "\(Int.random(in: 1...8, using: &random) * 50)ml"
            input.at = "2026-05-0\(Int.random(in: 1...9, using: &random))T1\(Int.random(in: 0...9, using: &random)):00:00Z"
            _ = try store.add(.water, input)
        case 67..<75:
            var input = LabStore.Input(name: ["ferritin", "hemoglobin", "glucose"].randomElement(using: &random)!,
                                       value: String(Int.random(in: 5...200, using: &random)), unit: "mg/dL")
            input.date = "2026-0\(Int.random(in: 1...4, using: &random))-1\(Int.random(in: 0...9, using: &random))"
            _ = try LabStore(vault: vault, profile: profile, time: time).add(input)
        case 75..<80:
            var input = MedicalIDStore.Input()
            if Bool.random(using: &random) { input.height = "\(Int.random(in: 150...195, using: &random))cm" } else { input.notes = word() }
            _ = try MedicalIDStore(vault: vault, profile: profile, time: time).set(input)
        case 80..<84:
            var input = HealthSettingsStore.Input()
            input.serving = "\(Int.random(in: 2...5, using: &random) * 50)ml"
            _ = try HealthSettingsStore(vault: vault, profile: profile, time: time).set(input)
        case 84..<87:
            _ = try GoalStore(vault: vault, profile: profile, time: time).set("water", "\(Int.random(in: 15...30, using: &random) * 100)ml",
                                                                              since: "2026-05-0\(Int.random(in: 1...3, using: &random))")
        case 87..<90:
            var input = ReminderStore.Input(kind: "water")
            input.mode = "default"
            input.window = "0\(Int.random(in: 7...9, using: &random)):00-21:00"
            _ = try ReminderStore(vault: vault, profile: profile, time: time).add(input)
        case 90..<94:
            var input = AppointmentStore.Input()
            input.with = word()
            input.at = "2026-06-1\(Int.random(in: 0...9, using: &random)) 09:30"
            let store = AppointmentStore(vault: vault, profile: profile, time: time)
            let existing = try ids("appointment")
            if existing.isEmpty || Bool.random(using: &random) { _ = try store.add(input) } else {
                var change = AppointmentStore.Input()
                change.location = word()
                _ = try store.edit(existing.randomElement(using: &random)!, change)
            }
        case 94..<97:
            // A few documents (each is read by phr-render); the same file on two devices is one.
            guard documents < 4 else { return }
            documents += 1
            let files = ["prescription-amoxicillin.pdf", "insurance-card.pdf", "referral-letter-el.pdf"]
            let file = "\(TestSupport.packageRoot)/Samples/documents/\(files.randomElement(using: &random)!)"
            let importer = DocumentImporter(vault: vault, profile: profile, extractor: TextExtractor(workerExecutable: TestSupport.renderBinary))
            _ = try importer.add([file], options: .init())
        default:
            // Profiles, sometimes of one name on two devices.
            if profiles.count < 4 {
                _ = try vault.database.write { db in try Profiles.create(db, name: ["Mia", "Leo", "Oma"].randomElement(using: &random)!, relation: .child) }
            }
        }
    }

    @Test func threeDevicesConvergeAndNoValueIsLost() throws {
        let seed = ProcessEnvironment["PHR_TEST_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        var random = Seeded(state: seed)
        let said = Comment(rawValue: "seed \(seed) (PHR_TEST_SEED=\(seed) replays it)")

        let (first, _, directory) = try TestSupport.makeVault("sync-converge")
        defer { TestSupport.remove(directory) }
        let shared = "\(directory)/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        try SyncEngine.initialize(first)
        _ = try SyncEngine.addRemote(first, name: "shared", target: shared)
        let contents = try first.database.read { db in
            SyncEnrolment.Contents(keyFile: first.keyFile, remote: shared, syncKey: try SyncState.value(db, "sync_key")!)
        }
        var vaults = [first]
        for name in ["b", "c"] {
            vaults.append(try SyncEnrolment.createVault(at: VaultLocation(path: "\(directory)/vault-\(name)"), contents: contents,
                                                        keys: first.keys, remote: shared))
        }
        let folder = FolderRemote(root: shared)

        func sync(_ vault: Vault, hiding share: Double) throws -> SyncEngine.Report {
            var hidden = Set<String>()
            for device in try folder.list("logs") {
                for name in try folder.list("logs/\(device)") where Double.random(in: 0..<1, using: &random) < share {
                    hidden.insert("logs/\(device)/\(name)")
                }
            }
            for name in try folder.blobNames().sorted() where Double.random(in: 0..<1, using: &random) < share / 2 { hidden.insert(FolderRemote.blobPath(name)) }
            return try SyncEngine(vault: vault, remote: DelayingRemote(folder: folder, hidden: hidden)).run()
        }

        var operations = 0, refused = 0, documents = 0, waited = 0
        let rounds = 40
        for _ in 0..<rounds {
            for vault in vaults {
                for _ in 0..<Int.random(in: 5...25, using: &random) {
                    do {
                        try Self.operate(vault, &random, documents: &documents)
                        operations += 1
                    } catch is PHRError {
                        refused += 1
                    }
                }
            }
            for vault in vaults.shuffled(using: &random) where Int.random(in: 0..<3, using: &random) > 0 {
                waited += try sync(vault, hiding: 0.3).waitingLogs
            }
        }
        // Everyone syncs, nothing hidden, until nothing moves.
        for _ in 0..<4 {
            for vault in vaults { _ = try sync(vault, hiding: 0) }
        }
        #expect(operations >= 1_000, said)
        #expect(waited > 0, "some logs arrived before the ones they follow: \(said)")

        let states = try vaults.map(Self.state)
        for (index, state) in states.enumerated().dropFirst() {
            let keys = Set(state.keys).symmetricDifference(states[0].keys)
            #expect(keys.isEmpty, "device \(index) and device 0 hold different records: \(keys.prefix(5)) \(said)")
            for (key, fields) in state where states[0][key] != fields {
                let differing = fields.filter { states[0][key]?[$0.key] != $0.value }.map(\.key)
                Issue.record("device \(index) and device 0 differ on \(key): \(differing) \(said)")
            }
        }
        for vault in vaults {
            let status = try SyncEngine.status(vault, remote: folder)
            #expect(status.pendingChanges == 0 && status.remoteLogs == 0, "\(status) \(said)")
            let check = try VaultCheck.run(location: vault.location, keyFile: vault.keyFile, keys: vault.keys)
            #expect(check.problems.isEmpty, "\(check.problems) \(said)")
        }

        // Nothing lost: every value any device sent is accounted for.
        let key = try first.database.read { db in try SyncState.key(db) }
        var logs: [SyncLogBody] = []
        for device in try folder.list("logs") {
            for name in try folder.list("logs/\(device)") {
                guard let sequence = SyncLogObject.sequence(ofName: name), let bytes = try folder.read("logs/\(device)/\(name)", limit: 1 << 28) else { continue }
                logs.append(try SyncLogObject.open(bytes, key: key, vault: first.keyFile.vaultID, device: device, sequence: sequence))
            }
        }
        // A record the devices disagree on, with every change to it, for whoever reads a failure.
        let devices = try vaults.map { vault in try vault.database.read { db in try SyncState.device(db) } }
        let disputed = states.dropFirst().flatMap { state in
            Set(state.keys).symmetricDifference(states[0].keys).union(state.keys.filter { states[0][$0] != nil && states[0][$0] != state[$0] })
        }
        if let record = disputed.first {
            let history = logs.sorted { ($0.device, $0.sequence) < ($1.device, $1.sequence) }.flatMap { log in
                log.changes.filter { $0.kind + "|" + $0.identity == record || record.hasPrefix("medication|") && $0.kind == "dose"
                    && $0.identity.hasPrefix(record.dropFirst("medication|".count) + SyncKind.separator) }.map { change in
                    "\(change.kind) device \(devices.firstIndex(of: log.device) ?? -1) log \(log.sequence) \(log.vector.map { "\(devices.firstIndex(of: $0.key) ?? -1):\($0.value)" }.sorted()) \(change.operation.rawValue) \(change.stamp.prefix(20)) \((change.fields ?? [:]).keys.sorted().joined(separator: ",")) notes=\(change.fields?["notes"]?.display ?? "-")"
                }
            }
            Issue.record("history of \(record): present on \(states.map { $0[record] != nil }), notes \(states.map { $0[record]?["notes"]?.display ?? "-" }):\n\(history.joined(separator: "\n")) \(said)")
        }
        let conflicts = try vaults.flatMap { vault in
            try vault.database.read { db in
                try Row.fetchAll(db, sql: "SELECT kind, identity, field, reason, lost FROM sync_conflict").map {
                    ($0["kind"] as String, $0["identity"] as String, $0["field"] as String, $0["reason"] as String, $0["lost"] as String?)
                }
            }
        }
        func saw(_ later: SyncLogBody, _ earlier: SyncLogBody) -> Bool {
            later.device == earlier.device ? later.sequence > earlier.sequence : (later.vector[earlier.device] ?? 0) >= earlier.sequence
        }
        var writes = 0, unaccounted: [String] = []
        for log in logs {
            for change in log.changes where change.operation == .set {
                for (field, value) in change.fields ?? [:] {
                    writes += 1
                    let record = change.kind + "|" + change.identity
                    if states[0][record]?[field] == value { continue }
                    let overwritten = logs.contains { other in
                        saw(other, log) && other.changes.contains { $0.kind == change.kind && $0.identity == change.identity
                            && ($0.operation == .remove || $0.fields?[field] != nil) }
                    }
                    if overwritten { continue }
                    let listed = conflicts.contains { $0.0 == change.kind && ($0.1 == change.identity || $0.3 == "duplicate")
                        && ($0.2 == field || $0.2 == "*") }
                    if listed { continue }
                    unaccounted.append("\(record) \(field) = \(value.display)")
                }
            }
        }
        #expect(unaccounted.isEmpty, "\(unaccounted.count) of \(writes) written values are neither current, overwritten nor listed as conflicts: \(unaccounted.prefix(8)) \(said)")
        print("sync convergence: seed \(seed), \(operations) operations (\(refused) refused), \(logs.count) logs, \(writes) field writes, \(conflicts.count) conflict rows, \(waited) waits")
    }
}
