import Foundation
import Testing

/// The sample generators a developer runs by hand (issue 35, item 10): `--help` prints the
/// usage, a wrong option or value is said in one line with exit 64, never a crash.
@Suite struct SampleToolTests {
    @Test(arguments: ["phr-health-export-sample", "phr-fit-takeout-sample"])
    func helpAndMistakesAreSaidNotCrashedOn(tool: String) throws {
        let cli = try CLI(label: "sample-tool")
        defer { cli.cleanUp() }
        let path = "\(CLI.binDirectory)/\(tool)"
        let help = try cli.run(["--help"], executable: path)
        #expect(help.status == 0 && help.stdout.hasPrefix("usage: \(tool) --out DIR"), "\(help.output)")
        for (arguments, words) in [(["--colour"], "unknown option --colour"), (["--days", "many"], "--days: 'many' is not a whole number"),
                                   (["--start", "2026-02-30x"], "--start: '2026-02-30x' is not a day"), (["--out"], "--out needs a value"),
                                   (["--zone", "Mars/Olympus"], "--zone: 'Mars/Olympus' is not a time zone")] {
            let wrong = try cli.run(arguments, executable: path)
            #expect(wrong.status == 64 && wrong.stderr.hasPrefix("\(tool): error: \(words)") && wrong.stderr.contains("usage:"), "\(arguments): \(wrong.output)")
        }
    }
}
