import ArgumentParser
import Foundation
import Glibc
import PHRService

struct MCPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Let your own local AI assistant read your records, read-only, over the Model Context Protocol.",
        discussion: """
            'phr mcp' is what an assistant (a desktop app, an editor, an Ollama front end) starts to reach the vault: \
            it speaks MCP on standard input and output and answers with search, lists, records, document text, lab \
            trends, medications, the health log and appointments. Nothing it offers writes, and it reads only what \
            you allow (--profile, --only, --no-documents). Every call goes into the vault's encrypted access log: \
            'phr mcp log' shows what your assistant read. docs/mcp.md says how to register phr with a client.
            """,
        subcommands: [MCPStdio.self, MCPLog.self],
        defaultSubcommand: MCPStdio.self
    )
}

struct MCPStdio: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stdio",
        abstract: "Speak MCP on standard input and output (what 'phr mcp' does).",
        discussion: """
            The vault is read through a running 'phr serve' (no second unlock); without one, phr mcp opens it \
            itself from the unlock cache ('phr unlock') or a passphrase variable. It never asks for the \
            passphrase: a locked vault is said to the assistant, which tells you. Drug information comes from the \
            answers the vault keeps unless --allow-network.
            """
    )

    @OptionGroup var vault: VaultOptions
    @Option(name: .customLong("profile"), help: "Whose records the assistant may read (repeat for several; default: $PHR_PROFILE, else the default profile).")
    var profiles: [String] = []
    @Flag(name: .customLong("all-profiles"), help: "Every profile in the vault.")
    var allProfiles = false
    @Option(name: .customLong("only"), help: ArgumentHelp("Only these kinds of records, comma-separated: \(MCPKind.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "kinds"))
    var only: [String] = []
    @Flag(name: .customLong("no-documents"), help: "No documents: neither their list nor their text (search leaves them out too).")
    var noDocuments = false
    @Flag(name: .customLong("allow-network"), help: "Let drug information be looked up in RxNorm and openFDA when the vault has no kept answer.")
    var allowNetwork = false

    func validate() throws {
        if allProfiles && !profiles.isEmpty { throw ValidationError("--all-profiles: give it or --profile, not both") }
        if profiles.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) { throw ValidationError("--profile: the name is empty") }
        if try MCPScope.kinds(only: only, noDocuments: noDocuments).isEmpty {
            throw ValidationError("--only: nothing is left to read once --no-documents takes the documents away")
        }
    }

    var scope: MCPScope {
        get throws {
            var named: [String]? = allProfiles ? nil : profiles
            if named == [], let fromEnvironment = ProcessEnvironment["PHR_PROFILE"], !fromEnvironment.isEmpty { named = [fromEnvironment] }
            return MCPScope(profiles: named, kinds: try MCPScope.kinds(only: only, noDocuments: noDocuments), network: allowNetwork)
        }
    }

    func run() throws {
        let location = vault.location
        // A vault that is not there is said now, on the terminal or in the client's log.
        _ = try Vault.readKeyFile(at: location)
        // The protocol owns standard output: it gets a descriptor of its own, and anything else
        // that writes to descriptor 1 lands on standard error instead.
        let protocolOutput = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)
        guard protocolOutput >= 0, dup2(STDERR_FILENO, STDOUT_FILENO) >= 0 else {
            throw VaultError.io("cannot set up standard output for MCP: \(String(cString: strerror(errno)))")
        }
        // A client that goes away mid-answer ends phr mcp with EPIPE, not a signal.
        signal(SIGPIPE, SIG_IGN)
        if isatty(STDIN_FILENO) == 1 {
            Console.note("phr mcp speaks the Model Context Protocol on standard input and output, for an assistant to start (docs/mcp.md); Ctrl-D ends it")
        }
        let scope = try scope
        let server = MCPStdioServer(backend: MCPBackend(location: location, scope: scope), scope: scope, version: PHR.version,
                                    output: FileDescriptor(fd: protocolOutput, path: "standard output"))
        let status = server.run(input: STDIN_FILENO)
        if status != 0 { throw ExitCode(status) }
    }
}

struct MCPLog: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Show what local assistants read through 'phr mcp', newest first.",
        discussion: """
            One line per call: when, which client (as it named itself), the tool or resource, whose records, how it \
            ended, how many results, and what it asked with (never what phr answered). The vault keeps the newest \
            \(AssistantAccessLog.kept) calls.
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "At most this many calls.") var limit = 50
    @Option(help: "Only calls on or after this day (YYYY-MM-DD).") var since: String?

    func validate() throws {
        guard (1...AssistantAccessLog.kept).contains(limit) else { throw ValidationError("--limit: give 1 to \(AssistantAccessLog.kept)") }
        if let since, CalendarDate(since) == nil { throw ValidationError("--since: '\(since)' is not a day (YYYY-MM-DD)") }
    }

    func run() throws {
        let opened = try VaultAccess.open(vault.location)
        let calls = try AssistantAccessLog.list(in: opened, limit: limit, since: since)
        if output.json { return try Console.json(calls) }
        if calls.isEmpty { return Console.note("no assistant has read anything through 'phr mcp' yet") }
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        Table.print(header: ["TIME", "CLIENT", "CALL", "PROFILE", "OUTCOME", "RESULTS", "VIA", "ARGUMENTS"], rows: calls.map { call in
            [Timestamp.parse(call.at).map(formatter.string) ?? call.at, call.client, call.call, call.profile ?? "-",
             call.outcome.rawValue, call.results.map(String.init) ?? "-", call.via.rawValue, call.arguments]
        })
    }
}
