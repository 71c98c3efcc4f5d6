import Foundation
import Testing
@testable import PHRCore

/// Fixtures for record tests: fixed clocks and zones, medications and doses built by hand for
/// the pure schedule rules, and a vault with its default profile.
enum RecordFixtures {
    /// "now" at an ISO 8601 instant, in an IANA zone.
    static func time(_ iso: String, _ zone: String) -> TimeContext {
        TimeContext(now: instant(iso), zone: TimeZone(identifier: zone)!)
    }

    static func instant(_ iso: String) -> Date {
        guard let date = Timestamp.parse(iso) else { fatalError("not an instant: \(iso)") }
        return date
    }

    static func medication(_ id: String, _ schedule: MedicationSchedule, created: String = "2026-01-01T00:00:00Z",
                           minInterval: Int? = nil, maxPerDay: Int? = nil, timeZone: String? = nil,
                           status: Medication.Status = .active, stoppedOn: String? = nil) -> Medication {
        Medication(id: id, uid: "uid-\(id)", name: "Med \(id)", dose: "1 tablet", form: nil, schedule: schedule, timeZone: timeZone,
                   minIntervalMinutes: minInterval, maxPerDay: maxPerDay, start: nil, end: nil, status: status,
                   stoppedOn: stoppedOn.flatMap(CalendarDate.init), prescriber: nil, pharmacy: nil, refills: nil, documentID: nil,
                   instructions: nil, notes: nil, codes: [], source: nil, createdAt: created, updatedAt: created)
    }

    static func times(_ texts: String...) -> MedicationSchedule {
        .times(texts.map { LocalTime($0)! })
    }

    /// A dose at `iso` (UTC or with an offset), for the scheduled time `slot` if given.
    static func dose(_ iso: String, slot: String? = nil, status: Dose.Status = .taken, zone: String = "Europe/Berlin") -> Dose {
        Dose(id: "d\(UUID().uuidString.prefix(5).lowercased())", uid: UUID().uuidString, status: status,
             at: Timestamp.string(instant(iso)), timeZone: zone, scheduledFor: slot.flatMap(LocalDateTime.init),
             forced: nil, note: nil, createdAt: Timestamp.string(instant(iso)))
    }

    /// A fresh vault (cheap KDF) and its default profile; remove `directory` when done.
    static func vault(_ label: String = "records") throws -> (vault: Vault, profile: Profile, directory: String) {
        let (vault, _, directory) = try TestSupport.makeVault(label)
        let profile = try vault.database.read { try Profiles.resolve($0, name: nil) }
        return (vault, profile, directory)
    }
}

/// Runs Python 3 from Debian (/usr/bin/python3, with python3-icalendar and python3-jsonschema)
/// as the independent parser and validator of what phr writes.
enum Python {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static func run(_ script: String, arguments: [String] = []) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script] + arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Validates a phr export (file path) against Schemas/export-v1 with jsonschema's Draft
    /// 2020-12 validator; returns the errors, one per line, empty when valid.
    static func validateExport(_ path: String) throws -> Result {
        try run("""
            import glob, json, sys
            from jsonschema import Draft202012Validator, RefResolver
            store = {}
            for name in glob.glob(sys.argv[1] + "/*.schema.json"):
                schema = json.load(open(name))
                Draft202012Validator.check_schema(schema)
                store[schema["$id"]] = schema
            root = store["https://phr.example/schemas/export-v1/export.schema.json"]
            validator = Draft202012Validator(root, resolver=RefResolver.from_schema(root, store=store))
            errors = sorted(validator.iter_errors(json.load(open(sys.argv[2]))), key=lambda e: list(e.path))
            for error in errors:
                print("/".join(str(p) for p in error.path), error.message[:200])
            sys.exit(1 if errors else 0)
            """, arguments: ["\(TestSupport.packageRoot)/Schemas/export-v1", path])
    }
}
