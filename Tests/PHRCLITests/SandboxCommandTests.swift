import CCDASamples
import Foundation
import Testing

/// The workers' sandbox through the real binary: `phr status` shows what holds on this machine
/// (as a worker found it from inside), and every kind of worker (reading documents, drawing,
/// C-CDA, Apple Health, Google Fit) is confined: a forbidden system call made right after
/// confinement (the debug-only `PHR_TEST_SANDBOX_SYSCALL`) ends that worker, phr says so in
/// words, and the vault is as before.
@Suite struct SandboxCommandTests {
    static let env = ["PHR_PASSPHRASE": "correct horse battery staple"]
    static let samples = "\(CLI.packageRoot)/Samples/documents"
    static let stopped = "was stopped by its sandbox (SIGSYS: it tried a system call phr's workers may never make; the file may be hostile)"

    static func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    @Test func statusShowsHowWorkersAreConfined() throws {
        let cli = try CLI(label: "sandbox-status")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let json = try #require(try Self.json(try cli.run(["status", "--json"], Self.env).stdout) as? [String: Any])
        let sandbox = try #require(json["sandbox"] as? [String: Any], "\(json)")
        #expect(sandbox["seccomp_mode"] as? Int == 2)
        #expect(sandbox["no_new_privileges"] as? Bool == true)
        #expect(sandbox["sockets_refused"] as? Bool == true)
        let status = try cli.run(["status"], Self.env)
        #expect(status.status == 0)
        if let abi = sandbox["landlock_abi"] as? Int, abi > 0 {
            #expect(sandbox["landlock_files"] as? Bool == true)
            #expect(sandbox["user_files_refused"] as? Bool == true)
            #expect(status.stdout.contains("sandbox   workers confined: system-call filter, Landlock ABI \(abi) (files"), "\(status.stdout)")
            #expect(!status.stderr.contains("warning"), "\(status.stderr)")
            #expect(!(try cli.run(["check"], Self.env)).stderr.contains("sandbox"))
        } else {
            // A kernel without Landlock: said in status and by check, with what it means.
            #expect(status.stdout.contains("sandbox   workers only partly confined: system-call filter\n"), "\(status.stdout)")
            #expect(status.stderr.contains("phr: warning: phr-render's workers can read your files: this kernel has no Landlock"))
        }
    }

    /// A kernel without Landlock (simulated): namespaces take its place where the system allows
    /// them, and status says which layers hold.
    @Test func withoutLandlockStatusShowsTheNamespaces() throws {
        let cli = try CLI(label: "sandbox-namespaces")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let env = Self.env.merging(["PHR_TEST_SANDBOX_WITHOUT_LANDLOCK": "1"]) { $1 }
        let status = try cli.run(["status"], env)
        #expect(status.stdout.contains("sandbox   workers confined: system-call filter, namespaces (files, network)\n"), "\(status.stdout)")
        #expect(!status.stderr.contains("warning"), "\(status.stderr)")
        let json = try #require(try Self.json(try cli.run(["status", "--json"], env).stdout) as? [String: Any])
        let sandbox = try #require(json["sandbox"] as? [String: Any])
        #expect(sandbox["landlock_files"] as? Bool == false && sandbox["namespaces"] as? Bool == true)
        #expect(sandbox["user_files_refused"] as? Bool == true && sandbox["sockets_refused"] as? Bool == true)
        // Documents are read there as anywhere.
        let add = try cli.run(["doc", "add", "\(Self.samples)/lab-report-cbc-ferritin.pdf"], env)
        #expect(add.status == 0 && add.stdout.contains(" lab \"Laboratory report: CBC and iron studies (SAMPLE)\" 2 pages\n"), "\(add.stdout)\(add.stderr)")
    }

    @Test func everyKindOfWorkerIsConfined() throws {
        let cli = try CLI(label: "sandbox-kinds")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        // Reading documents: a worker that reaches for the unlock key on a page is stopped, that
        // document is reported, and the batch goes on with a fresh worker.
        let probe = Self.env.merging(["PHR_TEST_EXTRACT_PROBE": "Immunization record|keyring|phr:v1:x"]) { $1 }
        let add = try cli.run(["doc", "add", "\(Self.samples)/vaccination-record.pdf", "\(Self.samples)/prescription-amoxicillin.pdf"], probe)
        #expect(add.stderr.contains("vaccination-record.pdf: unreadable: the reader \(Self.stopped)"), "\(add.stderr)")
        #expect(add.stdout.contains(" prescription \"Prescription: amoxicillin 500 mg (SAMPLE)\" 1 page\n"), "\(add.stdout)")
        // The whole vault as export writes it, but for the time of the export.
        let exported = { try cli.run(["export", "--out", "-"], Self.env.merging(["PHR_TEST_NOW": "2026-11-28T12:00:00Z"]) { $1 }).stdout }
        let before = try exported()
        // The other kinds: the forbidden call right after confinement.
        let trap = Self.env.merging(["PHR_TEST_SANDBOX_SYSCALL": "keyctl"]) { $1 }

        // Drawing: the bundle is not written, and no document is blamed.
        let share = try cli.run(["share", "--for", "Dr. Lee", "--out", "b.pdf"], trap)
        #expect(share.status == 65)
        #expect(share.stderr.hasPrefix("phr: error: cannot draw the bundle: the process drawing the bundle \(Self.stopped)\n"), "\(share.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(cli.directory)/b.pdf"))

        // C-CDA.
        let ccda = "\(cli.directory)/ccd.xml"
        try CCDASampleDocument().xml.write(toFile: ccda, atomically: true, encoding: .utf8)
        let ccdaImport = try cli.run(["import", ccda], trap)
        #expect(ccdaImport.status != 0)
        #expect(ccdaImport.stderr.contains("the process reading it \(Self.stopped)"), "\(ccdaImport.stderr)")

        // Apple Health and Google Fit (a folder: the one tree the worker may read).
        let health = "\(cli.directory)/health"
        #expect(try cli.run(["--out", health, "--days", "3", "--start", "2026-03-15"],
                            executable: "\(CLI.binDirectory)/phr-health-export-sample").status == 0)
        let fit = "\(cli.directory)/fit"
        #expect(try cli.run(["--out", fit, "--days", "3", "--start", "2026-03-15"],
                            executable: "\(CLI.binDirectory)/phr-fit-takeout-sample").status == 0)
        let takeoutFolder = try #require(try FileManager.default.contentsOfDirectory(atPath: fit).first { !$0.contains(".") })
        for path in ["\(health)/export.zip", "\(fit)/\(takeoutFolder)"] {
            let result = try cli.run(["import", path], trap)
            #expect(result.status != 0, "\(path)")
            #expect(result.stderr.contains("the process reading it \(Self.stopped)"), "\(path): \(result.stderr)")
        }

        // Nothing changed, and without the trap the same work succeeds.
        #expect(try exported() == before)
        #expect(try cli.run(["check"], Self.env).status == 0)
        #expect(try cli.run(["share", "--for", "Dr. Lee", "--out", "b.pdf"], Self.env).status == 0)
        let folderImport = try cli.run(["import", "\(fit)/\(takeoutFolder)"], Self.env)
        #expect(folderImport.status == 0, "\(folderImport.stderr)")
    }
}
