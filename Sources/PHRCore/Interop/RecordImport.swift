import Foundation
import GRDB

/// `phr import FILE`: recognises the file (a phr export, a FHIR R4 Bundle, an iCalendar file,
/// or a phone export, Apple Health or Google Fit's Takeout: HealthExportImport.swift) and
/// imports it into one profile in a single transaction. A malformed file changes nothing;
/// importing the same file twice adds nothing.
public enum RecordImport {
    /// Largest file read (FHIR bundles of a whole medical history run to a few megabytes).
    static let maximumBytes = 256 << 20

    /// Imports `path`. The profile is `profileName` if given; for a phr export, else the
    /// profile it was exported from (created if this vault has none of that name); else the
    /// default profile. With `dryRun` the report says what would happen and nothing is written.
    public static func run(path: String, vault: Vault, profileName: String?, time: TimeContext,
                           dryRun: Bool = false, progress: ((Int64, Int64) -> Void)? = nil) throws -> ImportReport {
        try run(input: InputPath(path), vault: vault, profileName: profileName, time: time, dryRun: dryRun, progress: progress)
    }

    /// `run` of a path given as the bytes the file system knows it by: a name that is not UTF-8
    /// (from an old camera, a Windows share) is opened as it is and named with `\xNN` escapes.
    /// The file is opened once; what it is and what it holds are read from that descriptor.
    public static func run(input: InputPath, vault: Vault, profileName: String?, time: TimeContext,
                           dryRun: Bool = false, progress: ((Int64, Int64) -> Void)? = nil) throws -> ImportReport {
        let path = input.display
        let file = try open(input, allowDirectory: true)
        if let format = HealthExportFormat.recognize(file) {
            return try HealthExportImport(format: format).run(file: file, path: path, vault: vault, profileName: profileName, time: time,
                                                              dryRun: dryRun, progress: progress)
        }
        // XML (C-CDA) goes to its reader by the descriptor, never into phr's memory: a 195 MB
        // document took phr to 950 MB when it was read here, copied and decoded whole.
        let source: Source
        if let head = try xmlHead(file, path: path) {
            try checkXML(head, path: path)
            source = .ccdaFile(file)
        } else {
            source = try classify(try read(file, path: path), path: path)
        }
        struct Rollback: Error { let report: ImportReport }
        do {
            return try vault.database.write { db in
                let rowsBefore = try SearchIndex.indexedRows(db)
                var report: ImportReport
                switch source {
                case .phr(let export):
                    var created = false
                    let profile: Profile
                    if let profileName {
                        profile = try Profiles.resolve(db, name: profileName)
                    } else if let same = try Profiles.all(db).first(where: { $0.name.caseInsensitiveCompare(export.profile.name) == .orderedSame }) {
                        profile = same
                    } else {
                        profile = try Profiles.create(db, name: export.profile.name, relation: export.profile.relation == .self ? .other : export.profile.relation)
                        created = true
                    }
                    report = ImportReport(format: "phr export v\(export.version)", profile: profile.name)
                    report.createdProfile = created
                    try PHRImporter(export: export, path: path, profileID: profile.id, time: time).run(db, report: &report)
                case .fhir(let bundle):
                    let profile = try Profiles.resolve(db, name: profileName)
                    report = ImportReport(format: "FHIR \(bundle.version.rawValue) Bundle (\(bundle.type))", profile: profile.name)
                    try FHIRImporter(bundle: bundle, path: path, profileID: profile.id, time: time).run(db, report: &report)
                case .ccda(let document):
                    let profile = try Profiles.resolve(db, name: profileName)
                    var importer = CCDAImporter(path: path, profileID: profile.id, time: time)
                    report = ImportReport(format: CCDAImporter.format(document), profile: profile.name)
                    try importer.run(document, db, report: &report)
                case .ccdaFile(let file):
                    // Each entry is stored as the reader sends it, inside this transaction: the
                    // document's entries are never all in memory. A refusal or a dead reader
                    // still rolls everything back.
                    let profile = try Profiles.resolve(db, name: profileName)
                    var importer = CCDAImporter(path: path, profileID: profile.id, time: time)
                    var streamed = ImportReport(format: "C-CDA", profile: profile.name)
                    let firstSkip = streamed.skipped.count
                    let result = try CCDAReaderProcess().read(file, path: path) { entry in
                        try importer.take(entry, db, &streamed)
                    }
                    guard case .document(let document) = result else {
                        if case .refused(let refusal) = result { throw refused(refusal, path: path) }
                        throw InteropError.malformed(path: path, location: "XML", reason: "the process reading it failed")
                    }
                    streamed.format = CCDAImporter.format(document)
                    try importer.finish(document, db, report: &streamed, skipsAt: firstSkip)
                    report = streamed
                case .iCalendar(let text):
                    let profile = try Profiles.resolve(db, name: profileName)
                    report = ImportReport(format: "iCalendar", profile: profile.name)
                    try ICalendarImport(text: text, path: path, profileID: profile.id, time: time).run(db, report: &report)
                }
                if dryRun {
                    report.dryRun = true
                    throw Rollback(report: report)
                }
                try SearchIndex.compactAfterBulkChange(db, rowsBefore: rowsBefore)
                return report
            }
        } catch let rollback as Rollback {
            return rollback.report
        }
    }

    /// Only iCalendar (for `appt import`), into the given profile.
    public static func runICalendar(path: String, vault: Vault, profile: Profile, time: TimeContext) throws -> ImportReport {
        try runICalendar(input: InputPath(path), vault: vault, profile: profile, time: time)
    }

    public static func runICalendar(input: InputPath, vault: Vault, profile: Profile, time: TimeContext) throws -> ImportReport {
        let path = input.display
        let bytes = try read(try open(input, allowDirectory: false), path: path)
        guard case .iCalendar(let text) = try classify(bytes, path: path) else {
            throw InteropError.unrecognized(path: path, reason: "not an iCalendar file (it does not begin with BEGIN:VCALENDAR)")
        }
        return try vault.database.write { db in
            var report = ImportReport(format: "iCalendar", profile: profile.name)
            try ICalendarImport(text: text, path: path, profileID: profile.id, time: time).run(db, report: &report)
            return report
        }
    }

    enum Source {
        case phr(PHRExport)
        case fhir(FHIRBundle)
        case ccda(CCDADocument)
        /// A C-CDA document read from the file during the import, entry by entry.
        case ccdaFile(FileDescriptor)
        case iCalendar(String)
    }

    /// Opens the file to import; a missing one is `noSuchFile`.
    static func open(_ input: InputPath, allowDirectory: Bool) throws -> FileDescriptor {
        do {
            return try FileDescriptor.openInput(input, allowDirectory: allowDirectory)
        } catch let error as POSIXIOError where error.code == ENOENT {
            throw RecordImportError.noSuchFile(input.display)
        }
    }

    /// The whole file (a folder never gets here: `run` takes it for a Takeout, `runICalendar`
    /// opens regular files only).
    static func read(_ file: FileDescriptor, path: String) throws -> [UInt8] {
        do {
            return try file.readToEnd(limit: maximumBytes)
        } catch let error as POSIXIOError where error.code == EFBIG {
            throw InteropError.unrecognized(path: path, reason: "larger than \(maximumBytes >> 20) MB")
        }
    }

    /// The first 4 KB of the file when it is XML (after a byte order mark and blank space), for
    /// `xml`; nil when it is something else. A file over `maximumBytes` is refused here too.
    static func xmlHead(_ file: FileDescriptor, path: String) throws -> ArraySlice<UInt8>? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let got = buffer.withUnsafeMutableBytes { pread(file.fd, $0.baseAddress, $0.count, 0) }
        guard got > 0 else { return nil }
        var head = buffer[0..<got]
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { head = head.dropFirst(3) }
        guard head.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "<") else { return nil }
        if try file.size() > Int64(maximumBytes) {
            throw InteropError.unrecognized(path: path, reason: "larger than \(maximumBytes >> 20) MB")
        }
        return head
    }

    static func classify(_ bytes: [UInt8], path: String) throws -> Source {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        // XML, in whatever encoding it declares: read by phr-render, never here.
        if body.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "<") {
            return try xml(body.prefix(4096), path: path) { try CCDAReaderProcess().read(body, path: path) }
        }
        guard let text = String(validating: body, as: UTF8.self) else {
            throw InteropError.unrecognized(path: path, reason: "not UTF-8 text")
        }
        let start = text.drop { $0.isWhitespace }
        if start.prefix(15).uppercased() == "BEGIN:VCALENDAR" { return .iCalendar(String(start)) }
        guard start.first == "{" else {
            throw InteropError.unrecognized(path: path, reason: "neither JSON nor iCalendar")
        }
        if let offset = StrictJSON.tooDeep(body) {
            throw InteropError.malformed(path: path, location: "JSON", reason: "arrays and objects nested more than \(StrictJSON.maximumDepth) deep (at byte \(offset))")
        }
        let json: StrictJSON
        do {
            json = try JSONDecoder().decode(StrictJSON.self, from: Data(body))
        } catch {
            throw InteropError.malformed(path: path, location: "JSON", reason: "not valid JSON (\(jsonProblem(error)))")
        }
        if let type = json["resourceType"]?.string {
            guard type == "Bundle" else {
                throw InteropError.unrecognized(path: path, reason: "a FHIR \(type), not a Bundle; phr imports Bundles (transaction, collection, document)")
            }
            let version = FHIRVersion.detect(json)
            var bundle = try FHIRBundle(json: FHIRVersion.upgraded(bundle: json, from: version), path: path)
            bundle.version = version
            return .fhir(bundle)
        }
        if json["format"]?.string == PHRExport.formatName {
            guard let version = json["version"]?.number, version == version.rounded() else {
                throw InteropError.malformed(path: path, location: "version", reason: "missing or not a whole number")
            }
            guard Int(version) <= PHRExport.currentVersion else {
                throw InteropError.unsupportedVersion(path: path, version: Int(version))
            }
            do {
                return .phr(try JSONDecoder().decode(PHRExport.self, from: Data(body)))
            } catch let error as DecodingError {
                let (location, reason) = describe(error)
                throw InteropError.malformed(path: path, location: location, reason: reason)
            }
        }
        throw InteropError.unrecognized(path: path, reason: "JSON, but neither a phr export nor a FHIR Bundle")
    }

    /// An XML file: a C-CDA document, read by phr-render's C-CDA reader, or a refusal that says
    /// what the file is and what phr reads. FHIR XML is recognised by its namespace near the
    /// start (a plain byte search, not parsing) so it gets its own advice without a worker.
    static func xml(_ start: ArraySlice<UInt8>, path: String, read: () throws -> CCDAReadResult) throws -> Source {
        try checkXML(start, path: path)
        switch try read() {
        case .document(let document):
            return .ccda(document)
        case .refused(let refusal):
            throw refused(refusal, path: path)
        }
    }

    /// Refuses, from its first 4 KB, XML that is FHIR or a web page, with its own advice.
    static func checkXML(_ start: ArraySlice<UInt8>, path: String) throws {
        let head = String(decoding: start.prefix(4096), as: UTF8.self)
        if head.contains("http://hl7.org/fhir") && !head.contains("urn:hl7-org:v3") {
            throw InteropError.unrecognized(path: path, reason: "a FHIR XML file; phr reads FHIR JSON: ask for the JSON export, or convert it (the HL7 FHIR validator can)")
        }
        let lower = head.lowercased()
        if !lower.contains("urn:hl7-org:v3") && (lower.contains("<!doctype html") || lower.contains("<html")) {
            throw InteropError.unrecognized(path: path, reason: "a web page (HTML), such as a Blue Button report or a C-CDA shown in a browser, not the C-CDA document itself; download the XML file from the portal (often CCD.xml or a .xml in the Blue Button download) and import that")
        }
    }

    static func refused(_ refusal: CCDARefusal, path: String) -> InteropError {
        switch refusal {
        case .notCDA(let root, let namespace):
            let element = namespace.map { "<\(root)> (namespace \($0.prefix(200)))" } ?? "<\(root)>"
            return .unrecognized(path: path, reason: "an XML file whose root is \(element.prefix(300)), not a C-CDA document; phr reads C-CDA documents (<ClinicalDocument> in urn:hl7-org:v3), Apple Health exports (<HealthData>), FHIR R4 Bundles (JSON), its own exports and iCalendar (.ics) files")
        case .entities:
            return .malformed(path: path, location: "XML", reason: "declares entities (<!ENTITY> in a document type declaration), which phr never expands; C-CDA documents have none")
        case .tooDeep(let limit):
            return .malformed(path: path, location: "XML", reason: "elements nested more than \(limit) deep")
        case .tooLarge(let reason):
            return .malformed(path: path, location: "XML", reason: "too large: \(reason.prefix(200))")
        case .malformed(let line, let message):
            return .malformed(path: path, location: line > 0 ? "XML line \(line)" : "XML", reason: "not well-formed (\(message.prefix(200)))")
        case .unstructured:
            return .unrecognized(path: path, reason: "a C-CDA document without structured entries (its body is a nonXMLBody: a scan or text); add it as a document with \(Action.addDocuments) instead")
        }
    }

    /// Where a decoding error is ("medications[2].schedule.times") and what is wrong.
    static func describe(_ error: DecodingError) -> (String, String) {
        func path(_ keys: [CodingKey]) -> String {
            var text = ""
            for key in keys {
                if let index = key.intValue { text += "[\(index)]" } else { text += text.isEmpty ? key.stringValue : ".\(key.stringValue)" }
            }
            return text.isEmpty ? "top level" : text
        }
        switch error {
        case .keyNotFound(let key, let context):
            return (path(context.codingPath + [key]), "missing")
        case .valueNotFound(_, let context):
            return (path(context.codingPath), "missing (null)")
        case .typeMismatch(let type, let context):
            let expected = type == String.self ? "a string" : type == Int.self ? "a whole number" : type == Double.self ? "a number"
                : type == Bool.self ? "true or false" : "\(type)"
            return (path(context.codingPath), "expected \(expected)")
        case .dataCorrupted(let context):
            return (path(context.codingPath), context.debugDescription)
        @unknown default:
            return ("top level", "unreadable")
        }
    }

    private static func jsonProblem(_ error: Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error, let underlying = context.underlyingError as NSError? {
            return (underlying.userInfo[NSDebugDescriptionErrorKey] as? String ?? context.debugDescription).lowercased()
        }
        return "unreadable"
    }
}

/// A file to import that is not there (exit 66).
public enum RecordImportError: PHRError, Equatable {
    case noSuchFile(String)

    public var exitStatus: ExitStatus { .noInput }
    public var message: Message {
        switch self {
        case .noSuchFile(let path): return "\(path): no such file"
        }
    }
}
