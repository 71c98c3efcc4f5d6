import CCDASamples
import Foundation
import Testing

/// What a worker really receives: `phr` copied beside a stand-in `phr-render` that writes its
/// own environment to a file, run with all three passphrase variables and a marker variable
/// set. Every kind of worker (extract, draw, ccda, health-export, fit-takeout) must get only
/// the worker environment: no PHR_ variable, nothing else of phr's.
@Suite struct WorkerEnvironmentTests {
    @Test func everyWorkerKindGetsNothingOfPhrsEnvironment() throws {
        let cli = try CLI(label: "worker-env")
        defer { cli.cleanUp() }
        let file = try cli.passphraseFile("correct horse battery staple")
        _ = try cli.initVault()
        let bin = "\(cli.directory)/bin"
        let seen = "\(cli.directory)/seen"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: seen, withIntermediateDirectories: true)
        // Copied by cp(1) (see aMissingPHRRenderIsNamedWithAnInstallHint), the stand-in written by
        // sh, so no descriptor of this process is open on either when it is started.
        let copy = try Process.run(URL(fileURLWithPath: "/bin/cp"), arguments: [CLI.phr, "\(bin)/phr"])
        copy.waitUntilExit()
        let script = "#!/bin/sh\\nenv > \(seen)/$1.env\\nexit 1\\n"
        let write = try Process.run(URL(fileURLWithPath: "/bin/sh"),
                                    arguments: ["-c", "printf '\(script)' > \(bin)/phr-render && chmod 700 \(bin)/phr-render"])
        write.waitUntilExit()
        #expect(copy.terminationStatus == 0 && write.terminationStatus == 0)

        let ccda = "\(cli.directory)/ccd.xml"
        try CCDASampleDocument().xml.write(toFile: ccda, atomically: true, encoding: .utf8)
        _ = try AppleHealthImportCommandTests.generate(cli, into: "apple", days: 2, start: "2026-03-01")
        _ = try GoogleFitImportCommandTests.generate(cli, into: "fit", days: 2)
        let environment = ["PHR_PASSPHRASE_FILE": file, "PHR_PASSPHRASE": "correct horse battery staple",
                           "PHR_PASSPHRASE_COMMAND": "echo correct horse battery staple", "PHR_MARKER_NOT_FOR_WORKERS": "1"]
        let commands: [(worker: String, arguments: [String])] = [
            ("extract", ["doc", "add", "\(CLI.packageRoot)/Samples/documents/prescription-amoxicillin.pdf"]),
            ("draw", ["emergency", "--pdf", "\(cli.directory)/card.pdf"]),
            ("ccda", ["import", ccda]),
            ("health-export", ["import", "\(cli.directory)/apple/export.zip"]),
            ("fit-takeout", ["import", "\(cli.directory)/fit/takeout.zip"]),
        ]
        for (worker, arguments) in commands {
            let result = try cli.run(arguments, environment, executable: "\(bin)/phr")
            #expect(result.status != 0, "\(worker): the stand-in fails every command")
            let text = try String(contentsOfFile: "\(seen)/\(worker).env", encoding: .utf8)
            let names = text.split(separator: "\n").compactMap { $0.split(separator: "=", maxSplits: 1).first.map(String.init) }
            #expect(names.contains("SWIFT_BACKTRACE"), "\(worker): the environment was read: \(names)")
            #expect(!names.contains { $0.hasPrefix("PHR_") }, "\(worker) got \(names.filter { $0.hasPrefix("PHR_") })")
            // sh adds PWD, SHLVL and _ itself; anything else must be the worker environment's.
            let allowed: Set<String> = ["SWIFT_BACKTRACE", "TESSDATA_PREFIX", "OMP_THREAD_LIMIT", "PWD", "SHLVL", "_"]
            #expect(Set(names).isSubset(of: allowed), "\(worker) got \(Set(names).subtracting(allowed).sorted())")
            if worker == "extract" {
                // Tesseract's threads would fight the other worker for two cores.
                #expect(text.contains("OMP_THREAD_LIMIT=1\n"), "\(text)")
            }
        }
    }
}
