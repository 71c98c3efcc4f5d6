import ArgumentParser
import Foundation
import PHRService

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show where the vault is, whether it is unlocked, its size and key protection.",
        discussion: "Never asks for a passphrase: record counts appear when the vault is unlocked or a passphrase source is set."
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let location = vault.location
        let keyFile = try Vault.readKeyFile(at: location)
        let cached = UnlockCache.load(vaultID: keyFile.vaultID)
        var keys = cached.flatMap { $0.keys.matches(keyFile) ? $0.keys : nil }
        if keys == nil, let secret = try PassphraseSource.current(environment: VaultAccess.environment) {
            keys = try Vault.unlock(keyFile: keyFile, secret: secret)
        }
        let opened = try keys.map { try Vault.open(at: location, keyFile: keyFile, keys: $0) }
        var status = try VaultStatus.read(location: location, keyFile: keyFile, vault: opened,
                                          unlockedUntil: keys != nil ? cached?.expires : nil)
        do {
            status.sandbox = try SandboxReport.probe()
        } catch let failure as SandboxReport.ProbeFailure {
            status.sandboxError = failure.reason
        }
        // Issue 28: an agent answering read commands is part of how the vault stands.
        if let agent = AgentRecord.running(vaultID: keyFile.vaultID) {
            status.agent = VaultStatus.Agent(pid: agent.pid, url: agent.url, started: agent.started)
        }
        if output.json {
            try Console.json(status)
            return
        }
        Console.out("vault     \(status.path)")
        if let until = cached?.expires {
            let formatter = DateFormatter()
            formatter.dateFormat = "yyyy-MM-dd HH:mm"
            Console.out("state     unlocked until \(formatter.string(from: until)) (\(Console.duration(until.timeIntervalSinceNow)) left)")
        } else {
            Console.out("state     locked")
        }
        if let agent = status.agent {
            Console.out("agent     phr serve (pid \(agent.pid)) at \(agent.url) since \(agent.started): it answers read commands; 'phr lock' stops it")
        }
        Console.out("created   \(status.created)")
        Console.out("format    \(status.format)")
        Console.out("size      \(Console.bytes(status.totalBytes)) (database \(Console.bytes(status.databaseBytes)), \(status.blobFiles) blobs \(Console.bytes(status.blobBytes)))")
        for (index, slot) in status.slots.enumerated() {
            let name = slot.type == "recovery" ? "recovery key" : slot.type
            Console.out("\(index == 0 ? "keys " : "     ")     \(name): \(slot.kdf) N=2^\(slot.log2N) r=\(slot.r) p=\(slot.p) (\(slot.memoryMiB) MiB), set \(slot.updated)")
        }
        if let counts = status.counts {
            let text = counts.keys.sorted().map { "\($0.replacingOccurrences(of: "_", with: " ")) \(counts[$0]!)" }.joined(separator: ", ")
            Console.out("records   \(text)")
            if let waiting = counts["documents_waiting_for_ocr"] {
                Console.note("\(waiting) document\(waiting == 1 ? "" : "s") wait\(waiting == 1 ? "s" : "") for OCR; read \(waiting == 1 ? "it" : "them") with 'phr doc reindex --ocr' (each profile: --profile NAME)")
            }
        } else {
            Console.out("records   (unlock the vault to count them)")
        }
        if let sandbox = status.sandbox {
            Console.out("sandbox   \(sandbox.summary)")
            if let weakness = sandbox.weakness { Console.warning(weakness + " (SECURITY.md, \"The workers' sandbox\")") }
        } else if let reason = status.sandboxError {
            Console.out("sandbox   unknown: \(reason)")
            Console.warning("\(reason); \(RenderHelper.installHint)")
        }
    }
}
