import Foundation
import SampleZip

// phr-fit-takeout-sample: writes a synthetic Google Takeout of Google Fit as Takeout lays it out
// (Takeout/Fit/Daily activity metrics/, Takeout/Fit/All Sessions/, Takeout/Fit/All Data/,
// Takeout/Fit/Activities/), zipped (takeout.zip) and extracted (Takeout/), plus expected.json:
// what phr's health log must hold per day after importing it.
//
//   phr-fit-takeout-sample --out DIR [--days N] [--start YYYY-MM-DD] [--zone Europe/Berlin]
//
// Everything is made up and deterministic. The shapes follow what Takeout writes (English
// names, as for an account in English): the daily summary's columns, one row a day, an empty
// cell for a day without that measure, weights as float noise ("72.4000015258789"); per-day
// CSVs of 15-minute intervals; one JSON file a session, named by its local start and activity,
// times in UTC. The scenario, per day in the zone's local time:
// - a first row with nothing but Calories (Google derives them from the profile on days with
//   no data): no entry;
// - steps, calories, distance, move minutes, heart points, heart rate and activity durations
//   every day (none of which the health log keeps); weighings on two of every three days
//   (two a day: the average, min and max columns);
// - a night ending each morning: 23:00 to 06:50 in bed, with light, deep, REM and awake
//   segments, 435 min asleep (elapsed time, so less across the spring change); the first
//   night has no segments (all of it counts);
// - a 30.5 min run at 18:00 every second day (250 kcal, with steps and distance aggregates),
//   written twice every sixth day (the second file with "(1)", as Takeout does); a 45 min walk
//   at 12:00 every fourth day (no energy); 40 min of strength training at 07:00 every seventh.
// The file names carry the offset in force at each start, so DST changes show as in a real export.

struct Options {
    var out = "."
    var days = 30
    var start = "2026-03-15"
    var zone = "Europe/Berlin"
}

var options = Options()
var arguments = ToolArguments(usage: "usage: phr-fit-takeout-sample --out DIR [--days N] [--start YYYY-MM-DD] [--zone Europe/Berlin]\n" +
                                     "Writes a synthetic Google Fit Takeout (takeout.zip and Takeout/) and expected.json into DIR.")
while let argument = arguments.next() {
    switch argument {
    case "--out": options.out = arguments.value(of: argument)
    case "--days": options.days = arguments.number(of: argument)
    case "--start": options.start = arguments.value(of: argument)
    case "--zone": options.zone = arguments.value(of: argument)
    default: arguments.fail("unknown option \(argument)")
    }
}
if TimeZone(identifier: options.zone) == nil { arguments.fail("--zone: '\(options.zone)' is not a time zone") }
let startParts = options.start.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
if startParts.count != 3 || startParts.contains(nil) || !(1...12).contains(startParts[1]!) || !(1...31).contains(startParts[2]!) || startParts[0]! < 1 {
    arguments.fail("--start: '\(options.start)' is not a day (YYYY-MM-DD)")
}

struct Expected {
    var sleep = 0.0, workout = 0.0
    var weight: Double?
}

final class Scenario {
    let options: Options
    let zone: TimeZone
    var calendar = Calendar(identifier: .gregorian)
    let firstDay: Date
    var expected: [String: Expected] = [:]
    var counts: [String: Int] = [:]
    /// Path under the Takeout folder, and contents.
    var files: [(String, [UInt8])] = []

    init(_ options: Options) {
        self.options = options
        zone = TimeZone(identifier: options.zone)!
        calendar.timeZone = zone
        let parts = options.start.split(separator: "-").compactMap { Int($0) }
        firstDay = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))!
    }

    func local(_ index: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        let day = calendar.date(byAdding: .day, value: index, to: firstDay)!
        return calendar.date(bySettingHour: hour, minute: minute, second: 0, of: day)!
    }

    func dayName(_ index: Int) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: calendar.date(byAdding: .day, value: index, to: firstDay)!)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    /// "2026-03-15T06:30:00.000Z", as sessions carry their times.
    func utc(_ date: Date) -> String {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let p = utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.000Z", p.year!, p.month!, p.day!, p.hour!, p.minute!, p.second!)
    }

    /// "2026-03-15T23_00_00+01_00": a session file's name, its local start with the offset then in force.
    func fileStamp(_ date: Date) -> String {
        let p = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let offset = zone.secondsFromGMT(for: date)
        let sign = offset < 0 ? "-" : "+"
        return String(format: "%04d-%02d-%02dT%02d_%02d_%02d", p.year!, p.month!, p.day!, p.hour!, p.minute!, p.second!)
            + String(format: "%@%02d_%02d", sign, abs(offset) / 3600, abs(offset) / 60 % 60)
    }

    /// A float's noise, as Takeout writes measurements: 72.4 as "72.4000015258789".
    static func noisy(_ value: Double) -> String { "\(Double(Float(value)))" }

    static let header = ["Date", "Move Minutes count", "Calories (kcal)", "Distance (m)", "Heart Points", "Heart Minutes",
                         "Average heart rate (bpm)", "Max heart rate (bpm)", "Min heart rate (bpm)", "Low latitude (deg)",
                         "Low longitude (deg)", "High latitude (deg)", "High longitude (deg)", "Average speed (m/s)", "Max speed (m/s)",
                         "Min speed (m/s)", "Step count", "Average weight (kg)", "Max weight (kg)", "Min weight (kg)",
                         "Inactive duration (ms)", "Walking duration (ms)", "Running duration (ms)"]

    func session(_ activity: String, start: Date, end: Date, segments: [(String, Date, Date)] = [], aggregates: [(String, String)] = [],
                 copy: Bool = false) {
        var json = "{\n  \"fitnessActivity\": \"\(activity)\",\n  \"startTime\": \"\(utc(start))\",\n  \"endTime\": \"\(utc(end))\",\n"
        json += "  \"duration\": \"\(Int(end.timeIntervalSince(start)))s\""
        if !segments.isEmpty {
            json += ",\n  \"segment\": [" + segments.map { stage, from, to in
                "{\n    \"fitnessActivity\": \"\(stage)\",\n    \"startTime\": \"\(utc(from))\",\n    \"endTime\": \"\(utc(to))\"\n  }"
            }.joined(separator: ", ") + "]"
        }
        if !aggregates.isEmpty {
            json += ",\n  \"aggregate\": [" + aggregates.map { name, value in "{\n    \"metricName\": \"\(name)\",\n    \(value)\n  }" }
                .joined(separator: ", ") + "]"
        }
        json += "\n}\n"
        let name = "\(fileStamp(start))_\(activity.uppercased().replacingOccurrences(of: ".", with: "_"))"
        files.append(("Fit/All Sessions/\(name).json", Array(json.utf8)))
        if copy { files.append(("Fit/All Sessions/\(name)(1).json", Array(json.utf8))) }
    }

    func build() {
        var rows: [String] = [Self.header.joined(separator: ",")]
        // A day before the data starts, with nothing but Calories: not a day with a weight.
        var empty = [String](repeating: "", count: Self.header.count)
        empty[0] = dayName(-40)
        empty[2] = "1612.3399658203125"
        rows.append(empty.joined(separator: ","))
        counts["calorie_only_rows"] = 1
        for index in 0..<options.days {
            let day = dayName(index)
            var totals = Expected()
            var row = [String](repeating: "", count: Self.header.count)
            row[0] = day
            let steps = 6000 + index * 137 % 5000
            row[1] = String(20 + index % 40)
            row[2] = Self.noisy(2100 + Double(index % 9) * 31.5)
            row[3] = Self.noisy(Double(steps) * 0.72)
            row[4] = String(10 + index % 25)
            row[5] = String(8 + index % 20)
            row[6] = Self.noisy(71 + Double(index % 7))
            row[7] = String(120 + index % 30)
            row[8] = String(52 + index % 6)
            row[13] = Self.noisy(1.3 + Double(index % 5) * 0.1)
            row[14] = Self.noisy(2.9 + Double(index % 4) * 0.2)
            row[15] = Self.noisy(0.4)
            row[16] = String(steps)
            row[20] = String(50_400_000 + index * 60_000)
            row[21] = String(3_600_000 + index * 30_000)
            if index % 3 != 2 {
                let morning = 72.0 + Double(index % 10) * 0.15, evening = morning + 0.6
                let average = (Double(Float(morning)) + Double(Float(evening))) / 2
                row[17] = "\(average)"
                row[18] = Self.noisy(evening)
                row[19] = Self.noisy(morning)
                totals.weight = (average * 1000).rounded() / 1000
            }

            // The night ending this morning.
            let bed = local(index - 1, 23), up = local(index, 6, 50)
            if index == 0 {
                session("sleep", start: bed, end: up)
                totals.sleep += up.timeIntervalSince(bed) / 60
            } else {
                let m = { (hour: Int, minute: Int, dayOffset: Int) in self.local(index + dayOffset, hour, minute) }
                let stages: [(String, Date, Date)] = [
                    ("sleep.light", m(23, 10, -1), m(1, 0, 0)), ("sleep.deep", m(1, 0, 0), m(2, 30, 0)), ("sleep.rem", m(2, 30, 0), m(3, 30, 0)),
                    ("sleep.awake", m(3, 30, 0), m(3, 45, 0)), ("sleep.light", m(3, 45, 0), m(6, 40, 0)),
                ]
                session("sleep", start: bed, end: up, segments: stages,
                        aggregates: [("com.google.calories.expended", "\"floatValue\": 512.5")])
                // Elapsed time: 435 min, less on the night into summer time (02:00 to 03:00 does not exist).
                totals.sleep += stages.filter { $0.0 != "sleep.awake" }.reduce(0) { $0 + $1.2.timeIntervalSince($1.1) / 60 }
                counts["session_totals", default: 0] += 1
            }
            counts["sleep_sessions", default: 0] += 1
            if index % 2 == 0 {
                let start = local(index, 18), end = start.addingTimeInterval(30.5 * 60)
                row[9] = Self.noisy(52.51); row[10] = Self.noisy(13.40); row[11] = Self.noisy(52.53); row[12] = Self.noisy(13.42)
                row[22] = String(1_830_000)
                session("running", start: start, end: end,
                        aggregates: [("com.google.calories.expended", "\"floatValue\": 250.4"), ("com.google.step_count.delta", "\"intValue\": 4410"),
                                     ("com.google.distance.delta", "\"floatValue\": 5012.3")],
                        copy: index % 6 == 0)
                totals.workout += 30.5
                counts["workout_sessions", default: 0] += 1
                counts["workout_files", default: 0] += index % 6 == 0 ? 2 : 1
                counts["session_totals", default: 0] += 2
            }
            if index % 4 == 0 {
                let start = local(index, 12)
                session("walking", start: start, end: start.addingTimeInterval(45 * 60))
                totals.workout += 45
                counts["workout_sessions", default: 0] += 1
                counts["workout_files", default: 0] += 1
            }
            if index % 7 == 3 {
                let start = local(index, 7)
                session("strength_training", start: start, end: start.addingTimeInterval(40 * 60),
                        aggregates: [("com.google.calories.expended", "\"floatValue\": 180")])
                totals.workout += 40
                counts["workout_sessions", default: 0] += 1
                counts["workout_files", default: 0] += 1
            }
            if totals.weight != nil { counts["weight_days", default: 0] += 1 }
            rows.append(row.joined(separator: ","))
            expected[day] = totals

            // The day in 15-minute intervals (phr counts these files and reads the summary instead).
            var intervals = "Start time,End time,Move Minutes count,Calories (kcal),Distance (m),Step count\n"
            for quarter in 0..<4 {
                intervals += String(format: "%02d:%02d:00.000+01:00,%02d:%02d:00.000+01:00,1,22.5,80.4,%d\n", 8, quarter * 15, quarter == 3 ? 9 : 8,
                                    (quarter * 15 + 15) % 60, 110 + quarter)
            }
            files.append(("Fit/Daily activity metrics/\(day).csv", Array(intervals.utf8)))
        }
        counts["days"] = options.days
        files.append(("Fit/Daily activity metrics/Daily activity metrics.csv", Array((rows.joined(separator: "\n") + "\n").utf8)))
        files.append(("Fit/All Data/derived_com.google.step_count.delta_com.google.android.gms_estimated_steps.json",
                      Array("{\n  \"Data Source\": \"derived:com.google.step_count.delta:com.google.android.gms:estimated_steps\",\n  \"Data Points\": []\n}\n".utf8)))
        files.append(("Fit/Activities/\(fileStamp(local(0, 18)))_RUNNING.tcx",
                      Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<TrainingCenterDatabase/>\n".utf8)))
        files.sort { $0.0 < $1.0 }
        // Takeout's own index page comes first in the zip, as in a real download.
        files.insert(("archive_browser.html", Array("<!DOCTYPE html><title>Takeout</title>\n".utf8)), at: 0)
    }
}

func write(_ options: Options) throws {
    let scenario = Scenario(options)
    scenario.build()
    let fileManager = FileManager.default
    try fileManager.createDirectory(atPath: options.out, withIntermediateDirectories: true)
    let zip = ZipWriter(path: options.out + "/takeout.zip")
    for (path, bytes) in scenario.files {
        zip.member("Takeout/" + path, bytes: bytes)
        let full = options.out + "/Takeout/" + path
        try fileManager.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        guard fileManager.createFile(atPath: full, contents: Data(bytes)) else { fatalError("cannot write \(full)") }
    }
    zip.close()

    var days: [String: [String: Any]] = [:]
    for (day, totals) in scenario.expected {
        var entry: [String: Any] = ["sleep_min": totals.sleep, "workout_min": totals.workout]
        if let weight = totals.weight { entry["weight_kg"] = weight }
        days[day] = entry
    }
    let summary: [String: Any] = ["days": days, "counts": scenario.counts, "zone": options.zone]
    try JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys, .prettyPrinted])
        .write(to: URL(fileURLWithPath: options.out + "/expected.json"))
}

try write(options)
