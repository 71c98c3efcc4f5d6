import Foundation

/// Keeps requests to each host under its published rate with one token bucket per host.
///
/// A request takes a token; tokens come back at `perSecond` up to `burst`. When none is left the
/// caller sleeps until one is due. Reservations are handed out under a lock and slept outside
/// it, so concurrent callers queue in order instead of all waking at once. One limiter is shared
/// by the whole process (`shared`), because the services count requests per IP address, not per
/// client object; tests make their own.
public final class RateLimiter: @unchecked Sendable {
    public static let shared = RateLimiter()

    private struct Bucket {
        var tokens: Double
        var updated: Double
    }

    private let lock = NSLock()
    private var buckets: [String: Bucket] = [:]
    private let clock: @Sendable () -> Double
    private let sleep: @Sendable (TimeInterval) -> Void

    public convenience init() {
        self.init(clock: { ProcessInfo.processInfo.systemUptime }, sleep: { Thread.sleep(forTimeInterval: $0) })
    }

    init(clock: @escaping @Sendable () -> Double, sleep: @escaping @Sendable (TimeInterval) -> Void) {
        self.clock = clock
        self.sleep = sleep
    }

    /// Takes a token for `host`, sleeping first if the bucket is empty. Returns the seconds slept.
    @discardableResult
    public func acquire(host: String, limit: RateLimit) -> TimeInterval {
        let wait = reserve(host: host, limit: limit)
        if wait > 0 { sleep(wait) }
        return wait
    }

    /// Books the next token and says how long until it is due. The bucket may go below zero:
    /// that debt is what later callers wait out, in the order they asked.
    func reserve(host: String, limit: RateLimit) -> TimeInterval {
        guard limit.perSecond > 0 else { return 0 }
        lock.lock()
        defer { lock.unlock() }
        let now = clock()
        var bucket = buckets[host] ?? Bucket(tokens: limit.burst, updated: now)
        bucket.tokens = min(limit.burst, bucket.tokens + (now - bucket.updated) * limit.perSecond)
        bucket.updated = now
        bucket.tokens -= 1
        buckets[host] = bucket
        return bucket.tokens >= 0 ? 0 : -bucket.tokens / limit.perSecond
    }
}
