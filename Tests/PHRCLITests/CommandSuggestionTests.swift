import Foundation
import Testing

/// "Did you mean" for a mistyped command (issue 35, item 7), through the real binary.
@Suite struct CommandSuggestionTests {
    @Test func aMistypedCommandIsAnsweredWithTheOneMeant() throws {
        let cli = try CLI(label: "did-you-mean")
        defer { cli.cleanUp() }
        for (arguments, typed, group, meant) in [(["serach", "ferritin"], "serach", "phr", "phr search"),
                                                 (["med", "lst"], "lst", "phr med", "phr med list"),
                                                 (["apt", "list"], "apt", "phr", "phr appt"),
                                                 (["mcp", "lgo"], "lgo", "phr mcp", "phr mcp log")] {
            let result = try cli.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.output)")
            #expect(result.stderr == "phr: error: '\(typed)' is not a '\(group)' command\nphr: hint: did you mean '\(meant)'? ('\(group) --help' lists them)\n",
                    "\(arguments): \(result.output)")
        }
        // Nothing close: ArgumentParser's own words, as before; a right command is not touched.
        let far = try cli.run(["xyzzy"])
        #expect(far.status == 64 && !far.stderr.contains("did you mean") && far.stderr.contains("unexpected argument 'xyzzy'"), "\(far.output)")
        let missing = try cli.run(["search"])
        #expect(missing.status == 64 && !missing.stderr.contains("did you mean"), "\(missing.output)")
    }
}
