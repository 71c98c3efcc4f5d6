import Foundation

/// Drawn page images kept in memory (never on a disk), least recently used first out, within a
/// byte budget: the agent's memory stays bounded however many documents are viewed.
final class PageImageCache: @unchecked Sendable {
    struct Key: Hashable {
        /// The original's SHA-256: a document edited or replaced gets new images.
        var document: String
        var page: Int
        var size: String
    }

    let capacity: Int
    private let lock = NSLock()
    private var entries: [Key: (bytes: [UInt8], used: UInt64)] = [:]
    private var total = 0
    private var tick: UInt64 = 0

    init(capacity: Int) {
        self.capacity = capacity
    }

    var bytes: Int { lock.withLock { total } }

    func get(_ key: Key) -> [UInt8]? {
        lock.withLock {
            guard let entry = entries[key] else { return nil }
            tick += 1
            entries[key] = (entry.bytes, tick)
            return entry.bytes
        }
    }

    func put(_ key: Key, _ bytes: [UInt8]) {
        guard bytes.count <= capacity else { return }
        lock.withLock {
            if let old = entries[key] { total -= old.bytes.count }
            tick += 1
            entries[key] = (bytes, tick)
            total += bytes.count
            while total > capacity, let oldest = entries.min(by: { $0.value.used < $1.value.used }) {
                entries[oldest.key] = nil
                total -= oldest.value.bytes.count
            }
        }
    }

    /// Forgets every image (the agent locks).
    /// Forgets every image of one document (it was removed).
    func remove(document: String) {
        lock.withLock {
            for key in entries.keys where key.document == document {
                total -= entries[key]!.bytes.count
                entries[key] = nil
            }
        }
    }

    func removeAll() {
        lock.withLock {
            entries.removeAll()
            total = 0
        }
    }
}
