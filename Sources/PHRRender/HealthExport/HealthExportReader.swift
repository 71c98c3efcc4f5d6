import CPHRXML
import PHRModel

/// Reads an Apple Health `export.xml` with libxml2's streaming reader (xmlTextReader): one node
/// at a time, in constant memory, however many years the file holds.
///
/// The file is untrusted. The reader never loads an external DTD or entity and never touches
/// the network (XML_PARSE_NONET, no XML_PARSE_DTDLOAD), substitutes no entities (no
/// XML_PARSE_NOENT), adds no DTD defaults, and keeps libxml2's own size limits (no
/// XML_PARSE_HUGE). Apple's export starts with an internal DTD (`<!DOCTYPE HealthData [...]>`
/// declaring the elements and attributes); it is cut before libxml2 sees the file (`Prologue`)
/// and never applied, so a DTD that is not well-formed (iOS 16's) does not refuse the export.
/// A document that declares entities is refused: Apple's never does, and it is how
/// entity-expansion attacks start. Elements may nest at most `maximumDepth` deep (Apple's go four deep).
/// https://gnome.pages.gitlab.gnome.org/libxml2/devhelp/libxml2-xmlreader.html
///
/// This file does not import Foundation: libxml2's headers bring the system's ICU, which clashes
/// with Foundation's own copy in one Swift file.
final class HealthExportReader {
    static let maximumDepth: Int32 = 16

    /// Where the reader's bytes come from: a file descriptor, or a zip member.
    typealias Input = (UnsafeMutableRawBufferPointer) throws -> Int

    private let input: Input
    private var inputError: Error?
    private var firstError: String?
    private var collector: HealthExportCollector
    private(set) var exportDate: String?
    /// The FHIR version of each Health Records file, by its path in the export
    /// ("/clinical-records/AllergyIntolerance-1.json": "1.0.2").
    private(set) var clinicalVersions: [String: String] = [:]

    /// False when the XML is read alone, without the zip around it (and its Health Records files).
    private let inZip: Bool

    init(input: @escaping Input, collector: HealthExportCollector, inZip: Bool = true) {
        self.inZip = inZip
        let prologue = Prologue(input: input)
        self.input = { buffer in try prologue.read(into: buffer) }
        self.collector = collector
    }

    /// Hands libxml2 the document without its document type declaration. Apple's export starts
    /// with an internal DTD that phr never applies, and iOS 16 wrote one that is not well-formed
    /// (an ATTLIST without its closing ">"), over which libxml2 refuses the whole file. So the
    /// declaration (from "<!DOCTYPE" up to the root element's "<") is cut before parsing, its
    /// line breaks kept so that error lines still match the file. A declaration of entities in
    /// it is refused, as before; one longer than `maximumDeclaration` is refused too (Apple's is
    /// about 10 KB).
    final class Prologue {
        static let maximumDeclaration = 1 << 20
        private let input: Input
        private var pending: [UInt8] = []
        private var consumed = 0
        private var passing = false

        init(input: @escaping Input) {
            self.input = input
        }

        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            if !passing { try readPrologue() }
            guard consumed < pending.count else { return try input(buffer) }
            let count = min(buffer.count, pending.count - consumed)
            pending.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + consumed, byteCount: count) }
            consumed += count
            return count
        }

        /// Reads until the root element's start is in hand, then leaves in `pending` the bytes
        /// with the declaration cut out.
        private func readPrologue() throws {
            passing = true
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            var ended = false
            while true {
                switch Self.scan(bytes, ended: ended) {
                case .noRoot:
                    pending = bytes
                    return
                case .needMore:
                    guard !ended, bytes.count <= Self.maximumDeclaration + (64 << 10) else {
                        // A declaration that runs past the limit, or to the end of the file, is
                        // refused here: libxml2 never reads one. Without a declaration, libxml2
                        // says what the file is.
                        if Self.contains(bytes[...], "<!DOCTYPE") {
                            throw ZipArchive.Refusal(reason: ended
                                ? "export.xml ends inside its document type declaration, before any element"
                                : "export.xml's document type declaration is longer than \(Self.maximumDeclaration >> 20) MB; an Apple Health export's is about 10 KB")
                        }
                        pending = bytes
                        return
                    }
                    let count = try chunk.withUnsafeMutableBytes { try input($0) }
                    if count <= 0 { ended = true } else { bytes += chunk[0..<count] }
                case .root(_, declaration: nil):
                    pending = bytes
                    return
                case .root(_, declaration: let range?):
                    let declaration = bytes[range]
                    guard declaration.count <= Self.maximumDeclaration else {
                        throw ZipArchive.Refusal(reason: "export.xml's document type declaration is longer than \(Self.maximumDeclaration >> 20) MB; an Apple Health export's is about 10 KB")
                    }
                    if Self.contains(declaration, "<!ENTITY") {
                        throw ZipArchive.Refusal(reason: "export.xml declares XML entities, which an Apple Health export never does")
                    }
                    pending = Array(bytes[..<range.lowerBound]) + declaration.filter { $0 == 0x0A } + bytes[range.upperBound...]
                    return
                }
            }
        }

        enum Scan: Equatable {
            /// The prologue goes on past `bytes` (or, at the end, inside a declaration).
            case needMore
            /// Where the root element starts, and the document type declaration before it.
            case root(at: Int, declaration: Range<Int>?)
            /// The file ended without a root element or a declaration: libxml2 says what it is.
            case noRoot
        }

        /// Where the root element starts in the prologue `bytes` (the first "<" followed by a
        /// letter outside a comment or processing instruction), and the document type
        /// declaration before it: from "<!DOCTYPE" to that "<".
        static func scan(_ bytes: [UInt8], ended: Bool) -> Scan {
            var index = 0
            var declarationStart: Int?
            while index < bytes.count {
                if bytes[index] != 0x3C {
                    index += 1
                    continue
                }
                guard index + 1 < bytes.count else { return ended && declarationStart == nil ? .noRoot : .needMore }
                let next = bytes[index + 1]
                if next == 0x3F {
                    guard let end = find(bytes, "?>", from: index + 2) else { return ended && declarationStart == nil ? .noRoot : .needMore }
                    index = end + 2
                } else if starts(bytes, "<!--", at: index) {
                    guard let end = find(bytes, "-->", from: index + 4) else { return ended && declarationStart == nil ? .noRoot : .needMore }
                    index = end + 3
                } else if declarationStart == nil && starts(bytes, "<!DOCTYPE", at: index) {
                    declarationStart = index
                    index += 9
                } else if next == 0x21 {
                    guard index + 9 <= bytes.count || ended else { return .needMore }
                    index += 2
                } else if (next >= 0x41 && next <= 0x5A) || (next >= 0x61 && next <= 0x7A) || next == 0x5F || next >= 0x80 {
                    return .root(at: index, declaration: declarationStart.map { $0..<index })
                } else {
                    index += 1
                }
            }
            return ended && declarationStart == nil ? .noRoot : .needMore
        }

        private static func starts(_ bytes: [UInt8], _ text: String, at index: Int) -> Bool {
            let pattern = Array(text.utf8)
            return index + pattern.count <= bytes.count && bytes[index..<(index + pattern.count)].elementsEqual(pattern)
        }

        private static func find(_ bytes: [UInt8], _ text: String, from: Int) -> Int? {
            let pattern = Array(text.utf8)
            guard bytes.count >= pattern.count, from <= bytes.count - pattern.count else { return nil }
            for index in from...(bytes.count - pattern.count) where bytes[index] == pattern[0] && starts(bytes, text, at: index) {
                return index
            }
            return nil
        }

        /// The root element's name, when the prologue in `bytes` reaches it.
        static func rootName(_ bytes: [UInt8]) -> String? {
            guard case .root(let start, _) = scan(bytes, ended: true) else { return nil }
            var end = start + 1
            while end < bytes.count, ![0x20, 0x09, 0x0A, 0x0D, 0x3E, 0x2F].contains(bytes[end]) { end += 1 }
            let name = String(decoding: bytes[(start + 1)..<end], as: UTF8.self)
            return name.split(separator: ":").last.map(String.init)
        }

        static func contains(_ bytes: ArraySlice<UInt8>, _ text: String) -> Bool {
            find(Array(bytes), text, from: 0) != nil
        }
    }

    /// Reads the whole document; returns the collector with every record added.
    func read() throws -> HealthExportCollector {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
            | XML_PARSE_COMPACT.rawValue)
        guard let reader = xmlReaderForIO({ context, buffer, length in
            guard let context, let buffer, length > 0 else { return -1 }
            let me = Unmanaged<HealthExportReader>.fromOpaque(context).takeUnretainedValue()
            do {
                return Int32(try me.input(UnsafeMutableRawBufferPointer(start: UnsafeMutableRawPointer(buffer), count: Int(length))))
            } catch {
                me.inputError = error
                return -1
            }
        }, nil, context, "export.xml", nil, options) else {
            throw ZipArchive.Refusal(reason: "libxml2 could not start reading")
        }
        defer { xmlFreeTextReader(reader) }
        xmlTextReaderSetStructuredErrorHandler(reader, { context, error in
            guard let context, let error else { return }
            let me = Unmanaged<HealthExportReader>.fromOpaque(context).takeUnretainedValue()
            if me.firstError == nil {
                let message = error.pointee.message.map { String(String(cString: $0).filter { $0 != "\n" }) } ?? "malformed"
                me.firstError = "line \(error.pointee.line): \(message.prefix(200))"
            }
        }, context)

        var sawRoot = false
        var open = Open.none
        while true {
            let status = xmlTextReaderRead(reader)
            if status == 0 { break }
            guard status == 1 else { throw failure() }
            let type = xmlTextReaderNodeType(reader)
            let depth = xmlTextReaderDepth(reader)
            if type == 1 {
                guard depth <= Self.maximumDepth else {
                    throw ZipArchive.Refusal(reason: "export.xml nests elements more than \(Self.maximumDepth) deep; an Apple Health export does not")
                }
                let empty = xmlTextReaderIsEmptyElement(reader) == 1
                if depth == 0 {
                    guard name(reader) == "HealthData" else {
                        throw ZipArchive.Refusal(reason: "not an Apple Health export: its root element is not HealthData")
                    }
                    if let doc = xmlTextReaderCurrentDoc(reader), let subset = doc.pointee.intSubset,
                       subset.pointee.entities != nil || subset.pointee.pentities != nil {
                        throw ZipArchive.Refusal(reason: "export.xml declares XML entities, which an Apple Health export never does")
                    }
                    sawRoot = true
                } else if depth == 1 {
                    open = try topLevel(reader, empty: empty)
                } else if depth == 2 {
                    try child(reader, of: &open)
                }
            } else if type == 5 {
                throw ZipArchive.Refusal(reason: "export.xml uses an XML entity reference, which an Apple Health export never does")
            } else if type == 15 && depth == 1 {
                try finish(&open)
            }
        }
        if let inputError { throw inputError }
        guard sawRoot else { throw ZipArchive.Refusal(reason: "not an Apple Health export: no HealthData element") }
        return collector
    }

    private func failure() -> Error {
        if let inputError { return inputError }
        return ZipArchive.Refusal(reason: "export.xml is not well-formed XML (\(firstError ?? "unreadable"))")
    }

    // MARK: Elements

    /// What a depth-1 element that has children is being read into.
    private enum Open {
        case none
        case bloodPressure(start: Int64, end: Int64, source: Int32, key: String, systolic: Double?, diastolic: Double?, children: Int)
        case workout(HealthExportCollector.Sample, hasEnergy: Bool)
    }

    private static let waterType = "HKQuantityTypeIdentifierDietaryWater"
    private static let energyType = "HKQuantityTypeIdentifierDietaryEnergyConsumed"
    private static let massType = "HKQuantityTypeIdentifierBodyMass"
    private static let glucoseType = "HKQuantityTypeIdentifierBloodGlucose"
    private static let systolicType = "HKQuantityTypeIdentifierBloodPressureSystolic"
    private static let diastolicType = "HKQuantityTypeIdentifierBloodPressureDiastolic"
    private static let sleepType = "HKCategoryTypeIdentifierSleepAnalysis"
    private static let pressureType = "HKCorrelationTypeIdentifierBloodPressure"
    static let workoutType = "HKWorkoutTypeIdentifier"
    /// How many children of a correlation its key names.
    static let keyedChildren = 8
    private static let restingHeartRateType = "HKQuantityTypeIdentifierRestingHeartRate"
    private static let keptRecordTypes: Set<String> = [waterType, energyType, massType, glucoseType, systolicType, diastolicType,
                                                       sleepType, restingHeartRateType]

    private func topLevel(_ reader: xmlTextReaderPtr, empty: Bool) throws -> Open {
        switch name(reader) {
        case "Record":
            try record(reader)
            return .none
        case "Correlation":
            let attributes = self.attributes(reader)
            let type = attributes["type"] ?? "Correlation"
            collector.count(type) { $0.records += 1 }
            guard type == Self.pressureType else {
                collector.count(type) {
                    $0.skipped += 1
                    $0.reason = "phr's health log does not keep this kind of reading"
                }
                return .none
            }
            guard case let (start, end)? = times(attributes), let sourceName = attributes["sourceName"] else {
                reject(type)
                return .none
            }
            let source = collector.source(name: sourceName, device: attributes["device"])
            let open = Open.bloodPressure(start: start, end: end, source: source,
                                          key: [type, sourceName, attributes["startDate"] ?? "", attributes["endDate"] ?? ""].joined(separator: "|"),
                                          systolic: nil, diastolic: nil, children: 0)
            if empty {
                var done = open
                try finish(&done)
                return .none
            }
            return open
        case "Workout":
            let attributes = self.attributes(reader)
            let type = Self.workoutType
            collector.count(type) { $0.records += 1 }
            guard case let (start, end)? = times(attributes), let sourceName = attributes["sourceName"] else {
                reject(type)
                return .none
            }
            var minutes = Double(end - start) / 60
            if let text = attributes["duration"], let duration = Double(text), duration.isFinite, duration > 0 {
                switch attributes["durationUnit"] ?? "min" {
                case "s": minutes = duration / 60
                case "hr", "h": minutes = duration * 60
                default: minutes = duration
                }
            }
            // Some apps ("Lose It!") write a workout whose end is its start, with its length in
            // `duration` only: it ends that long after its start. Without a duration it has no
            // length at all, which is no workout to log.
            var ends = end
            if end == start {
                guard minutes > 0, minutes <= 24 * 60 else {
                    collector.count(type) {
                        $0.skipped += 1
                        $0.reason = "a workout that ends when it starts and gives no duration"
                    }
                    return .none
                }
                ends = start + max(1, Int64((minutes * 60).rounded()))
                collector.count(type) {
                    $0.repaired += 1
                    $0.repairNote = "ended when they started; their end is taken from their duration"
                }
            }
            let activity = attributes["workoutActivityType"] ?? "HKWorkoutActivityTypeOther"
            var sample = HealthExportCollector.Sample(
                start: start, end: ends, value: minutes, diastolic: 0,
                source: collector.source(name: sourceName, device: attributes["device"]), unit: .minute,
                kind: Self.workoutKind(activity), note: nil,
                key: [type, sourceName, attributes["startDate"] ?? "", attributes["endDate"] ?? "", activity].joined(separator: "|"))
            var hasEnergy = false
            if let text = attributes["totalEnergyBurned"], let energy = Self.kilocalories(text, unit: attributes["totalEnergyBurnedUnit"] ?? "kcal"),
               energy > 0 {
                sample.note = "\(Int(energy.rounded())) kcal"
                hasEnergy = true
            }
            let open = Open.workout(sample, hasEnergy: hasEnergy)
            if empty {
                var done = open
                try finish(&done)
                return .none
            }
            return open
        case "ExportDate":
            exportDate = attributes(reader)["value"].map { String($0.prefix(40)) }
            return .none
        case "ActivitySummary":
            collector.count("ActivitySummary") {
                $0.records += 1
                $0.skipped += 1
                $0.reason = "activity rings (move, exercise and stand goals) are not kept in phr's health log"
            }
            return .none
        case "ClinicalRecord":
            let attributes = self.attributes(reader)
            let type = attributes["type"] ?? "ClinicalRecord"
            // Which FHIR release each Health Records file is in ("1.0.2": DSTU2, which US
            // portals served to the Health app for years), by the file's path.
            if let file = attributes["resourceFilePath"], let version = attributes["fhirVersion"], clinicalVersions.count < 1_000_000 {
                clinicalVersions[String(file.suffix(300))] = String(version.prefix(20))
            }
            collector.count(type) {
                $0.records += 1
                $0.skipped += 1
                $0.reason = inZip ? "a Health Records entry: its FHIR file in the zip's clinical-records folder is imported instead"
                    : "a Health Records entry: its FHIR file lies in the export's clinical-records folder, which the XML alone does not hold; import export.zip to keep it"
            }
            return .none
        case "Me":
            return .none
        case let other:
            collector.count(other) {
                $0.records += 1
                $0.skipped += 1
                $0.reason = "not kept in phr's health log"
            }
            return .none
        }
    }

    private func child(_ reader: xmlTextReaderPtr, of open: inout Open) throws {
        switch open {
        case .none:
            return
        case .bloodPressure(let start, let end, let source, let key, var systolic, var diastolic, let children):
            guard name(reader) == "Record" else { return }
            let attributes = self.attributes(reader)
            guard let value = attributes["value"].flatMap(Double.init), value.isFinite, value > 0 else { return }
            let unit = attributes["unit"] ?? "mmHg"
            let mmHg = unit == "mmHg" ? value : unit == "kPa" ? value * 7.500_615_75 : -1
            switch attributes["type"] {
            case Self.systolicType?: systolic = mmHg
            case Self.diastolicType?: diastolic = mmHg
            default: break
            }
            // The key names the first children (a reading has two); a correlation with thousands
            // of children grew it by one copy per child, quadratic (17 MB took 13 minutes).
            let named = children < Self.keyedChildren ? key + "|" + (attributes["type"] ?? "") + "=" + (attributes["value"] ?? "") : key
            open = .bloodPressure(start: start, end: end, source: source, key: named,
                                  systolic: systolic, diastolic: diastolic, children: children + 1)
        case .workout(var sample, let hasEnergy):
            guard !hasEnergy, name(reader) == "WorkoutStatistics" else { return }
            let attributes = self.attributes(reader)
            guard attributes["type"] == "HKQuantityTypeIdentifierActiveEnergyBurned", let text = attributes["sum"],
                  let energy = Self.kilocalories(text, unit: attributes["unit"] ?? "kcal"), energy > 0 else { return }
            sample.note = "\(Int(energy.rounded())) kcal"
            open = .workout(sample, hasEnergy: true)
        }
    }

    private func finish(_ open: inout Open) throws {
        defer { open = .none }
        switch open {
        case .none:
            return
        case .bloodPressure(let start, let end, let source, let key, let systolic, let diastolic, _):
            guard let systolic, let diastolic, systolic > 0, diastolic > 0 else {
                reject(Self.pressureType)
                return
            }
            try collector.add(.bp, type: Self.pressureType, HealthExportCollector.Sample(
                start: start, end: end, value: systolic, diastolic: diastolic, source: source, unit: .millimetreOfMercury,
                kind: nil, note: nil, key: key))
        case .workout(let sample, _):
            try collector.add(.workout, type: Self.workoutType, sample)
        }
    }

    /// A top-level Record: a quantity or a sleep stage phr keeps, or a type it counts and skips.
    private func record(_ reader: xmlTextReaderPtr) throws {
        // Most of a real export is heart rate, steps and energy, which phr skips: look at the
        // type alone before reading the other attributes.
        var type = "Record"
        if xmlTextReaderMoveToAttribute(reader, "type") == 1, let value = xmlTextReaderConstValue(reader) {
            type = String(String(cString: value).prefix(200))
        }
        _ = xmlTextReaderMoveToElement(reader)
        collector.count(type) { $0.records += 1 }
        guard Self.keptRecordTypes.contains(type) else {
            collector.count(type) {
                $0.skipped += 1
                $0.reason = "not kept in phr's health log"
            }
            return
        }
        let attributes = self.attributes(reader)
        let metric: LogMetric
        switch type {
        case Self.waterType: metric = .water
        case Self.energyType: metric = .meal
        case Self.massType: metric = .weight
        case Self.glucoseType: metric = .glucose
        case Self.sleepType:
            try sleepRecord(attributes)
            return
        case Self.systolicType, Self.diastolicType:
            collector.count(type) {
                $0.skipped += 1
                $0.reason = "the same readings as the blood pressure correlations, which are imported"
            }
            return
        case Self.restingHeartRateType:
            collector.count(type) {
                $0.skipped += 1
                $0.reason = "phr's health log has no place for heart rate at rest"
            }
            return
        default:
            collector.count(type) {
                $0.skipped += 1
                $0.reason = "not kept in phr's health log"
            }
            return
        }
        guard case let (start, end)? = times(attributes), let sourceName = attributes["sourceName"],
              let text = attributes["value"], let raw = Double(text), raw.isFinite, raw > 0,
              case let (value, unit)? = Self.convert(raw, unit: attributes["unit"] ?? "", metric: metric) else {
            reject(type)
            return
        }
        let key = [type, sourceName, attributes["startDate"] ?? "", attributes["endDate"] ?? "", text, attributes["unit"] ?? ""]
            .joined(separator: "|")
        try collector.add(metric, type: type, HealthExportCollector.Sample(
            start: start, end: end, value: value, diastolic: 0, source: collector.source(name: sourceName, device: attributes["device"]),
            unit: unit, kind: metric == .water ? "water" : nil, note: nil, key: key))
    }

    private func sleepRecord(_ attributes: [String: String]) throws {
        let stage: HealthExportCollector.SleepStage
        switch attributes["value"] ?? "" {
        case "HKCategoryValueSleepAnalysisInBed": stage = .inBed
        case "HKCategoryValueSleepAnalysisAwake": stage = .awake
        case "HKCategoryValueSleepAnalysisAsleep", "HKCategoryValueSleepAnalysisAsleepUnspecified", "HKCategoryValueSleepAnalysisAsleepCore",
             "HKCategoryValueSleepAnalysisAsleepDeep", "HKCategoryValueSleepAnalysisAsleepREM":
            stage = .asleep
        default:
            reject(Self.sleepType)
            return
        }
        guard case let (start, end)? = times(attributes), end > start, end - start <= 86_400, let sourceName = attributes["sourceName"] else {
            reject(Self.sleepType)
            return
        }
        try collector.addSleep(HealthExportCollector.SleepSample(
            start: start, end: end, stage: stage, source: collector.source(name: sourceName, device: attributes["device"])))
    }

    private func reject(_ type: String) {
        collector.count(type) { $0.rejected += 1 }
    }

    // MARK: Values

    /// A value in the metric's canonical unit, and the unit to show it in.
    static func convert(_ value: Double, unit: String, metric: LogMetric) -> (Double, HealthUnit)? {
        switch (metric, unit) {
        case (.water, "mL"), (.water, "ml"): return (value, .millilitre)
        case (.water, "L"): return (value * 1000, .litre)
        case (.water, "dL"): return (value * 100, .decilitre)
        case (.water, "cL"): return (value * 10, .centilitre)
        case (.water, "fl_oz_us"): return (value * HealthUnit.millilitresPerUSFluidOunce, .usFluidOunce)
        case (.water, "cup_us"): return (value * HealthUnit.millilitresPerUSCup, .usCup)
        // The imperial fluid ounce is 28.4130625 ml exactly (Weights and Measures Act 1985).
        case (.water, "fl_oz_imp"): return (value * 28.413_062_5, .millilitre)
        case (.meal, _): return kilocalories(value, unit: unit).map { ($0, unit == "kJ" ? HealthUnit.kilojoule : HealthUnit.kilocalorie) }
        case (.weight, "kg"): return (value, .kilogram)
        case (.weight, "lb"): return (value * HealthUnit.kilogramsPerPound, .pound)
        case (.weight, "g"): return (value / 1000, .kilogram)
        // One stone is 14 lb.
        case (.weight, "st"): return (value * 14 * HealthUnit.kilogramsPerPound, .kilogram)
        case (.glucose, "mg/dL"): return (value / HealthUnit.milligramsPerDecilitrePerMillimolePerLitre, .milligramPerDecilitre)
        case (.glucose, "mmol/L"): return (value, .millimolePerLitre)
        case (.glucose, let text) where text.hasPrefix("mmol<") && text.hasSuffix(">/L"):
            // Apple writes the molar mass into the unit: "mmol<180.15588000005408>/L".
            return (value, .millimolePerLitre)
        default: return nil
        }
    }

    static func kilocalories(_ text: String, unit: String) -> Double? {
        guard let value = Double(text), value.isFinite, value >= 0 else { return nil }
        return kilocalories(value, unit: unit)
    }

    static func kilocalories(_ value: Double, unit: String) -> Double? {
        switch unit {
        case "kcal", "Cal": return value
        case "kJ": return value / HealthUnit.kilojoulesPerKilocalorie
        case "cal": return value / 1000
        case "J": return value / 1000 / HealthUnit.kilojoulesPerKilocalorie
        default: return nil
        }
    }

    /// "HKWorkoutActivityTypeTraditionalStrengthTraining" as "traditional-strength-training".
    static func workoutKind(_ activity: String) -> String {
        let name = activity.hasPrefix("HKWorkoutActivityType") ? String(activity.dropFirst("HKWorkoutActivityType".count)) : activity
        var kind = ""
        for character in name.prefix(60) where character.isLetter || character.isNumber {
            if character.isUppercase && !kind.isEmpty { kind.append("-") }
            kind += character.lowercased()
        }
        return kind.isEmpty ? "other" : String(kind.prefix(40))
    }

    /// startDate and endDate as Unix seconds, the end not before the start.
    private func times(_ attributes: [String: String]) -> (Int64, Int64)? {
        guard let start = attributes["startDate"].flatMap(Self.seconds), let end = attributes["endDate"].flatMap(Self.seconds),
              end >= start else { return nil }
        return (start, end)
    }

    /// "2026-03-29 06:40:00 +0200" as Unix seconds; nil for anything else or a year outside 1900-2200.
    static func seconds(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 25, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x20, bytes[13] == 0x3A, bytes[16] == 0x3A,
              bytes[19] == 0x20, bytes[20] == 0x2B || bytes[20] == 0x2D,
              let offsetHours = digits(bytes, 21, 2), let offsetMinutes = digits(bytes, 23, 2), offsetHours < 24, offsetMinutes < 60 else { return nil }
        return unixSeconds(bytes, offset: (offsetHours * 3600 + offsetMinutes * 60) * (bytes[20] == 0x2D ? -1 : 1))
    }

    /// The decimal number `bytes[from..<from + count]` spells; nil unless all of it is digits.
    static func digits(_ bytes: [UInt8], _ from: Int, _ count: Int) -> Int? {
        var value = 0
        for byte in bytes[from..<(from + count)] {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    /// The date and time at the start of `bytes` ("YYYY-MM-DD?HH:MM:SS", the separators already
    /// checked by the caller) less `offset` seconds east of UTC, as Unix seconds; nil for a year
    /// outside 1900-2200 or a field out of range.
    static func unixSeconds(_ bytes: [UInt8], offset: Int) -> Int64? {
        guard let year = digits(bytes, 0, 4), let month = digits(bytes, 5, 2), let day = digits(bytes, 8, 2), let hour = digits(bytes, 11, 2),
              let minute = digits(bytes, 14, 2), let second = digits(bytes, 17, 2), (1900...2200).contains(year),
              let date = CalendarDate(year: year, month: month, day: day), hour < 24, minute < 60, second < 61 else { return nil }
        return Int64(date.dayNumber) * 86_400 + Int64(hour * 3600 + minute * 60 + second - offset)
    }

    // MARK: libxml2

    private func name(_ reader: xmlTextReaderPtr) -> String {
        xmlTextReaderConstLocalName(reader).map { String(cString: $0) } ?? ""
    }

    /// The current element's attributes (values already unescaped by libxml2), at most 64.
    private func attributes(_ reader: xmlTextReaderPtr) -> [String: String] {
        var result: [String: String] = [:]
        guard xmlTextReaderHasAttributes(reader) == 1 else { return result }
        var count = 0
        while xmlTextReaderMoveToNextAttribute(reader) == 1, count < 64 {
            count += 1
            guard let name = xmlTextReaderConstLocalName(reader), let value = xmlTextReaderConstValue(reader) else { continue }
            result[String(cString: name)] = String(String(cString: value).prefix(4096))
        }
        _ = xmlTextReaderMoveToElement(reader)
        return result
    }
}
