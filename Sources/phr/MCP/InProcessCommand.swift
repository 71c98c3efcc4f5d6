import ArgumentParser
import Foundation
import PHRService

/// A read command run inside this process on an open vault, its output captured: how the
/// `phr serve` agent answers the CLI, and how `phr mcp` answers an assistant.
enum InProcessCommand {
    struct Run {
        var status: Int32
        var stdout: Data
        var stderr: Data
        /// More than `AgentSocket.answerLimit` was written (the output is then empty).
        var overflowed: Bool
    }

    /// Runs `arguments` (a command that only reads: one the agent serves, or a drug-information
    /// command answered from the vault's kept answers) on `vault`; nil when they do not parse
    /// or name a command that could write.
    static func run(_ arguments: [String], vault: Vault, environment: [String: String]) -> Run? {
        guard var command = try? PHR.parseAsRoot(arguments), readsOnly(command) else { return nil }
        let streams = ConsoleStreams(stdoutIsTTY: false, stderrIsTTY: false, noColour: true, columns: nil, captured: true)
        let status = ProcessEnvironment.$forwarded.withValue(environment) {
            Console.$forwarded.withValue(streams) {
                VaultAccess.$served.withValue(vault) {
                    PHR.execute(&command)
                }
            }
        }
        var stdout = Data(), stderr = Data()
        for chunk in streams.output {
            if chunk.stream == .stdout { stdout.append(contentsOf: chunk.bytes) } else { stderr.append(contentsOf: chunk.bytes) }
        }
        return Run(status: status, stdout: stdout, stderr: stderr, overflowed: streams.overflowed)
    }

    static func readsOnly(_ command: ParsableCommand) -> Bool {
        if let served = command as? AgentServable { return served.servedByAgent }
        return command is MedInfo || command is MedCheck
    }
}
