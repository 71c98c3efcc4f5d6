import Foundation
import Testing

/// `phr import` of Google Fit's Takeout (the .zip, the extracted folder, the daily CSV alone)
/// with Takeouts written by the project's generator (Tools/FitTakeoutGenerator): exact daily
/// totals of weight, sleep and workouts across the spring DST change; every column and folder
/// phr does not keep named with its reason; a second import adds nothing and a longer Takeout
/// only the new days; a truncated or damaged zip, a malformed CSV and a damaged session file
/// are refused with nothing imported.
@Suite struct GoogleFitImportCommandTests {
    static let env = AppleHealthImportCommandTests.env
    static let generator = "\(CLI.binDirectory)/phr-fit-takeout-sample"
    static let hint = "phr: hint: nothing was imported; download Fit again from Google Takeout (takeout.google.com, Fit, CSV and JSON) and import the new .zip, or the folder it extracts to\n"

    /// Runs the generator into `directory`; returns expected.json.
    static func generate(_ cli: CLI, into name: String, days: Int, start: String = "2026-03-15") throws -> [String: Any] {
        let out = "\(cli.directory)/\(name)"
        let result = try cli.run(["--out", out, "--days", String(days), "--start", start], executable: generator)
        #expect(result.status == 0, "\(result.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(out)/expected.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func json(_ result: CLI.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
    }

    /// Checks the log's daily totals against expected.json's days.
    static func expectTotals(_ cli: CLI, _ expected: [String: Any]) throws {
        let days = try #require(expected["days"] as? [String: [String: Any]])
        let sleep = AppleHealthImportCommandTests.totals(try AppleHealthImportCommandTests.entries(cli, "sleep"))
        let workouts = AppleHealthImportCommandTests.totals(try AppleHealthImportCommandTests.entries(cli, "workout"))
        let weights = try AppleHealthImportCommandTests.entries(cli, "weight")
        let weightByDay = Dictionary(weights.map { ($0["day"] as! String, $0["value"] as! Double) }, uniquingKeysWith: { _, _ in -1 })
        #expect(weightByDay.count == weights.count, "one weight a day")
        for (day, totals) in days {
            #expect(AppleHealthImportCommandTests.close(sleep[day], totals["sleep_min"] as? Double), "sleep on \(day): \(sleep[day] ?? 0)")
            let workout = totals["workout_min"] as! Double
            #expect(workout == 0 ? workouts[day] == nil : AppleHealthImportCommandTests.close(workouts[day], workout), "workouts on \(day)")
            if let weight = totals["weight_kg"] as? Double {
                #expect(AppleHealthImportCommandTests.close(weightByDay[day], weight), "weight on \(day): \(weightByDay[day] ?? 0)")
            } else {
                #expect(weightByDay[day] == nil, "no weight on \(day)")
            }
        }
        #expect(Set(sleep.keys) == Set(days.keys) && Set(weightByDay.keys).isSubset(of: Set(days.keys)))
    }

    /// A night recorded by both Apple Health and Google Fit is one night (issue 35, item 2): the
    /// second import keeps the first source's, says so, and its counts still add up.
    @Test func aNightInBothAppleHealthAndGoogleFitIsCountedOnce() throws {
        let cli = try CLI(label: "fit-and-apple")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        _ = try AppleHealthImportCommandTests.generate(cli, into: "apple", days: 5, start: "2026-03-15")
        _ = try Self.generate(cli, into: "fit", days: 5, start: "2026-03-15")
        #expect(try cli.run(["import", "\(cli.directory)/apple/export.zip"], Self.env).status == 0)
        let nights = try AppleHealthImportCommandTests.entries(cli, "sleep")
        #expect(!nights.isEmpty)
        let fit = try cli.run(["import", "\(cli.directory)/fit/takeout.zip", "--json"], Self.env)
        #expect(fit.status == 0, "\(fit.stderr)")
        let report = try Self.json(fit)
        AppleHealthImportCommandTests.expectCountsAddUp(report)
        let skipped = report["skipped"] as? [[String: Any]] ?? []
        #expect(skipped.contains { ($0["reason"] as? String)?.hasPrefix("already in the log from another source") == true }, "\(fit.stdout)")
        // The same nights as before: none added twice, workouts and weights still imported.
        #expect(try AppleHealthImportCommandTests.entries(cli, "sleep").count == nights.count)
        #expect(((report["added"] as? [String: Int])?["log_entries"] ?? 0) > 0, "\(fit.stdout)")
    }

    @Test func importsExactDailyTotalsNamesWhatItSkipsAndIsIdempotent() throws {
        let cli = try CLI(label: "google-fit")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        // 2026-03-15 to 2026-04-13 covers the spring change (29 March).
        let expected = try Self.generate(cli, into: "march", days: 30)
        let counts = try #require(expected["counts"] as? [String: Int])
        #expect(counts["weight_days"] == 20 && counts["sleep_sessions"] == 30 && counts["workout_sessions"] == 27 && counts["workout_files"] == 32)
        let zip = "\(cli.directory)/march/takeout.zip"
        // Every record of every type is accounted for once (issue 26): the report adds up.
        let dry = try cli.run(["import", "--dry-run", "--json", zip], Self.env)
        AppleHealthImportCommandTests.expectCountsAddUp(try Self.json(dry))
        let first = try cli.run(["import", zip], Self.env)
        #expect(first.status == 0, "\(first.stderr)")
        let out = first.stdout
        #expect(out.hasPrefix("imported \(zip) (Google Fit Takeout) into profile me\n  log entries    77 added\nby type:\n"), "\(out)")
        #expect(out.contains("  Average weight (kg)   20 days: 20 added\n"), "\(out)")
        #expect(out.contains("  sleep sessions        30 sessions: 30 added\n"), "\(out)")
        #expect(out.contains("  workout sessions      32 sessions: 27 added, 5 duplicates (the same session in two files)\n"), "\(out)")
        // Nothing is dropped silently: every column, file and folder phr does not keep is named, with why.
        for line in [
            "  30 days Step count: phr's health log has no steps\n",
            "  31 days Calories (kcal): energy burned through the day; the health log's meals count energy eaten\n",
            "  30 days Distance (m): distance and speed are not kept in phr's health log\n",
            "  30 days Average heart rate (bpm): phr's health log has no place for heart rate\n",
            "  30 days Heart Points: Google Fit's activity scores are not kept in phr's health log\n",
            "  15 days Low latitude (deg): locations are not kept in phr's health log\n",
            "  15 days Running duration (ms): time Google Fit detected per activity through the day, not a workout; workouts come from the session files, with their times\n",
            "  30 files Daily activity metrics/YYYY-MM-DD.csv: one day in 15-minute intervals; that day's totals are in Daily activity metrics.csv, which phr reads\n",
            "  1 file Fit/All Data/: not read: phr reads Fit's Daily activity metrics.csv and its session files (All Sessions)\n",
            "  1 file Fit/Activities/: not read: phr reads Fit's Daily activity metrics.csv and its session files (All Sessions)\n",
            "  1 file Takeout/: not read: phr reads Fit's Daily activity metrics.csv and its session files (All Sessions)\n",
            "  \(counts["session_totals"]!) values session totals: a session's steps, distance, speed, heart minutes and the like (and energy burned asleep) are not kept; a workout's time, type and energy are\n",
        ] {
            #expect(out.contains(line), "missing \(line) in \(out)")
        }
        #expect(first.stderr.isEmpty, "\(first.stderr)")
        try Self.expectTotals(cli, expected)

        // A night and a workout as they went in.
        let sleep = try AppleHealthImportCommandTests.entries(cli, "sleep")
        let spring = try #require(sleep.first { $0["day"] as? String == "2026-03-29" })
        let springExpected = try #require((expected["days"] as? [String: [String: Any]])?["2026-03-29"]?["sleep_min"] as? Double)
        #expect(springExpected < 435 && spring["value"] as? Double == springExpected, "the night into summer time is shorter asleep: \(spring)")
        #expect(spring["note"] as? String == "in bed 6 h 50 min; from Google Fit" && spring["start"] as? String == "2026-03-28T22:00:00Z")
        let strength = try #require(try AppleHealthImportCommandTests.entries(cli, "workout").first { $0["kind"] as? String == "strength-training" })
        #expect(strength["value"] as? Double == 40 && strength["note"] as? String == "180 kcal; from Google Fit", "\(strength)")
        let weight = try #require(try AppleHealthImportCommandTests.entries(cli, "weight").first { $0["day"] as? String == "2026-03-15" })
        #expect(weight["at"] as? String == "2026-03-15T11:00:00Z" && weight["note"] as? String == "daily average from Google Fit (72.0 to 72.6 kg)",
                "\(weight)")

        // The same Takeout again: nothing new.
        let again = try cli.run(["import", zip, "--json"], Self.env)
        #expect(again.status == 0, "\(again.stderr)")
        let report = try Self.json(again)
        #expect((report["added"] as? [String: Int])?["log_entries"] == nil, "\(again.stdout)")
        #expect((report["unchanged"] as? [String: Int])?["log_entries"] == 77)

        // A later Takeout, extracted this time, ten days longer: only the new days go in.
        let later = try Self.generate(cli, into: "april", days: 40)
        let laterCounts = try #require(later["counts"] as? [String: Int])
        let more = try cli.run(["import", "\(cli.directory)/april/Takeout", "--json"], Self.env)
        #expect(more.status == 0, "\(more.stderr)")
        let moreReport = try Self.json(more)
        #expect((moreReport["unchanged"] as? [String: Int])?["log_entries"] == 77, "\(more.stdout)")
        let newEntries = laterCounts["weight_days"]! + laterCounts["sleep_sessions"]! + laterCounts["workout_sessions"]! - 77
        #expect(newEntries == 26)
        #expect((moreReport["added"] as? [String: Int])?["log_entries"] == newEntries, "\(more.stdout)")
        try Self.expectTotals(cli, later)

        // The daily CSV alone: the weights, all there already.
        let csv = try cli.run(["import", "\(cli.directory)/april/Takeout/Fit/Daily activity metrics/Daily activity metrics.csv", "--json"], Self.env)
        #expect(csv.status == 0, "\(csv.stderr)")
        let csvReport = try Self.json(csv)
        #expect(csvReport["format"] as? String == "Google Fit Takeout")
        #expect((csvReport["added"] as? [String: Int])?["log_entries"] == nil)
        #expect((csvReport["unchanged"] as? [String: Int])?["log_entries"] == laterCounts["weight_days"])
        #expect(try AppleHealthImportCommandTests.entries(cli, "weight").count == 27)
    }

    @Test func aSessionOrWeightThatCannotBeReadIsRefusedAloneAndTheRestImported() throws {
        let cli = try CLI(label: "google-fit-partial")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let expected = try Self.generate(cli, into: "takeout", days: 3)
        let counts = try #require(expected["counts"] as? [String: Int])
        let folder = "\(cli.directory)/takeout/Takeout"
        let sessions = "\(folder)/Fit/All Sessions"
        let walk = try #require(try FileManager.default.contentsOfDirectory(atPath: sessions).first { $0.hasSuffix("_WALKING.json") })
        let text = try String(contentsOfFile: "\(sessions)/\(walk)", encoding: .utf8)
        try text.replacingOccurrences(of: "\"endTime\": \"2026-03-15T11:45:00.000Z\"", with: "\"endTime\": \"quarter to one\"")
            .write(toFile: "\(sessions)/\(walk)", atomically: true, encoding: .utf8)
        // Energy no workout burns (it used to trap the reader when printed as a whole number):
        // the session is kept, without it.
        for run in try FileManager.default.contentsOfDirectory(atPath: sessions) where run.hasSuffix("_RUNNING.json") {
            let json = try String(contentsOfFile: "\(sessions)/\(run)", encoding: .utf8)
            try json.replacingOccurrences(of: "\"floatValue\": 250.4", with: "\"floatValue\": 1e300")
                .write(toFile: "\(sessions)/\(run)", atomically: true, encoding: .utf8)
        }
        let summaryPath = "\(folder)/Fit/Daily activity metrics/Daily activity metrics.csv"
        let summary = try String(contentsOfFile: summaryPath, encoding: .utf8)
        let lines = summary.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var day = lines[3].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        day[17] = "heavy"
        try (lines[0..<3] + [day.joined(separator: ",")] + lines[4...]).joined(separator: "\n").write(toFile: summaryPath, atomically: true, encoding: .utf8)

        // The refused records are counted among their type's: the report still adds up.
        let dry = try cli.run(["import", "--dry-run", "--json", folder], Self.env)
        #expect(dry.status == 65, "\(dry.stderr)")
        AppleHealthImportCommandTests.expectCountsAddUp(try Self.json(dry))
        let result = try cli.run(["import", folder], Self.env)
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stdout.contains("  Average weight (kg)   2 days: 1 added, 1 refused\n"), "\(result.stdout)")
        #expect(result.stdout.contains("  workout sessions      \(counts["workout_files"]!) sessions: \(counts["workout_sessions"]! - 1) added, 1 duplicate (the same session in two files), 1 refused\n"),
                "\(result.stdout)")
        #expect(result.stdout.contains("refused as bad data 2:\n  1 day Average weight (kg): an unreadable date, value or unit\n  1 session workout sessions: an unreadable date, value or unit\n"),
                "\(result.stdout)")
        #expect(result.stderr == "phr: error: \(folder): 2 entries were refused as bad data; the rest was imported\nphr: hint: the report lists each refused entry and why; fix them and import the file again (what is in stays as it is)\n",
                "\(result.stderr)")
        #expect(try AppleHealthImportCommandTests.entries(cli, "weight").map { $0["day"] as? String } == ["2026-03-15"])
        #expect(try AppleHealthImportCommandTests.entries(cli, "sleep").count == 3)
        let workouts = try AppleHealthImportCommandTests.entries(cli, "workout")
        #expect(workouts.count == counts["workout_sessions"]! - 1)
        let run = workouts.first { $0["kind"] as? String == "running" && $0["day"] as? String == "2026-03-17" }
        #expect(run?["note"] as? String == "from Google Fit", "\(workouts)")
    }

    @Test func damagedTakeoutsAreRefusedWithNothingImported() throws {
        let cli = try CLI(label: "google-fit-broken")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        _ = try Self.generate(cli, into: "takeout", days: 10)
        let zipData = try Data(contentsOf: URL(fileURLWithPath: "\(cli.directory)/takeout/takeout.zip"))
        let summaryPath = "\(cli.directory)/takeout/Takeout/Fit/Daily activity metrics/Daily activity metrics.csv"
        let summary = try String(contentsOfFile: summaryPath, encoding: .utf8)
        let before = cli.vaultFingerprint()
        func refused(_ path: String, _ message: String, prefixOnly: Bool = false) throws {
            let result = try cli.run(["import", path], Self.env)
            #expect(result.status == 65, "\(path): \(result.stderr)")
            #expect(result.stdout.isEmpty)
            if prefixOnly {
                #expect(result.stderr.hasPrefix("phr: error: \(path): Google Fit Takeout: \(message)") && result.stderr.hasSuffix(Self.hint),
                        "\(result.stderr)")
            } else {
                #expect(result.stderr == "phr: error: \(path): Google Fit Takeout: \(message)\n" + Self.hint, "\(result.stderr)")
            }
        }

        let truncated = "\(cli.directory)/truncated.zip"
        try zipData.prefix(zipData.count * 2 / 3).write(to: URL(fileURLWithPath: truncated))
        try refused(truncated, "not a complete zip archive: its end (the central directory) is missing; the file may be truncated")

        // The directory is intact, the daily summary's compressed bytes are not.
        var damaged = zipData
        let name = try #require(damaged.range(of: Data("Takeout/Fit/Daily activity metrics/Daily activity metrics.csv".utf8)))
        damaged.replaceSubrange((name.upperBound + 40)..<(name.upperBound + 72), with: Data(repeating: 0xA5, count: 32))
        let damagedPath = "\(cli.directory)/damaged.zip"
        try damaged.write(to: URL(fileURLWithPath: damagedPath))
        try refused(damagedPath, "'Takeout/Fit/Daily activity metrics/Daily activity metrics.csv' in the zip ", prefixOnly: true)

        // The daily CSV alone, with a row of one field too many (header 1, a calorie-only row, ten days).
        let extra = "\(cli.directory)/extra-field.csv"
        try (summary + "2026-03-25" + String(repeating: ",", count: 23) + "\n").write(toFile: extra, atomically: true, encoding: .utf8)
        try refused(extra, "line 13: 24 fields, but the header has 23")
        let badDate = "\(cli.directory)/bad-date.csv"
        try summary.replacingOccurrences(of: "\n2026-03-17,", with: "\n03/17/2026,").write(toFile: badDate, atomically: true, encoding: .utf8)
        try refused(badDate, "line 5: '03/17/2026' in the Date column is not a date (YYYY-MM-DD)")
        let twice = "\(cli.directory)/twice.csv"
        let lines = summary.split(separator: "\n")
        try (summary + lines[4] + "\n").write(toFile: twice, atomically: true, encoding: .utf8)
        try refused(twice, "line 13: a second row for 2026-03-17")

        // The extracted folder with a quote opened in the summary and never closed.
        let folder = "\(cli.directory)/takeout/Takeout"
        try summary.replacingOccurrences(of: "\n2026-03-20,", with: "\n\"2026-03-20,").write(toFile: summaryPath, atomically: true, encoding: .utf8)
        try refused(folder, "'Fit/Daily activity metrics/Daily activity metrics.csv' line 8: a quoted field is never closed (the file ends inside it)")
        try summary.write(toFile: summaryPath, atomically: true, encoding: .utf8)

        // A session file cut short.
        let sessions = "\(folder)/Fit/All Sessions"
        let run = try #require(try FileManager.default.contentsOfDirectory(atPath: sessions).sorted().first { $0.hasSuffix("_RUNNING.json") })
        let runText = try String(contentsOfFile: "\(sessions)/\(run)", encoding: .utf8)
        try String(runText.prefix(60)).write(toFile: "\(sessions)/\(run)", atomically: true, encoding: .utf8)
        try refused(folder, "'Fit/All Sessions/\(run)' is not a JSON object: the file is damaged")
        try runText.write(toFile: "\(sessions)/\(run)", atomically: true, encoding: .utf8)

        // A Takeout of other Google products has nothing for the health log.
        let mail = "\(cli.directory)/mail/Takeout/Mail"
        try FileManager.default.createDirectory(atPath: mail, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: "\(mail)/All mail.mbox", contents: Data("From x\n".utf8)))
        try refused("\(cli.directory)/mail", "no Google Fit data in it: neither Fit's 'Daily activity metrics.csv' nor its session files ('All Sessions/*.json')")

        #expect(cli.vaultFingerprint() == before)
        for metric in ["weight", "sleep", "workout"] { #expect(try AppleHealthImportCommandTests.entries(cli, metric).isEmpty) }
        // The repaired folder imports.
        let repaired = try cli.run(["import", folder], Self.env)
        #expect(repaired.status == 0 && repaired.stdout.contains("Google Fit Takeout"), "\(repaired.stderr)")
    }
}
