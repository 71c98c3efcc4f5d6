import Foundation
import PHRModel

/// Google Fit's session files (`All Sessions/2026-03-15T07_30_00+01_00_RUNNING.json`, one a
/// session; the folder's name follows the account's language, the file names do not): a JSON
/// object with `fitnessActivity` ("running", "sleep", ...), `startTime` and `endTime` (RFC 3339,
/// UTC), `duration` ("1800s"), optional `segment`s (`fitnessActivity`, `startTime`, `endTime`;
/// a night's are "sleep", "sleep.light", "sleep.deep", "sleep.rem" and "sleep.awake") and
/// `aggregate`s (`metricName` with `floatValue` or `intValue`: energy, steps, distance...).
///
/// - A sleep session becomes a night: asleep time is the union of its asleep segments (all of
///   it when it has none), the time in bed (start to end) goes into the note; it counts for the
///   day it ends, as every night in phr's log.
/// - Any other session becomes a workout of its activity, start to end, with the energy
///   (`com.google.calories.expended`) in its note. Activity recognition's "still", "in_vehicle",
///   "tilting" and "unknown" are not workouts and are skipped.
/// - The same session twice (Takeout writes some files a second time, with "(1)" after the
///   name) counts once; other aggregates (steps, distance, speed, heart minutes) are counted and
///   skipped.
///
/// A file that is not JSON refuses the export; a session whose times or fields cannot be read
/// is refused alone and counted.
struct FitSessions {
    static let sleepType = "sleep sessions"
    static let workoutType = "workout sessions"
    static let totalsType = "session totals"
    static let energyMetric = "com.google.calories.expended"
    static let asleepStages: Set<String> = ["sleep", "sleep.light", "sleep.deep", "sleep.rem"]
    static let notWorkouts: Set<String> = ["still", "in_vehicle", "tilting", "unknown", "sleep.awake"]
    static let maximumSegments = 20_000
    static let maximumDepth = 32

    /// "2026-03-15T07_30_00+01_00_RUNNING.json", "2019-05-07T20_06_00+03_00_SLEEP(1).json".
    static func isSessionFile(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count > 20, name.hasSuffix(".json") else { return false }
        let digits = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
        return digits.allSatisfy { (0x30...0x39).contains(bytes[$0]) } && bytes[4] == 0x2D && bytes[7] == 0x2D && bytes[10] == 0x54
            && bytes[13] == 0x5F && bytes[16] == 0x5F
    }

    private var seen: Set<String> = []
    private(set) var entries: [HealthExportEntry] = []

    /// Reads one session file into `entries`, counting in `tallies`.
    mutating func read(_ bytes: [UInt8], label: String, tallies: inout [String: HealthExportTally]) throws {
        if JSONNesting.firstOffsetDeeper(than: Self.maximumDepth, in: bytes) != nil {
            throw ZipArchive.Refusal(reason: "\(label)nests deeper than \(Self.maximumDepth) levels: not a Google Fit session")
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)), let session = object as? [String: Any] else {
            throw ZipArchive.Refusal(reason: "\(label)is not a JSON object: the file is damaged")
        }
        let activity = (session["fitnessActivity"] as? String).map { String($0.prefix(80)) }
        let isSleep = activity.map { $0 == "sleep" || $0.hasPrefix("sleep.") && $0 != "sleep.awake" } ?? false
        let type = isSleep ? Self.sleepType : Self.workoutType
        func tally(_ change: (inout HealthExportTally) -> Void) {
            change(&tallies[type, default: HealthExportTally(type: type, unit: "session")])
        }
        tally { $0.records += 1 }
        guard let activity, !activity.isEmpty, let start = (session["startTime"] as? String).flatMap(Self.seconds),
              let end = (session["endTime"] as? String).flatMap(Self.seconds), end > start else {
            tally { $0.rejected += 1 }
            return
        }
        // The same activity starting at the same second is one session (its entry's key), even
        // if a second file ends it elsewhere: the first file's stands.
        guard seen.insert("\(activity)|\(start)").inserted else {
            tally {
                $0.duplicates += 1
                $0.duplicateNote = "(the same session in two files)"
            }
            return
        }
        var energy: Double?
        for aggregate in (session["aggregate"] as? [Any] ?? []).prefix(1_000) {
            guard let aggregate = aggregate as? [String: Any], let metric = aggregate["metricName"] as? String else { continue }
            let value = (aggregate["floatValue"] as? NSNumber)?.doubleValue ?? (aggregate["intValue"] as? NSNumber)?.doubleValue
            // Bounded: the note prints it as a whole number, and no workout burns 100,000 kcal.
            if metric == Self.energyMetric && !isSleep, let value, value.isFinite, value > 0, value < 100_000 {
                energy = value
                continue
            }
            tallies[Self.totalsType, default: HealthExportTally(type: Self.totalsType, unit: "value")].records += 1
            tallies[Self.totalsType]!.skipped += 1
            tallies[Self.totalsType]!.reason = "a session's steps, distance, speed, heart minutes and the like (and energy burned asleep) are not kept; a workout's time, type and energy are"
        }
        let key = "session|\(activity)|\(HealthExportCollector.utc(start))"
        if isSleep {
            var asleep: [(Int64, Int64)] = []
            var segments = 0
            for segment in session["segment"] as? [Any] ?? [] {
                segments += 1
                guard segments <= Self.maximumSegments, let segment = segment as? [String: Any], let stage = segment["fitnessActivity"] as? String,
                      let from = (segment["startTime"] as? String).flatMap(Self.seconds), let to = (segment["endTime"] as? String).flatMap(Self.seconds),
                      to >= from else {
                    tally { $0.rejected += 1 }
                    return
                }
                // Only the part inside the session counts: asleep never longer than in bed.
                let (inside, until) = (max(from, start), min(to, end))
                if Self.asleepStages.contains(stage), until > inside { asleep.append((inside, until)) }
            }
            let seconds = segments == 0 ? end - start : HealthExportCollector.unionLength(asleep)
            guard seconds > 0 else {
                tally {
                    $0.skipped += 1
                    $0.reason = "a sleep session with no time asleep in it (only awake segments)"
                }
                return
            }
            let inBed = end - start
            tally { $0.entries += 1 }
            entries.append(HealthExportEntry(metric: .sleep, type: type, start: HealthExportCollector.utc(start), end: HealthExportCollector.utc(end),
                                             value: Double(seconds) / 60, diastolic: nil, unit: .hour, kind: nil,
                                             note: "in bed \(inBed / 3600) h \(inBed / 60 % 60) min; from Google Fit", key: key))
            return
        }
        guard !Self.notWorkouts.contains(activity) else {
            tally {
                $0.skipped += 1
                $0.reason = "activity recognition ('still', 'in_vehicle', 'tilting', 'unknown'), not a workout"
            }
            return
        }
        tally { $0.entries += 1 }
        entries.append(HealthExportEntry(metric: .workout, type: type, start: HealthExportCollector.utc(start), end: HealthExportCollector.utc(end),
                                         value: Double(end - start) / 60, diastolic: nil, unit: .minute, kind: Self.kind(activity),
                                         note: energy.map { "\(Int($0.rounded())) kcal; from Google Fit" } ?? "from Google Fit", key: key))
    }

    /// "strength_training" as "strength-training", "running.jogging" as "running-jogging".
    static func kind(_ activity: String) -> String {
        var kind = ""
        for character in activity.prefix(60) {
            if character.isLetter || character.isNumber {
                kind += character.lowercased()
            } else if !kind.isEmpty && !kind.hasSuffix("-") {
                kind += "-"
            }
        }
        while kind.hasSuffix("-") { kind.removeLast() }
        return kind.isEmpty ? "other" : String(kind.prefix(40))
    }

    /// RFC 3339 as Takeout writes it, "2026-03-15T06:30:00Z", "2019-05-11T08:44:00.276Z" or with
    /// an offset ("+01:00"), as Unix seconds (a fraction dropped); years 1900-2200.
    static func seconds(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= 40, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54 || bytes[10] == 0x74,
              bytes[13] == 0x3A, bytes[16] == 0x3A else { return nil }
        var index = 19
        if bytes[index] == 0x2E {
            index += 1
            let fraction = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            guard index > fraction else { return nil }
        }
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case 0x5A, 0x7A:
            guard index + 1 == bytes.count else { return nil }
            return HealthExportReader.unixSeconds(bytes, offset: 0)
        case 0x2B, 0x2D:
            guard index + 6 == bytes.count, bytes[index + 3] == 0x3A, let hours = HealthExportReader.digits(bytes, index + 1, 2),
                  let minutes = HealthExportReader.digits(bytes, index + 4, 2), hours < 24, minutes < 60 else { return nil }
            return HealthExportReader.unixSeconds(bytes, offset: (hours * 3600 + minutes * 60) * (bytes[index] == 0x2D ? -1 : 1))
        default:
            return nil
        }
    }
}
