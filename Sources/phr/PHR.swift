import ArgumentParser
import Foundation
import PHRService
import CPHRSystem

/// The `phr` command: configuration only; every verb is a nested command in Commands/.
@main
struct PHR: ParsableCommand {
    static let version = PHRVersion.string

    static let configuration = CommandConfiguration(
        commandName: "phr",
        abstract: "A personal health records vault: encrypted, offline, searchable.",
        discussion: """
            The vault lives in one directory (--vault, PHR_VAULT, or ~/.local/share/phr/vault).
            Passphrases come from a prompt, PHR_PASSPHRASE_FILE, PHR_PASSPHRASE_COMMAND or
            PHR_PASSPHRASE, never from the command line. See 'phr help <command>'.
            """,
        version: version,
        subcommands: [
            InitCommand.self,
            PasswdCommand.self,
            UnlockCommand.self,
            LockCommand.self,
            ServeCommand.self,
            MCPCommand.self,
            StatusCommand.self,
            CheckCommand.self,
            BackupCommand.self,
            RestoreCommand.self,
            DocCommand.self,
            SearchCommand.self,
            ProfileCommand.self,
            MedCommand.self,
            ApptCommand.self,
            ContactCommand.self,
            IDCommand.self,
            AllergyCommand.self,
            ConditionCommand.self,
            ImmunizationCommand.self,
            ProcedureCommand.self,
            FamilyCommand.self,
            ObservationCommand.self,
            LabCommand.self,
            EmergencyCommand.self,
            LogCommand.self,
            GoalCommand.self,
            StatsCommand.self,
            BMICommand.self,
            RemindCommand.self,
            ReportCommand.self,
            ShareCommand.self,
            ExportCommand.self,
            ImportCommand.self,
            SyncCommand.self,
        ]
    )

    static func main() {
        // No core file may ever hold keys or plaintext.
        _ = phr_disable_core_dumps()
        // Everything phr creates (vault files, backups, exports) is private to the user.
        umask(0o077)
        // An export interrupted by Ctrl-C or SIGTERM removes its unfinished file; one a killed
        // phr left (SIGKILL, on a file system without unnamed files) goes now.
        _ = phr_cleanup_install()
        UnfinishedOutputs.sweep()
        Console.checkStdioAtExit()
        // A read command goes to the vault's `phr serve` agent when one runs.
        if let status = AgentForwarding.forward(arguments: Array(CommandLine.arguments.dropFirst())) { Foundation.exit(status) }
        var command: ParsableCommand
        let arguments: [String]
        do {
            // A record-text value given as "-" comes from standard input, not argv (/proc).
            arguments = try RecordTextInput.substitute(Array(CommandLine.arguments.dropFirst()))
            command = try parseAsRoot(arguments)
        } catch {
            if let mistyped = CommandSuggestion.mistyped(Array(CommandLine.arguments.dropFirst())) {
                Console.error("'\(mistyped.typed)' is not a '\(mistyped.group)' command",
                              hint: "did you mean '\(mistyped.meant)'? ('\(mistyped.group) --help' lists them)")
                Foundation.exit(ExitStatus.usage.rawValue)
            }
            Foundation.exit(report(error))
        }
        Foundation.exit(execute(&command))
    }

    /// Runs a parsed command to its exit status, saying what went wrong in phr's words.
    static func execute(_ command: inout ParsableCommand) -> Int32 {
        do {
            try command.run()
            // Output that could not be written is a failure (74), even after the work was saved.
            return Console.exitStatusAfterRun()
        } catch {
            return report(error)
        }
    }

    /// Says what `error` means and returns the exit status it stands for.
    static func report(_ error: Error) -> Int32 {
        switch error {
        case let error as PHRError:
            Console.error(error.message.cli, hint: error.hint?.cli)
            // Locked while an agent holds the vault: the agent answers reads only.
            if case VaultError.locked(let path)? = error as? VaultError, Console.forwarded == nil,
               let keyFile = try? Vault.readKeyFile(at: VaultLocation(path: path)), AgentRecord.running(vaultID: keyFile.vaultID) != nil {
                Console.note("phr serve runs for this vault but answers read commands only; to change records, unlock with 'phr unlock' or a passphrase variable")
            }
            return error.exitStatus.rawValue
        case let error as POSIXIOError:
            Console.error(error.localizedDescription)
            return ExitStatus.ioError.rawValue
        case let error as CryptoError:
            Console.error(error.localizedDescription)
            return ExitStatus.failure.rawValue
        default:
            // Help and --version: not failures, printed as ArgumentParser writes them.
            // (Never in an agent answering the CLI, which must not exit: no read command throws it.)
            guard exitCode(for: error) != .success else {
                if Console.forwarded != nil { return 0 }
                exit(withError: error)
            }
            // Thrown after the command printed its own messages.
            if let error = error as? ExitCode { return error.rawValue }
            if exitCode(for: error) == .validationFailure {
                UsageError.say(fullMessage(for: error))
                return ExitStatus.usage.rawValue
            }
            // Anything else escaped a command's own error handling: say it in phr's voice.
            Console.error(VaultDatabase.describe(error))
            return ExitStatus.failure.rawValue
        }
    }
}

/// Options every command that works on a vault accepts.
struct VaultOptions: ParsableArguments {
    @Option(name: .customLong("vault"), help: "The vault directory (default: $PHR_VAULT, else ~/.local/share/phr/vault).")
    var path: String?

    var location: VaultLocation {
        VaultLocation.resolve(explicit: path, environment: ProcessEnvironment.variables)
    }

    func validate() throws {
        // A vault path that is not UTF-8 would silently become another path (U+FFFD in place of
        // its bytes): refuse it.
        if let path, RawArguments.isLossy(path) {
            throw ValidationError("--vault: the path is not valid UTF-8; use a vault directory whose name is UTF-8")
        }
    }

    /// Refuses, before any work, an output file `option` names that lies inside the vault
    /// directory (exit 64). Every command that writes a file calls this for each such option.
    func refuseOutput(_ path: String?, option: String) throws {
        guard let path else { return }
        try location.refuseOutputInside(path, option: Field(String(option.dropFirst(2))))
    }
}

/// `--profile NAME` for commands on records: whose records they read and write.
struct ProfileOptions: ParsableArguments {
    @Option(name: .customLong("profile"), help: "Whose records (default: $PHR_PROFILE, else the default profile).")
    var name: String?

    /// The profile named on the command line or in PHR_PROFILE, or nil for the default profile.
    var requested: String? {
        if let name, !name.isEmpty { return name }
        let fromEnvironment = ProcessEnvironment["PHR_PROFILE"]
        return fromEnvironment?.isEmpty == false ? fromEnvironment : nil
    }
}

/// `--json` for commands with structured output.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print machine-readable JSON on stdout.")
    var json = false
}

/// Runs option checks that use the library's field validation inside `validate()`, turning their
/// errors into usage errors (exit 64 with the usage line), as ArgumentParser expects.
func asUsageError(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as PHRError {
        throw ValidationError(error.message.cli)
    }
}
