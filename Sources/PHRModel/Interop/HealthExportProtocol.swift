import Foundation

/// What a phone-export worker sends to phr, one JSON object a line on its standard output:
/// `phr-render health-export` for Apple Health, `phr-render fit-takeout` for Google Fit's
/// Takeout (HealthExportFormat names them).
///
/// The worker reads the untrusted export (a zip with `export.xml`, or the XML alone; a Takeout
/// zip, folder or daily CSV), removes duplicates, sums sleep into nights and converts units; phr
/// only checks what arrives (every field within the limits typed entries have) and writes it.
/// The worker never sees the vault or a key; phr never parses the XML, the CSV or the zip.
public enum HealthExportMessage: Codable, Sendable, Equatable {
    /// How far the worker has read the file (bytes of the file itself, compressed for a zip).
    case progress(read: Int64, total: Int64)
    /// One health-log entry, in canonical units.
    case entry(HealthExportEntry)
    /// One Health Records file (a FHIR resource as JSON) from the zip's `clinical-records/` (Apple
    /// only), with the FHIR version export.xml gives it ("1.0.2", "4.0.1"), when it gives one.
    case clinicalRecord(path: String, json: String, fhirVersion: String?)
    /// What happened to the records of one type, sent once per type at the end.
    case tally(HealthExportTally)
    /// The whole file was read; what was sent is complete.
    case finished(exportDate: String?)
    /// The file cannot be read (truncated zip, malformed XML or CSV, a zip bomb): phr imports nothing.
    case refused(reason: String)
}

/// One entry for the health log, as the worker made it from one or more records of the export.
public struct HealthExportEntry: Codable, Sendable, Equatable {
    public var metric: LogMetric
    /// The type it came from ("HKQuantityTypeIdentifierDietaryWater", "sleep sessions").
    public var type: String
    /// UTC "YYYY-MM-DDTHH:MM:SSZ": when a sleep or workout started; nil for point entries.
    public var start: String?
    /// UTC: when it happened, or when a sleep or workout ended.
    public var end: String
    /// In the metric's canonical unit (ml, min, kcal, kg, mmHg systolic, mmol/L).
    public var value: Double
    public var diastolic: Double?
    /// The unit the export wrote it in, for showing it back.
    public var unit: HealthUnit
    /// Workout type, glucose context.
    public var kind: String?
    /// The source, and for a night the time in bed; for a workout the energy burned.
    public var note: String?
    /// What makes it the same entry in a later export: the record's type, source, times and
    /// value (for a night: its day). phr derives the entry's uid from it.
    public var key: String

    public init(metric: LogMetric, type: String, start: String?, end: String, value: Double, diastolic: Double?, unit: HealthUnit,
                kind: String?, note: String?, key: String) {
        self.metric = metric
        self.type = type
        self.start = start
        self.end = end
        self.value = value
        self.diastolic = diastolic
        self.unit = unit
        self.kind = kind
        self.note = note
        self.key = key
    }
}

/// The records of one type of the export (an Apple Health type, a Takeout column or folder):
/// how many were read and what became of them.
public struct HealthExportTally: Codable, Sendable, Equatable {
    public var type: String
    /// What one of `records` is, when not an Apple Health record: "day" (a CSV column's values),
    /// "file", "session", "value". Said in the import report ("30 days Step count: ...").
    public var unit: String?
    /// Records of this type in the file.
    public var records: Int
    /// Records that became entries of their own (a night counts its first record here).
    public var entries: Int
    /// Records summed into another entry: the further sleep stages of a night, the halves of a
    /// blood pressure reading.
    public var summed: Int
    /// Records dropped because a source of higher priority recorded the same time (Apple), or
    /// because the export holds the same record twice (Takeout's "(1)" session copies).
    public var duplicates: Int
    /// How the report words `duplicates` when not "of a higher-priority source".
    public var duplicateNote: String?
    /// Records left out because phr's health log does not keep them, with `reason`.
    public var skipped: Int
    /// Records refused as bad data (an unreadable date or value, an unknown unit).
    public var rejected: Int
    public var reason: String?
    /// Records kept after one attribute was repaired or dropped (a workout's end taken from its
    /// duration), with what was done, which the report says. Counted in `entries` (or
    /// `duplicates`) as well: a repair is a note on a kept record, not a fate of its own.
    public var repaired: Int
    public var repairNote: String?

    public init(type: String, unit: String? = nil, records: Int = 0, entries: Int = 0, summed: Int = 0, duplicates: Int = 0,
                duplicateNote: String? = nil, skipped: Int = 0, rejected: Int = 0, reason: String? = nil, repaired: Int = 0,
                repairNote: String? = nil) {
        self.repaired = repaired
        self.repairNote = repairNote
        self.type = type
        self.unit = unit
        self.duplicateNote = duplicateNote
        self.records = records
        self.entries = entries
        self.summed = summed
        self.duplicates = duplicates
        self.skipped = skipped
        self.rejected = rejected
        self.reason = reason
    }
}

/// How phr starts a phone-export worker: descriptors and limits.
public struct HealthExportWorkerSettings: Sendable, Equatable {
    /// The export file (or the Takeout folder), opened read-only by phr.
    public static let inputDescriptor: Int32 = 3
    /// Messages to phr (JSON lines).
    public static let outputDescriptor: Int32 = 1
    /// The longest message line phr accepts (a Health Records file is at most 4 MB, as JSON string).
    public static let maximumLineBytes = 12 << 20
    /// The largest Health Records file the worker sends.
    public static let maximumClinicalRecordBytes = 4 << 20
    /// The most Health Records bytes (all files together) and files the worker sends: a phone's
    /// come to a few megabytes, from a few hundred files.
    public static let maximumClinicalTotalBytes = 256 << 20
    public static let maximumClinicalFiles = 100_000
    /// The most entries the worker sends (the collector keeps at most as many samples).
    public static let maximumEntries = 3_000_000

    public var memoryBytes: Int
    public var cpuSeconds: Int
    /// The zone whose days the nights are grouped by (the zone phr files entries in).
    public var timeZone: String
    public init(memoryBytes: Int, cpuSeconds: Int, timeZone: String) {
        self.memoryBytes = memoryBytes
        self.cpuSeconds = cpuSeconds
        self.timeZone = timeZone
    }

    /// argv after `phr-render`, for its `subcommand` ("health-export", "fit-takeout": the
    /// format's reader).
    public func arguments(subcommand: String) -> [String] {
        [subcommand, "--memory-bytes", String(memoryBytes), "--cpu-seconds", String(cpuSeconds), "--time-zone", timeZone]
    }
}
