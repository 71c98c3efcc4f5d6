import Glibc

/// Seconds on the monotonic clock, for the extraction deadlines: immune to the wall clock being
/// set while a worker runs.
package enum Monotonic {
    package static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
    }
}
