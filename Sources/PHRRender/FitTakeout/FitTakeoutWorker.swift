import Foundation
import PHRModel

/// The process that reads Google Fit's Takeout: `phr-render fit-takeout`, started by phr's
/// `HealthExportImport` for `phr import takeout.zip` (or the extracted folder, or its
/// `Daily activity metrics.csv`).
///
/// Sandboxed as the Apple Health reader is (HealthExportWorker): no key, phr's environment
/// stripped, limits on memory, CPU time and open files, no file written. It reads the export
/// from descriptor 3 (a file, or the folder) and speaks the same protocol (HealthExportMessage):
/// entries, a tally per column, session kind and skipped folder, then `finished`; or `refused`.
///
/// What it reads (docs/health-log.md): the daily summary `Daily activity metrics.csv`
/// (FitDailyMetrics: the day's average weight) and the session files (FitSessions: workouts and
/// nights). Everything else in the Takeout is counted and named as not read: the per-day CSVs
/// of 15-minute intervals (their days' totals are in the daily summary), `All Data`'s raw data
/// points, `Activities`' TCX tracks, and files of other Google products.
public enum FitTakeoutWorker {
    public typealias Settings = HealthExportWorkerSettings

    /// The largest daily summary read (twenty years of days are about 2 MB) and session file.
    static let maximumSummaryBytes = 64 << 20
    static let maximumSessionBytes = 4 << 20
    static let maximumSessions = 200_000

    public static func run(_ settings: Settings) -> Never {
        // A folder walk holds one descriptor a level (TakeoutFiles.maximumDepth).
        HealthExportWorker.serve(settings, openFiles: 24, read: read)
    }

    /// What a Takeout file is to the reader.
    enum Role: Equatable {
        case dailySummary
        /// `Daily activity metrics/2026-03-15.csv`: one day in 15-minute intervals.
        case dayIntervals
        case session
        /// A CSV phr does not know: most likely the daily summary under a name in another language.
        case otherCSV
        /// Anything else, grouped by its folder.
        case other(folder: String)
    }

    static func role(of file: TakeoutFiles.File) -> Role {
        let name = file.name
        if name.lowercased() == "daily activity metrics.csv" { return .dailySummary }
        if FitSessions.isSessionFile(name) { return .session }
        if name.lowercased().hasSuffix(".csv") {
            return name.count == 14 && CalendarDate(String(name.prefix(10))) != nil ? .dayIntervals : .otherCSV
        }
        let folders = file.path.split(separator: "/").dropLast()
        return .other(folder: folders.isEmpty ? "(top level)" : folders.suffix(2).joined(separator: "/") + "/")
    }

    static func read(_ fd: Int32, zone: TimeZone, output: HealthExportWorker.MessageWriter) throws {
        let takeout = try TakeoutFiles(fd: fd)
        var tallies: [String: HealthExportTally] = [:]
        func skip(_ type: String, unit: String, _ count: Int = 1, reason: String) {
            tallies[type, default: HealthExportTally(type: type, unit: unit)].records += count
            tallies[type]!.skipped += count
            tallies[type]!.reason = reason
        }
        var summaries: [TakeoutFiles.File] = []
        var sessions: [TakeoutFiles.File] = []
        if case .single = takeout.layout {
            summaries = takeout.files
        } else {
            for file in takeout.files {
                switch role(of: file) {
                case .dailySummary: summaries.append(file)
                case .session: sessions.append(file)
                case .dayIntervals:
                    skip("Daily activity metrics/YYYY-MM-DD.csv", unit: "file",
                         reason: "one day in 15-minute intervals; that day's totals are in Daily activity metrics.csv, which phr reads")
                case .otherCSV:
                    skip(String(file.name.prefix(80)), unit: "file",
                         reason: "a CSV phr does not read: Takeout names Fit's files and columns in the Google account's language, and phr reads the English ones (Daily activity metrics.csv)")
                case .other(let folder):
                    skip(String(folder.prefix(80)), unit: "file",
                         reason: "not read: phr reads Fit's Daily activity metrics.csv and its session files (All Sessions)")
                }
            }
            if takeout.notRegular > 0 {
                skip("links and special files", unit: "file", takeout.notRegular, reason: "not read: only regular files are")
            }
        }
        guard !summaries.isEmpty || !sessions.isEmpty else {
            throw ZipArchive.Refusal(reason: "no Google Fit data in it: neither Fit's 'Daily activity metrics.csv' nor its session files ('All Sessions/*.json')")
        }
        guard summaries.count <= 1 else {
            throw ZipArchive.Refusal(reason: "it holds \(summaries.count) files named Daily activity metrics.csv (\(summaries.prefix(3).map { ZipArchive.printable($0.path) }.joined(separator: ", "))); import one Takeout at a time")
        }
        guard sessions.count <= maximumSessions else {
            throw ZipArchive.Refusal(reason: "it holds more than \(maximumSessions) session files, more than phr reads")
        }
        let total = (summaries + sessions).reduce(Int64(0)) { $0 + $1.size }
        var progress = HealthExportWorker.ProgressCounter(total: total, output: output)
        var done: Int64 = 0
        var entries: [HealthExportEntry] = []
        if let summary = summaries.first {
            let table = try CSVTable.parse(try takeout.read(summary, limit: maximumSummaryBytes), label: summary.label)
            entries += try FitDailyMetrics(zone: zone).read(table, label: summary.label, tallies: &tallies)
            done += summary.size
            try progress.advance(to: done)
        }
        var reader = FitSessions()
        for file in sessions {
            try reader.read(try takeout.read(file, limit: maximumSessionBytes), label: file.label, tallies: &tallies)
            done += file.size
            try progress.advance(to: done)
        }
        entries += reader.entries
        for entry in entries.sorted(by: { $0.end < $1.end }) {
            try output.send(.entry(entry))
        }
        for type in tallies.keys.sorted() {
            try output.send(.tally(tallies[type]!))
        }
        try output.send(.finished(exportDate: nil))
    }
}
