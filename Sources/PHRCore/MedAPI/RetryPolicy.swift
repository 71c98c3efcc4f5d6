import Foundation

/// When and how long to wait before asking a service again after a temporary failure (HTTP 429,
/// RxNav's 403, 5xx, a timeout, a dropped connection).
///
/// Waits grow exponentially with "equal jitter" (half the step fixed, half random), so clients
/// that failed together do not come back together, yet every retry waits at least a little.
/// A server's `Retry-After` is obeyed as a lower bound when it is reasonable; a longer demand
/// (openFDA's daily limit answers with hours) is reported to the user instead of slept through.
/// See https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/ and RFC 9110
/// section 10.2.3.
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts in all, the first one included.
    public var maxAttempts: Int
    /// The first retry waits between half this and this.
    public var baseDelay: TimeInterval
    /// No computed wait grows beyond this.
    public var maxDelay: TimeInterval
    /// The longest `Retry-After` phr sits through; a longer one ends the retries.
    public var maxRetryAfter: TimeInterval
    /// All the waits of one request together stay under this.
    public var maxTotalWait: TimeInterval

    public init(maxAttempts: Int = 4, baseDelay: TimeInterval = 0.5, maxDelay: TimeInterval = 8,
                maxRetryAfter: TimeInterval = 30, maxTotalWait: TimeInterval = 45) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
        self.maxTotalWait = maxTotalWait
    }

    /// The wait before attempt `attempt + 1`, after `attempt` failed attempts (1-based), or nil
    /// when the retries are over. `retryAfter` is the server's demand, if it made one.
    func delay<R: RandomNumberGenerator>(afterAttempt attempt: Int, retryAfter: TimeInterval?, waitedSoFar: TimeInterval,
                                         using random: inout R) -> TimeInterval? {
        guard attempt < maxAttempts else { return nil }
        let step = min(maxDelay, baseDelay * pow(2, Double(attempt - 1)))
        var wait = step / 2 + Double.random(in: 0...(step / 2), using: &random)
        if let retryAfter {
            guard retryAfter <= maxRetryAfter else { return nil }
            // A little jitter on top spreads clients that were all told the same moment.
            wait = retryAfter + Double.random(in: 0...min(1, max(0.05, retryAfter * 0.1)), using: &random)
        }
        guard waitedSoFar + wait <= maxTotalWait else { return nil }
        return wait
    }

    /// Seconds from a `Retry-After` value: delta-seconds or an HTTP-date (RFC 9110 10.2.3).
    /// Nil for anything else, so a malformed header falls back to the computed backoff.
    static func parseRetryAfter(_ value: String?, now: Date) -> TimeInterval? {
        guard let text = value?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if text.allSatisfy(\.isASCII), let seconds = Int(text), seconds >= 0 { return TimeInterval(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return max(0, date.timeIntervalSince(now)) }
        }
        return nil
    }
}
