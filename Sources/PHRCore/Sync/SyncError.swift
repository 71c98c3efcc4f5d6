import Foundation

/// Errors of `phr sync`.
public enum SyncError: PHRError, Equatable {
    /// `phr sync` before `phr sync init` (or `join`) on this device.
    case notInitialized
    case alreadyInitialized
    /// No remote of that name, or none at all.
    case noRemote(String?)
    case remoteExists(String)
    /// A remote name that is not a short word.
    case badRemoteName(String)
    /// A target that is neither an existing folder nor `rclone:REMOTE:PATH`.
    case badTarget(String, reason: String)
    /// The remote holds another vault's sync objects.
    case otherVault(String)
    /// An object on the remote that fails authentication, is truncated, or claims another place.
    case tampered(object: String, reason: String)
    /// The remote cannot be read or written.
    case remote(String)
    /// No conflict with that ID.
    case noConflict(String)
    /// A conflict already settled.
    case conflictSettled(String)
    /// A change whose parent record (profile, medication) this device does not have.
    case missingParent(kind: String)
    /// The vault's own sync bookkeeping is inconsistent.
    case damagedState(String)
    /// An enrolment file that is not one, or a code that does not open it.
    case badEnrolment(path: String, reason: String)
    case wrongCode
    /// No enrolment file at the path.
    case noFile(String)

    public var exitStatus: ExitStatus {
        switch self {
        case .notInitialized, .alreadyInitialized, .remoteExists, .conflictSettled: return .failure
        case .noRemote, .noConflict, .noFile: return .noInput
        case .badRemoteName, .badTarget: return .usage
        case .otherVault, .badEnrolment: return .dataError
        case .tampered, .damagedState, .missingParent: return .integrity
        case .remote: return .unavailable
        case .wrongCode: return .locked
        }
    }

    public var message: Message {
        switch self {
        case .notInitialized: return "sync is not set up for this vault on this device"
        case .alreadyInitialized: return "sync is already set up for this vault"
        case .noRemote(let name?): return "no sync remote named \(name)"
        case .noRemote(nil): return "this vault has no sync remote"
        case .remoteExists(let name): return "a sync remote named \(name) already exists"
        case .badRemoteName(let name): return "\(Field.argument("name")): \(name) is not a remote name (letters, digits, - and _, up to 40)"
        case .badTarget(let target, let reason): return "\(Field.argument("target")): \(target): \(reason)"
        case .otherVault(let target): return "\(target) holds the sync of another vault"
        case .tampered(let object, let reason): return "sync integrity check failed: \(object) \(reason); nothing was applied"
        case .remote(let detail): return "cannot use the sync remote: \(detail)"
        case .noConflict(let id): return "no sync conflict with ID \(id)"
        case .conflictSettled(let id): return "sync conflict \(id) is already settled"
        case .missingParent(let kind): return "sync integrity check failed: a \(kind) arrived before the record it belongs to"
        case .damagedState(let detail): return "sync integrity check failed: \(detail)"
        case .badEnrolment(let path, let reason): return "\(path) is not a phr enrolment file: \(reason)"
        case .wrongCode: return "that code does not open the enrolment file"
        case .noFile(let path): return "no such file: \(path)"
        }
    }

    public var hint: Message? {
        switch self {
        case .notInitialized: return "start with \(Action.syncInit) on the first device, or \(Action.syncJoin) on another"
        case .noRemote: return "add one with \(Action.syncRemoteAdd)"
        case .tampered: return "the storage or someone with access to it changed the object; restore it from another copy, or remove it and sync from a device that still has its changes"
        case .otherVault: return "give each vault its own folder"
        case .wrongCode: return "type the code the enrolling device showed, with or without its dashes"
        default: return nil
        }
    }
}
