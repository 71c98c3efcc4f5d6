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
extension ProcedureList: AgentServable {}
extension FamilyList: AgentServable {}
extension ObservationList: AgentServable {}
extension ProfileList: AgentServable {}
extension IDShow: AgentServable {}
extension GoalList: AgentServable {}
extension StatsCommand: AgentServable {}
extension MCPLog: AgentServable {}
extension EmergencyCommand: AgentServable {
    var servedByAgent: Bool { pdf == nil }
}

/// The CLI's side of the agent: a read command goes to the vault's running agent when there is
/// one (the answer is the same bytes and exit status the command would give here, without
/// opening and unlocking the vault again), else runs here. `PHR_NO_AGENT=1` keeps every command
/// here.
enum AgentForwarding {
    /// The read commands the agent serves, by name (nil: the command itself; else these of its
    /// subcommands), for the look the CLI takes before parsing its arguments.
    static let servedNames: [String: Set<String>?] = [
        "search": nil, "stats": nil, "emergency": nil,
        "doc": ["list", "show"], "med": ["list", "show", "due"], "appt": ["list", "show", "cal"],
        "lab": ["list", "show", "trend"], "log": ["list", "show"], "contact": ["list"], "allergy": ["list"],
        "condition": ["list"], "immunization": ["list"], "procedure": ["list"], "family": ["list"], "observation": ["list"], "profile": ["list"],
        "id": ["show"], "goal": ["list"], "mcp": ["log"],
    ]

    /// The exit status of the command `arguments` name as the vault's running agent answered it,
    /// after writing its output here; nil when the command is to run in this process (no agent,
    /// not a command it serves, PHR_NO_AGENT set, or the agent declined).
    ///
    /// This runs before the arguments are parsed: a process start is most of what a warm agent's
    /// answer costs, and parsing is a good part of that. The agent parses them as this process
    /// would and declines anything that does not parse (help, a usage error: said here), is not
    /// a command it serves, or names another vault.
    static func forward(arguments: [String]) -> Int32? {
        guard let name = arguments.first, let subcommands = servedNames[name],
              subcommands.map({ arguments.count > 1 && $0.contains(arguments[1]) }) ?? true,
              !arguments.contains("-"),
              ProcessEnvironment["PHR_NO_AGENT"].map({ $0.isEmpty || $0 == "0" }) ?? true else { return nil }
        let location = VaultLocation.resolve(explicit: vaultOption(arguments), environment: ProcessEnvironment.variables)
        guard let keyFile = try? Vault.readKeyFile(at: location),
              let record = AgentRecord.running(vaultID: keyFile.vaultID), let socket = record.socket else { return nil }
        var request = AgentCommand(vaultID: keyFile.vaultID, arguments: arguments, environment: ProcessEnvironment.variables,
                                   stdoutIsTTY: Console.stdoutIsTTY, stderrIsTTY: Console.stderrIsTTY,
                                   columns: Console.stdoutIsTTY ? Table.terminalWidth() : nil, zone: TimeZone.current.identifier)
        request.directory = FileManager.default.currentDirectoryPath
        guard let answer = AgentSocket.ask(request, socket: socket), !answer.declined else { return nil }
        for chunk in answer.output {
            if chunk.stream == .stdout { Console.writeOut(Data(chunk.bytes)) } else { Console.writeErr(Data(chunk.bytes)) }
        }
        return Console.exitStatusAfterRun(answer.status)
    }

    /// The value of the last `--vault` option (`--vault PATH` or `--vault=PATH`), if any: only to
    /// find the agent; the agent checks the parsed option names its vault.
    static func vaultOption(_ arguments: [String]) -> String? {
        var found: String?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { break }
            if argument == "--vault", index + 1 < arguments.count {
                found = arguments[index + 1]
                index += 1
            } else if argument.hasPrefix("--vault=") {
                found = String(argument.dropFirst("--vault=".count))
            }
            index += 1
        }
        return found
    }

    /// The agent's answer to a command from the CLI: run here, in-process, on the agent's open
    /// vault, with the CLI's environment and streams; declined unless it parses, is a command the
    /// agent serves, names the agent's vault, and comes from the agent's time zone.
    static func answer(_ request: AgentCommand, vault: Vault) -> AgentAnswer {
        if request.action == MCPBackend.agentAction { return MCPBackend.answer(request, vault: vault) }
        guard request.zone == TimeZone.current.identifier,
              var command = try? PHR.parseAsRoot(request.arguments),
              let served = command as? AgentServable, served.servedByAgent,
              location(of: served, request: request).root == vault.location.root else { return .declined }
        let streams = ConsoleStreams(stdoutIsTTY: request.stdoutIsTTY, stderrIsTTY: request.stderrIsTTY,
                                     noColour: request.environment["NO_COLOR"] != nil, columns: request.columns, captured: true)
        let status = ProcessEnvironment.$forwarded.withValue(request.environment) {
            Console.$forwarded.withValue(streams) {
                VaultAccess.$served.withValue(vault) {
                    PHR.execute(&command)
                }
            }
        }
        guard !streams.overflowed else { return .declined }
        return AgentAnswer(status: status, output: streams.output)
    }

    /// The vault `served` names, as the CLI that sent it resolves it: relative paths from its
    /// working directory, defaults from its environment.
    static func location(of served: AgentServable, request: AgentCommand) -> VaultLocation {
        func absolute(_ path: String) -> String {
            path.hasPrefix("/") ? path : (request.directory ?? "/") + "/" + path
        }
        if let explicit = served.vault.path, !explicit.isEmpty { return VaultLocation(path: absolute(explicit)) }
        if let path = request.environment["PHR_VAULT"], !path.isEmpty { return VaultLocation(path: absolute(path)) }
        return VaultLocation.resolve(explicit: nil, environment: request.environment)
    }
}
