// A test helper, not part of phr. It opens a vault through PHRCore and either
//   phr-crash-writer VAULT START [ROWS_PER_TXN [COMMITS]]
// writes transactions in a loop, printing "committed N" after each commit, so the crash tests can
// SIGKILL it at random moments and then verify that every reported commit survived; or
//   phr-crash-writer VAULT --list
// prints the sequence numbers present in the vault, one per line. With PHR_CRASH_WRITER_HOLD=N it
// stops inside transaction N (before its commit) and prints "holding N".
// The passphrase comes from PHR_PASSPHRASE like any phr command.
import Foundation
import GRDB
import PHRCore

func fail(_ message: String, _ status: Int32) -> Never {
    FileHandle.standardError.write(Data("phr-crash-writer: \(message)\n".utf8))
    exit(status)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else { fail("usage: phr-crash-writer VAULT START [ROWS_PER_TXN [COMMITS]] | VAULT --list", 64) }
let location = VaultLocation(path: arguments[1])
do {
    let keyFile = try Vault.readKeyFile(at: location)
    guard let secret = try PassphraseSource.current(environment: ProcessInfo.processInfo.environment) else {
        fail("set PHR_PASSPHRASE", 77)
    }
    let vault = try Vault.open(at: location, keyFile: keyFile, keys: Vault.unlock(keyFile: keyFile, secret: secret))
    try vault.database.write { db in
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS crash_log (seq INTEGER PRIMARY KEY, body TEXT NOT NULL)")
    }
    if arguments[2] == "--list" {
        let sequences = try vault.database.read { db in
            try Int.fetchAll(db, sql: "SELECT DISTINCT seq / 1000 FROM crash_log ORDER BY 1")
        }
        FileHandle.standardOutput.write(Data(sequences.map { "\($0)\n" }.joined().utf8))
        exit(0)
    }
    guard let start = Int(arguments[2]) else { fail("START must be a number", 64) }
    let rowsPerTransaction = arguments.count > 3 ? Int(arguments[3]) ?? 1 : 1
    let commitLimit = arguments.count > 4 ? Int(arguments[4]) ?? Int.max : Int.max
    var sequence = start
    while sequence - start < commitLimit {
        try vault.database.write { db in
            for row in 0..<rowsPerTransaction {
                // Enough text per row that transactions span several pages and the journal grows.
                let body = "crash-marker-\(sequence)-\(row) " + String(repeating: "lorem ipsum \(sequence) ", count: 40)
                try db.execute(sql: "INSERT INTO crash_log (seq, body) VALUES (?, ?)",
                               arguments: [sequence * 1000 + row, body])
            }
            // Rewrite old rows too, so committed pages get journaled and overwritten.
            try db.execute(sql: "UPDATE crash_log SET body = substr(body, 1, 600) || '.' WHERE seq % 7 = ?",
                           arguments: [sequence % 7])
            // PHR_CRASH_WRITER_HOLD=N: stop inside transaction N, its pages journaled and not
            // committed, and say so, for a kill that certainly lands mid-transaction.
            if ProcessInfo.processInfo.environment["PHR_CRASH_WRITER_HOLD"] == String(sequence) {
                FileHandle.standardOutput.write(Data("holding \(sequence)\n".utf8))
                while true { sleep(60) }
            }
        }
        FileHandle.standardOutput.write(Data("committed \(sequence)\n".utf8))
        sequence += 1
    }
    exit(0)
} catch {
    fail(error.localizedDescription, 1)
}
