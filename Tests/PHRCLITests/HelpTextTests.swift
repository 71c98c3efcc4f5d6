import Foundation
import Testing

/// `phr --help` and every command group's help, pinned: the words a user reads first change only
/// on purpose. The expected texts are `Tests/Fixtures/help/*.txt`, written by the binary itself:
/// after changing a help text on purpose, run this suite once with `PHR_WRITE_HELP_FIXTURES=1`
/// and review the diff.
@Suite struct HelpTextTests {
    static let directory = "\(CLI.packageRoot)/Tests/Fixtures/help"

    /// The groups `phr --help` lists, in its order.
    static func groups(_ help: String) -> [String] {
        guard let start = help.range(of: "SUBCOMMANDS:\n") else { return [] }
        return help[start.upperBound...].split(separator: "\n").compactMap { line in
            // A subcommand's line starts with two spaces then its name (lowercase); wrapped text is
            // indented further, and the closing "  See 'phr help <subcommand>'" is not a group.
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first,
                  name.allSatisfy({ $0.isLowercase || $0 == "-" }) else { return nil }
            return String(name)
        }
    }

    @Test func theHelpTextsAreThePinnedOnes() throws {
        let cli = try CLI(label: "help")
        defer { cli.cleanUp() }
        let top = try cli.run(["--help"])
        #expect(top.status == 0)
        let groups = Self.groups(top.stdout)
        #expect(groups.count >= 30 && groups.first == "init" && groups.contains("import"), "\(groups)")
        let write = ProcessInfo.processInfo.environment["PHR_WRITE_HELP_FIXTURES"] == "1"
        if write { try FileManager.default.createDirectory(atPath: Self.directory, withIntermediateDirectories: true) }
        var seen: Set<String> = []
        for name in ["phr"] + groups {
            let result = name == "phr" ? top : try cli.run([name, "--help"])
            #expect(result.status == 0, "\(name): \(result.stderr)")
            let path = "\(Self.directory)/\(name).txt"
            seen.insert("\(name).txt")
            if write {
                try result.stdout.write(toFile: path, atomically: true, encoding: .utf8)
                continue
            }
            let pinned = try? String(contentsOfFile: path, encoding: .utf8)
            #expect(result.stdout == pinned, "phr \(name) --help differs from \(path); if the change is meant, run with PHR_WRITE_HELP_FIXTURES=1")
        }
        // No pinned text of a group that is gone.
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: Self.directory))
        #expect(files == seen, "stale: \(files.subtracting(seen).sorted()), missing: \(seen.subtracting(files).sorted())")
    }
}
