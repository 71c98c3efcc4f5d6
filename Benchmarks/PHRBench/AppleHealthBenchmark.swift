import Foundation
import PHRCore

/// Issue 17's benchmark: `phr import export.xml` of a generated 200 MB Apple Health export
/// (two years of the generator's scenario plus heart-rate samples, as real exports are mostly),
/// beside `xmllint --stream --noout` on the same file in the same run. Budgets: at least
/// 20 MB/s and a peak resident set under 150 MB (phr and its worker, each).
enum AppleHealthBenchmark {
    static let sizeMB = 200
    static let days = 730
    static let throughputBudget = 20.0
    static let memoryBudget = 150.0
    static let passphrase = "benchmark passphrase"

    static func run() throws {
        let phr = try BenchProcess.phrExecutable()
        let generator = ((phr as NSString).deletingLastPathComponent as NSString).appendingPathComponent("phr-health-export-sample")
        guard FileManager.default.isExecutableFile(atPath: generator) else {
            throw BenchmarkError.failed("no generator at \(generator): build it with `swift build -c release --product phr-health-export-sample`")
        }
        let directory = try Benchmark.scratchDirectory("apple-health")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let generated = try BenchProcess.run([generator, "--out", directory, "--days", String(days), "--start", "2024-11-01",
                                              "--size-mb", String(sizeMB)])
        guard generated.status == 0 else { throw BenchmarkError.failed("the generator exited \(generated.status)") }
        let xml = "\(directory)/export.xml"
        let megabytes = Double(FileSystem.fileSize(xml) ?? 0) / 1_048_576

        let vaultPath = "\(directory)/vault"
        _ = try Vault.create(at: VaultLocation(path: vaultPath), passphrase: SecretBytes(copying: Array(passphrase.utf8)),
                             parameters: ScryptParameters(log2N: 10, r: 8, p: 1))
        var environment = ProcessInfo.processInfo.environment
        environment["PHR_PASSPHRASE"] = passphrase
        environment["TZ"] = "Europe/Berlin"
        let errors = "\(directory)/import.stderr"
        let start = DispatchTime.now().uptimeNanoseconds
        let pid = try BenchProcess.spawn([phr, "import", "--vault", vaultPath, xml], environment: environment, stdout: .null,
                                         stderr: .file(errors))
        let monitor = RSSMonitor(pid: pid)
        let (status, _) = BenchProcess.wait(pid)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let memory = monitor.stop()
        guard status == 0 else {
            throw BenchmarkError.failed("phr import exited \(status): \(((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "").suffix(2000))")
        }

        let lint = try BenchProcess.run(["xmllint", "--stream", "--noout", xml])
        guard lint.status == 0 else { throw BenchmarkError.failed("xmllint --stream exited \(lint.status)") }

        let throughput = megabytes / seconds
        let peak = max(memory.main, memory.largestChild)
        print(String(format: "export.xml of %.0f MB (%d days of the generator's scenario, the rest heart rate)", megabytes, days))
        Benchmark.row("", ["seconds", "MB/s", "peak RSS MB"])
        Benchmark.row("phr import export.xml", [String(format: "%.2f", seconds), String(format: "%.1f", throughput),
                                                String(format: "%.0f / %.0f", memory.main, memory.largestChild)])
        Benchmark.row("xmllint --stream --noout", [String(format: "%.2f", lint.seconds), String(format: "%.1f", megabytes / lint.seconds), ""])
        print(String(format: "phr takes %.2fx xmllint's time; ", seconds / lint.seconds)
            + String(format: "budget: at least %.0f MB/s (", throughputBudget) + (throughput >= throughputBudget ? "met" : "MISSED")
            + String(format: "), peak RSS under %.0f MB (", memoryBudget) + (peak < memoryBudget ? "met" : "MISSED") + "); RSS is phr / its worker")
    }
}
