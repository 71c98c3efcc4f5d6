import Foundation

/// Errors of opening, unlocking, checking and copying a vault.
public enum VaultError: PHRError, Equatable {
    /// No vault at the path.
    case notFound(path: String)
    /// `init` or `restore` into a path that is not empty.
    case alreadyExists(path: String)
    /// The directory exists but is not a phr vault (or of a format this phr does not know).
    case notAVault(path: String, reason: String)
    case keyFileInvalid(path: String, reason: String)
    /// The passphrase or recovery key does not open any key slot.
    case wrongPassphrase
    /// No cached unlock and no way to ask for the passphrase.
    case locked(path: String)
    /// PHR_PASSPHRASE_FILE or PHR_PASSPHRASE_COMMAND could not supply a passphrase.
    case passphraseSource(String)
    /// A new passphrase was refused (empty, too short, confirmation mismatch).
    case passphraseRejected(String)
    /// Authentication or consistency failure; each string names one problem.
    case integrity([String])
    /// The kernel keyring cannot be used here.
    case keyringUnavailable(String)
    /// Another phr process holds the vault.
    case busy(path: String)
    /// A file that is not a phr backup.
    case backupInvalid(path: String, reason: String)
    /// No backup file at the path.
    case backupMissing(path: String)
    /// A phr backup that is truncated, altered or damaged.
    case backupDamaged(path: String, reason: String)
    /// A backup written with `--skip-damaged`, restored without `--partial`.
    case backupIncomplete(path: String, damage: [String])

    /// An output file (`--out`, `--pdf`, `--ics`, `--fhir`) that resolves into the vault directory.
    case outputInsideVault(option: Field, path: String, vault: String)
    case io(String)

    public var exitStatus: ExitStatus {
        switch self {
        case .notFound, .backupMissing: return .noInput
        case .backupDamaged, .backupIncomplete: return .integrity
        case .alreadyExists: return .failure
        case .notAVault, .backupInvalid: return .dataError
        case .keyFileInvalid, .integrity: return .integrity
        case .wrongPassphrase, .locked, .passphraseSource: return .locked
        case .passphraseRejected: return .dataError
        case .keyringUnavailable: return .unavailable
        case .busy: return .temporaryFailure
        case .outputInsideVault: return .usage
        case .io: return .ioError
        }
    }

    public var message: Message {
        switch self {
        case .notFound(let path): return "no vault at \(path)"
        case .alreadyExists(let path): return "\(path) already exists and is not empty"
        case .notAVault(let path, let reason): return "\(path) is not a phr vault: \(reason)"
        case .keyFileInvalid(let path, let reason): return "vault integrity check failed: key file \(path) is damaged: \(reason)"
        case .wrongPassphrase: return "wrong passphrase or recovery key"
        case .locked(let path): return "the vault at \(path) is locked"
        case .passphraseSource(let reason): return Message(reason)
        case .passphraseRejected(let reason): return Message(reason)
        case .integrity(let problems):
            return Message("vault integrity check failed: " + (problems.first ?? "unknown damage")
                + (problems.count > 1 ? " (and \(problems.count - 1) more)" : ""))
        case .keyringUnavailable(let reason): return "the kernel keyring is not available here: \(reason)"
        case .busy(let path): return "the vault at \(path) is busy (another phr process is writing)"
        case .backupInvalid(let path, let reason): return "\(path) is not a usable phr backup: \(reason)"
        case .backupMissing(let path): return "\(path): no such backup file"
        case .backupDamaged(let path, let reason): return "backup \(path) is damaged: \(reason)"
        case .backupIncomplete(let path, let damage):
            return "backup \(path) is incomplete: it was written with \(Field.skipDamaged) and \(damage.first ?? "leaves parts out")"
                + (damage.count > 1 ? " (and \(damage.count - 1) more)" : "")

        case .outputInsideVault(let option, let path, let vault):
            return "\(option): \(path) is inside the vault \(vault); phr never writes its output there"
        case .io(let message): return Message(message)
        }
    }

    public var hint: Message? {
        switch self {
        case .notFound: return "create one with '\(Action.createVault)', or point \(Field.vault) / PHR_VAULT at an existing vault"
        case .alreadyExists: return "choose a new path, or remove what is there first"
        case .wrongPassphrase: return "check the passphrase; if it is lost, use the recovery key printed by '\(Action.createVault)'"
        case .locked: return "run '\(Action.unlock)', or set PHR_PASSPHRASE_FILE or PHR_PASSPHRASE_COMMAND for scripts"
        case .integrity, .keyFileInvalid:
            return "restore from a backup with '\(Action.restore(partial: false))'; run '\(Action.check(repair: false))' to list every damaged part"
        case .keyringUnavailable:
            return "phr will ask for the passphrase each time; for scripts use PHR_PASSPHRASE_FILE or PHR_PASSPHRASE_COMMAND"
        case .busy: return "wait for the other phr command to finish, then try again"
        case .backupDamaged: return "use another backup; nothing was restored"
        case .backupIncomplete: return "restore what it holds with '\(Action.restore(partial: true))'"

        case .outputInsideVault:
            return "choose a path outside the vault directory: a file there could replace vault files, and plaintext does not belong in it"
        default: return nil
        }
    }
}
