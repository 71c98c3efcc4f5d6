import Foundation
import Glibc
import PHRService

/// Reads a passphrase from the controlling terminal with echo off (like ssh and restic), so it
/// never appears on screen, in the shell history or in argv.
enum PassphrasePrompt {
    nonisolated(unsafe) private static var savedTermios = termios()
    nonisolated(unsafe) private static var ttyDescriptor: Int32 = -1

    /// True if there is a terminal to ask on.
    static var isAvailable: Bool {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return false }
        close(fd)
        return true
    }

    /// Asks once. Returns nil if there is no terminal.
    static func ask(_ prompt: String) throws -> SecretBytes? {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var original = termios()
        guard tcgetattr(fd, &original) == 0 else { return nil }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        silent.c_lflag |= tcflag_t(ICANON)
        savedTermios = original
        ttyDescriptor = fd
        // Ctrl-C while echo is off must not leave the terminal silent.
        let previous = signal(SIGINT) { _ in
            tcsetattr(PassphrasePrompt.ttyDescriptor, TCSAFLUSH, &PassphrasePrompt.savedTermios)
            _exit(130)
        }
        defer {
            tcsetattr(fd, TCSAFLUSH, &original)
            signal(SIGINT, previous)
            ttyDescriptor = -1
        }
        // Echo off before the prompt shows: what is typed (or pasted) after it is never echoed
        // and never flushed.
        tcsetattr(fd, TCSAFLUSH, &silent)
        _ = prompt.withCString { write(fd, $0, strlen($0)) }
        var line = [UInt8]()
        defer { wipe(&line) }
        var byte: UInt8 = 0
        while read(fd, &byte, 1) == 1 && byte != 0x0a {
            line.append(byte)
        }
        _ = write(fd, "\n", 1)
        if line.last == 0x0d { line.removeLast() }
        return SecretBytes(copying: line)
    }

    /// Asks twice for a new passphrase and insists they match; a short one or a mismatch is
    /// said on the terminal and asked again, `Unlocking.attempts` times in all.
    static func askNew(_ prompt: String) throws -> SecretBytes? {
        for attempt in 1...Unlocking.attempts {
            guard let first = try ask(prompt) else { return nil }
            do {
                try Passphrase.validateNew(first)
                guard let second = try ask("Repeat the passphrase: ") else { return nil }
                guard first.isEqual(to: second) else {
                    throw VaultError.passphraseRejected("the two passphrases do not match")
                }
                return first
            } catch VaultError.passphraseRejected(let reason) where attempt < Unlocking.attempts {
                say("phr: \(reason); try again (\(Unlocking.attempts - attempt) more \(Unlocking.attempts - attempt == 1 ? "try" : "tries"))\n")
            }
        }
        return nil
    }

    /// Writes `text` on the terminal (not on stderr: it belongs with the prompt).
    static func say(_ text: String) {
        let fd = open("/dev/tty", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        _ = text.withCString { write(fd, $0, strlen($0)) }
    }
}
