import Foundation
import Glibc
import Testing

/// A path given as input that is not a regular file (a FIFO without a writer, a device that
/// never ends) is refused at once, by name, wherever phr opens one: `doc add` did so already,
/// `import` and `appt import` hung in open(2) on a FIFO (issue 37, item 8).
@Suite struct InputFileCommandTests {
    static let env = ["PHR_PASSPHRASE": "correct horse battery staple"]
    static let hint = "phr: hint: give the path of a file; to read from a pipe, save it to a file first\n"

    @Test func importsRefuseWhatIsNotAFile() throws {
        let cli = try CLI(label: "input-files")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let fifo = "\(cli.directory)/export.fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        let cases: [([String], String, String)] = [
            (["import", fifo], fifo, "a FIFO"),
            (["import", fifo, "--dry-run"], fifo, "a FIFO"),
            (["appt", "import", fifo], fifo, "a FIFO"),
            (["import", "/dev/zero"], "/dev/zero", "a character device"),
            (["appt", "import", "/dev/null"], "/dev/null", "a character device"),
        ]
        for (arguments, path, what) in cases {
            let started = Date()
            let result = try cli.run(arguments, Self.env, timeout: 30)
            #expect(Date().timeIntervalSince(started) < 10, "\(arguments) took too long")
            #expect(result.status == 66, "\(arguments): \(result.stderr)")
            #expect(result.stderr == "phr: error: \(path): not a regular file (\(what))\n" + Self.hint, "\(arguments)")
            #expect(result.stdout.isEmpty)
        }
        #expect(try cli.run(["check"], Self.env).status == 0)
    }
}
