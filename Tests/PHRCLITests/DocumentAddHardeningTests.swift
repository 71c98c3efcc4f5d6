import Foundation
import Testing

/// `phr doc add` with what a careless user or a hostile folder gives it: FIFOs, names that are
/// not UTF-8, paths longer than PATH_MAX, dangling links, a second profile, a full disk, and a
/// PDF of thousands of text-heavy pages.
@Suite struct DocumentAddHardeningTests {
    static let passphrase = "correct horse battery staple"
    static let samples = "\(CLI.packageRoot)/Samples/documents"
    static var env: [String: String] { ["PHR_PASSPHRASE": passphrase] }

    static func json(_ text: String) -> [[String: Any]] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [[String: Any]] ?? []
    }

    /// Runs `phr` with raw byte arguments (names that are not UTF-8), without a terminal.
    static func runRaw(_ cli: CLI, _ arguments: [[UInt8]], timeout: Double = 60, extra: [String: String] = [:]) -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        // bash reads the NUL-separated arguments and passes them on byte for byte.
        let directory = cli.directory
        let argumentFile = "\(directory)/raw-arguments"
        var script = Data()
        for argument in arguments { script.append(contentsOf: argument + [0]) }
        #expect(FileManager.default.createFile(atPath: argumentFile, contents: script))
        process.arguments = ["-c", "mapfile -d '' arguments < \"$1\"; exec \"$0\" \"${arguments[@]}\"", CLI.phr, argumentFile]
        process.environment = cli.environment.merging(env) { $1 }.merging(extra) { $1 }
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try? process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    @Test func fifosOddNamesAndUnreadableEntriesAreReportedAndNeverHang() throws {
        let cli = try CLI(label: "oddpaths")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let folder = "\(cli.directory)/papers"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "\(Self.samples)/insurance-card.pdf", toPath: "\(folder)/card.pdf")
        #expect(mkfifo("\(folder)/pipe.pdf", 0o600) == 0)
        #expect(symlink("\(folder)/gone.pdf", "\(folder)/dangling.pdf") == 0)
        try "notes".write(toFile: "\(folder)/notes.txt", atomically: true, encoding: .utf8)
        // A name in Latin-1 ("café.pdf" with é as the single byte 0xE9), not UTF-8.
        let latin1 = Array(folder.utf8) + Array("/caf".utf8) + [0xE9] + Array(".pdf".utf8)
        let contents = try Data(contentsOf: URL(fileURLWithPath: "\(Self.samples)/vaccination-record.pdf"))
        let fd = latin1.withUnsafeBufferPointer { buffer -> Int32 in
            (buffer.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o600) }
        }
        #expect(fd >= 0)
        _ = contents.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        // A PDF deeper than PATH_MAX (4096 bytes): 20 directories of 250-byte names.
        var deep = open(folder, O_RDONLY | O_DIRECTORY)
        let long = String(repeating: "d", count: 250)
        for _ in 0..<20 {
            #expect(mkdirat(deep, long, 0o700) == 0)
            let next = openat(deep, long, O_RDONLY | O_DIRECTORY)
            close(deep)
            deep = next
        }
        let pdf = openat(deep, "deep.pdf", O_WRONLY | O_CREAT | O_EXCL, 0o600)
        let prescription = try Data(contentsOf: URL(fileURLWithPath: "\(Self.samples)/prescription-amoxicillin.pdf"))
        _ = prescription.withUnsafeBytes { write(pdf, $0.baseAddress, $0.count) }
        close(pdf)
        close(deep)

        let started = Date()
        let add = try cli.run(["doc", "add", folder, "--json"], Self.env, timeout: 60)
        #expect(Date().timeIntervalSince(started) < 30, "a FIFO is never waited on")
        #expect(add.status == 65, "files that could not be read make the command exit 65: \(add.stderr)")
        let results = Self.json(add.stdout)
        let byStatus = Dictionary(grouping: results) { $0["status"] as? String ?? "" }
        #expect(byStatus["added"]?.count == 3, "card.pdf, café.pdf and deep.pdf: \(add.stdout)")
        let failed = (byStatus["failed"] ?? []).map { "\($0["file"] as? String ?? "") \($0["reason"] as? String ?? "")" }
        #expect(failed.count == 2, "\(failed)")
        #expect(failed.contains { $0.contains("pipe.pdf") && $0.contains("not a regular file (a FIFO)") })
        #expect(failed.contains { $0.contains("dangling.pdf") && $0.contains("no such file") })
        #expect(add.stdout.contains("caf\\\\xE9.pdf"), "a name that is not UTF-8 is shown escaped")

        // Given directly: a FIFO is refused at once, a Latin-1 name is added (already there).
        let direct = try cli.run(["doc", "add", "\(folder)/pipe.pdf"], Self.env, timeout: 30)
        #expect(direct.status == 65)
        #expect(direct.stderr.contains("not a regular file (a FIFO)"))
        let raw = Self.runRaw(cli, [Array("doc".utf8), Array("add".utf8), latin1])
        #expect(raw.status == 0, "\(raw.stderr)")
        #expect(raw.stdout.contains("already in vault as"), "\(raw.stdout)")
        // A vault path that is not UTF-8 is refused, not silently replaced by another path.
        let badVault = Self.runRaw(cli, [Array("status".utf8), Array("--vault".utf8), Array(cli.directory.utf8) + Array("/v".utf8) + [0xFF]])
        #expect(badVault.status == 64)
        #expect(badVault.stderr.contains("not valid UTF-8"))
        #expect(try cli.run(["check"], Self.env).status == 0)
        // An empty folder says so instead of printing nothing.
        try FileManager.default.createDirectory(atPath: "\(cli.directory)/empty", withIntermediateDirectories: true)
        let empty = try cli.run(["doc", "add", "\(cli.directory)/empty"], Self.env)
        #expect(empty.status == 0 && empty.stdout.isEmpty && empty.stderr == "phr: nothing to add: no files in \(cli.directory)/empty\n")
    }

    /// The same file belongs to two people: one blob, one document per profile, and neither
    /// profile ever sees the other's record.
    @Test func theSameDocumentCanBelongToTwoProfiles() throws {
        let cli = try CLI(label: "profiles")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        #expect(try cli.run(["profile", "add", "Mia", "--relation", "child"], Self.env).status == 0)
        let file = "\(Self.samples)/vaccination-record.pdf"
        let mine = Self.json(try cli.run(["doc", "add", file, "--json"], Self.env).stdout)
        let hers = try cli.run(["doc", "add", file, "--json", "--profile", "Mia"], Self.env)
        #expect(hers.status == 0, "\(hers.stderr)")
        let herResult = try #require(Self.json(hers.stdout).first)
        #expect(herResult["status"] as? String == "added")
        let myDocument = try #require(mine.first?["document"] as? [String: Any])
        let herDocument = try #require(herResult["document"] as? [String: Any])
        #expect(herDocument["profile"] as? String == "Mia")
        #expect(herDocument["id"] as? String != myDocument["id"] as? String)
        let again = Self.json(try cli.run(["doc", "add", file, "--json", "--profile", "Mia"], Self.env).stdout)
        #expect(again.first?["status"] as? String == "duplicate")
        #expect((again.first?["document"] as? [String: Any])?["id"] as? String == herDocument["id"] as? String,
                "a duplicate names this profile's document, never another's")
        #expect(FileManager.default.subpaths(atPath: "\(cli.vault)/blobs")!.filter { $0.count == 67 }.count == 1, "one blob")
        let herList = Self.json(try cli.run(["doc", "list", "--json", "--profile", "Mia"], Self.env).stdout)
        #expect(herList.map { $0["id"] as? String } == [herDocument["id"] as? String])
        // Removing mine keeps hers whole.
        #expect(try cli.run(["doc", "rm", myDocument["id"] as! String, "--yes"], Self.env).status == 0)
        let export = try cli.run(["doc", "export", herDocument["id"] as! String, "--out", "\(cli.directory)/hers.pdf", "--profile", "Mia"], Self.env)
        #expect(export.status == 0, "\(export.stderr)")
        #expect(CLI.sha256("\(cli.directory)/hers.pdf") == CLI.sha256(file))
        #expect(try cli.run(["check"], Self.env).status == 0)
    }

    /// A vault on a nearly full disk: documents are added one by one and each is reported; the
    /// batch stops clearly on ENOSPC (exit 74) with what was added, and the vault stays whole.
    @Test(.enabled(if: getuid() == 0, "mounting a small tmpfs needs root"))
    func aFullDiskStopsTheBatchWithWhatWasAdded() throws {
        let cli = try CLI(label: "fulldisk")
        defer {
            _ = try? cli.run(["-c", "umount '\(cli.directory)/small'"], executable: "/bin/sh")
            cli.cleanUp()
        }
        let small = "\(cli.directory)/small"
        try FileManager.default.createDirectory(atPath: small, withIntermediateDirectories: true)
        let mount = try cli.run(["-c", "mount -t tmpfs -o size=3m tmpfs '\(small)'"], executable: "/bin/sh")
        try #require(mount.status == 0, "cannot mount a tmpfs here: \(mount.stderr)")
        let vault = "\(small)/vault"
        let file = try cli.passphraseFile(Self.passphrase)
        #expect(try cli.run(["init", "--vault", vault], ["PHR_PASSPHRASE_FILE": file]).status == 0)
        // Eight distinct 600 kB files: more than the disk holds.
        let folder = "\(cli.directory)/scans"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let base = try Data(contentsOf: URL(fileURLWithPath: "\(Self.samples)/insurance-card.pdf"))
        var generator = SystemRandomNumberGenerator()
        for index in 0..<8 {
            var bytes = base
            bytes.append(contentsOf: "\n%".utf8)
            bytes.append(contentsOf: (0..<600_000).map { _ in UInt8.random(in: 0x30...0x7a, using: &generator) })
            #expect(FileManager.default.createFile(atPath: "\(folder)/scan\(index).pdf", contents: bytes))
        }
        let add = try cli.run(["doc", "add", folder, "--vault", vault], Self.env)
        #expect(add.status == 74, "\(add.stderr)")
        let added = add.stdout.split(separator: "\n").filter { $0.hasPrefix("added ") }
        #expect(added.count >= 1 && added.count < 8, "\(add.stdout)")
        #expect(add.stderr.contains("no space left on device"), "\(add.stderr)")
        #expect(add.stderr.contains("adding stopped:"), "\(add.stderr)")
        #expect(add.stderr.contains("\(added.count) of 8 files were added"), "\(add.stderr)")
        #expect(add.stderr.contains("phr: hint: free some space"))
        let list = Self.json(try cli.run(["doc", "list", "--json", "--vault", vault], Self.env).stdout)
        #expect(list.count == added.count, "every document reported added is there")
        let check = try cli.run(["check", "--vault", vault], Self.env)
        #expect(check.status == 0, "\(check.stderr)")
    }

    /// A small PDF of thousands of text-heavy pages: the key-holding process keeps a bounded
    /// amount of text in memory, so its peak does not grow with the page count.
    @Test func theParentsMemoryDoesNotGrowWithThePageCount() throws {
        let cli = try CLI(label: "memory")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let small = try TextHeavyPDF.write(pages: 1500, to: "\(cli.directory)/small.pdf", variant: 1)
        let large = try TextHeavyPDF.write(pages: 3000, to: "\(cli.directory)/large.pdf", variant: 2)
        #expect(((try? FileManager.default.attributesOfItem(atPath: large))?[.size] as? Int ?? 0) < 1_000_000)
        let smallPeak = try Self.peakKilobytes(cli, ["doc", "add", small])
        let largePeak = try Self.peakKilobytes(cli, ["doc", "add", large])
        // 1,500 more pages of ~5.5 kB text each: 8 MB of text. Held whole, with its copies for the
        // index, it grew the parent by 55 MB (148 MB for 3,000 pages, 40 MB for one page); now
        // both stay under the text kept in memory plus SQLite's page cache (32 MiB).
        #expect(largePeak - smallPeak < 24_000, "peak \(smallPeak) kB for 1,500 pages, \(largePeak) kB for 3,000")
        #expect(largePeak < 110_000)
        let search = try cli.run(["search", "haemoglobin", "--json", "--limit", "5"], Self.env)
        #expect(search.stdout.contains("\"pages\""), "every page was indexed")
        let check = try cli.run(["check"], Self.env)
        #expect(check.status == 0 && check.stderr.isEmpty, "no staged text left behind: \(check.stderr)")
        print("doc add parent peak: \(smallPeak) kB for 1,500 pages, \(largePeak) kB for 3,000 pages")
    }

    /// Runs phr and follows its VmHWM (the kernel's peak resident set) until it exits.
    static func peakKilobytes(_ cli: CLI, _ arguments: [String]) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.phr)
        process.arguments = arguments
        process.environment = cli.environment.merging(env) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var peak = 0
        while process.isRunning {
            if let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
               let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
               let value = Int(line.split(separator: " ").dropFirst().first ?? "") {
                peak = max(peak, value)
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(process.terminationStatus == 0)
        return peak
    }

    /// A folder of many PDFs: each file's descriptor is closed when it is done, so a batch larger
    /// than the open-file limit goes through (phr runs here with a limit of 64), and a folder
    /// given through a symbolic link is walked.
    @Test func largeBatchesStayWithinTheOpenFileLimitAndLinkedFoldersAreWalked() throws {
        let cli = try CLI(label: "manyfiles")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        let folder = "\(cli.directory)/many"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for index in 0..<90 {
            _ = try TextHeavyPDF.write(pages: 1, to: "\(folder)/doc\(index).pdf", variant: 100 + index)
        }
        #expect(symlink(folder, "\(cli.directory)/linked") == 0)
        let add = try cli.run(["--nofile=64:64", CLI.phr, "doc", "add", "\(cli.directory)/linked"], Self.env,
                              executable: "/usr/bin/prlimit")
        #expect(add.status == 0, "\(add.stderr.suffix(600))")
        #expect(add.stdout.split(separator: "\n").filter { $0.hasPrefix("added ") }.count == 90)
        #expect(try cli.run(["check"], Self.env).status == 0)
    }

    /// Exit statuses as the README gives them: a damaged backup file is damage (80), a key file
    /// whose authenticated fields were altered is tampering (80), a wrong passphrase is 77.
    @Test func exitStatusesMatchTheReadme() throws {
        let cli = try CLI(label: "status")
        defer { cli.cleanUp() }
        _ = try cli.initVault(passphrase: Self.passphrase)
        #expect(try cli.run(["backup", "--out", "\(cli.directory)/b.phrbak"], Self.env).status == 0)
        let size = (try FileManager.default.attributesOfItem(atPath: "\(cli.directory)/b.phrbak")[.size] as? Int) ?? 0
        #expect(truncate("\(cli.directory)/b.phrbak", off_t(size - 10)) == 0)
        let damaged = try cli.run(["restore", "\(cli.directory)/b.phrbak", "--vault", "\(cli.directory)/r"], Self.env)
        #expect(damaged.status == 80, "\(damaged.stderr)")
        #expect(damaged.stderr.hasPrefix("phr: error: backup \(cli.directory)/b.phrbak is damaged: "))
        #expect(try cli.run(["restore", "\(cli.directory)/none.phrbak", "--vault", "\(cli.directory)/r"], Self.env).status == 66)

        #expect(try cli.run(["doc", "list"], ["PHR_PASSPHRASE": "wrong passphrase!"]).status == 77)
        // Alter the vault id, which every slot authenticates: the right passphrase now reports tampering.
        let keyFile = "\(cli.vault)/keys.json"
        var text = try String(contentsOfFile: keyFile, encoding: .utf8)
        let range = try #require(text.range(of: #""vault_id" : "[0-9a-f]"#, options: .regularExpression))
        let last = text[text.index(before: range.upperBound)]
        text.replaceSubrange(text.index(before: range.upperBound)..<range.upperBound, with: last == "a" ? "b" : "a")
        try text.write(toFile: keyFile, atomically: true, encoding: .utf8)
        let tampered = try cli.run(["doc", "list"], Self.env)
        #expect(tampered.status == 80, "\(tampered.stderr)")
        #expect(tampered.stderr.contains("was altered"))
        #expect(try cli.run(["doc", "list"], ["PHR_PASSPHRASE": "wrong passphrase!"]).status == 77, "a wrong passphrase stays a wrong passphrase")
    }
}

/// A small PDF of many text-heavy pages: a few compressed content streams shared by every page,
/// each with 60 lines of words a lab report uses. Written by hand (ISO 32000, 7.5).
enum TextHeavyPDF {
    static func write(pages: Int, to path: String, variant: Int) throws -> String {
        let words = ["ferritin", "haemoglobin", "patient", "glucose", "cholesterol", "thyroid", "creatinine", "sodium",
                     "potassium", "albumin", "bilirubin", "platelet", "leukocyte", "erythrocyte"]
        var objects: [[UInt8]] = []
        func add(_ bytes: [UInt8]) -> Int { objects.append(bytes); return objects.count }
        let font = add(Array("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".utf8))
        var streams: [Int] = []
        var state = UInt64(variant * 7919 + 17)
        func next() -> Int { state = state &* 6364136223846793005 &+ 1442695040888963407; return Int(state >> 33) }
        for _ in 0..<20 {
            var lines: [String] = []
            for line in 0..<60 {
                let text = (0..<14).map { _ in words[next() % words.count] }.joined(separator: " ")
                lines.append("BT /F1 8 Tf 30 \(800 - line * 13) Td (\(text)) Tj ET")
            }
            let content = Array(lines.joined(separator: "\n").utf8)
            streams.append(add(Array("<< /Length \(content.count) >>\nstream\n".utf8) + content + Array("\nendstream".utf8)))
        }
        let pagesID = add([])
        var kids: [Int] = []
        for page in 0..<pages {
            kids.append(add(Array("<< /Type /Page /Parent \(pagesID) 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 \(font) 0 R >> >> /Contents \(streams[page % streams.count]) 0 R >>".utf8)))
        }
        objects[pagesID - 1] = Array("<< /Type /Pages /Kids [\(kids.map { "\($0) 0 R" }.joined(separator: " "))] /Count \(pages) >>".utf8)
        let catalog = add(Array("<< /Type /Catalog /Pages \(pagesID) 0 R >>".utf8))
        var out = Array("%PDF-1.4\n".utf8)
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(out.count)
            out += Array("\(index + 1) 0 obj\n".utf8) + object + Array("\nendobj\n".utf8)
        }
        let xref = out.count
        out += Array("xref\n0 \(objects.count + 1)\n0000000000 65535 f \n".utf8)
        for offset in offsets { out += Array(String(format: "%010d 00000 n \n", offset).utf8) }
        out += Array("trailer\n<< /Size \(objects.count + 1) /Root \(catalog) 0 R >>\nstartxref\n\(xref)\n%%EOF\n".utf8)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(out)))
        return path
    }
}
