import Foundation
import PHRModel
import Testing
@testable import PHRRender

/// Google Fit's Takeout readers on their own, on files written here: the daily CSV's weights and
/// the session files (workouts and nights, the same session in two files, damage and bounds).
@Suite struct TakeoutReaderTests {
    /// Google Fit's daily CSV: the day's average weight becomes an entry at noon in phr's
    /// zone, its lightest and heaviest weighing in the note; the other columns are counted.
    @Test func theDailyCSVGivesTheDaysAverageWeight() throws {
        let text = """
            Date,Step count,Average weight (kg),Max weight (kg),Min weight (kg)
            2026-03-15,4200,77.69999694824219,78.1,77.3
            2026-03-16,5100,,,
            2026-03-17,,heavy,,

            """
        let table = try CSVTable.parse(Array(text.utf8), label: "")
        var tallies: [String: HealthExportTally] = [:]
        let entries = try FitDailyMetrics(zone: try #require(TimeZone(identifier: "Europe/Berlin"))).read(table, label: "daily.csv: ", tallies: &tallies)
        #expect(entries.count == 1)
        let entry = try #require(entries.first)
        #expect(entry.metric == .weight && entry.value == 77.7 && entry.end == "2026-03-15T11:00:00Z" && entry.key == "weight|2026-03-15")
        #expect(entry.note == "daily average from Google Fit (77.3 to 78.1 kg)")
        #expect(tallies["Step count"]?.records == 2 && tallies["Step count"]?.skipped == 2)
        #expect(tallies[FitDailyMetrics.weightColumn]?.records == 2 && tallies[FitDailyMetrics.weightColumn]?.rejected == 1)
    }

    /// Two rows for one day are the file's damage, not two weights: the file is refused,
    /// naming the second row's line, before any entry is made.
    @Test func aSecondRowForTheSameDayRefusesTheFile() throws {
        let table = try CSVTable.parse(Array("Date,Average weight (kg)\n2026-03-15,77.1\n2026-03-16,77.0\n2026-03-15,76.9\n".utf8), label: "")
        var tallies: [String: HealthExportTally] = [:]
        #expect(throws: ZipArchive.Refusal(reason: "daily.csv: line 4: a second row for 2026-03-15")) {
            _ = try FitDailyMetrics(zone: TimeZone(identifier: "UTC")!).read(table, label: "daily.csv: ", tallies: &tallies)
        }
    }

    /// A header naming a column twice does not trap (the first is read); one without Date is refused.
    @Test func aColumnNamedTwiceReadsTheFirstAndNoDateIsRefused() throws {
        let table = try CSVTable.parse(Array("Date,Average weight (kg),Average weight (kg)\n2026-03-15,77.1,90\n".utf8), label: "")
        var tallies: [String: HealthExportTally] = [:]
        let entries = try FitDailyMetrics(zone: TimeZone(identifier: "UTC")!).read(table, label: "", tallies: &tallies)
        #expect(entries.map(\.value) == [77.1])
        let noDate = try CSVTable.parse(Array("Day,Step count\n2026-03-15,1\n".utf8), label: "")
        #expect(throws: ZipArchive.Refusal(reason: "daily.csv: has no Date column; phr reads Takeout's English column names (Date, Step count, Average weight (kg), ...)")) {
            _ = try FitDailyMetrics(zone: TimeZone(identifier: "UTC")!).read(noDate, label: "daily.csv: ", tallies: &tallies)
        }
    }

    static func session(_ activity: String, _ start: String, _ end: String) -> [UInt8] {
        Array("""
            {"fitnessActivity": "\(activity)", "startTime": "\(start)", "endTime": "\(end)", "duration": "1800s",
             "aggregate": [{"metricName": "com.google.calories.expended", "floatValue": 250.5}]}
            """.utf8)
    }

    /// The same session in two files (Takeout's "(1)" copies) is one workout, even when the second
    /// ends elsewhere: the duplicate check and the entry's key are the same (activity and start).
    /// They once differed (activity, start and end), and the second copy was counted as added
    /// and then updated the first.
    @Test func theSameSessionInTwoFilesIsOneWorkout() throws {
        var sessions = FitSessions()
        var tallies: [String: HealthExportTally] = [:]
        try sessions.read(Self.session("running", "2026-03-15T06:30:00.000Z", "2026-03-15T07:00:00.000Z"), label: "a.json: ", tallies: &tallies)
        try sessions.read(Self.session("running", "2026-03-15T06:30:00.000Z", "2026-03-15T07:05:00.000Z"), label: "a(1).json: ", tallies: &tallies)
        try sessions.read(Self.session("running", "2026-03-16T06:30:00.000Z", "2026-03-16T07:00:00.000Z"), label: "b.json: ", tallies: &tallies)
        #expect(sessions.entries.count == 2)
        let tally = try #require(tallies[FitSessions.workoutType])
        #expect(tally.records == 3 && tally.duplicates == 1, "\(tally)")
        #expect(Set(sessions.entries.map(\.key)).count == 2, "each session's entry has its own key")
        // The first file's end stands.
        #expect(sessions.entries.first?.end.hasPrefix("2026-03-15T07:00") == true, "\(sessions.entries.first?.end ?? "")")
    }

    @Test func aSessionNestedTooDeepIsRefusedBeforeParsing() throws {
        var sessions = FitSessions()
        var tallies: [String: HealthExportTally] = [:]
        let deep = Array((String(repeating: "[", count: 40) + String(repeating: "]", count: 40)).utf8)
        #expect(throws: ZipArchive.Refusal(reason: "deep.json: nests deeper than 32 levels: not a Google Fit session")) {
            try sessions.read(deep, label: "deep.json: ", tallies: &tallies)
        }
    }

    /// One session file, read alone: its entries and tallies.
    static func readAlone(_ json: String) throws -> (entries: [HealthExportEntry], tallies: [String: HealthExportTally]) {
        var sessions = FitSessions()
        var tallies: [String: HealthExportTally] = [:]
        try sessions.read(Array(json.utf8), label: "s.json: ", tallies: &tallies)
        return (sessions.entries, tallies)
    }

    /// A session claiming 1e300 kcal trapped the worker when its note printed a whole number;
    /// the energy is bounded now, and the workout is kept without it.
    @Test func anImpossibleEnergyIsLeftOutOfTheNote() throws {
        let (entries, tallies) = try Self.readAlone("""
            {"fitnessActivity": "running", "startTime": "2026-03-15T06:30:00Z", "endTime": "2026-03-15T07:00:00Z",
             "aggregate": [{"metricName": "com.google.calories.expended", "floatValue": 1e300},
                           {"metricName": "com.google.step_count.delta", "intValue": 4000}]}
            """)
        #expect(entries.map(\.note) == ["from Google Fit"])
        #expect(entries.first?.value == 30 && entries.first?.kind == "running")
        #expect(tallies[FitSessions.totalsType]?.skipped == 2, "the energy and the steps are counted as skipped")
        let (normal, _) = try Self.readAlone(String(decoding: Self.session("strength_training", "2026-03-15T06:30:00Z", "2026-03-15T07:00:00Z"), as: UTF8.self))
        #expect(normal.map(\.note) == ["251 kcal; from Google Fit"] && normal.first?.kind == "strength-training")
    }

    /// Sleep segments count only inside their session: asleep is never longer than in bed.
    @Test func sleepSegmentsOutsideTheirSessionAreClipped() throws {
        let (entries, _) = try Self.readAlone("""
            {"fitnessActivity": "sleep", "startTime": "2026-03-14T22:00:00Z", "endTime": "2026-03-15T06:00:00Z",
             "segment": [{"fitnessActivity": "sleep.light", "startTime": "2026-03-14T20:00:00Z", "endTime": "2026-03-14T23:00:00Z"},
                         {"fitnessActivity": "sleep.awake", "startTime": "2026-03-14T23:00:00Z", "endTime": "2026-03-15T00:00:00Z"},
                         {"fitnessActivity": "sleep.deep", "startTime": "2026-03-15T00:00:00Z", "endTime": "2026-03-15T09:00:00Z"}]}
            """)
        let night = try #require(entries.first)
        // 22:00-23:00 light and 00:00-06:00 deep: 7 hours of the 8 in bed.
        #expect(night.metric == .sleep && night.value == 7 * 60, "\(night.value) min")
        #expect(night.note == "in bed 8 h 0 min; from Google Fit")
        #expect(night.key == "session|sleep|2026-03-14T22:00:00Z")
    }

    /// A key written twice in one session file (a damaged or hand-edited export) neither traps
    /// nor makes two entries: the file is one session, and the last value stands (Foundation's
    /// JSONSerialization keeps the last).
    @Test func aKeyWrittenTwiceInOneFileIsOneSession() throws {
        let (entries, tallies) = try Self.readAlone("""
            {"fitnessActivity": "running", "startTime": "2026-03-15T06:30:00Z", "endTime": "2026-03-15T07:00:00Z",
             "endTime": "2026-03-15T07:10:00Z", "fitnessActivity": "running"}
            """)
        #expect(entries.count == 1)
        #expect(entries.first?.end == "2026-03-15T07:10:00Z" && entries.first?.value == 40, "\(entries)")
        #expect(tallies[FitSessions.workoutType]?.records == 1 && tallies[FitSessions.workoutType]?.entries == 1)
    }

    @Test func sessionsWithoutTimesOrThatAreNotWorkoutsAreCounted() throws {
        let (none, rejected) = try Self.readAlone(#"{"fitnessActivity": "running", "startTime": "2026-03-15T06:30:00Z", "endTime": "yesterday"}"#)
        #expect(none.isEmpty && rejected[FitSessions.workoutType]?.rejected == 1)
        let (still, skipped) = try Self.readAlone(String(decoding: Self.session("still", "2026-03-15T06:30:00Z", "2026-03-15T07:00:00Z"), as: UTF8.self))
        #expect(still.isEmpty && skipped[FitSessions.workoutType]?.skipped == 1)
        #expect(throws: ZipArchive.Refusal(reason: "s.json: is not a JSON object: the file is damaged")) { _ = try Self.readAlone("[1, 2]") }
    }
}
