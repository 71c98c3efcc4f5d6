import Foundation
import GRDB

/// `phr status`: what a vault is, whether it is unlocked, how big it is, and how its keys are
/// protected. Everything but the record counts is read without a secret.
public struct VaultStatus: Codable, Sendable, Equatable {
    public struct Slot: Codable, Sendable, Equatable {
        public var type: String
        public var kdf: String
        public var log2N: Int
        public var r: Int
        public var p: Int
        public var memoryMiB: Int
        public var updated: String

        enum CodingKeys: String, CodingKey {
            case type, kdf
            case log2N = "log2_n"
            case r, p
            case memoryMiB = "memory_mib"
            case updated
        }
    }

    public var path: String
    public var vaultID: String
    public var format: String
    public var created: String
    public var locked: Bool
    /// False while `phr unlock` holds the keys in the kernel keyring; then `unlockedUntil` says
    /// until when (ISO 8601).
    public var unlockedUntil: String?
    public var databaseBytes: Int64
    public var blobBytes: Int64
    public var blobFiles: Int
    public var totalBytes: Int64
    public var slots: [Slot]
    /// Record counts by kind; nil when the vault is locked.
    public var counts: [String: Int]?
    /// How phr-render's workers are confined on this machine (`SandboxReport.probe`), or why
    /// that could not be found out; set by `phr status`.
    public var sandbox: SandboxReport?
    public var sandboxError: String?
    /// The `phr serve` agent holding this vault open, when one runs; set by `phr status`.
    public var agent: Agent?

    /// A running agent: its process, where its web UI listens, since when.
    public struct Agent: Codable, Sendable, Equatable {
        public var pid: Int32
        public var url: String
        public var started: String
        public init(pid: Int32, url: String, started: String) {
            self.pid = pid
            self.url = url
            self.started = started
        }
    }

    enum CodingKeys: String, CodingKey {
        case path
        case vaultID = "vault_id"
        case format, created, locked
        case unlockedUntil = "unlocked_until"
        case databaseBytes = "database_bytes"
        case blobBytes = "blob_bytes"
        case blobFiles = "blob_files"
        case totalBytes = "total_bytes"
        case slots, counts, sandbox
        case sandboxError = "sandbox_error"
        case agent
    }

    /// The record kinds `status` counts: (label, table). Later features add their tables here.
    static let countedTables: [(String, String)] = [("profiles", "profile"), ("documents", "document"),
                                                    ("medications", "medication"), ("doses", "dose"), ("appointments", "appointment"),
                                                    ("contacts", "contact"), ("allergies", "allergy"), ("conditions", "condition"),
                                                    ("immunizations", "immunization"), ("procedures", "procedure"),
                                                    ("family_history", "family_history"), ("observations", "observation"),
                                                    ("log_entries", "log_entry"), ("goals", "log_goal"), ("reminders", "reminder")]

    /// Reads the status. `vault` is the open vault when the caller could unlock it.
    public static func read(location: VaultLocation, keyFile: KeyFile, vault: Vault?,
                            unlockedUntil: Date?) throws -> VaultStatus {
        let blobs = BlobStore(root: location.blobs, keys: nil)
        let names = blobs.namesOnDisk()
        let blobBytes = names.reduce(Int64(0)) { $0 + (FileSystem.fileSize(blobs.path(for: $1)) ?? 0) }
        let databaseBytes = (FileSystem.fileSize(location.database) ?? 0) + (FileSystem.fileSize(location.journal) ?? 0)
        let slots = keyFile.slots.map { slot in
            Slot(type: slot.kind.rawValue, kdf: slot.kdf.name, log2N: slot.kdf.log2N, r: slot.kdf.r, p: slot.kdf.p,
                 memoryMiB: Int(slot.kdf.parameters.memoryBytes >> 20), updated: slot.updated)
        }
        var counts: [String: Int]?
        if let vault {
            counts = try vault.database.read { db in
                var result: [String: Int] = [:]
                for (label, table) in countedTables where try db.tableExists(table) {
                    result[label] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table.quotedDatabaseIdentifier)") ?? 0
                }
                // Documents stored without OCR that `phr doc reindex --ocr` would read (only when any do).
                let waiting = try DocumentStore.waitingForOCR(db, profileID: nil)
                if waiting > 0 { result["documents_waiting_for_ocr"] = waiting }
                return result
            }
        }
        return VaultStatus(
            path: location.root, vaultID: keyFile.vaultID, format: Vault.versionLine, created: keyFile.created,
            locked: unlockedUntil == nil, unlockedUntil: unlockedUntil.map(Timestamp.string),
            databaseBytes: databaseBytes, blobBytes: blobBytes, blobFiles: names.count,
            totalBytes: databaseBytes + blobBytes + (FileSystem.fileSize(location.keyFile) ?? 0),
            slots: slots, counts: counts)
    }
}
