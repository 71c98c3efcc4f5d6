// A test helper, not part of phr: writes to a vault in a loop and prints each committed
// sequence number on stdout, so the crash tests can SIGKILL it at random moments and then check
// that every reported commit survived. Usage: phr-crash-writer VAULT START [ROWS_PER_TXN]
import Foundation
import PHRCore

let arguments = CommandLine.arguments
guard arguments.count >= 3, let start = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: phr-crash-writer VAULT START [ROWS_PER_TXN]\n".utf8))
    exit(64)
}
let rowsPerTransaction = arguments.count > 3 ? Int(arguments[3]) ?? 1 : 1
let location = VaultLocation(path: arguments[1])
do {
    let keyFile = try Vault.readKeyFile(at: location)
    guard let secret = try PassphraseSource.current(environment: ProcessInfo.processInfo.environment) else {
        FileHandle.standardError.write(Data("set PHR_PASSPHRASE\n".utf8))
        exit(77)
    }
    let vault = try Vault.open(at: location, keyFile: keyFile, keys: Vault.unlock(keyFile: keyFile, secret: secret))
    try vault.database.write { db in
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS crash_log (seq INTEGER PRIMARY KEY, body TEXT NOT NULL)")
    }
    var sequence = start
    while true {
        try vault.database.write { db in
            for row in 0..<rowsPerTransaction {
                // Enough text per row that transactions span several pages and the journal grows.
                let body = "crash-marker-\(sequence)-\(row) " + String(repeating: "lorem ipsum \(sequence) ", count: 40)
                try db.execute(sql: "INSERT INTO crash_log (seq, body) VALUES (?, ?)",
                               arguments: [sequence * 1000 + row, body])
            }
            // Rewrite old rows too, so committed pages get journaled and overwritten.
            try db.execute(sql: "UPDATE crash_log SET body = body || '.' WHERE seq % 7 = ?", arguments: [sequence % 7])
        }
        FileHandle.standardOutput.write(Data("committed \(sequence)\n".utf8))
        sequence += 1
    }
} catch {
    FileHandle.standardError.write(Data("phr-crash-writer: \(error.localizedDescription)\n".utf8))
    exit(1)
}
