import ArgumentParser
import Foundation
import Glibc
import PHRService

/// A command a running `phr serve` agent may answer for the CLI: it only reads the vault, and
/// writes nothing but its standard output and error (no file, no terminal prompt, no network).
/// `servedByAgent` says no for an invocation that would do more (`emergency --pdf`).
protocol AgentServable: ParsableCommand {
    var vault: VaultOptions { get }
    var servedByAgent: Bool { get }
}

extension AgentServable {
    var servedByAgent: Bool { true }
}

extension SearchCommand: AgentServable {}
extension DocList: AgentServable {}
extension DocShow: AgentServable {}
extension MedList: AgentServable {}
extension MedShow: AgentServable {}
extension MedDue: AgentServable {}
extension ApptList: AgentServable {}
extension ApptShow: AgentServable {}
extension ApptCalendar: AgentServable {}
extension LabList: AgentServable {}
extension LabShow: AgentServable {}
extension LabTrendCommand: AgentServable {}
extension LogList: AgentServable {}
extension LogShow: AgentServable {}
extension ContactList: AgentServable {}
extension AllergyList: AgentServable {}
extension ConditionList: AgentServable {}
extension ImmunizationList: AgentServable {}
extension ObservationList: AgentServable {}
extension ProfileList: AgentServable {}
extension IDShow: AgentServable {}
extension GoalList: AgentServable {}
extension StatsCommand: AgentServable {}
extension EmergencyCommand: AgentServable {
    var servedByAgent: Bool { pdf == nil }
}

/// The CLI's side of the agent: a read command goes to the vault's running agent when there is
/// one (the answer is the same bytes and exit status the command would give here, without
/// opening and unlocking the vault again), else runs here. `PHR_NO_AGENT=1` keeps every command
/// here.
enum AgentForwarding {
    /// The exit status of `command` as the agent answered it, after writing its output here; nil
    /// when the command is to run in this process.
    static func forward(_ command: ParsableCommand, arguments: [String]) -> Int32? {
        guard let served = command as? AgentServable, served.servedByAgent,
              ProcessEnvironment["PHR_NO_AGENT"].map({ $0.isEmpty || $0 == "0" }) ?? true,
              let keyFile = try? Vault.readKeyFile(at: served.vault.location),
              let record = AgentRecord.running(vaultID: keyFile.vaultID), let socket = record.socket else { return nil }
        let request = AgentCommand(vaultID: keyFile.vaultID, arguments: arguments, environment: ProcessEnvironment.variables,
                                   stdoutIsTTY: Console.stdoutIsTTY, stderrIsTTY: Console.stderrIsTTY,
                                   columns: Console.stdoutIsTTY ? Table.terminalWidth() : nil, zone: TimeZone.current.identifier)
        guard let answer = AgentSocket.ask(request, socket: socket), !answer.declined else { return nil }
        Console.writeOut(Data(answer.stdout))
        Console.writeErr(Data(answer.stderr))
        return Console.exitStatusAfterRun(answer.status)
    }

    /// The agent's answer to a command from the CLI: run here, in-process, on the agent's open
    /// vault, with the CLI's environment and streams; declined unless it is a command the agent
    /// serves, in the agent's time zone.
    static func answer(_ request: AgentCommand, vault: Vault) -> AgentAnswer {
        guard request.zone == TimeZone.current.identifier,
              var command = try? PHR.parseAsRoot(request.arguments),
              let served = command as? AgentServable, served.servedByAgent else { return .declined }
        let streams = ConsoleStreams(stdoutIsTTY: request.stdoutIsTTY, stderrIsTTY: request.stderrIsTTY,
                                     noColour: request.environment["NO_COLOR"] != nil, columns: request.columns, captured: true)
        let status = ProcessEnvironment.$forwarded.withValue(request.environment) {
            Console.$forwarded.withValue(streams) {
                VaultAccess.$served.withValue(vault) {
                    PHR.execute(&command)
                }
            }
        }
        return AgentAnswer(status: status, stdout: Array(streams.stdout), stderr: Array(streams.stderr))
    }
}
