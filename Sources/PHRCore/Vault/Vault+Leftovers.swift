import Foundation
import GRDB
import Glibc

/// What interrupted commands leave behind, and how it goes away.
///
/// A killed `doc add` can leave a blob file whose row was never committed and an unfinished
/// write in `blobs/tmp/`; a killed `doc rm` the encrypted original of the document it removed;
/// a killed `init` or `restore` a staging directory beside the vault. All of it is encrypted, but
/// it takes space and, for a removed document, keeps an original the user meant to delete.
///
/// Removal is safe against every other phr process: writers of blobs (`doc add`) hold a shared
/// lock on `blobs/` from before they store a file until its row is committed, and a backup holds
/// the same shared lock while it copies. Leftovers are removed only under the exclusive lock,
/// taken without waiting: when another process holds `blobs/`, nothing is removed this time.
/// A blob is removed only if no `blob` row names it, read under that lock.
public struct Leftovers: Codable, Sendable, Equatable {
    /// Blob files no row references (names shortened to 12 hex digits).
    public var orphanBlobs: [String] = []
    /// Unfinished blob writes in blobs/tmp/.
    public var unfinishedBlobWrites = 0
    /// Abandoned staging directories of `init` and `restore` beside the vault.
    public var stagingDirectories: [String] = []
    /// Pages of documents a killed `doc add` or `doc reindex` was adding (inside the database).
    public var stagedPages = 0
    /// Whether they were removed (`phr check --repair`).
    public var removed = false
    /// Another phr process held blobs/; nothing was looked at or removed.
    public var busy = false

    public var isEmpty: Bool { orphanBlobs.isEmpty && unfinishedBlobWrites == 0 && stagingDirectories.isEmpty && stagedPages == 0 }

    enum CodingKeys: String, CodingKey {
        case orphanBlobs = "orphan_blobs"
        case unfinishedBlobWrites = "unfinished_blob_writes"
        case stagingDirectories = "staging_directories"
        case stagedPages = "staged_pages"
        case removed, busy
    }

    /// One line per kind, for `phr check`.
    public var descriptions: [Message] {
        if busy { return ["another phr process is writing; leftovers of interrupted commands were not looked for"] }
        let fate: Message = removed ? "removed" : "'\(Action.check(repair: true))' removes them"
        var lines: [Message] = []
        if !orphanBlobs.isEmpty {
            lines.append("\(orphanBlobs.count) blob file(s) in blobs/ belong to no record (left by an interrupted command; encrypted); \(fate)")
        }
        if unfinishedBlobWrites > 0 {
            lines.append("\(unfinishedBlobWrites) unfinished blob write(s) in blobs/tmp/ (encrypted); \(fate)")
        }
        if stagedPages > 0 {
            lines.append("\(stagedPages) page(s) of text staged by an interrupted doc add or reindex (inside the encrypted database); \(fate)")
        }
        if !stagingDirectories.isEmpty {
            let names = stagingDirectories.map { ($0 as NSString).lastPathComponent }.joined(separator: ", ")
            lines.append("\(stagingDirectories.count) unfinished init or restore director\(stagingDirectories.count == 1 ? "y" : "ies") beside the vault (\(names); encrypted); \(fate)")
        }
        return lines
    }
}

extension Vault {
    /// Finds (and with `remove`, removes) what interrupted commands left: blob files no row
    /// references (among `candidates`, or all), unfinished blob writes and abandoned staging
    /// directories. Never waits for another process.
    @discardableResult
    public func leftovers(among candidates: [String]? = nil, remove: Bool) throws -> Leftovers {
        var found = Leftovers()
        guard let lock = try FileLock.attempt(path: location.blobs, mode: .exclusive) else {
            found.busy = true
            return found
        }
        defer { withExtendedLifetime(lock) {} }
        let (referenced, staged) = try database.read { db in
            // A vault not yet migrated (checked read-only) has no staging table, and nothing staged.
            (Set(try String.fetchAll(db, sql: "SELECT name FROM blob")),
             try db.tableExists("document_page_staging")
                ? try Int.fetchOne(db, sql: "SELECT count(*) FROM document_page_staging") ?? 0 : 0)
        }
        found.stagedPages = candidates == nil ? staged : 0
        let onDisk = Set(blobs.namesOnDisk())
        let names = candidates.map { onDisk.intersection($0) } ?? onDisk
        let orphans = names.subtracting(referenced).sorted()
        found.orphanBlobs = orphans.map { String($0.prefix(12)) }
        let unfinished = FileSystem.contents(of: blobs.temporaryDirectory).filter { $0.hasSuffix(".part") }
        found.unfinishedBlobWrites = unfinished.count
        let parent = (location.root as NSString).deletingLastPathComponent
        found.stagingDirectories = candidates == nil ? StagingDirectory.abandoned(in: parent, remove: remove) : []
        guard remove else { return found }
        // The database first: if it cannot be written, nothing is removed and the error says why.
        if found.stagedPages > 0 {
            try database.write { db in try db.execute(sql: "DELETE FROM document_page_staging") }
        }
        var shards = Set<String>()
        for name in orphans {
            let path = blobs.path(for: name)
            if unlink(path) != 0 && errno != ENOENT { throw POSIXIOError(operation: "remove", path: path, code: errno) }
            shards.insert((path as NSString).deletingLastPathComponent)
        }
        for name in unfinished { unlink("\(blobs.temporaryDirectory)/\(name)") }
        for shard in shards.sorted() { try FileSystem.syncDirectory(shard) }
        found.removed = true
        return found
    }
}
