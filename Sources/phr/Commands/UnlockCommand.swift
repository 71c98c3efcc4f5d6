import ArgumentParser
import Foundation
import PHRService

struct UnlockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock",
        abstract: "Keep the vault unlocked for a while, so commands stop asking for the passphrase.",
        discussion: """
            The vault's working keys (never the passphrase) are held in the Linux kernel user
            keyring, which only your user can read, and expire by themselves. 'phr lock' ends it
            early. Where the keyring is blocked (some containers) phr says so and keeps asking.
            """
    )

    @OptionGroup var vault: VaultOptions

    @Option(name: .customLong("for"), help: "How long, like 15m, 2h or 1h30m (at most 24h).")
    var duration: String = "15m"

    func validate() throws {
        guard let seconds = DurationText.parse(duration) else {
            throw ValidationError("--for: '\(duration)' is not a duration; use something like 15m, 2h or 1h30m")
        }
        guard seconds <= UnlockCache.maximumDuration else {
            throw ValidationError("--for: at most 24h; for longer, use PHR_PASSPHRASE_FILE or PHR_PASSPHRASE_COMMAND")
        }
    }

    func run() throws {
        let location = vault.location
        let keyFile = try Vault.readKeyFile(at: location)
        let seconds = DurationText.parse(duration)!
        // A wrong passphrase typed on the terminal is asked again (three tries in all).
        guard let keys = try VaultAccess.unlocking.verified({ secret in try Vault.unlock(keyFile: keyFile, secret: secret) }) else {
            // "run 'phr unlock'" is no hint for the command that just ran.
            throw UnlockError.nobodyToAsk(path: location.root)
        }
        try UnlockCache.store(keys, vaultID: keyFile.vaultID, duration: seconds)
        let until = Date().addingTimeInterval(seconds)
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        Console.note("unlocked until \(formatter.string(from: until)) (\(Console.duration(seconds))); 'phr lock' ends it now")
    }
}

struct LockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock",
        abstract: "End a 'phr unlock', and the 'phr serve' agent, now."
    )

    @OptionGroup var vault: VaultOptions

    func run() throws {
        let keyFile = try Vault.readKeyFile(at: vault.location)
        let cleared = UnlockCache.clear(vaultID: keyFile.vaultID)
        let stopped = AgentRecord.stop(vaultID: keyFile.vaultID)
        if stopped { Console.note("the phr serve agent is locked and its keys are gone") }
        if cleared {
            Console.note("locked")
        } else if !stopped {
            Console.note("the vault was not unlocked")
        }
    }
}

enum UnlockError: PHRError {
    case nobodyToAsk(path: String)

    var message: Message {
        switch self {
        case .nobodyToAsk(let path): return "cannot unlock the vault at \(path): there is no terminal to ask on and no passphrase source is set"
        }
    }

    var hint: Message? { "run phr unlock on a terminal, or set PHR_PASSPHRASE_FILE or PHR_PASSPHRASE_COMMAND" }

    var exitStatus: ExitStatus { .locked }
}
