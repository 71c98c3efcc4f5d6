import Foundation

/// A server's "stopped" flag, set once from any thread: `set()` says whether this call was the
/// one that set it, so a stop that runs twice (a test's `defer` and `deinit`) acts once.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false

    var isSet: Bool { lock.withLock { stopped } }

    /// Sets the flag; true when it was not set before.
    func set() -> Bool {
        lock.withLock {
            defer { stopped = true }
            return !stopped
        }
    }
}
