import Foundation
import GRDB
import Glibc
import PHRCore

/// Issue 4's benchmark: 50 queries over 10,000+ documents / 30,000+ pages, in-process and as a
/// whole `phr search` process, beside `grep -ril` over the same text as files and recoll.
///
/// The corpus is synthetic medical text (a seeded generator, the same on every run) inserted
/// in-process through `SearchIndex.replace` (search needs no document rows), plus every shared
/// third-party PDF added with the real `phr doc add`. The peers get the same text: the
/// synthetic documents as one .txt file each and the shared PDFs through pdftotext.
enum SearchBenchmark {
    static let minimumDocuments = 10_000
    static let minimumPages = 30_000
    static let documentsPerTransaction = 250
    static let inProcessRounds = 7
    static let processRuns = 5
    static let peerRuns = 3
    static let veryCommonWord = "patient"
    static let passphrase = "benchmark passphrase"

    static func run() throws {
        let phr = try BenchProcess.phrExecutable()
        let directory = try Benchmark.scratchDirectory("search")
        // PHR_BENCH_KEEP=1 keeps the corpus and vault for poking at afterwards.
        let keep = ProcessInfo.processInfo.environment["PHR_BENCH_KEEP"] == "1"
        defer {
            if keep { print("kept \(directory)") } else { try? FileManager.default.removeItem(atPath: directory) }
        }
        let vaultPath = "\(directory)/vault"
        let textDirectory = "\(directory)/text"
        try FileManager.default.createDirectory(atPath: "\(textDirectory)/synthetic", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(textDirectory)/shared", withIntermediateDirectories: true)

        // 1. The synthetic corpus, into the vault in batched transactions and into text files.
        let (vault, _) = try Vault.create(at: VaultLocation(path: vaultPath), passphrase: SecretBytes(copying: Array(passphrase.utf8)),
                                          parameters: ScryptParameters(log2N: 10, r: 8, p: 1))
        let profile = try vault.database.read { db in try Profiles.resolve(db, name: nil) }
        var generator = MedicalTextGenerator(seed: 20_250_101)
        var documents = 0
        var pages = 0
        var insertSeconds = 0.0
        var batch: [(id: String, entries: [SearchIndex.Entry])] = []
        func flush() throws {
            insertSeconds += try Benchmark.time {
                try vault.database.write { db in
                    for document in batch {
                        try SearchIndex.replace(db, kind: "doc", recordID: document.id, profileID: profile.id, entries: document.entries)
                    }
                }
            }
            batch.removeAll(keepingCapacity: true)
        }
        while documents < minimumDocuments || pages < minimumPages {
            documents += 1
            let document = generator.document(number: documents)
            let id = String(format: "syn%05d", documents)
            pages += document.pages.count
            batch.append((id, document.pages.enumerated().map { index, body in
                SearchIndex.Entry(page: index + 1, title: document.title, tags: document.tags, body: body,
                                  type: document.type, date: document.date)
            }))
            // A form feed between pages, as pdftotext writes them.
            try Data(document.pages.joined(separator: "\n\u{0C}").utf8).write(to: URL(fileURLWithPath: "\(textDirectory)/synthetic/\(id).txt"))
            if batch.count == documentsPerTransaction { try flush() }
        }
        if !batch.isEmpty { try flush() }
        // What `phr doc add` does after a bulk add: one merge of the index's segments.
        let compactSeconds = try Benchmark.time {
            _ = try vault.database.write { db in try SearchIndex.compactAfterBulkChange(db, addedRows: pages) }
        }

        // 2. The shared PDFs, through the real `phr doc add` (damaged and locked ones are
        // recorded without text and it exits 65: expected), and through pdftotext for the peers.
        let pdfs = "\(BenchProcess.sharedData)/pdfs"
        var environment = ProcessInfo.processInfo.environment
        environment["PHR_PASSPHRASE"] = passphrase
        let add = try BenchProcess.run([phr, "doc", "add", "--vault", vaultPath, pdfs], environment: environment,
                                       stderr: .file("\(directory)/add.stderr"))
        guard add.status == 0 || add.status == 65 else { throw BenchmarkError.failed("phr doc add \(pdfs) exited \(add.status)") }
        let sharedFiles = FileManager.default.enumerator(atPath: pdfs)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".pdf") }.sorted() ?? []
        for file in sharedFiles {
            let name = file.replacingOccurrences(of: "/", with: "__").replacingOccurrences(of: ".pdf", with: ".txt")
            _ = try BenchProcess.run(["pdftotext", "-q", "\(pdfs)/\(file)", "\(textDirectory)/shared/\(name)"])
        }
        let corpus = try vault.database.read { db in
            try Row.fetchOne(db, sql: """
                SELECT count(DISTINCT record_id), count(*), sum(length(CAST(body AS BLOB))), sum(length(CAST(title AS BLOB)) + length(CAST(tags AS BLOB)))
                FROM search_entry
                """)!
        }
        let (indexedRecords, indexedRows, bodyBytes, titleBytes): (Int, Int, Int64, Int64) = (corpus[0], corpus[1], corpus[2], corpus[3])
        let vaultBytes = FileSystem.fileSize(VaultLocation(path: vaultPath).database) ?? 0
        let textFileBytes = try directoryBytes(textDirectory)
        print("corpus: \(documents) synthetic documents / \(pages) pages (seeded generator; \(String(format: "%.1f", Double(textFileBytes) / 1e6)) MB of text files for the peers)")
        print("        + \(sharedFiles.count) shared third-party PDFs via `phr doc add` (\(String(format: "%.1f", add.seconds)) s): \(indexedRecords) records, \(indexedRows) pages in phr's index")
        print(String(format: "synthetic pages inserted in-process through SearchIndex.replace, %d documents per transaction: %.1f s, %.0f pages/s;",
                     documentsPerTransaction, insertSeconds, Double(pages) / insertSeconds))
        print(String(format: "        then one merge of the index's segments, as after a bulk `phr doc add`: %.2f s", compactSeconds))

        // 3. recoll indexes the text directory with its own configuration in the scratch directory.
        let recollConfig = "\(directory)/recoll"
        try FileManager.default.createDirectory(atPath: recollConfig, withIntermediateDirectories: true)
        // No aspell dictionary build: phr has no such step either, and it is not search.
        try "topdirs = \(textDirectory)\nnoaspell = 1\nloglevel = 1\n".write(toFile: "\(recollConfig)/recoll.conf", atomically: true, encoding: .utf8)
        // recollindex also keeps a little state under ~/.config/Recoll.org: a scratch home keeps it here.
        var recollEnvironment = ProcessInfo.processInfo.environment
        recollEnvironment["HOME"] = "\(directory)/recoll-home"
        recollEnvironment["XDG_CONFIG_HOME"] = "\(directory)/recoll-home/.config"
        try FileManager.default.createDirectory(atPath: "\(directory)/recoll-home/.config", withIntermediateDirectories: true)
        let recollIndex = try BenchProcess.run(["recollindex", "-c", recollConfig], environment: recollEnvironment,
                                               stderr: .file("\(directory)/recollindex.stderr"))
        guard recollIndex.status == 0 else { throw BenchmarkError.failed("recollindex exited \(recollIndex.status)") }
        let recollBytes = try directoryBytes("\(recollConfig)/xapiandb")

        // 4. In-process: every query once to warm the page cache, then timed rounds.
        let queries = Self.queries
        let engine = SearchEngine(vault: vault, profile: profile)
        var phrHits: [Int] = []
        for query in queries { phrHits.append(try engine.search(query.phr).hits.count) }
        var inProcess = [[Double]](repeating: [], count: queries.count)
        for _ in 0..<inProcessRounds {
            for (index, query) in queries.enumerated() {
                inProcess[index].append(try Benchmark.time { _ = try engine.search(query.phr) })
            }
        }

        // 5. Whole processes, timed with hyperfine: `phr search` with the vault unlocked through
        // the kernel keyring (no passphrase in its environment), grep and recollq.
        var unlocked = environment
        unlocked["PHR_PASSPHRASE"] = nil
        unlocked["PHR_PASSPHRASE_FILE"] = nil
        unlocked["PHR_PASSPHRASE_COMMAND"] = nil
        let unlock = try BenchProcess.run([phr, "unlock", "--vault", vaultPath, "--for", "10m"], environment: environment)
        defer { _ = try? BenchProcess.run([phr, "lock", "--vault", vaultPath], environment: unlocked) }
        var keyringNote = "unlocked through the kernel keyring (`phr unlock --for 10m`)"
        let probe = try BenchProcess.run([phr, "search", "--vault", vaultPath, veryCommonWord], environment: unlocked)
        if unlock.status != 0 || probe.status != 0 {
            // A keyring blocked by a container's seccomp profile: the passphrase then comes from
            // the environment, and scrypt (N=2^10 here) is part of each timed process.
            unlocked = environment
            keyringNote = "KEYRING UNAVAILABLE (unlock exited \(unlock.status)): passphrase from PHR_PASSPHRASE, scrypt N=2^10 in every run"
        }
        // `--` so that a query starting with an exclusion is not read as an option.
        let phrCommands = queries.map { [phr, "search", "--vault", vaultPath, "--", $0.phr] }
        let phrProcess = try Hyperfine.medians(phrCommands + [[phr, "--version"]], runs: processRuns, warmup: 1, environment: unlocked)
        let startup = phrProcess.last!

        var grepEnvironment = ProcessInfo.processInfo.environment
        // A user's usual UTF-8 locale: grep -i then folds case in Cyrillic, Greek and the like.
        grepEnvironment["LC_ALL"] = "C.UTF-8"
        let grepCommands = queries.map { $0.grepPipeline(textDirectory) }
        var grepFiles: [Int] = []
        for command in grepCommands {
            let output = try BenchProcess.output(["sh", "-c", command], environment: grepEnvironment)
            grepFiles.append(output.text.split(separator: "\n").count)
        }
        let grepTimes = try Hyperfine.medians(grepCommands.map { [$0] }, runs: peerRuns, warmup: 0, environment: grepEnvironment,
                                              shell: true, ignoreFailure: true)

        // recollq's default output: a header, then one line per result (type, [url], [title], size).
        let recollCommands = queries.map { ["recollq", "-c", recollConfig, "-n", "20", $0.recoll] }
        var recollHits: [Int?] = []
        var recollFailures: [String] = []
        for (index, command) in recollCommands.enumerated() {
            let errors = "\(directory)/recollq.stderr"
            let output = try BenchProcess.output(command, environment: recollEnvironment, stderr: .file(errors))
            recollHits.append(output.status == 0 ? output.text.split(separator: "\n").filter { $0.contains("\t[file://") }.count : nil)
            if output.status != 0 {
                // recoll refuses some queries (a Thai run longer than its 40-byte term limit);
                // they are timed as they are, and named under the table.
                let message = ((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "").split(separator: "\n").first ?? ""
                recollFailures.append("\(queries[index].recoll): \(message)")
            }
        }
        let recollTimes = try Hyperfine.medians(recollCommands, runs: peerRuns, warmup: 0, environment: recollEnvironment,
                                                ignoreFailure: !recollFailures.isEmpty)

        // 6. With a `phr serve` agent running (issue 28): its figures print under this heading,
        // the comparison with recollq in the table below.
        let agent = try ServeBenchmark.run(vault: vault, vaultPath: vaultPath, directory: directory, phr: phr, phrCommands: phrCommands,
                                           environment: environment, unlocked: unlocked, queries: queries.map(\.phr))

        // 7. The report.
        let all = inProcess.flatMap { $0 }.sorted()
        let perQuery = inProcess.map { median($0) }
        print("\n50 queries (limit 20), in-process SearchEngine.search: \(inProcessRounds) rounds after a warm-up; processes: hyperfine,")
        print("median of \(processRuns) runs for phr, \(peerRuns) for the peers; phr search \(keyringNote)")
        print("grep: `grep -rilF` over the text files, one more `xargs grep -ilF` per further word (LC_ALL=C.UTF-8);")
        print("recoll: `recollq -n 20`; both peers get the words of filter queries without the filter, and find no typo")
        Benchmark.row("queries (median of each group)", ["phr in-process", "phr search", "grep -ril", "recoll"])
        var categories: [String] = []
        for query in queries where !categories.contains(query.category) { categories.append(query.category) }
        for category in categories {
            let members = queries.indices.filter { queries[$0].category == category }
            Benchmark.row("\(category) (\(members.count))", [milliseconds(median(members.map { perQuery[$0] })),
                                                             milliseconds(median(members.map { phrProcess[$0] })),
                                                             milliseconds(median(members.map { grepTimes[$0] })),
                                                             milliseconds(median(members.map { recollTimes[$0] }))])
        }
        Benchmark.row("all 50: median (budget 5 / 30 ms)", [milliseconds(median(all)), milliseconds(median(phrProcess.dropLast())),
                                                            milliseconds(median(grepTimes)), milliseconds(median(recollTimes))])
        Benchmark.row("all 50: p95", [milliseconds(percentile(all, 0.95)), milliseconds(percentile(phrProcess.dropLast(), 0.95)),
                                      milliseconds(percentile(grepTimes, 0.95)), milliseconds(percentile(recollTimes, 0.95))])
        Benchmark.row("all 50 with a phr serve agent: median / p95", ["", milliseconds(agent.processMedian) + " / " + milliseconds(agent.processP95),
                                                                      "", String(format: "%.2fx recoll", agent.processMedian / median(recollTimes))])
        let common = queries.firstIndex { $0.phr == veryCommonWord }!
        let commonRows = try vault.database.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM search_fts WHERE search_fts MATCH ?", arguments: [veryCommonWord])!
        }
        Benchmark.row("'\(veryCommonWord)' (budget 100 ms)", [milliseconds(perQuery[common]), milliseconds(phrProcess[common]),
                                                           milliseconds(grepTimes[common]), milliseconds(recollTimes[common])])
        Benchmark.row("process start-up (phr --version)", ["", milliseconds(startup), "", ""])
        let fasterThanGrep = queries.indices.filter { phrProcess[$0] < grepTimes[$0] }.count
        let fasterThanRecoll = queries.indices.filter { phrProcess[$0] < recollTimes[$0] }.count
        print("'\(veryCommonWord)' is on \(commonRows) of \(indexedRows) pages; `phr search` was faster than grep on \(fasterThanGrep)/50 queries, than recoll on \(fasterThanRecoll)/50")
        for failure in recollFailures { print("recollq failed (timed all the same): \(failure)") }

        print("\nindex")
        Benchmark.row("", ["size", "x text"])
        let text = Double(bodyBytes)
        Benchmark.row("extracted text (page bodies)", [megabytes(bodyBytes), "1.00x"])
        Benchmark.row("phr vault.db (all of it)", [megabytes(vaultBytes), String(format: "%.2fx", Double(vaultBytes) / text)])
        for (label, bytes) in try vaultBreakdown(vault) {
            Benchmark.row("  \(label)", [megabytes(bytes), String(format: "%.2fx", Double(bytes) / text)])
        }
        Benchmark.row("recoll xapiandb", [megabytes(recollBytes), String(format: "%.2fx", Double(recollBytes) / text)])
        let (pageSize, fill) = try vault.database.read { db in
            (try Int.fetchOne(db, sql: "PRAGMA page_size")!,
             try Double.fetchOne(db, sql: "SELECT 1.0 * sum(payload) / sum(pgsize) FROM dbstat WHERE name = 'search_entry'")!)
        }
        print(String(format: "search_entry pages are %.0f%% payload: a row averages %.0f bytes, SQLite pages are %d bytes (%d usable with phr's 32 reserved)",
                     fill * 100, Double(bodyBytes + titleBytes) / Double(indexedRows), pageSize, pageSize - 32))
        print(String(format: "(each page's row also carries its document's title and tags: %.1f MB in all)", Double(titleBytes) / 1e6))
        print(String(format: "building it: phr %.1f s (in-process inserts %.1f s + merge %.1f s + `phr doc add` of the shared PDFs %.1f s); recollindex %.1f s (%.1f CPU s)",
                     insertSeconds + compactSeconds + add.seconds, insertSeconds, compactSeconds, add.seconds, recollIndex.seconds, recollIndex.cpuSeconds))

        print("\nper query (ms; hits: phr records and recoll results, both limited to 20, and files grep lists)")
        print("query".padding(toLength: 34, withPad: " ", startingAt: 0) + "in-proc  process  grep     recoll   hits phr/grep/recoll")
        for (index, query) in queries.enumerated() {
            let label = padded(String(query.phr.prefix(32)), 34)
            let times = [perQuery[index], phrProcess[index], grepTimes[index], recollTimes[index]]
                .map { String(format: "%.1f", $0 * 1000).padding(toLength: 9, withPad: " ", startingAt: 0) }.joined()
            print(label + times + "\(phrHits[index])/\(grepFiles[index])/\(recollHits[index].map(String.init) ?? "failed")")
        }
    }

    // MARK: Figures

    static func median<S: Sequence>(_ values: S) -> Double where S.Element == Double { percentile(values, 0.5) }

    /// The value at `fraction` of the sorted values (nearest rank).
    static func percentile<S: Sequence>(_ values: S, _ fraction: Double) -> Double where S.Element == Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    static func milliseconds(_ seconds: Double) -> String {
        seconds < 0.01 ? String(format: "%.2f ms", seconds * 1000) : String(format: "%.1f ms", seconds * 1000)
    }

    /// `text` padded with spaces to `width` terminal columns (CJK and Hangul take two, Thai
    /// vowel and tone marks none), so the per-query table stays aligned.
    static func padded(_ text: String, _ width: Int) -> String {
        var columns = 0
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFF00...0xFF60, 0x20000...0x3FFFD: columns += 2
            default: columns += scalar.properties.generalCategory == .nonspacingMark ? 0 : 1
            }
        }
        return text + String(repeating: " ", count: max(0, width - columns))
    }

    static func megabytes(_ bytes: Int64) -> String { String(format: "%.1f MB", Double(bytes) / 1e6) }

    /// The bytes of the regular files under `path`.
    static func directoryBytes(_ path: String) throws -> Int64 {
        guard let enumerator = FileManager.default.enumerator(atPath: path) else { return 0 }
        var total: Int64 = 0
        while let relative = enumerator.nextObject() as? String {
            let file = "\(path)/\(relative)"
            if !FileSystem.isDirectory(file) { total += FileSystem.fileSize(file) ?? 0 }
        }
        return total
    }

    /// Bytes of the stored text (search_entry), the word index and the trigram index, from
    /// SQLite's dbstat table (each page counted once, as in the file).
    static func vaultBreakdown(_ vault: Vault) throws -> [(String, Int64)] {
        try vault.database.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name")
            var groups: [String: Int64] = [:]
            for row in rows {
                let name: String = row["name"]
                let bytes: Int64 = row["bytes"]
                let group: String
                if name.hasPrefix("search_cjk") {
                    group = "trigram index (CJK, Thai)"
                } else if name.hasPrefix("search_fts") || name.hasPrefix("search_vocab") {
                    group = "word index (FTS5)"
                } else if name.hasPrefix("search_entry") || name.hasPrefix("sqlite_autoindex_search_entry") {
                    group = "stored text (search_entry)"
                } else {
                    group = "other tables"
                }
                groups[group, default: 0] += bytes
            }
            return ["stored text (search_entry)", "word index (FTS5)", "trigram index (CJK, Thai)", "other tables"]
                .compactMap { name in groups[name].map { (name, $0) } }
        }
    }

    // MARK: The queries

    struct Query {
        var category: String
        /// As typed to `phr search`.
        var phr: String
        /// For grep: every group must match (a file matching any string of the group).
        var grep: [[String]]
        var grepExcluded: [String] = []
        /// In recoll's query language.
        var recoll: String

        /// Plain words (and, for the peers, the words of a query with phr filters).
        static func words(_ category: String, _ text: String, filters: String = "") -> Query {
            let words = text.split(separator: " ").map(String.init)
            return Query(category: category, phr: filters.isEmpty ? text : "\(text) \(filters)", grep: words.map { [$0] }, recoll: text)
        }

        static func phrase(_ text: String, filters: String = "") -> Query {
            Query(category: filters.isEmpty ? "phrase" : "filter", phr: "\"\(text)\"" + (filters.isEmpty ? "" : " \(filters)"),
                  grep: [[text]], recoll: "\"\(text)\"")
        }

        /// grep finds a prefix as a substring, which is how a person would grep for one.
        static func prefix(_ stem: String) -> Query {
            Query(category: "prefix", phr: "\(stem)*", grep: [[stem]], recoll: "\(stem)*")
        }

        /// The shell pipeline a person would type: files with the first word, narrowed by each further word.
        func grepPipeline(_ directory: String) -> String {
            func patterns(_ group: [String]) -> String { group.map { "-e " + Hyperfine.quote($0) }.joined(separator: " ") }
            var pipeline = "grep -rilF \(patterns(grep[0])) \(Hyperfine.quote(directory))"
            for group in grep.dropFirst() { pipeline += " | xargs -r -d '\\n' grep -ilF \(patterns(group))" }
            for word in grepExcluded { pipeline += " | xargs -r -d '\\n' grep -LiF -e \(Hyperfine.quote(word))" }
            return pipeline
        }
    }

    /// Fifty queries across the kinds the issue names. The rare terms are in a handful of
    /// synthetic documents (or one shared PDF); the typos are one or two edits from indexed words.
    static let queries: [Query] = [
        .words("rare term", "pheochromocytoma"),
        .words("rare term", "sarcoidosis"),
        .words("rare term", "acromegaly"),
        .words("rare term", "A-1312/B"),
        .words("rare term", "Topologie"),
        .words("rare term", "Kawasaki"),
        .words("drug name", "metformin"),
        .words("drug name", "atorvastatin"),
        .words("drug name", "levothyroxine"),
        .words("drug name", "Lévothyrox"),
        .words("drug name", "amoxicillin"),
        .words("drug name", "warfarin"),
        .words("drug name", "semaglutide"),
        .phrase("iron deficiency"),
        .phrase("shortness of breath"),
        .phrase("type 2 diabetes"),
        .phrase("chest pain"),
        .phrase("room air"),
        .phrase("essential hypertension"),
        .prefix("amox"),
        .prefix("atorva"),
        .prefix("thyro"),
        .prefix("hypert"),
        .prefix("ferrit"),
        .words("and/or/not", "ferritin low"),
        .words("and/or/not", "metformin HbA1c"),
        .words("and/or/not", "cough fever"),
        .words("and/or/not", "warfarin INR"),
        Query(category: "and/or/not", phr: "metformin OR insulin", grep: [["metformin", "insulin"]], recoll: "metformin OR insulin"),
        Query(category: "and/or/not", phr: "cough -fever", grep: [["cough"]], grepExcluded: ["fever"], recoll: "cough -fever"),
        .words("common word", veryCommonWord),
        .words("common word", "mg"),
        .words("common word", "clinic"),
        .words("common word", "results"),
        .words("common word", "daily"),
        .words("typo", "metfromin"),
        .words("typo", "atorvastain"),
        .words("typo", "levothyroxin"),
        .words("typo", "amoxicilin"),
        .words("typo", "netformin"),
        .words("CJK, Thai, Korean", "铁蛋白"),
        .words("CJK, Thai, Korean", "高血压"),
        .words("CJK, Thai, Korean", "アモキシシリン"),
        .words("CJK, Thai, Korean", "ความดันโลหิตสูง"),
        .words("CJK, Thai, Korean", "혈압"),
        .words("filter", "ferritin", filters: "type:lab"),
        .words("filter", "metformin", filters: "after:2024-01-01"),
        .words("filter", "amoxicillin", filters: "type:prescription"),
        .words("filter", "troponin", filters: "tag:cardiology"),
        .phrase("chest pain", filters: "kind:doc before:2018-01-01"),
    ]
}

/// Runs commands under hyperfine and returns each one's median wall time in seconds.
enum Hyperfine {
    /// Single quotes for sh, which hyperfine's own command splitting (-N) also understands.
    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\"'\"'") + "'"
    }

    struct Report: Decodable {
        struct Result: Decodable {
            var median: Double
        }

        var results: [Result]
    }

    /// `shell: false` runs each command directly (-N); `true` through sh, whose start-up
    /// hyperfine measures and subtracts. With `ignoreFailure` (for grep, which exits 1 when
    /// it finds nothing) a non-zero exit is timed like any other; otherwise it stops the
    /// benchmark, so a command that failed fast is never reported as a fast search.
    static func medians(_ commands: [[String]], runs: Int, warmup: Int, environment: [String: String], shell: Bool = false,
                        ignoreFailure: Bool = false) throws -> [Double] {
        let directory = try Benchmark.scratchDirectory("hyperfine")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let export = "\(directory)/report.json"
        var arguments = ["hyperfine", "--style", "none", "--runs", String(runs), "--warmup", String(warmup), "--export-json", export]
        if !shell { arguments.append("-N") }
        if ignoreFailure { arguments.append("--ignore-failure") }
        arguments += commands.map { command in shell ? command.joined(separator: " ") : command.map(quote).joined(separator: " ") }
        let result = try BenchProcess.run(arguments, environment: environment, stderr: .file("\(directory)/stderr"))
        guard result.status == 0, let data = FileManager.default.contents(atPath: export) else {
            // hyperfine's own message ends with its advice; the failing command's is more use.
            for command in commands {
                let errors = "\(directory)/command.stderr"
                let run = try BenchProcess.run(shell ? ["sh", "-c"] + command : command, environment: environment, stderr: .file(errors))
                if run.status != 0 && !ignoreFailure {
                    let message = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
                    throw BenchmarkError.failed("\(command.joined(separator: " ")) exited \(run.status): \(message.suffix(1000))")
                }
            }
            let message = (try? String(contentsOfFile: "\(directory)/stderr", encoding: .utf8)) ?? ""
            throw BenchmarkError.failed("hyperfine exited \(result.status): \(message.suffix(1000))")
        }
        let report = try JSONDecoder().decode(Report.self, from: data)
        guard report.results.count == commands.count else { throw BenchmarkError.failed("hyperfine reported \(report.results.count) of \(commands.count) commands") }
        return report.results.map(\.median)
    }
}

/// Synthetic medical documents, obviously fake, the same for a given seed on every run: lab
/// reports with values, units and reference ranges, visit notes, discharge summaries,
/// prescriptions, imaging reports, bills, insurance letters, vaccination records and referrals,
/// with clinic boilerplate, dates, codes such as A-1312/B, and some lines in Chinese, Japanese,
/// Thai, Korean and accented European languages. Pages hold 1.6-2.6 KB of text, as real ones do.
struct MedicalTextGenerator {
    struct Document {
        var title: String
        var type: String
        var date: String
        var tags: [String]
        var pages: [String]
    }

    private var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    // MARK: Choices

    private mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(random.next() % UInt64(range.count))
    }

    private mutating func chance(_ probability: Double) -> Bool {
        Double(random.next() >> 11) / Double(1 << 53) < probability
    }

    private mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }

    private mutating func value(_ low: Double, _ high: Double, digits: Int) -> Double {
        let span = high - low
        let raw = low - 0.35 * span + Double(random.next() >> 11) / Double(1 << 53) * 1.7 * span
        let scale = pow(10, Double(digits))
        return max(0, (raw * scale).rounded() / scale)
    }

    private mutating func date(from startYear: Int, to endYear: Int) -> String {
        String(format: "%04d-%02d-%02d", int(startYear...endYear), int(1...12), int(1...28))
    }

    private mutating func code() -> String {
        let letters = Array("ABCDEFGHJKLMNPRSTVWXYZ")
        return "\(pick(letters))-\(int(1000...9999))/\(pick(letters))"
    }

    // MARK: Documents

    /// Who, where and what a document is about, shared by its pages.
    private struct Context {
        var kind: Kind
        var date: String
        var clinic: Clinic
        var patient: String
        var birthDate: String
        var mrn: String
        var physician: String
        var accession: String
        var diagnoses: [Diagnosis]
        var drugs: [Drug]
    }

    enum Kind: String, CaseIterable {
        case lab, visit, prescription, discharge, imaging, bill, insurance, vaccination, referral

        /// Share of documents, in percent.
        var weight: Int {
            switch self {
            case .lab: return 34
            case .visit: return 20
            case .prescription: return 14
            case .discharge: return 8
            case .imaging: return 8
            case .bill: return 7
            case .insurance: return 4
            case .vaccination: return 3
            case .referral: return 2
            }
        }

        var pageRange: ClosedRange<Int> {
            switch self {
            case .lab: return 2...5
            case .visit: return 2...5
            case .prescription: return 1...3
            case .discharge: return 4...8
            case .imaging: return 2...4
            case .bill: return 2...4
            case .insurance: return 2...4
            case .vaccination: return 1...3
            case .referral: return 2...4
            }
        }

        var heading: String {
            switch self {
            case .lab: return "LABORATORY REPORT"
            case .visit: return "OFFICE VISIT NOTE"
            case .prescription: return "PRESCRIPTION"
            case .discharge: return "DISCHARGE SUMMARY"
            case .imaging: return "RADIOLOGY REPORT"
            case .bill: return "STATEMENT OF ACCOUNT"
            case .insurance: return "EXPLANATION OF BENEFITS"
            case .vaccination: return "IMMUNIZATION RECORD"
            case .referral: return "REFERRAL LETTER"
            }
        }
    }

    mutating func document(number: Int) -> Document {
        var roll = int(0...99)
        var kind = Kind.lab
        for candidate in Kind.allCases {
            if roll < candidate.weight {
                kind = candidate
                break
            }
            roll -= candidate.weight
        }
        var diagnoses = (0..<int(1...3)).map { _ in pick(Self.diagnoses) }
        // About one document in 500 mentions one of the rare conditions.
        if chance(0.002) { diagnoses.append(pick(Self.rareDiagnoses)) }
        let context = Context(
            kind: kind, date: date(from: 2015, to: 2025), clinic: pick(Self.clinics),
            patient: "\(pick(Self.firstNames)) \(pick(Self.lastNames))", birthDate: date(from: 1935, to: 2020),
            mrn: String(format: "%08d", int(0...99_999_999)), physician: "Dr. \(pick(Self.firstNames)) \(pick(Self.lastNames))",
            // One planted code, so that the query for "A-1312/B" has a known answer.
            accession: number == 1312 ? "A-1312/B" : code(),
            diagnoses: diagnoses, drugs: (0..<int(1...4)).map { _ in pick(Self.drugs) })
        let count = int(kind.pageRange)
        var pages: [String] = []
        var tags: Set<String> = []
        for page in 1...count {
            pages.append(self.page(page, of: count, context: context, tags: &tags))
        }
        if chance(0.15) { tags.insert(pick(Self.tags)) }
        let title = "\(kind.heading.capitalized) \(context.date) \(context.clinic.name)"
        return Document(title: title, type: kind.rawValue, date: context.date, tags: tags.sorted(), pages: pages)
    }

    private mutating func page(_ number: Int, of count: Int, context: Context, tags: inout Set<String>) -> String {
        var lines: [String] = []
        let clinic = context.clinic
        if number == 1 {
            lines += [clinic.name, clinic.address, "Tel. \(clinic.phone)  Fax \(clinic.fax)", "", context.kind.heading, "",
                      "Patient: \(context.patient)    DOB: \(context.birthDate)    MRN: \(context.mrn)",
                      "Date: \(context.date)    Provider: \(context.physician)    Accession: \(context.accession)", ""]
        } else {
            lines += ["\(clinic.name) - \(context.kind.heading.capitalized)", "Patient: \(context.patient)    MRN: \(context.mrn)    Date: \(context.date)", ""]
        }
        let target = int(1_600...2_600)
        var length = lines.reduce(0) { $0 + $1.utf8.count + 1 }
        while length < target {
            let block = self.block(context, tags: &tags)
            length += block.reduce(0) { $0 + $1.utf8.count + 1 }
            lines += block + [""]
        }
        if chance(0.035) { lines.append(pick(Self.unsegmentedLines)) }
        if chance(0.03) { lines.append(pick(Self.accentedLines)) }
        lines += [pick(Self.boilerplate), "\(clinic.name) | Page \(number) of \(count) | Printed \(context.date)"]
        return lines.joined(separator: "\n")
    }

    /// A few lines of the body, in the style of the document's kind.
    private mutating func block(_ context: Context, tags: inout Set<String>) -> [String] {
        switch context.kind {
        case .lab:
            let panel = pick(Self.panels)
            if panel.name.hasPrefix("Cardiac") { tags.insert("cardiology") }
            var lines = ["\(panel.name.uppercased())    Collected \(context.date) 07:\(String(format: "%02d", int(0...59)))    Specimen \(pick(["serum", "plasma", "whole blood", "EDTA blood"]))"]
            if chance(0.3) {
                let drug = pick(context.drugs)
                lines.append("Clinical details: \(pick(context.diagnoses).name.lowercased()); on \(drug.name.lowercased()) \(pick(drug.doses)).")
            }
            lines.append("Test                          Result        Units          Reference range   Flag")
            var comments: [String] = []
            for test in panel.tests {
                let result = value(test.low, test.high, digits: test.digits)
                let flag = result < test.low ? "L" : result > test.high ? "H" : ""
                let shown = String(format: "%.\(test.digits)f", result)
                lines.append(test.name.padding(toLength: 30, withPad: " ", startingAt: 0) + shown.padding(toLength: 14, withPad: " ", startingAt: 0)
                             + test.unit.padding(toLength: 15, withPad: " ", startingAt: 0)
                             + String(format: "%.\(test.digits)f - %.\(test.digits)f", test.low, test.high).padding(toLength: 18, withPad: " ", startingAt: 0) + flag)
                if !flag.isEmpty && comments.count < 2 {
                    let direction = flag == "L" ? "low" : "high"
                    comments.append("Comment: \(test.name) is \(direction) (\(shown) \(test.unit)); \(flag == "L" ? pick(Self.lowComments) : pick(Self.highComments))")
                }
            }
            return lines + comments + ["Method: \(pick(Self.methods)). Verified by \(pick(Self.firstNames)) \(pick(Self.lastNames)), MLS."]
        case .visit:
            return visitBlock(context)
        case .discharge:
            if chance(0.5) { return visitBlock(context) }
            let drug = pick(context.drugs)
            return ["Hospital course: \(pick(Self.courseSentences)) \(pick(Self.courseSentences))",
                    "Admitted \(context.date) via the emergency department; length of stay \(int(1...14)) days.",
                    "Discharge medication: \(drug.name) \(pick(drug.doses)), \(pick(Self.directions)).",
                    "Discharge diagnoses: " + context.diagnoses.map { "\($0.name) (\($0.code))" }.joined(separator: "; ") + ".",
                    pick(Self.instructions)]
        case .prescription:
            let drug = pick(context.drugs)
            return ["Rx: \(drug.name) \(pick(drug.doses)) \(pick(["tablet", "capsule", "oral solution", "tablet, extended release"]))",
                    "Sig: \(pick(Self.directions))",
                    "Dispense: \(pick([14, 28, 30, 56, 60, 90])) (\(pick(["fourteen", "thirty", "sixty", "ninety"])))    Refills: \(int(0...5))    Rx no. \(int(100_000...999_999))",
                    "Indication: \(pick(context.diagnoses).name.lowercased()). \(pick(["Substitution permitted.", "Dispense as written.", "Generic substitution allowed."]))",
                    "Prescriber: \(context.physician), licence \(code())"]
        case .imaging:
            let exam = pick(Self.imagingExams)
            return ["Examination: \(exam)    Order \(code())",
                    "Clinical indication: \(pick(Self.symptoms)); history of \(pick(context.diagnoses).name.lowercased()).",
                    "Technique: \(pick(Self.techniques))",
                    "Findings: \(pick(Self.findings)) \(pick(Self.findings)) \(pick(Self.findings))",
                    "Impression: \(pick(Self.impressions))"]
        case .bill:
            var lines = ["Service date  Code    Description                                   Charge     Insurance  Due"]
            var total = 0
            for _ in 0..<int(3...7) {
                let item = pick(Self.billItems)
                let charge = int(item.low...item.high)
                let paid = charge * int(50...90) / 100
                total += charge - paid
                lines.append("\(context.date)  \(item.code)   \(item.text.padding(toLength: 44, withPad: " ", startingAt: 0)) $\(charge).00   $\(paid).00    $\(charge - paid).00")
            }
            return lines + ["Balance due for this visit: $\(total).00. Account \(context.mrn). \(pick(Self.billingNotes))"]
        case .insurance:
            return ["Member: \(context.patient)    Member ID \(pick(["W", "X", "Z"]))\(int(100_000_000...999_999_999))    Group \(int(10_000...99_999))",
                    "Plan: \(pick(Self.plans))    Claim \(code())    Provider: \(context.clinic.name)",
                    "Billed $\(int(80...4_000)).00, allowed $\(int(60...3_000)).00, deductible $\(int(0...500)).00, coinsurance \(pick([10, 20, 30]))%, copay $\(pick([10, 20, 25, 40])).00",
                    pick(Self.insuranceNotes)]
        case .vaccination:
            var lines = ["Vaccine                                   Date         Dose   Lot        Site"]
            for _ in 0..<int(3...6) {
                let vaccine = pick(Self.vaccines)
                let site = vaccine.hasSuffix("(oral)") ? "oral" : pick(["left deltoid", "right deltoid", "left thigh"])
                lines.append("\(vaccine.padding(toLength: 42, withPad: " ", startingAt: 0))\(date(from: 2010, to: 2025))   \(int(1...3))      \(pick(["FL", "EH", "MR", "PF", "TD"]))\(int(1000...9999))     \(site)")
            }
            return lines + ["Next due: \(pick(Self.vaccines)) on \(date(from: 2025, to: 2027)). Adverse reactions: \(pick(["none reported", "mild soreness at injection site", "low-grade fever for 24 hours"]))."]
        case .referral:
            return ["Dear colleague, I would be grateful if you could see \(context.patient) regarding \(pick(context.diagnoses).name.lowercased()).",
                    "\(pick(Self.hpiSentences)) \(pick(Self.hpiSentences))",
                    "Current medication: " + context.drugs.map { "\($0.name) \(pick($0.doses))" }.joined(separator: ", ") + ".",
                    "Referred to: \(pick(Self.specialties)), \(pick(Self.clinics).name). Urgency: \(pick(["routine", "soon", "urgent"])).",
                    "Yours sincerely, \(context.physician)"]
        }
    }

    private mutating func visitBlock(_ context: Context) -> [String] {
        let drug = pick(context.drugs)
        let diagnosis = pick(context.diagnoses)
        switch int(0...3) {
        case 0:
            return ["Chief complaint: \(pick(Self.symptoms)) for \(int(2...21)) days.",
                    "History of present illness: \(pick(Self.hpiSentences)) \(pick(Self.hpiSentences)) \(pick(Self.hpiSentences))",
                    "Review of systems: no \(pick(Self.symptoms)), no \(pick(Self.symptoms)); \(pick(Self.symptoms)) as above."]
        case 1:
            let tests = (0..<3).map { _ in pick(pick(Self.panels).tests) }
            let results = tests.map { "\($0.name) " + String(format: "%.\($0.digits)f", value($0.low, $0.high, digits: $0.digits)) + ($0.unit.isEmpty ? "" : " \($0.unit)") }
            return [String(format: "Vital signs: BP %d/%d mmHg, HR %d bpm, RR %d/min, temperature %.1f °C, SpO2 %d%% on room air, weight %.1f kg.",
                           int(98...172), int(58...104), int(52...118), int(12...24), value(36.4, 37.6, digits: 1), int(91...100), value(55, 100, digits: 1)),
                    "Examination: \(pick(Self.examSentences)) \(pick(Self.examSentences))",
                    "Recent results: " + results.joined(separator: ", ") + "."]
        case 2:
            return ["Assessment: \(diagnosis.name) (\(diagnosis.code)). \(pick(Self.assessmentSentences))",
                    "Plan: \(pick(["start", "continue", "increase", "reduce", "stop"])) \(drug.name) \(pick(drug.doses)), \(pick(Self.directions)). \(pick(Self.planSentences))"]
        default:
            return ["\(pick(Self.counselling)) Follow up in \(int(1...6)) \(pick(["weeks", "months"])) or sooner if \(pick(Self.symptoms)) worsens.",
                    "Allergies: \(pick(Self.allergies)). Current medications reviewed and reconciled."]
        }
    }

    // MARK: Vocabulary

    struct Clinic {
        var name: String
        var address: String
        var phone: String
        var fax: String
    }

    struct Diagnosis {
        var name: String
        var code: String
    }

    struct Drug {
        var name: String
        var doses: [String]
    }

    struct LabTest {
        var name: String
        var unit: String
        var low: Double
        var high: Double
        var digits: Int
    }

    struct Panel {
        var name: String
        var tests: [LabTest]
    }

    struct BillItem {
        var code: String
        var text: String
        var low: Int
        var high: Int
    }

    static let clinics: [Clinic] = [
        Clinic(name: "Riverside Family Clinic", address: "14 Mill Lane, Riverside", phone: "555-0142", fax: "555-0143"),
        Clinic(name: "Northgate Medical Centre", address: "220 Northgate Road, Suite 4", phone: "555-0177", fax: "555-0178"),
        Clinic(name: "Harbor Diagnostics Laboratory", address: "9 Quay Street, Harbor District", phone: "555-0190", fax: "555-0191"),
        Clinic(name: "St. Brigid's General Hospital", address: "1 Hospital Drive", phone: "555-0100", fax: "555-0101"),
        Clinic(name: "Lakeside Pediatrics", address: "75 Shore Avenue", phone: "555-0123", fax: "555-0124"),
        Clinic(name: "Westfield Heart and Vascular Institute", address: "400 Westfield Parkway", phone: "555-0155", fax: "555-0156"),
        Clinic(name: "Oakwood Imaging Center", address: "31 Oakwood Boulevard", phone: "555-0166", fax: "555-0167"),
        Clinic(name: "Meadowbrook Community Health", address: "8 Meadow Close", phone: "555-0111", fax: "555-0112"),
        Clinic(name: "Summit Endocrinology Associates", address: "600 Summit Street, Floor 3", phone: "555-0188", fax: "555-0189"),
        Clinic(name: "Greenhill Urgent Care", address: "12 Greenhill Plaza", phone: "555-0133", fax: "555-0134"),
    ]

    static let firstNames = ["Alex", "Maria", "James", "Fatima", "Chen", "Olga", "Samuel", "Priya", "Lucas", "Aisha", "Noah", "Elena",
                             "Kenji", "Sofia", "Daniel", "Amara", "Mateo", "Hannah", "Ravi", "Ingrid", "Tomás", "Leila", "Oliver", "Mei"]
    static let lastNames = ["Testperson", "Sample", "Example", "Placeholder", "Dummy", "Fictive", "Mockford", "Specimen", "Demo",
                            "Notreal", "Madeup", "Lorem", "Ipsum", "Synthetic", "Pretend"]

    static let diagnoses: [Diagnosis] = [
        Diagnosis(name: "Essential hypertension", code: "I10"), Diagnosis(name: "Type 2 diabetes mellitus without complications", code: "E11.9"),
        Diagnosis(name: "Hyperlipidemia", code: "E78.5"), Diagnosis(name: "Iron deficiency anaemia", code: "D50.9"),
        Diagnosis(name: "Hypothyroidism", code: "E03.9"), Diagnosis(name: "Asthma, unspecified", code: "J45.909"),
        Diagnosis(name: "Chronic obstructive pulmonary disease", code: "J44.9"), Diagnosis(name: "Major depressive disorder, single episode", code: "F32.9"),
        Diagnosis(name: "Generalized anxiety disorder", code: "F41.1"), Diagnosis(name: "Migraine without aura", code: "G43.009"),
        Diagnosis(name: "Gastro-oesophageal reflux disease", code: "K21.9"), Diagnosis(name: "Primary osteoarthritis of the right knee", code: "M17.11"),
        Diagnosis(name: "Low back pain", code: "M54.50"), Diagnosis(name: "Urinary tract infection", code: "N39.0"),
        Diagnosis(name: "Acute bronchitis", code: "J20.9"), Diagnosis(name: "Community-acquired pneumonia", code: "J18.9"),
        Diagnosis(name: "Atrial fibrillation", code: "I48.91"), Diagnosis(name: "Heart failure with reduced ejection fraction", code: "I50.20"),
        Diagnosis(name: "Chronic kidney disease, stage 3", code: "N18.30"), Diagnosis(name: "Obesity", code: "E66.9"),
        Diagnosis(name: "Vitamin D deficiency", code: "E55.9"), Diagnosis(name: "Gout", code: "M10.9"),
        Diagnosis(name: "Psoriasis vulgaris", code: "L40.0"), Diagnosis(name: "Atopic dermatitis", code: "L20.9"),
        Diagnosis(name: "Allergic rhinitis", code: "J30.9"), Diagnosis(name: "Acute otitis media", code: "H66.90"),
        Diagnosis(name: "Streptococcal pharyngitis", code: "J02.0"), Diagnosis(name: "Acute sinusitis", code: "J01.90"),
        Diagnosis(name: "Cellulitis of the lower limb", code: "L03.119"), Diagnosis(name: "Cholelithiasis", code: "K80.20"),
        Diagnosis(name: "Kidney stone", code: "N20.0"), Diagnosis(name: "Benign prostatic hyperplasia", code: "N40.0"),
        Diagnosis(name: "Osteoporosis", code: "M81.0"), Diagnosis(name: "Rheumatoid arthritis", code: "M06.9"),
        Diagnosis(name: "Epilepsy", code: "G40.909"), Diagnosis(name: "Obstructive sleep apnoea", code: "G47.33"),
        Diagnosis(name: "Insomnia", code: "G47.00"), Diagnosis(name: "Concussion", code: "S06.0X0A"),
        Diagnosis(name: "Sprain of the left ankle", code: "S93.402A"), Diagnosis(name: "Gestational diabetes", code: "O24.419"),
        Diagnosis(name: "Bronchiolitis", code: "J21.9"), Diagnosis(name: "Viral gastroenteritis", code: "A08.4"),
        Diagnosis(name: "COVID-19", code: "U07.1"), Diagnosis(name: "Influenza", code: "J11.1"),
        Diagnosis(name: "Herpes zoster", code: "B02.9"), Diagnosis(name: "Type 1 diabetes mellitus", code: "E10.9"),
        Diagnosis(name: "Anaemia of chronic disease", code: "D63.8"), Diagnosis(name: "Essential tremor", code: "G25.0"),
    ]

    static let rareDiagnoses: [Diagnosis] = [
        Diagnosis(name: "Pheochromocytoma", code: "D35.00"), Diagnosis(name: "Sarcoidosis of lung", code: "D86.0"),
        Diagnosis(name: "Acromegaly", code: "E22.0"), Diagnosis(name: "Kawasaki disease", code: "M30.3"),
        Diagnosis(name: "Acute intermittent porphyria", code: "E80.21"),
    ]

    static let drugs: [Drug] = [
        Drug(name: "Metformin", doses: ["500 mg", "850 mg", "1000 mg"]), Drug(name: "Atorvastatin", doses: ["10 mg", "20 mg", "40 mg", "80 mg"]),
        Drug(name: "Lisinopril", doses: ["5 mg", "10 mg", "20 mg"]), Drug(name: "Amlodipine", doses: ["2.5 mg", "5 mg", "10 mg"]),
        Drug(name: "Levothyroxine", doses: ["25 mcg", "50 mcg", "75 mcg", "100 mcg"]), Drug(name: "Omeprazole", doses: ["20 mg", "40 mg"]),
        Drug(name: "Losartan", doses: ["25 mg", "50 mg", "100 mg"]), Drug(name: "Albuterol inhaler", doses: ["90 mcg/puff"]),
        Drug(name: "Gabapentin", doses: ["100 mg", "300 mg", "600 mg"]), Drug(name: "Hydrochlorothiazide", doses: ["12.5 mg", "25 mg"]),
        Drug(name: "Sertraline", doses: ["25 mg", "50 mg", "100 mg"]), Drug(name: "Furosemide", doses: ["20 mg", "40 mg"]),
        Drug(name: "Amoxicillin", doses: ["250 mg", "500 mg", "875 mg"]), Drug(name: "Amoxicillin-clavulanate", doses: ["875/125 mg"]),
        Drug(name: "Azithromycin", doses: ["250 mg", "500 mg"]), Drug(name: "Prednisone", doses: ["5 mg", "10 mg", "20 mg"]),
        Drug(name: "Ibuprofen", doses: ["200 mg", "400 mg", "600 mg"]), Drug(name: "Paracetamol", doses: ["500 mg", "1 g"]),
        Drug(name: "Warfarin", doses: ["1 mg", "2 mg", "5 mg"]), Drug(name: "Apixaban", doses: ["2.5 mg", "5 mg"]),
        Drug(name: "Rivaroxaban", doses: ["15 mg", "20 mg"]), Drug(name: "Clopidogrel", doses: ["75 mg"]),
        Drug(name: "Insulin glargine", doses: ["10 units", "18 units", "24 units"]), Drug(name: "Insulin lispro", doses: ["4 units", "6 units"]),
        Drug(name: "Metoprolol succinate", doses: ["25 mg", "50 mg"]), Drug(name: "Carvedilol", doses: ["3.125 mg", "6.25 mg", "12.5 mg"]),
        Drug(name: "Pantoprazole", doses: ["40 mg"]), Drug(name: "Escitalopram", doses: ["5 mg", "10 mg"]),
        Drug(name: "Fluoxetine", doses: ["20 mg"]), Drug(name: "Bupropion", doses: ["150 mg"]), Drug(name: "Tramadol", doses: ["50 mg"]),
        Drug(name: "Montelukast", doses: ["4 mg", "10 mg"]), Drug(name: "Rosuvastatin", doses: ["5 mg", "10 mg", "20 mg"]),
        Drug(name: "Tamsulosin", doses: ["0.4 mg"]), Drug(name: "Allopurinol", doses: ["100 mg", "300 mg"]),
        Drug(name: "Colchicine", doses: ["0.5 mg", "0.6 mg"]), Drug(name: "Methotrexate", doses: ["7.5 mg weekly", "15 mg weekly"]),
        Drug(name: "Hydroxychloroquine", doses: ["200 mg"]), Drug(name: "Doxycycline", doses: ["100 mg"]),
        Drug(name: "Cephalexin", doses: ["250 mg", "500 mg"]), Drug(name: "Ciprofloxacin", doses: ["250 mg", "500 mg"]),
        Drug(name: "Nitrofurantoin", doses: ["100 mg"]), Drug(name: "Fluticasone nasal spray", doses: ["50 mcg/spray"]),
        Drug(name: "Budesonide-formoterol", doses: ["160/4.5 mcg"]), Drug(name: "Tiotropium", doses: ["18 mcg"]),
        Drug(name: "Spironolactone", doses: ["25 mg", "50 mg"]), Drug(name: "Valsartan", doses: ["80 mg", "160 mg"]),
        Drug(name: "Ramipril", doses: ["2.5 mg", "5 mg", "10 mg"]), Drug(name: "Diltiazem", doses: ["120 mg", "180 mg"]),
        Drug(name: "Digoxin", doses: ["0.125 mg", "0.25 mg"]), Drug(name: "Amiodarone", doses: ["200 mg"]),
        Drug(name: "Sitagliptin", doses: ["50 mg", "100 mg"]), Drug(name: "Empagliflozin", doses: ["10 mg", "25 mg"]),
        Drug(name: "Dapagliflozin", doses: ["10 mg"]), Drug(name: "Semaglutide", doses: ["0.25 mg weekly", "0.5 mg weekly", "1 mg weekly"]),
        Drug(name: "Liraglutide", doses: ["0.6 mg", "1.2 mg"]), Drug(name: "Glipizide", doses: ["5 mg", "10 mg"]),
        Drug(name: "Levetiracetam", doses: ["500 mg", "750 mg"]), Drug(name: "Lamotrigine", doses: ["25 mg", "100 mg"]),
        Drug(name: "Sumatriptan", doses: ["50 mg", "100 mg"]), Drug(name: "Zolpidem", doses: ["5 mg"]),
        Drug(name: "Quetiapine", doses: ["25 mg", "100 mg"]), Drug(name: "Venlafaxine", doses: ["75 mg", "150 mg"]),
        Drug(name: "Duloxetine", doses: ["30 mg", "60 mg"]), Drug(name: "Mirtazapine", doses: ["15 mg", "30 mg"]),
        Drug(name: "Ondansetron", doses: ["4 mg", "8 mg"]), Drug(name: "Ferrous sulfate", doses: ["325 mg"]),
        Drug(name: "Folic acid", doses: ["1 mg", "5 mg"]), Drug(name: "Cholecalciferol (vitamin D3)", doses: ["1000 IU", "50000 IU weekly"]),
        Drug(name: "Alendronate", doses: ["70 mg weekly"]), Drug(name: "Estradiol", doses: ["1 mg", "2 mg"]),
        Drug(name: "Cetirizine", doses: ["10 mg"]), Drug(name: "Epinephrine auto-injector", doses: ["0.3 mg", "0.15 mg"]),
        Drug(name: "Potassium chloride", doses: ["20 mEq"]), Drug(name: "Magnesium oxide", doses: ["400 mg"]),
    ]

    static let panels: [Panel] = [
        Panel(name: "Complete blood count", tests: [
            LabTest(name: "Hemoglobin", unit: "g/dL", low: 12, high: 16, digits: 1), LabTest(name: "Hematocrit", unit: "%", low: 36, high: 46, digits: 1),
            LabTest(name: "WBC", unit: "10^9/L", low: 4, high: 11, digits: 1), LabTest(name: "RBC", unit: "10^12/L", low: 4.2, high: 5.4, digits: 2),
            LabTest(name: "Platelets", unit: "10^9/L", low: 150, high: 400, digits: 0), LabTest(name: "MCV", unit: "fL", low: 80, high: 100, digits: 0),
            LabTest(name: "MCH", unit: "pg", low: 27, high: 33, digits: 1), LabTest(name: "Neutrophils", unit: "10^9/L", low: 2, high: 7.5, digits: 1),
            LabTest(name: "Lymphocytes", unit: "10^9/L", low: 1, high: 4, digits: 1),
        ]),
        Panel(name: "Basic metabolic panel", tests: [
            LabTest(name: "Sodium", unit: "mmol/L", low: 135, high: 145, digits: 0), LabTest(name: "Potassium", unit: "mmol/L", low: 3.5, high: 5.1, digits: 1),
            LabTest(name: "Chloride", unit: "mmol/L", low: 98, high: 107, digits: 0), LabTest(name: "Bicarbonate", unit: "mmol/L", low: 22, high: 29, digits: 0),
            LabTest(name: "Urea nitrogen (BUN)", unit: "mg/dL", low: 7, high: 20, digits: 0), LabTest(name: "Creatinine", unit: "mg/dL", low: 0.6, high: 1.2, digits: 2),
            LabTest(name: "eGFR", unit: "mL/min/1.73m2", low: 60, high: 120, digits: 0), LabTest(name: "Glucose", unit: "mg/dL", low: 70, high: 99, digits: 0),
            LabTest(name: "Calcium", unit: "mg/dL", low: 8.6, high: 10.3, digits: 1),
        ]),
        Panel(name: "Lipid panel", tests: [
            LabTest(name: "Total cholesterol", unit: "mg/dL", low: 125, high: 200, digits: 0), LabTest(name: "LDL cholesterol", unit: "mg/dL", low: 50, high: 130, digits: 0),
            LabTest(name: "HDL cholesterol", unit: "mg/dL", low: 40, high: 80, digits: 0), LabTest(name: "Triglycerides", unit: "mg/dL", low: 40, high: 150, digits: 0),
        ]),
        Panel(name: "Thyroid function", tests: [
            LabTest(name: "TSH", unit: "mIU/L", low: 0.4, high: 4.0, digits: 2), LabTest(name: "Free T4", unit: "ng/dL", low: 0.8, high: 1.8, digits: 2),
            LabTest(name: "Free T3", unit: "pg/mL", low: 2.3, high: 4.2, digits: 1),
        ]),
        Panel(name: "Iron studies", tests: [
            LabTest(name: "Ferritin", unit: "ng/mL", low: 15, high: 150, digits: 0), LabTest(name: "Serum iron", unit: "ug/dL", low: 60, high: 170, digits: 0),
            LabTest(name: "Transferrin saturation", unit: "%", low: 20, high: 50, digits: 0), LabTest(name: "TIBC", unit: "ug/dL", low: 250, high: 450, digits: 0),
        ]),
        Panel(name: "Liver function tests", tests: [
            LabTest(name: "ALT", unit: "U/L", low: 7, high: 56, digits: 0), LabTest(name: "AST", unit: "U/L", low: 10, high: 40, digits: 0),
            LabTest(name: "Alkaline phosphatase", unit: "U/L", low: 44, high: 147, digits: 0), LabTest(name: "GGT", unit: "U/L", low: 9, high: 48, digits: 0),
            LabTest(name: "Bilirubin, total", unit: "mg/dL", low: 0.1, high: 1.2, digits: 1), LabTest(name: "Albumin", unit: "g/dL", low: 3.5, high: 5.0, digits: 1),
        ]),
        Panel(name: "Diabetes monitoring", tests: [
            LabTest(name: "HbA1c", unit: "%", low: 4.0, high: 5.6, digits: 1), LabTest(name: "Fasting glucose", unit: "mg/dL", low: 70, high: 99, digits: 0),
            LabTest(name: "Urine albumin/creatinine ratio", unit: "mg/g", low: 0, high: 30, digits: 0),
        ]),
        Panel(name: "Cardiac markers", tests: [
            LabTest(name: "Troponin I, high sensitivity", unit: "ng/L", low: 0, high: 34, digits: 0), LabTest(name: "BNP", unit: "pg/mL", low: 0, high: 100, digits: 0),
            LabTest(name: "CK-MB", unit: "ng/mL", low: 0, high: 5, digits: 1),
        ]),
        Panel(name: "Inflammation markers", tests: [
            LabTest(name: "C-reactive protein", unit: "mg/L", low: 0, high: 5, digits: 1), LabTest(name: "ESR", unit: "mm/h", low: 0, high: 20, digits: 0),
        ]),
        Panel(name: "Vitamins", tests: [
            LabTest(name: "Vitamin D, 25-hydroxy", unit: "ng/mL", low: 30, high: 100, digits: 0), LabTest(name: "Vitamin B12", unit: "pg/mL", low: 200, high: 900, digits: 0),
            LabTest(name: "Folate", unit: "ng/mL", low: 2.7, high: 17, digits: 1),
        ]),
        Panel(name: "Coagulation", tests: [
            LabTest(name: "INR", unit: "", low: 0.8, high: 1.2, digits: 1), LabTest(name: "Prothrombin time", unit: "s", low: 11, high: 13.5, digits: 1),
            LabTest(name: "aPTT", unit: "s", low: 25, high: 35, digits: 0),
        ]),
    ]

    static let lowComments = ["consistent with iron deficiency; suggest repeat in 3 months.", "please correlate clinically.",
                              "result confirmed on repeat analysis.", "consider supplementation and dietary advice."]
    static let highComments = ["repeat fasting sample recommended.", "result phoned to the ordering clinician.",
                               "please correlate clinically.", "may reflect recent illness or medication."]
    static let methods = ["photometry on an automated analyser", "flow cytometry", "immunoassay (chemiluminescence)",
                          "HPLC, NGSP certified", "ion-selective electrode"]

    static let symptoms = ["cough", "fever", "fatigue", "headache", "chest pain", "shortness of breath", "nausea", "dizziness",
                           "abdominal pain", "rash", "joint pain", "palpitations", "sore throat", "back pain", "insomnia",
                           "weight loss", "night sweats", "wheezing", "diarrhoea", "constipation", "ear pain", "swelling of the ankles"]
    static let hpiSentences = [
        "The patient reports gradual onset of symptoms without a clear trigger.", "Symptoms are worse at night and improve with rest.",
        "No recent travel or sick contacts.", "Pain is rated 5 out of 10 and does not radiate.",
        "She has been taking the medication as prescribed with no missed doses.", "He denies fever, chills or weight loss.",
        "Over-the-counter paracetamol gave partial relief.", "Home blood pressure readings have averaged 145/90 mmHg.",
        "Blood glucose self-monitoring shows fasting values between 130 and 160 mg/dL.", "Appetite is reduced; sleep is disturbed.",
        "There is a family history of type 2 diabetes and ischaemic heart disease.", "The patient is a non-smoker and drinks alcohol rarely.",
    ]
    static let examSentences = [
        "Alert and oriented, in no acute distress.", "Chest clear to auscultation bilaterally, no wheeze or crackles.",
        "Heart sounds regular, no murmurs.", "Abdomen soft, non-tender, no organomegaly.", "No peripheral oedema.",
        "Throat erythematous with enlarged tonsils.", "Tympanic membrane bulging on the left.", "Skin warm, no rash.",
        "Reduced range of motion of the right knee with crepitus.", "Thyroid not enlarged, no nodules palpable.",
    ]
    static let assessmentSentences = [
        "Condition is stable on current treatment.", "Symptoms are improving.", "Control is suboptimal; treatment adjusted.",
        "Likely viral; supportive care advised.", "Findings discussed with the patient, who agrees with the plan.",
    ]
    static let planSentences = [
        "Repeat blood tests in 3 months.", "Referral to physiotherapy.", "Lifestyle advice given on diet and exercise.",
        "Patient given written information.", "Return precautions discussed.", "Check renal function and electrolytes in 2 weeks.",
    ]
    static let counselling = [
        "Counselled on diet, exercise and medication adherence.", "Smoking cessation advice given.",
        "Discussed the risks and benefits of treatment.", "Patient educated on inhaler technique.",
        "Advised on hydration and rest.", "Reviewed blood pressure self-monitoring technique.",
    ]
    static let allergies = ["no known drug allergies", "penicillin (rash)", "sulfonamides (hives)", "latex", "peanuts (anaphylaxis)",
                            "codeine (nausea)", "iodinated contrast (hives)"]
    static let directions = [
        "take 1 tablet by mouth once daily", "take 1 tablet by mouth twice daily with meals", "take 1 tablet at bedtime",
        "take 1 capsule three times daily for 7 days", "inhale 2 puffs every 4 to 6 hours as needed for wheezing",
        "inject subcutaneously once daily in the evening", "take 1 tablet every 8 hours as needed for pain, maximum 3 per day",
        "take on an empty stomach 30 minutes before breakfast", "take 1 tablet once weekly",
    ]
    static let courseSentences = [
        "The patient was treated with intravenous antibiotics and improved steadily.", "Oxygen was weaned to room air by day 3.",
        "Telemetry showed no arrhythmia.", "Renal function returned to baseline after fluids.",
        "Pain was controlled with oral analgesia.", "The patient was reviewed by the cardiology team.",
        "Blood cultures remained negative at 48 hours.", "Mobilising independently at discharge.",
    ]
    static let instructions = [
        "Return to the emergency department if chest pain, shortness of breath or fever develops.",
        "Follow up with your family doctor in 1 week.", "Keep the wound clean and dry; sutures out in 10 days.",
        "Do not drive for 24 hours.", "Resume normal diet as tolerated.",
    ]
    static let imagingExams = ["Chest X-ray, PA and lateral", "CT chest without contrast", "CT abdomen and pelvis with contrast",
                               "MRI brain without contrast", "Ultrasound abdomen", "Ultrasound thyroid", "MRI right knee",
                               "Echocardiogram, transthoracic", "DEXA bone density scan", "Mammogram, bilateral screening"]
    static let techniques = ["Standard protocol; no contrast administered.", "Axial images with coronal and sagittal reformats.",
                             "Real-time grey-scale and colour Doppler imaging.", "Multiplanar multisequence imaging at 1.5 T."]
    static let findings = [
        "The lungs are clear.", "No pleural effusion or pneumothorax.", "Heart size is normal.", "Mild degenerative change of the spine.",
        "A 4 mm nodule in the right lower lobe.", "The liver is normal in size and echotexture.", "Gallstones without wall thickening.",
        "No acute intracranial abnormality.", "Small joint effusion with a medial meniscal tear.", "Left ventricular ejection fraction 55%.",
        "Bone mineral density T-score -2.6 at the lumbar spine.", "No suspicious mass or calcification.",
    ]
    static let impressions = ["No acute cardiopulmonary process.", "Findings consistent with cholelithiasis.",
                              "Small pulmonary nodule; follow-up CT in 12 months recommended.", "Osteoporosis.",
                              "Medial meniscal tear.", "Normal study.", "Changes suggestive of early osteoarthritis."]
    static let billItems: [BillItem] = [
        BillItem(code: "99213", text: "Office visit, established patient", low: 95, high: 160),
        BillItem(code: "99214", text: "Office visit, established, moderate", low: 140, high: 230),
        BillItem(code: "85025", text: "Complete blood count with differential", low: 20, high: 45),
        BillItem(code: "80053", text: "Comprehensive metabolic panel", low: 30, high: 70),
        BillItem(code: "83036", text: "Hemoglobin A1c", low: 25, high: 50),
        BillItem(code: "71046", text: "Chest X-ray, two views", low: 80, high: 190),
        BillItem(code: "90686", text: "Influenza vaccine, quadrivalent", low: 30, high: 60),
        BillItem(code: "93000", text: "Electrocardiogram with interpretation", low: 40, high: 90),
        BillItem(code: "36415", text: "Routine venipuncture", low: 10, high: 25),
    ]
    static let billingNotes = ["Payment is due within 30 days.", "Questions about this statement? Call our billing office.",
                               "Pay online with the account number above.", "A payment plan is available on request."]
    static let plans = ["Blue Meadow PPO Gold", "Harbor Health HMO Silver", "National Employee Plan 3", "Medicare Part B",
                        "Student Health Basic"]
    static let insuranceNotes = ["This is not a bill.", "Your plan paid its share; you may owe the provider the remaining amount.",
                                 "Claim processed under your in-network benefits.", "Prior authorization on file for this service."]
    static let vaccines = ["Influenza, quadrivalent, inactivated", "Tetanus, diphtheria, pertussis (Tdap)", "MMR", "Hepatitis B",
                           "Pneumococcal conjugate (PCV20)", "COVID-19 mRNA", "Herpes zoster, recombinant", "HPV 9-valent",
                           "Rotavirus (oral)", "Varicella"]
    static let specialties = ["Cardiology", "Endocrinology", "Gastroenterology", "Rheumatology", "Neurology", "Orthopaedics",
                              "Dermatology", "Nephrology", "Pulmonology"]
    static let tags = ["insurance", "cardiology", "pediatrics", "diabetes", "follow-up", "school", "travel"]
    static let boilerplate = [
        "This document contains confidential health information. If you received it in error, notify the sender and destroy it.",
        "Results should be interpreted in the context of clinical findings. Reference ranges apply to adults unless stated.",
        "Electronically signed. No signature required.", "For appointments call the clinic reception between 8:00 and 17:00.",
        "Please bring this document and a list of your current medications to your next visit.",
    ]
    /// Lines in scripts written without spaces (and Korean), for the trigram index.
    static let unsegmentedLines = [
        "患者主诉咳嗽三天，伴有发热。", "诊断：高血压，二型糖尿病。", "血红蛋白 128 g/L，铁蛋白偏低，建议补铁治疗。",
        "建议：低盐饮食，定期复查血压。", "血液検査の結果、鉄欠乏性貧血と診断されました。", "処方：アモキシシリン 500mg 1日3回 7日分",
        "次回の診察は二週間後です。", "ผู้ป่วยมีอาการไข้และไอมาสามวัน", "ความดันโลหิตสูง ควรตรวจติดตามทุกเดือน",
        "ยาพาราเซตามอล 500 มก. รับประทานครั้งละ 1 เม็ด", "혈압 측정 결과 정상입니다.", "당뇨병 환자는 정기적으로 혈당을 확인하십시오.",
    ]
    static let accentedLines = [
        "Lévothyrox 75 µg, un comprimé le matin à jeun.", "Fièvre persistante, céphalées et toux sèche depuis trois jours.",
        "Überweisung zur Schilddrüsensonographie; Blutdruck 150/95 mmHg.", "Diagnóstico: anemia ferropénica. Próxima revisión en 3 meses.",
        "Paciente con hipertensión arterial, tratamiento con enalapril 10 mg.", "Prescrição: amoxicilina 500 mg de 8 em 8 horas.",
    ]
}
