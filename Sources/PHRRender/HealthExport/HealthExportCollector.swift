import Foundation
import PHRModel

/// Turns the records of an Apple Health export into health-log entries: converts units, drops
/// what several sources recorded twice, and sums sleep stages into nights.
///
/// **Duplicates.** Apple Health keeps every source's samples and, when it adds them up, lets
/// the source higher in its priority list win where samples overlap in time (Health, Data
/// Sources & Access). The export does not carry the user's list, so phr ranks sources the way
/// Health does by default: the Apple Watch first, then the iPhone, then other apps in the order
/// they first appear in the file. Then:
/// - water, dietary energy, weight, blood pressure, glucose and workouts: a sample is dropped
///   when a source of higher priority has a sample whose time overlaps it (an instantaneous
///   sample counts as the minute from its time); samples of one source never drop each other;
/// - sleep: each night (the sleep that ends between 18:00 the day before and 18:00 that day, in
///   phr's time zone) takes its asleep time from the highest-priority source that recorded
///   stages that night: the core, deep, REM and unspecified stages (and the older "asleep")
///   are summed as the union of their intervals; time in bed is kept apart, in the entry's note.
///   A night with time in bed but no stage (an iPhone without a watch) becomes an entry of its
///   time in bed, of kind "in bed", so that it is never read as time asleep without saying so.
struct HealthExportCollector {
    /// A source and its rank (lower ranks win).
    struct Source {
        var name: String
        var rank: Int
    }

    struct Sample {
        var start: Int64
        var end: Int64
        var value: Double
        var diastolic: Double
        var source: Int32
        var unit: HealthUnit
        var kind: String?
        var note: String?
        var key: String
    }

    enum SleepStage {
        case asleep, inBed, awake
    }

    struct SleepSample {
        var start: Int64
        var end: Int64
        var stage: SleepStage
        var source: Int32
    }

    /// The most samples kept for de-duplication (about 100 bytes each).
    static let maximumSamples = 3_000_000

    let zone: TimeZone
    private(set) var sources: [Source] = []
    private var sourceIndex: [String: Int32] = [:]
    private var samples: [LogMetric: [(type: String, sample: Sample)]] = [:]
    private var sleep: [SleepSample] = []
    private var kept = 0
    private(set) var tallies: [String: HealthExportTally] = [:]

    init(zone: TimeZone) {
        self.zone = zone
    }

    // MARK: Adding

    /// The index of a source, registering it on first sight. `device` is the record's device
    /// description ("<<HKDevice: ...>, name:Apple Watch, ..., model:Watch, ...>").
    mutating func source(name: String, device: String?) -> Int32 {
        if let index = sourceIndex[name] { return index }
        let text = (device ?? "") + " " + name
        let deviceClass = text.contains("model:Watch") || name.contains("Apple Watch") ? 0
            : text.contains("model:iPhone") || name.contains("iPhone") ? 1 : 2
        let index = Int32(sources.count)
        sources.append(Source(name: String(name.prefix(100)), rank: deviceClass * 1_000_000 + sources.count))
        sourceIndex[name] = index
        return index
    }

    mutating func count(_ type: String, _ change: (inout HealthExportTally) -> Void) {
        change(&tallies[type, default: HealthExportTally(type: type)])
    }

    mutating func add(_ metric: LogMetric, type: String, _ sample: Sample) throws {
        try reserve()
        samples[metric, default: []].append((type, sample))
    }

    mutating func addSleep(_ sample: SleepSample) throws {
        try reserve()
        sleep.append(sample)
    }

    private mutating func reserve() throws {
        kept += 1
        guard kept <= Self.maximumSamples else {
            throw ZipArchive.Refusal(reason: "the export holds more than \(Self.maximumSamples) records phr keeps; import a shorter export")
        }
    }

    // MARK: Finishing

    /// Hands each entry to `send` as it is made, oldest first by metric, with the tallies
    /// updated; a metric's samples are let go once its entries are out. (Building every entry
    /// first took a million water records past the worker's 1 GiB.)
    mutating func finish(send: (HealthExportEntry) throws -> Void) throws {
        for metric in LogMetric.allCases where metric != .sleep {
            guard let list = samples.removeValue(forKey: metric) else { continue }
            for index in deduplicated(list) {
                let (type, sample) = list[index]
                try send(entry(metric, type: type, sample))
                count(type) { $0.entries += 1 }
            }
        }
        for night in nights() { try send(night) }
    }

    private func entry(_ metric: LogMetric, type: String, _ sample: Sample) -> HealthExportEntry {
        let from = "from Apple Health (\(sources[Int(sample.source)].name))"
        return HealthExportEntry(metric: metric, type: type, start: metric.isInterval ? Self.utc(sample.start) : nil, end: Self.utc(sample.end),
                                value: sample.value, diastolic: metric == .bp ? sample.diastolic : nil, unit: sample.unit,
                                kind: sample.kind, note: sample.note.map { "\($0); \(from)" } ?? from, key: sample.key)
    }

    /// The indices, in `list`, of the samples no source of higher priority overlaps, by end.
    private mutating func deduplicated(_ list: [(type: String, sample: Sample)]) -> [Int] {
        let order = list.indices.sorted { a, b in
            let (x, y) = (list[a].sample, list[b].sample)
            let (rankX, rankY) = (sources[Int(x.source)].rank, sources[Int(y.source)].rank)
            return rankX != rankY ? rankX < rankY : x.start != y.start ? x.start < y.start : a < b
        }
        // Kept samples by the day they start and by source: a sample is compared with other
        // sources' only (one source's thousands of readings a day were compared with each
        // other, for nothing: samples of one source never drop each other).
        var byDay: [Int64: [Int32: [Int]]] = [:]
        var result: [Int] = []
        for index in order {
            let sample = list[index].sample
            let end = max(sample.end, sample.start + 60)
            let firstDay = Self.floorDiv(sample.start, 86_400)
            var duplicate = false
            // Samples longer than a day are compared with those kept around their start only.
            search: for day in (firstDay - 1)...min(Self.floorDiv(end, 86_400), firstDay + 1) {
                for (source, kept) in byDay[day] ?? [:] where source != sample.source {
                    for other in kept {
                        let kept = list[other].sample
                        if kept.start < end && sample.start < max(kept.end, kept.start + 60) {
                            duplicate = true
                            break search
                        }
                    }
                }
            }
            if duplicate {
                count(list[index].type) { $0.duplicates += 1 }
                continue
            }
            byDay[firstDay, default: [:]][sample.source, default: []].append(index)
            result.append(index)
        }
        result.sort { list[$0].sample.end < list[$1].sample.end }
        return result
    }

    private static let sleepType = "HKCategoryTypeIdentifierSleepAnalysis"
    /// The kind of a night known only as time in bed.
    static let inBedKind = "in bed"

    /// One entry per night, from the best source's asleep stages.
    private mutating func nights() -> [HealthExportEntry] {
        var byNight: [CalendarDate: [SleepSample]] = [:]
        for sample in sleep {
            // A night belongs to the day it ends, counting 18:00 onwards as the next day's night.
            let shifted = Date(timeIntervalSince1970: TimeInterval(sample.end + 6 * 3600))
            byNight[CalendarDate(shifted, in: zone), default: []].append(sample)
        }
        var entries: [HealthExportEntry] = []
        for night in byNight.keys.sorted() {
            let samples = byNight[night]!
            func best(_ stage: SleepStage) -> Int32? {
                samples.filter { $0.stage == stage }.map(\.source).min { sources[Int($0)].rank < sources[Int($1)].rank }
            }
            guard let source = best(.asleep) else {
                // An iPhone without a watch records time in bed only: keep it as that, marked
                // (kind "in bed"), so such a user's nights are not lost.
                guard let bedSource = best(.inBed) else {
                    count(Self.sleepType) { $0.skipped += samples.count }
                    continue
                }
                let inBed = samples.filter { $0.stage == .inBed && $0.source == bedSource }
                let seconds = Self.unionLength(inBed.map { ($0.start, $0.end) })
                guard seconds > 0, seconds <= 86_400 else {
                    count(Self.sleepType) { $0.skipped += samples.count }
                    continue
                }
                let duplicates = samples.filter { $0.stage == .inBed && $0.source != bedSource }.count
                count(Self.sleepType) {
                    $0.entries += 1
                    $0.duplicates += duplicates
                    $0.summed += samples.count - duplicates - 1
                }
                entries.append(HealthExportEntry(
                    metric: .sleep, type: Self.sleepType, start: Self.utc(inBed.map(\.start).min()!), end: Self.utc(inBed.map(\.end).max()!),
                    value: Double(seconds) / 60, diastolic: nil, unit: .hour, kind: Self.inBedKind,
                    note: "no sleep stages were recorded this night; from Apple Health (\(sources[Int(bedSource)].name))",
                    key: "\(Self.sleepType)|night|\(night)"))
                continue
            }
            let asleep = samples.filter { $0.stage == .asleep && $0.source == source }
            let seconds = Self.unionLength(asleep.map { ($0.start, $0.end) })
            let start = asleep.map(\.start).min()!
            let end = asleep.map(\.end).max()!
            var note = "from Apple Health (\(sources[Int(source)].name))"
            if let bedSource = best(.inBed) {
                let inBed = Self.unionLength(samples.filter { $0.stage == .inBed && $0.source == bedSource }.map { ($0.start, $0.end) })
                note = "in bed \(inBed / 3600) h \(inBed / 60 % 60) min; " + note
            }
            let duplicates = samples.filter { $0.stage == .asleep && $0.source != source }.count
            count(Self.sleepType) {
                $0.entries += 1
                $0.duplicates += duplicates
                $0.summed += samples.count - duplicates - 1
            }
            guard seconds > 0 else { continue }
            entries.append(HealthExportEntry(metric: .sleep, type: Self.sleepType, start: Self.utc(start), end: Self.utc(end),
                                            value: Double(seconds) / 60, diastolic: nil, unit: .hour, kind: nil, note: note,
                                            key: "\(Self.sleepType)|night|\(night)"))
        }
        return entries
    }

    /// The total length of the union of intervals, seconds.
    static func unionLength(_ intervals: [(Int64, Int64)]) -> Int64 {
        var total: Int64 = 0
        var current: (Int64, Int64)?
        for (start, end) in intervals.sorted(by: { $0.0 < $1.0 }) where end > start {
            if case let (from, to)? = current, start <= to {
                current = (from, max(to, end))
            } else {
                if case let (from, to)? = current { total += to - from }
                current = (start, end)
            }
        }
        if case let (from, to)? = current { total += to - from }
        return total
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let (q, r) = a.quotientAndRemainder(dividingBy: b)
        return r < 0 ? q - 1 : q
    }

    static func utc(_ seconds: Int64) -> String {
        Timestamp.string(Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}
