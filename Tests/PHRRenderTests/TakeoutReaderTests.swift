import Foundation
import PHRModel
import Testing
@testable import PHRRender

/// Google Fit's Takeout readers on their own: the CSV reader (RFC 4180) and the session files.
@Suite struct TakeoutReaderTests {
    @Test func quotedFieldsWithCommasQuotesAndLineBreaksAreRead() throws {
        let text = "\u{FEFF}Date,Note,Weight\r\n2026-03-15,\"a, b\",72.5\r\n2026-03-16,\"say \"\"hi\"\"\nthen go\",\n"
        let table = try CSVTable.parse(Array(text.utf8), label: "weight.csv: ")
        #expect(table.header == ["Date", "Note", "Weight"])
        #expect(table.rows.map(\.fields) == [["2026-03-15", "a, b", "72.5"], ["2026-03-16", "say \"hi\"\nthen go", ""]])
        #expect(table.rows.map(\.line) == [2, 3])
    }

    @Test func damagedCSVIsRefusedNamingTheLine() throws {
        #expect(throws: ZipArchive.Refusal(reason: "daily.csv: line 3: 2 fields, but the header has 3")) {
            _ = try CSVTable.parse(Array("a,b,c\n1,2,3\n4,5\n".utf8), label: "daily.csv: ")
        }
        #expect(throws: ZipArchive.Refusal(reason: "daily.csv: is not UTF-8 text")) {
            _ = try CSVTable.parse([0x61, 0x0A, 0xFF, 0xFE, 0x0A], label: "daily.csv: ")
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
}
