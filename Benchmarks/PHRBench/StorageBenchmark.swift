import Foundation
import GRDB
import PHRCore

/// Issue 2's benchmark: the same record workload through the encrypting VFS and through plain
/// SQLite (the default unix VFS, same pragmas), and the ratio. Budget: at most 1.25x.
enum StorageBenchmark {
    static let rows = 60_000
    static let rowsPerTransaction = 1_000
    static let lookups = 100_000
    static let rounds = 5

    /// The pragmas every vault connection gets (VaultDatabase.prepare), applied to the plain
    /// baseline too so only the cipher differs.
    static func preparePlain(_ db: Database) throws {
        try db.execute(sql: "PRAGMA temp_store = MEMORY")
        try db.execute(sql: "PRAGMA journal_mode = DELETE")
        try db.execute(sql: "PRAGMA synchronous = FULL")
        try db.execute(sql: "PRAGMA secure_delete = ON")
        try db.execute(sql: "PRAGMA cell_size_check = ON")
        // Every page read from disk costs an AES-GCM decryption (about 1.2 us per 4 KiB here), so a
        // larger page cache than SQLite's 2 MiB default pays for itself; 32 MiB is small for a CLI.
        try db.execute(sql: "PRAGMA cache_size = -32768")
    }

    typealias Access = (_ body: (Database) throws -> Void) throws -> Void

    /// The workload: batched inserts of document-page-sized rows, point lookups, a full scan.
    static func workload(write: Access, read: Access, reopenRead: () throws -> Access) throws -> [String: Double] {
        var results: [String: Double] = [:]
        try write { db in
            try db.execute(sql: "CREATE TABLE page (id INTEGER PRIMARY KEY, doc INTEGER NOT NULL, body TEXT NOT NULL)")
            try db.execute(sql: "CREATE INDEX page_doc ON page (doc)")
        }
        let body = String(repeating: "Ferritin 12 ng/mL (ref 15-150); haemoglobin 13.1 g/dL. ", count: 12)
        results["insert"] = try Benchmark.time {
            for batch in 0..<(rows / rowsPerTransaction) {
                try write { db in
                    let statement = try db.makeStatement(sql: "INSERT INTO page (doc, body) VALUES (?, ?)")
                    for index in 0..<rowsPerTransaction {
                        try statement.execute(arguments: [batch * rowsPerTransaction + index, body])
                    }
                }
            }
        }
        // Cold cache: a fresh connection reads every page through the VFS.
        let cold = try reopenRead()
        var generator = SystemRandomNumberGenerator()
        let ids = (0..<lookups).map { _ in Int.random(in: 1...rows, using: &generator) }
        results["lookup"] = try Benchmark.time {
            try cold { db in
                let statement = try db.makeStatement(sql: "SELECT length(body) FROM page WHERE id = ?")
                for id in ids { _ = try Int.fetchOne(statement, arguments: [id]) }
            }
        }
        results["scan"] = try Benchmark.time {
            let fresh = try reopenRead()
            try fresh { db in
                _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM page WHERE body LIKE '%ref 15-151%'")
            }
        }
        results["update"] = try Benchmark.time {
            try write { db in try db.execute(sql: "UPDATE page SET body = body || '.' WHERE id % 10 = 0") }
        }
        _ = read
        return results
    }

    static func run() throws {
        var encryptedRuns: [[String: Double]] = []
        var plainRuns: [[String: Double]] = []
        var sizes = (plain: Int64(0), encrypted: Int64(0))
        // Alternate the two so drift in the machine's load affects both alike; report medians.
        for _ in 0..<rounds {
            let directory = try Benchmark.scratchDirectory("storage")
            defer { try? FileManager.default.removeItem(atPath: directory) }

            // Encrypted: a real vault (the KDF is not part of the measurement).
            let location = VaultLocation(path: "\(directory)/vault")
            let (vault, _) = try Vault.create(at: location, passphrase: SecretBytes(copying: Array("benchmark passphrase".utf8)),
                                              parameters: ScryptParameters(log2N: 10, r: 8, p: 1))
            encryptedRuns.append(try workload(
                write: { body in try vault.database.write(body) },
                read: { body in try vault.database.read(body) },
                reopenRead: {
                    let fresh = try Vault.open(at: location, keyFile: vault.keyFile, keys: vault.keys)
                    return { body in try fresh.database.read(body) }
                }))

            // Plain: GRDB on the system SQLite and its default VFS, same pragmas, same workload.
            var configuration = Configuration()
            configuration.prepareDatabase(preparePlain)
            let plainPath = "\(directory)/plain.db"
            let plain = try DatabaseQueue(path: plainPath, configuration: configuration)
            plainRuns.append(try workload(
                write: { body in try plain.write(body) },
                read: { body in try plain.read(body) },
                reopenRead: {
                    let fresh = try DatabaseQueue(path: plainPath, configuration: configuration)
                    return { body in try fresh.read(body) }
                }))
            sizes = (FileSystem.fileSize(plainPath) ?? 0, FileSystem.fileSize(location.database) ?? 0)
        }
        func median(_ runs: [[String: Double]], _ key: String) -> Double {
            let values = runs.map { $0[key]! }.sorted()
            return values[values.count / 2]
        }

        let operations = ["insert", "lookup", "scan", "update"]
        print("\(rows) rows of \(12 * 56) bytes in transactions of \(rowsPerTransaction), \(lookups) cold point lookups, full scan, bulk update; synchronous=FULL; median of \(rounds) rounds")
        Benchmark.row("operation", ["plain SQLite", "phr (AES-GCM)", "ratio"])
        for key in operations {
            let (p, e) = (median(plainRuns, key), median(encryptedRuns, key))
            Benchmark.row(key, [String(format: "%.3f s", p), String(format: "%.3f s", e), String(format: "%.2fx", e / p)])
        }
        let total = operations.reduce(0.0) { $0 + median(encryptedRuns, $1) } / operations.reduce(0.0) { $0 + median(plainRuns, $1) }
        Benchmark.row("all operations (budget 1.25x)", ["", "", String(format: "%.2fx", total)])
        print(String(format: "file size: plain %.1f MB, phr %.1f MB (%.3fx)",
                     Double(sizes.plain) / 1e6, Double(sizes.encrypted) / 1e6, Double(sizes.encrypted) / Double(max(sizes.plain, 1))))
    }
}
