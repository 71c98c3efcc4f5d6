import Foundation
import Glibc
import Testing
@testable import PHRCore
@testable import PHRRender

/// A compromised worker reaches neither the keys, nor the user's files, nor the network, nor
/// phr: each attempt is made from inside a real confined worker (the debug-only
/// `SandboxProbe`, armed on the page that carries a marker) and is refused; the attempt costs
/// that document at most, never the batch. SECURITY.md, "The workers' sandbox".
@Suite(.serialized) final class WorkerSandboxTests: Sendable {
    let directory: String
    let probed: String
    let others: [String]
    static let marker = "Sandbox probe page"
    /// What the fixtures hold, so a leak shows as this text in a page.
    static let canary = "CANARY-7f3e9a-not-for-workers"

    init() throws {
        directory = try TestSupport.temporaryDirectory("sandbox")
        probed = try SyntheticPDF(pages: [.text(Self.marker, "Nothing else on this page.")]).write(to: "\(directory)/probe.pdf")
        others = try [
            SyntheticPDF(pages: [.text("Discharge summary", "Discharge date: 2025-04-20")]).write(to: "\(directory)/a.pdf"),
            SyntheticPDF(pages: [.text("Laboratory report", "Hemoglobin 13.5 g/dL")]).write(to: "\(directory)/b.pdf"),
        ]
    }

    deinit {
        TestSupport.remove(directory)
    }

    /// Runs the probe document between two others with `action` armed; returns the probe's
    /// summary and pages, after checking the other two were read as usual.
    func probe(_ action: String, _ argument: String = "", withoutLandlock: Bool = false) throws -> (summary: ExtractionSummary, text: String) {
        var faults = ["PHR_TEST_EXTRACT_PROBE": "\(Self.marker)|\(action)|\(argument)"]
        if withoutLandlock { faults["PHR_TEST_SANDBOX_WITHOUT_LANDLOCK"] = "1" }
        let extractor = ExtractionFixtures.extractor(faults: faults)
        let paths = [others[0], probed, others[1]]
        let (summaries, pages) = try ExtractionFixtures.extractAll(paths.map { ExtractionJob(.path($0)) }, with: extractor)
        #expect(summaries[0]?.outcome == .indexed, "the batch went on before the probe")
        #expect(summaries[2]?.outcome == .indexed, "the batch went on after the probe")
        let summary = try #require(summaries[1])
        return (summary, (pages[1] ?? []).map(\.text).joined(separator: "\n"))
    }

    /// What `phr unlock` leaves in the kernel keyring, looked up by its description as an
    /// attacker would (the vault id is in keys.json): the filter kills the worker first.
    @Test func theUnlockKeyInTheKeyringIsOutOfReach() throws {
        let (vault, _, vaultDirectory) = try TestSupport.makeVault("sandbox-keyring")
        defer { TestSupport.remove(vaultDirectory) }
        try UnlockCache.store(vault.keys, vaultID: vault.keyFile.vaultID, duration: 120)
        defer { _ = UnlockCache.clear(vaultID: vault.keyFile.vaultID) }
        #expect(UnlockCache.load(vaultID: vault.keyFile.vaultID) != nil, "the test's key is in the keyring")
        let (summary, text) = try probe("keyring", UnlockCache.description(vaultID: vault.keyFile.vaultID))
        #expect(summary.outcome == .unreadable)
        #expect((summary.reason ?? "").contains("stopped by its sandbox (SIGSYS"), "\(summary.reason ?? "")")
        #expect(!text.contains("got"))
    }

    /// keys.json, the database and an SSH key of the user: Landlock refuses every one.
    @Test func theUsersFilesAndTheVaultCannotBeOpened() throws {
        let (vault, _, vaultDirectory) = try TestSupport.makeVault("sandbox-files")
        defer { TestSupport.remove(vaultDirectory) }
        let home = "\(directory)/home"
        try FileManager.default.createDirectory(atPath: "\(home)/.ssh", withIntermediateDirectories: true)
        try Data("-----BEGIN OPENSSH PRIVATE KEY-----\n\(Self.canary)\n".utf8).write(to: URL(fileURLWithPath: "\(home)/.ssh/id_ed25519"))
        for path in [vault.location.keyFile, vault.location.database, "\(home)/.ssh/id_ed25519", "/etc/passwd", "/proc/\(getpid())/environ"] {
            let (summary, text) = try probe("read", path)
            #expect(summary.outcome == .indexed)
            #expect(text.hasPrefix("sandbox probe read: refused ("), "\(path): \(text)")
            #expect(!text.contains(Self.canary) && !text.contains("phr-vault") && !text.contains("root:"), "\(path) leaked")
        }
    }

    /// On a kernel without Landlock (simulated), the worker's own namespaces keep the same
    /// files, /proc and the network out of reach: its root holds only the system's libraries,
    /// fonts and Tesseract's data, and its network namespace has no interface but a down loopback.
    @Test func withoutLandlockTheNamespacesKeepTheSameOut() throws {
        let (vault, _, vaultDirectory) = try TestSupport.makeVault("sandbox-namespaces")
        defer { TestSupport.remove(vaultDirectory) }
        let home = "\(directory)/home-ns"
        try FileManager.default.createDirectory(atPath: "\(home)/.ssh", withIntermediateDirectories: true)
        try Data(Self.canary.utf8).write(to: URL(fileURLWithPath: "\(home)/.ssh/id_ed25519"))
        for path in [vault.location.keyFile, vault.location.database, "\(home)/.ssh/id_ed25519", "/etc/passwd", "/proc/\(getpid())/environ"] {
            let (summary, text) = try probe("read", path, withoutLandlock: true)
            #expect(summary.outcome == .indexed)
            #expect(text.hasPrefix("sandbox probe read: refused ("), "\(path): \(text)")
            #expect(!text.contains(Self.canary) && !text.contains("root:"), "\(path) leaked")
        }
        let (_, status) = try probe("status", withoutLandlock: true)
        #expect(status.hasPrefix("sandbox probe status: seccomp 2, no_new_privs 1"), "\(status)")
        let (killed, _) = try probe("keyring", "phr:v1:\(vault.keyFile.vaultID)", withoutLandlock: true)
        #expect((killed.reason ?? "").contains("stopped by its sandbox (SIGSYS"), "\(killed.reason ?? "")")
    }

    @Test func noFileCanBeWritten() throws {
        let target = "\(directory)/written-by-worker"
        let (_, text) = try probe("write", target)
        #expect(text.hasPrefix("sandbox probe write: refused ("), "\(text)")
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    /// A listener on loopback that the worker is told to reach: no socket, no connection.
    @Test func theNetworkIsOutOfReach() throws {
        let (listener, port) = try Loopback.listen(backlog: 4)
        defer { close(listener) }
        let (_, text) = try probe("connect", String(port))
        #expect(text.hasPrefix("sandbox probe connect: refused ("), "\(text)")
        var waiting = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        #expect(poll(&waiting, 1, 200) == 0, "a connection reached the test's listener")
    }

    /// Running a program, tracing phr, signalling phr: the first two kill the worker, the third
    /// is refused; phr (this test process) is untouched.
    @Test func noProgramRunsAndPhrIsOutOfReach() throws {
        for action in ["exec", "ptrace"] {
            let (summary, _) = try probe(action, action == "exec" ? "/bin/sh" : "")
            #expect(summary.outcome == .unreadable)
            #expect((summary.reason ?? "").contains("stopped by its sandbox (SIGSYS"), "\(action): \(summary.reason ?? "")")
        }
        let (_, text) = try probe("signal")
        #expect(text.hasPrefix("sandbox probe signal: refused ("), "\(text)")
    }

    /// While a worker reads, the kernel shows its filter and no-new-privileges flag, and the
    /// worker sees the same from inside. The probe page (page 2 of an OCR job of four) names
    /// the worker's pid; its /proc status is read the moment that page arrives, while the same
    /// worker goes on reading pages 3 and 4.
    @Test func theKernelShowsEveryWorkerConfined() throws {
        let scanPages = (1...4).map { SyntheticPDF.Page.text("Page \($0) of a long scan", "Ferritin 12 ng/mL", "Haemoglobin 11.4 g/dL") }
        let scan = try SyntheticPDF(pages: scanPages).write(to: "\(directory)/scan.pdf")
        let extractor = ExtractionFixtures.extractor(faults: ["PHR_TEST_EXTRACT_PROBE": "Page 2 of|status|"])
        var statuses: [String] = []
        var reports: [String] = []
        var outcome: ExtractionSummary?
        try extractor.extractAll([ExtractionJob(.path(scan), ocr: OCROptions(mode: .always))], onPage: { _, page in
            guard page.text.hasPrefix("sandbox probe status: ") else { return }
            reports.append(page.text)
            if let pid = page.text.split(separator: " ").last.flatMap({ Int32($0) }),
               let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) {
                statuses.append(status)
            }
        }, onFinish: { _, summary in outcome = summary })
        #expect(outcome?.outcome == .ocr || outcome?.outcome == .indexed, "\(String(describing: outcome))")
        #expect(reports.count == 1 && reports[0].hasPrefix("sandbox probe status: seccomp 2, no_new_privs 1, pid "), "\(reports)")
        #expect(statuses.count == 1, "the worker's /proc status was not read while it worked")
        for status in statuses {
            #expect(status.contains("Seccomp:\t2\n") && status.contains("NoNewPrivs:\t1\n"), "\(status)")
        }
    }
}
