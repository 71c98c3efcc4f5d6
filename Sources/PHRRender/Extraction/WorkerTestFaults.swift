#if DEBUG
import CPHRPoppler
import Glibc
import PHRModel

/// Test-only misbehaviour of a worker, so tests can show that a crash, hang, runaway loop or
/// memory exhaustion on one document is reported for that document alone.
///
/// Debug builds only: release builds contain neither this type nor the environment lookups.
/// Each variable holds a marker; the worker misbehaves on the first page whose text contains it,
/// before sending that page. The parent passes them via `TextExtractor.testFaults`; the worker's
/// environment is otherwise empty.
struct WorkerTestFaults {
    static let crashVariable = "PHR_TEST_EXTRACT_CRASH"
    static let hangVariable = "PHR_TEST_EXTRACT_HANG"
    static let spinVariable = "PHR_TEST_EXTRACT_SPIN"
    static let exhaustMemoryVariable = "PHR_TEST_EXTRACT_OOM"

    private let crash: String?
    private let hang: String?
    private let spin: String?
    private let exhaustMemory: String?

    init() {
        func read(_ name: String) -> String? {
            guard let value = getenv(name) else { return nil }
            let text = String(cString: value)
            return text.isEmpty ? nil : text
        }
        crash = read(Self.crashVariable)
        hang = read(Self.hangVariable)
        spin = read(Self.spinVariable)
        exhaustMemory = read(Self.exhaustMemoryVariable)
    }

    /// Misbehaves as configured if `text` contains a marker; returns otherwise.
    func trigger(pageText text: String) {
        if let crash, text.contains(crash) {
            raise(SIGSEGV)
        }
        if let hang, text.contains(hang) {
            while true { sleep(60) }
        }
        if let spin, text.contains(spin) {
            var counter: UInt64 = 0
            while true { counter = counter &+ 1; if counter == 0 { sleep(0) } }
        }
        if let exhaustMemory, text.contains(exhaustMemory) {
            // g_malloc aborts when malloc fails, as poppler's allocations do under RLIMIT_AS.
            var blocks: [UnsafeMutableRawPointer] = []
            while true {
                let block = g_malloc(64 << 20)!
                memset(block, 1, 64 << 20)
                blocks.append(block)
            }
        }
    }
}
#endif
