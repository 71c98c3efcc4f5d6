import Foundation

/// Errors reading and writing interchange files (phr exports, FHIR bundles, iCalendar).
///
/// A malformed file names the entry and field at fault (`entry[12] (Immunization): occurrenceDateTime: ...`)
/// and repeats at most the one value that is wrong, never the rest of the record.
public enum InteropError: PHRError, Equatable {
    /// The file is none of the formats phr reads.
    case unrecognized(path: String, reason: Message)
    /// Something in the file is not what the format says; nothing was imported.
    case malformed(path: String, location: String, reason: String)
    /// A phr export from a newer phr.
    case unsupportedVersion(path: String, version: Int)
    /// The output file exists and --force was not given.
    case exists(path: String)
    /// Holds records of several people; one profile must not receive another person's records.
    case severalPatients(path: String, entries: [String])
    /// Some entries were refused as bad data (listed in the report); the rest was imported.
    case partlyImported(path: String, rejected: Int, dryRun: Bool)
    /// phr-render, which reads XML, could not be started (posix_spawn's errno).
    case readerUnavailable(path: String, code: Int32)
    /// The XML reader needed more memory than a reader may use (`limit` bytes); nothing was imported.
    case readerOutOfMemory(path: String, limit: Int)

    public var exitStatus: ExitStatus {
        switch self {
        case .exists: return .failure
        case .readerUnavailable, .readerOutOfMemory: return .unavailable
        default: return .dataError
        }
    }

    public var message: Message {
        switch self {
        case .unrecognized(let path, let reason): return "\(path): \(reason)"
        case .malformed(let path, let location, let reason): return "\(path): \(location): \(reason)"
        case .unsupportedVersion(let path, let version): return "\(path): phr export version \(version) is newer than this phr reads (1)"
        case .exists(let path): return "\(path) already exists"
        case .severalPatients(let path, let entries):
            return "\(path): the bundle holds \(entries.count) patients (\(entries.joined(separator: ", ")))"
        case .partlyImported(let path, let rejected, let dryRun):
            return "\(path): \(rejected) \(rejected == 1 ? "entry was" : "entries were") refused as bad data; "
                + (dryRun ? "the rest would be imported" : "the rest was imported")
        case .readerUnavailable(let path, let code): return "cannot start \(path) to read the XML: \(String(cString: strerror(code)))"
        case .readerOutOfMemory(let path, let limit):
            return "\(path): reading the XML needed more than the \(ReaderMemory.describe(limit)) a reader may use; nothing was imported"
        }
    }

    public var hint: Message? {
        switch self {
        case .unrecognized: return "phr imports its own exports (\(Action.exportRecords)), FHIR R4 Bundles (JSON), C-CDA documents (XML), Apple Health exports (export.zip), Google Fit Takeouts (the .zip or its folder) and iCalendar (.ics) files"
        case .malformed: return "nothing was imported; fix or remove that entry and import again"
        case .unsupportedVersion: return "upgrade phr to import this file"
        case .exists: return "choose another name, remove the file, or add \(Field.force)"
        case .severalPatients:
            return "import one patient's bundle per profile (\(Action.addProfile), then \(Field.profile) NAME), or a document bundle whose Composition names its subject"
        case .readerUnavailable: return Message(RenderHelper.installHint)
        case .readerOutOfMemory(_, let limit): return ReaderMemory.hint(after: limit)
        case .partlyImported: return "the report lists each refused entry and why; fix them and import the file again (what is in stays as it is)"
        }
    }
}
