import Foundation
import GRDB
import Glibc
import PHRCore

/// Issue 3's benchmark: `phr doc add` beside `pdftotext` on the same 2,000+ pages, and phr's
/// memory while it ingests, both in bulk and with one ~200 MB PDF.
///
/// The release `phr` binary runs as a subprocess, as a user would run it; the vault it writes to
/// is created in-process with a cheap KDF (the release binary ignores the test hook that makes
/// `phr init` cheap, and scrypt is not what is being measured).
enum IngestBenchmark {
    static let minimumPages = 2_000
    static let measuredRounds = 3
    static let passphrase = "benchmark passphrase"
    /// 8192 x 8192 RGB at 8 bits: 201,326,592 bytes of image data, the "200 MB scan".
    static let largeImageSide = 8192

    static func run() throws {
        let phr = try BenchProcess.phrExecutable()
        let source = BenchProcess.sharedData + "/pdfs/text"
        let directory = try Benchmark.scratchDirectory("ingest")
        defer { try? FileManager.default.removeItem(atPath: directory) }

        // 1. The corpus: copies of the text PDFs, each made unique, until there are enough pages.
        let originals = try FileManager.default.contentsOfDirectory(atPath: source).filter { $0.hasSuffix(".pdf") }.sorted()
        var pagesPerFile: [String: Int] = [:]
        for name in originals { pagesPerFile[name] = try pageCount("\(source)/\(name)") }
        let pagesPerRound = pagesPerFile.values.reduce(0, +)
        let rounds = (minimumPages + pagesPerRound - 1) / pagesPerRound
        let corpus = "\(directory)/pdfs"
        try FileManager.default.createDirectory(atPath: corpus, withIntermediateDirectories: true)
        var copies: [String] = []
        for round in 1...rounds {
            for name in originals {
                let copy = "\(corpus)/copy\(String(format: "%02d", round))-\(name)"
                try makeUniqueCopy(of: "\(source)/\(name)", at: copy, round: round)
                copies.append(copy)
            }
        }
        let totalPages = pagesPerRound * rounds
        // The first round stands for all: the copies differ only in the digits of the comment.
        for name in originals {
            let copy = "\(corpus)/copy01-\(name)"
            guard try pageCount(copy) == pagesPerFile[name],
                  try BenchProcess.output(["pdftotext", "\(source)/\(name)", "-"]).text == BenchProcess.output(["pdftotext", copy, "-"]).text else {
                throw BenchmarkError.failed("\(copy): poppler reads the copy differently from the original")
            }
        }
        print("\(originals.count) text PDFs of \(source) (\(pagesPerRound) pages) copied \(rounds) times, each copy made unique by a")
        print("trailing PDF comment (pdfinfo and pdftotext read the copies as the originals): \(copies.count) files, \(totalPages) pages")

        // 2. pdftotext over every copy, one after the other, and `phr doc add` of the directory
        // into a fresh vault, alternately, three times each: other work on this 2-core machine
        // comes and goes, and alternating lets it fall on both alike. Medians are reported.
        var passes: [Pass] = []
        var adds: [Add] = []
        var indexed = (documents: 0, pages: 0, textPages: 0)
        for round in 1...measuredRounds {
            passes.append(try pdftotextPass(copies))
            let vaultPath = "\(directory)/vault\(round)"
            adds.append(try timedAdd(phr: phr, vault: vaultPath, arguments: [corpus]))
            indexed = try indexedPages(vaultPath)
            guard indexed.documents == copies.count else {
                throw BenchmarkError.failed("phr doc add stored \(indexed.documents) of \(copies.count) documents")
            }
            try FileManager.default.removeItem(atPath: vaultPath)
        }
        let baseline = median(passes.map(\.seconds))
        let baselineCPU = median(passes.map(\.cpu))
        let seconds = median(adds.map(\.seconds))
        let cpu = median(adds.map(\.cpu))
        let mainCPU = median(adds.map(\.memory.mainCPU))

        print("pdftotext: each file in turn, output to /dev/null; phr: `phr doc add DIR` (release build) into an empty vault,")
        print("extraction workers and all; alternately, median of \(measuredRounds) each; CPU is user+system of the process tree")
        Benchmark.row("", ["pdftotext", "phr doc add", "ratio"])
        Benchmark.row("wall time", [String(format: "%.2f s", baseline), String(format: "%.2f s", seconds), ""])
        Benchmark.row("pages/s (budget >= 0.8x)", [String(format: "%.0f", Double(totalPages) / baseline),
                                                   String(format: "%.0f", Double(totalPages) / seconds),
                                                   String(format: "%.2fx", baseline / seconds)])
        Benchmark.row("CPU seconds", [String(format: "%.2f s", baselineCPU), String(format: "%.2f s", cpu),
                                      String(format: "%.2fx", cpu / baselineCPU)])
        Benchmark.row("  of which phr's own process", ["", String(format: "%.2f s", mainCPU), ""])
        Benchmark.row("  of which extraction workers", ["", String(format: "%.2f s", cpu - mainCPU), ""])
        Benchmark.row("peak RSS, phr (budget < 200 MB)", ["", String(format: "%.1f MB", adds.map(\.memory.main).max()!), ""])
        Benchmark.row("peak RSS, largest worker", ["", String(format: "%.1f MB", adds.map(\.memory.largestChild).max()!), ""])
        print("runs (s): pdftotext " + passes.map { String(format: "%.2f", $0.seconds) }.joined(separator: ", ")
              + "; phr " + adds.map { String(format: "%.2f", $0.seconds) }.joined(separator: ", ")
              + "; peak RSS: the highest run")
        print("phr indexed \(indexed.pages) of \(totalPages) pages (\(indexed.textPages) with text) with \(adds[0].memory.children) extraction workers")

        // 3. One large PDF: a one-page report carrying a ~200 MB image. phr must stream it into
        // the blob store and hand the worker a descriptor, never hold it in memory.
        let large = "\(directory)/large/scan.pdf"
        try FileManager.default.createDirectory(atPath: "\(directory)/large", withIntermediateDirectories: true)
        try writeLargePDF(at: large, side: largeImageSide)
        guard try pageCount(large) == 1 else { throw BenchmarkError.failed("pdfinfo cannot read \(large)") }
        let size = Double(FileSystem.fileSize(large) ?? 0) / 1e6
        let pdftotextLarge = try BenchProcess.run(["pdftotext", large, "/dev/null"])
        guard pdftotextLarge.status == 0 else { throw BenchmarkError.failed("pdftotext \(large) exited \(pdftotextLarge.status)") }
        let largeAdd = try timedAdd(phr: phr, vault: "\(directory)/vault-large", arguments: [large])
        let largeIndexed = try indexedPages("\(directory)/vault-large")
        guard largeIndexed.textPages == 1 else { throw BenchmarkError.failed("phr did not index the text of \(large)") }
        print(String(format: "\none %.0f MB PDF (one page of text and an 8192x8192 RGB image; pdfinfo opens it):", size))
        Benchmark.row("", ["pdftotext", "phr doc add", ""])
        Benchmark.row("wall time", [String(format: "%.2f s", pdftotextLarge.seconds), String(format: "%.2f s", largeAdd.seconds), ""])
        Benchmark.row(String(format: "peak RSS, phr (file: %.0f MB)", size), ["", String(format: "%.1f MB", largeAdd.memory.main), ""])
        Benchmark.row("peak RSS, largest worker", ["", String(format: "%.1f MB", largeAdd.memory.largestChild), ""])

        // 4. A small PDF of thousands of text-heavy pages: the key-holding process keeps a
        // bounded amount of text in memory (PageSpool), whatever the page count.
        print("\ntext-heavy PDFs (60 lines of words per page, shared content streams):")
        Benchmark.row("pages", ["pdftotext", "phr doc add", "peak RSS, phr"])
        for pages in [300, 3000] {
            let path = "\(directory)/text-heavy-\(pages).pdf"
            try TextHeavyPDF.write(pages: pages, to: path)
            let reference = try BenchProcess.run(["pdftotext", path, "/dev/null"])
            let add = try timedAdd(phr: phr, vault: "\(directory)/vault-text-\(pages)", arguments: [path])
            Benchmark.row(String(format: "%d (%.1f MB file)", pages, Double(FileSystem.fileSize(path) ?? 0) / 1e6),
                          [String(format: "%.2f s", reference.seconds), String(format: "%.2f s", add.seconds),
                           String(format: "%.1f MB", add.memory.main)])
        }
    }

    // MARK: Measuring

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    struct Pass {
        var seconds: Double
        var cpu: Double
    }

    static func pdftotextPass(_ files: [String]) throws -> Pass {
        var pass = Pass(seconds: 0, cpu: 0)
        pass.seconds = try Benchmark.time {
            for file in files {
                let result = try BenchProcess.run(["pdftotext", file, "/dev/null"])
                // Anything but 0 means pdftotext could not read the copy: the comparison would be void.
                guard result.status == 0 else { throw BenchmarkError.failed("pdftotext \(file) exited \(result.status)") }
                pass.cpu += result.cpuSeconds
            }
        }
        return pass
    }

    struct Add {
        var seconds: Double
        var cpu: Double
        var memory: RSSMonitor.Peaks
    }

    /// Creates an empty vault at `vault` and times `phr doc add arguments...` into it.
    static func timedAdd(phr: String, vault: String, arguments: [String]) throws -> Add {
        _ = try Vault.create(at: VaultLocation(path: vault), passphrase: SecretBytes(copying: Array(passphrase.utf8)),
                             parameters: ScryptParameters(log2N: 10, r: 8, p: 1))
        var environment = ProcessInfo.processInfo.environment
        environment["PHR_PASSPHRASE"] = passphrase
        let errors = vault + ".stderr"
        let start = DispatchTime.now().uptimeNanoseconds
        let pid = try BenchProcess.spawn([phr, "doc", "add", "--vault", vault] + arguments, environment: environment,
                                         stdout: .null, stderr: .file(errors))
        let monitor = RSSMonitor(pid: pid)
        let (status, usage) = BenchProcess.wait(pid)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let memory = monitor.stop()
        guard status == 0 else {
            let message = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            throw BenchmarkError.failed("phr doc add exited \(status): \(message.suffix(2000))")
        }
        return Add(seconds: seconds, cpu: BenchProcess.cpuSeconds(usage), memory: memory)
    }

    /// Documents, pages and pages with text that `phr doc add` recorded, read in-process.
    static func indexedPages(_ vault: String) throws -> (documents: Int, pages: Int, textPages: Int) {
        let location = VaultLocation(path: vault)
        let keyFile = try Vault.readKeyFile(at: location)
        let keys = try Vault.unlock(keyFile: keyFile, secret: SecretBytes(copying: Array(passphrase.utf8)))
        let opened = try Vault.open(at: location, keyFile: keyFile, keys: keys)
        return try opened.database.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT count(*), coalesce(sum(page_count), 0), coalesce(sum(text_pages), 0) FROM document")!
            return (row[0], row[1], row[2])
        }
    }

    // MARK: The corpus

    static func pageCount(_ path: String) throws -> Int {
        let info = try BenchProcess.output(["pdfinfo", path])
        guard info.status == 0, let line = info.text.split(separator: "\n").first(where: { $0.hasPrefix("Pages:") }),
              let pages = Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces)) else {
            throw BenchmarkError.failed("pdfinfo cannot read \(path)")
        }
        return pages
    }

    /// The file with a PDF comment after its final %%EOF: a comment is not content, poppler
    /// still finds startxref (it searches the last kilobyte, and the comment is 20 bytes), and
    /// the bytes (and so the keyed content hash by which phr stores identical files once)
    /// differ. The leading newline matters for files whose %%EOF is not followed by one.
    static func makeUniqueCopy(of source: String, at destination: String, round: Int) throws {
        var data = try Data(contentsOf: URL(fileURLWithPath: source))
        data.append(contentsOf: Array("\n%phr-bench copy \(round)\n".utf8))
        try data.write(to: URL(fileURLWithPath: destination))
    }

    /// A valid one-page PDF: a line of text and an uncompressed RGB image of `side` x `side`
    /// pixels filled with pseudo-random bytes (nothing on the way can compress them), written
    /// in chunks so the benchmark itself never holds it either.
    static func writeLargePDF(at path: String, side: Int) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let file = FileHandle(forWritingAtPath: path) else {
            throw BenchmarkError.failed("cannot create \(path)")
        }
        defer { try? file.close() }
        var offset = 0
        var objectOffsets: [Int] = []
        func write(_ text: String) throws {
            let bytes = Data(text.utf8)
            try file.write(contentsOf: bytes)
            offset += bytes.count
        }
        func object(_ body: String) throws {
            objectOffsets.append(offset)
            try write("\(objectOffsets.count) 0 obj\n\(body)\nendobj\n")
        }
        try write("%PDF-1.7\n%\u{E2}\u{E3}\u{CF}\u{D3}\n")
        try object("<< /Type /Catalog /Pages 2 0 R >>")
        try object("<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        try object("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> /XObject << /Im1 6 0 R >> >> >>")
        let content = "BT /F1 14 Tf 72 740 Td (Imaging report: chest CT, scanned film attached, radiologist review pending) Tj ET\nq 468 0 0 468 72 200 cm /Im1 Do Q"
        try object("<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream")
        try object("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")

        let length = side * side * 3
        objectOffsets.append(offset)
        try write("6 0 obj\n<< /Type /XObject /Subtype /Image /Width \(side) /Height \(side) /ColorSpace /DeviceRGB /BitsPerComponent 8 /Length \(length) >>\nstream\n")
        var generator = SplitMix64(seed: 0x5CA7_F11E)
        let chunkWords = 1 << 19 // 4 MiB
        var chunk = [UInt64](repeating: 0, count: chunkWords)
        var remaining = length
        while remaining > 0 {
            for index in chunk.indices { chunk[index] = generator.next() }
            let count = min(remaining, chunkWords * 8)
            try chunk.withUnsafeBytes { try file.write(contentsOf: Data($0.prefix(count))) }
            remaining -= count
            offset += count
        }
        try write("\nendstream\nendobj\n")

        let xref = offset
        try write("xref\n0 \(objectOffsets.count + 1)\n0000000000 65535 f \n")
        for objectOffset in objectOffsets { try write(String(format: "%010d 00000 n \n", objectOffset)) }
        try write("trailer\n<< /Size \(objectOffsets.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n")
    }
}

// MARK: - Shared with SearchBenchmark

enum BenchmarkError: Error, CustomStringConvertible {
    case failed(String)

    var description: String {
        switch self {
        case .failed(let message): return message
        }
    }
}

/// A small, fast, seeded generator (SplitMix64), so the generated corpora are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Running other programs (phr itself, the peers) with posix_spawn and wait4, which, unlike
/// Foundation's Process, gives their CPU time (workers included) and their pid to watch.
enum BenchProcess {
    /// The third-party corpus, found as the tests find it: $PHR_TEST_DATA, else ../shared/data
    /// beside the repository (README, "Tests").
    static let sharedData: String = {
        if let path = ProcessInfo.processInfo.environment["PHR_TEST_DATA"], !path.isEmpty { return path }
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return (url.path + "/../shared/data" as NSString).standardizingPath
    }()

    /// The release `phr` built beside this `phr-bench`.
    static func phrExecutable() throws -> String {
        let own = Bundle.main.executablePath ?? CommandLine.arguments[0]
        let path = ((own as NSString).deletingLastPathComponent as NSString).appendingPathComponent("phr")
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw BenchmarkError.failed("no phr binary at \(path): build it with `swift build -c release --product phr`")
        }
        return path
    }

    enum Output {
        case null
        case file(String)
        /// A pipe the caller reads (used by `output`).
        case descriptor(Int32)
    }

    struct Result {
        var status: Int32
        var seconds: Double
        var cpuSeconds: Double
    }

    /// Starts `arguments[0]` (looked up in PATH unless it contains a slash).
    static func spawn(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
                      stdout: Output = .null, stderr: Output = .null) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for (target, output) in [(Int32(1), stdout), (Int32(2), stderr)] {
            switch output {
            case .null: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            case .file(let path): posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            case .descriptor(let fd): posix_spawn_file_actions_adddup2(&actions, fd, target)
            }
        }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        let result = posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp)
        guard result == 0 else {
            throw BenchmarkError.failed("cannot run \(arguments[0]): \(String(cString: strerror(result)))")
        }
        return pid
    }

    /// Waits for `pid`; returns its exit status (128 + signal if killed) and resource usage,
    /// which for wait4 covers the process and the children it waited for (CPU time is exact;
    /// see RSSMonitor for why ru_maxrss is not used).
    static func wait(_ pid: pid_t) -> (status: Int32, usage: rusage) {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let signal = status & 0x7F
        return (signal == 0 ? (status >> 8) & 0xFF : 128 + signal, usage)
    }

    static func cpuSeconds(_ usage: rusage) -> Double {
        Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// Runs a command to completion, its output discarded.
    static func run(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
                    stdout: Output = .null, stderr: Output = .null) throws -> Result {
        let start = DispatchTime.now().uptimeNanoseconds
        let pid = try spawn(arguments, environment: environment, stdout: stdout, stderr: stderr)
        let (status, usage) = wait(pid)
        return Result(status: status, seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9,
                      cpuSeconds: cpuSeconds(usage))
    }

    /// Runs a command and returns its exit status and standard output.
    static func output(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
                       stderr: Output = .null) throws -> (status: Int32, text: String) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw BenchmarkError.failed("pipe: \(String(cString: strerror(errno)))") }
        // Only the child's copy on descriptor 1 may outlive the exec, or the read never sees EOF.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let pid: pid_t
        do {
            pid = try spawn(arguments, environment: environment, stdout: .descriptor(ends[1]), stderr: stderr)
        } catch {
            close(ends[0])
            close(ends[1])
            throw error
        }
        close(ends[1])
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(ends[0], &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        close(ends[0])
        return (wait(pid).status, String(decoding: data, as: UTF8.self))
    }
}

/// Watches a process and its direct children (phr's extraction workers) and keeps the highest
/// VmHWM (peak resident set) seen for each, polling /proc every 10 ms until stopped. A worker
/// lives for many documents, so its VmHWM is its peak over all of them.
///
/// Not wait4's ru_maxrss: a process started with posix_spawn (vfork semantics) inherits, at its
/// exec, the high-water mark of the parent's memory it briefly shared, so ru_maxrss reports at
/// least the spawning process's own peak (phr-bench's, for phr; phr's, for a worker).
final class RSSMonitor: @unchecked Sendable {
    struct Peaks {
        /// The watched process, in MB.
        var main: Double
        /// The child with the highest peak, in MB.
        var largestChild: Double
        /// How many children were seen.
        var children: Int
        /// User and system CPU seconds of the watched process itself (not its children), as
        /// last seen.
        var mainCPU: Double
    }

    private let pid: pid_t
    private let lock = NSLock()
    private var stopping = false
    private var mainPeak = 0
    private var mainTicks = 0
    private var childPeaks: [pid_t: Int] = [:]
    private let finished = DispatchSemaphore(value: 0)

    init(pid: pid_t) {
        self.pid = pid
        let thread = Thread { [self] in
            while true {
                poll()
                lock.lock()
                let done = stopping
                lock.unlock()
                if done { break }
                usleep(10_000)
            }
            finished.signal()
        }
        thread.start()
    }

    func stop() -> Peaks {
        lock.lock()
        stopping = true
        lock.unlock()
        finished.wait()
        lock.lock()
        defer { lock.unlock() }
        return Peaks(main: Double(mainPeak) / 1024, largestChild: Double(childPeaks.values.max() ?? 0) / 1024,
                     children: childPeaks.count, mainCPU: Double(mainTicks) / Double(sysconf(Int32(_SC_CLK_TCK))))
    }

    private func poll() {
        let main = Self.peakKilobytes(pid)
        let ticks = Self.cpuTicks(pid)
        var children: [(pid_t, Int)] = []
        for task in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? [] {
            let list = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
            for child in list.split(separator: " ").compactMap({ pid_t($0) }) {
                if let peak = Self.peakKilobytes(child) { children.append((child, peak)) }
            }
        }
        lock.lock()
        defer { lock.unlock() }
        if let main { mainPeak = max(mainPeak, main) }
        if let ticks { mainTicks = max(mainTicks, ticks) }
        for (child, peak) in children { childPeaks[child] = max(childPeaks[child] ?? 0, peak) }
    }

    /// utime + stime of a process in clock ticks: fields 14 and 15 of /proc/PID/stat, counted
    /// after the command name, which is in parentheses and may itself contain spaces.
    static func cpuTicks(_ pid: pid_t) -> Int? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        // fields[0] is field 3 (state), so field n is fields[n - 3].
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    /// VmHWM of a live process in KiB (a zombie has none).
    static func peakKilobytes(_ pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }
}

/// A small PDF of many text-heavy pages for the memory measurement: twenty compressed-free
/// content streams of 60 lines of words each, shared by every page (ISO 32000, 7.5).
enum TextHeavyPDF {
    static func write(pages: Int, to path: String) throws {
        let words = ["ferritin", "haemoglobin", "patient", "glucose", "cholesterol", "thyroid", "creatinine", "sodium",
                     "potassium", "albumin", "bilirubin", "platelet", "leukocyte", "erythrocyte"]
        var objects: [String] = ["<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
        var state: UInt64 = 12345
        for _ in 0..<20 {
            let lines = (0..<60).map { line -> String in
                let text = (0..<14).map { _ -> String in
                    state = state &* 6364136223846793005 &+ 1442695040888963407
                    return words[Int(state >> 33) % words.count]
                }.joined(separator: " ")
                return "BT /F1 8 Tf 30 \(800 - line * 13) Td (\(text)) Tj ET"
            }.joined(separator: "\n")
            objects.append("<< /Length \(lines.utf8.count) >>\nstream\n\(lines)\nendstream")
        }
        let pagesID = objects.count + 1
        objects.append("")
        var kids: [Int] = []
        for page in 0..<pages {
            objects.append("<< /Type /Page /Parent \(pagesID) 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 1 0 R >> >> /Contents \(2 + page % 20) 0 R >>")
            kids.append(objects.count)
        }
        objects[pagesID - 1] = "<< /Type /Pages /Kids [\(kids.map { "\($0) 0 R" }.joined(separator: " "))] /Count \(pages) >>"
        objects.append("<< /Type /Catalog /Pages \(pagesID) 0 R >>")
        var out = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(out.utf8.count)
            out += "\(index + 1) 0 obj\n\(object)\nendobj\n"
        }
        let xref = out.utf8.count
        out += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n" + offsets.map { String(format: "%010d 00000 n \n", $0) }.joined()
        out += "trailer\n<< /Size \(objects.count + 1) /Root \(objects.count) 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        guard FileManager.default.createFile(atPath: path, contents: Data(out.utf8)) else {
            throw BenchmarkError.failed("cannot write \(path)")
        }
    }
}
