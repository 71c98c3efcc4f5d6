// `make bench`: phr's benchmarks, each printed beside the peer or baseline it is judged against,
// measured in the same run on the same machine. Not a test: it reports, it does not assert.
//
// Usage: phr-bench [storage] [ingest] [search] [share] [healthlog] [import] [applehealth] [ocr] [labs] [journal] [screens] [mcp] [sync]   (no argument runs them all)
import Foundation

let requested = Set(CommandLine.arguments.dropFirst())
let all: [(String, () throws -> Void)] = [
    ("storage", StorageBenchmark.run),
    ("ingest", IngestBenchmark.run),
    ("search", SearchBenchmark.run),
    ("share", ShareBenchmark.run),
    ("healthlog", HealthLogBenchmark.run),
    ("import", ImportBenchmark.run),
    ("applehealth", AppleHealthBenchmark.run),
    ("ocr", OCRBenchmark.run),
    ("labs", LabBenchmark.run),
    ("journal", JournalBenchmark.run),
    ("screens", ScreensBenchmark.run),
    ("mcp", MCPBenchmark.run),
    ("sync", SyncBenchmark.run),
]
print("phr benchmarks on \(ProcessInfo.processInfo.activeProcessorCount) cores, \(Benchmark.hostDescription)")
for (name, run) in all where requested.isEmpty || requested.contains(name) {
    print("\n== \(name)")
    do {
        try run()
    } catch {
        print("benchmark \(name) failed: \(error)")
        exit(1)
    }
}
