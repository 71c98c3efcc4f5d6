import Foundation
import SampleZip

// phr-health-export-sample: writes a synthetic Apple Health export as the Health app does
// (apple_health_export/export.xml with its internal DTD, and clinical-records/*.json, zipped),
// plus expected.json: what phr's health log must hold per day after importing it.
//
//   phr-health-export-sample --out DIR [--days N] [--start YYYY-MM-DD] [--zone Europe/Berlin] [--size-mb M]
//                            [--export-name NAME] [--quirks]
//
// Everything is made up and deterministic. The scenario (per day, in the zone's local time):
// - water: the iPhone logs 250 mL at 08:00, 11:00, 14:00 and 17:00; the Apple Watch logs the
//   08:00 and 14:00 glasses too (the same drinks, counted once); WaterMinder logs 12 fl oz at 20:00;
// - meals (dietary energy, MyFitnessPal): 450 kcal at 08:30, 2900 kJ at 12:30, 700 kcal at 19:00;
// - sleep ending that morning: the Watch records stages from 23:00 the evening before (core 120
//   min, deep 60, REM 60, awake 15, core 195: 435 min asleep, elapsed time, so the nights across
//   the DST changes are as long as the others); the iPhone records in-bed 22:45 to 06:50; AutoSleep
//   records "asleep" 23:10 to 06:20 (a lower-priority source: ignored);
// - workouts: every second day a 30.5 min run at 18:00 on the Watch (250 kcal), which Strava
//   also records every sixth day (a duplicate); every fourth day a 45 min walk at 12:00 on the
//   iPhone with its energy in WorkoutStatistics (1046 kJ);
// - weight (Withings, lb) at 07:00, blood pressure (Omron, a correlation, also listed as its two
//   halves) every third day at 08:00, glucose (OneTouch, mg/dL) at 07:30;
// - records phr skips: resting heart rate, steps and heart rate; activity summaries; and with
//   --size-mb, heart-rate samples every few seconds until the XML reaches that size.
// The dates are written with the offset in force at each instant, so DST changes show as in a
// real export.
//
// --export-name NAME names the XML as a phone set to another language does ("exportar.xml",
// "导出.xml"; with its "exportar_cda.xml" companion, a CDA document, in the zip). --quirks adds
// what real exports hold beside the clean scenario: the DTD of iOS 16, whose ATTLIST for
// HealthData lacks its closing ">"; "Lose It!" workouts that end when they start and give their
// length in `duration` only (every third day at 07:15, 20 min), and one with no duration at all
// (day 1, skipped); and the last three nights recorded by the iPhone alone (time in bed, no
// Watch stages, no AutoSleep), which expected.json counts as their time in bed (485 min).

struct Options {
    var out = "."
    var days = 30
    var start = "2026-03-15"
    var zone = "Europe/Berlin"
    var sizeMB = 0
    var exportName = "export.xml"
    var quirks = false
}

var options = Options()
var arguments = ToolArguments(usage: """
    usage: phr-health-export-sample --out DIR [--days N] [--start YYYY-MM-DD] [--zone Europe/Berlin] [--size-mb M]
                                    [--export-name NAME] [--quirks]
    Writes a synthetic Apple Health export (export.zip) and expected.json into DIR.
    """)
while let argument = arguments.next() {
    switch argument {
    case "--out": options.out = arguments.value(of: argument)
    case "--days": options.days = arguments.number(of: argument)
    case "--start": options.start = arguments.value(of: argument)
    case "--zone": options.zone = arguments.value(of: argument)
    case "--size-mb": options.sizeMB = arguments.number(of: argument)
    case "--export-name": options.exportName = arguments.value(of: argument)
    case "--quirks": options.quirks = true
    default: arguments.fail("unknown option \(argument)")
    }
}
if TimeZone(identifier: options.zone) == nil { arguments.fail("--zone: '\(options.zone)' is not a time zone") }
let startParts = options.start.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
if startParts.count != 3 || startParts.contains(nil) || !(1...12).contains(startParts[1]!) || !(1...31).contains(startParts[2]!) || startParts[0]! < 1 {
    arguments.fail("--start: '\(options.start)' is not a day (YYYY-MM-DD)")
}

struct Expected {
    var water = 0.0, meal = 0.0, sleep = 0.0, workout = 0.0
    var weight: Double?
    var bp: (Double, Double)?
    var glucose: Double?
}

// MARK: The export

let watch = "Jane’s Apple Watch"
let watchDevice = "&lt;&lt;HKDevice: 0x283a1c0f0&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.1&gt;"
let phone = "Jane’s iPhone"
let phoneDevice = "&lt;&lt;HKDevice: 0x283a1c2d0&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,5, software:17.1&gt;"


/// The scenario's clock and what it wrote: local times in the zone, Apple's date format, the
/// expected totals per day and the records per type.
final class Scenario {
    let options: Options
    let zone: TimeZone
    var calendar = Calendar(identifier: .gregorian)
    let firstDay: Date
    var expected: [String: Expected] = [:]
    var counts: [String: Int] = [:]

    init(_ options: Options) {
        self.options = options
        zone = TimeZone(identifier: options.zone)!
        calendar.timeZone = zone
        let parts = options.start.split(separator: "-").map { Int($0)! }
        firstDay = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))!
    }

    /// The instant of local `hour:minute` on day `index` (days after the first).
    func local(_ index: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        let day = calendar.date(byAdding: .day, value: index, to: firstDay)!
        var parts = calendar.dateComponents([.year, .month, .day], from: day)
        parts.hour = hour
        parts.minute = minute
        return calendar.date(from: parts)!
    }

    func dayName(_ index: Int) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: local(index, 12))
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    /// "2026-03-29 06:40:00 +0200", as Apple writes dates.
    func stamp(_ date: Date) -> String {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let offset = zone.secondsFromGMT(for: date)
        return String(format: "%04d-%02d-%02d %02d:%02d:%02d ", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!, parts.second!)
            + (offset < 0 ? "-" : "+") + String(format: "%02d%02d", abs(offset) / 3600, abs(offset) / 60 % 60)
    }

    func record(_ out: Output, type: String, source: String, device: String? = nil, unit: String?, value: String,
                start: Date, end: Date? = nil, metadata: [(String, String)] = []) {
        counts[type, default: 0] += 1
        var text = "  <Record type=\"\(type)\" sourceName=\"\(source)\" sourceVersion=\"17.1\""
        if let device { text += " device=\"\(device)\"" }
        if let unit { text += " unit=\"\(unit)\"" }
        text += " creationDate=\"\(stamp(end ?? start))\" startDate=\"\(stamp(start))\" endDate=\"\(stamp(end ?? start))\" value=\"\(value)\""
        if metadata.isEmpty {
            out.write(text + "/>\n")
        } else {
            out.write(text + ">\n" + metadata.map { "   <MetadataEntry key=\"\($0.0)\" value=\"\($0.1)\"/>\n" }.joined() + "  </Record>\n")
        }
    }

    func writeExport(_ out: Output) {
        out.write("""
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!-- Synthetic Apple Health export written by phr-health-export-sample. -->
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
        <!ATTLIST HealthData
          locale CDATA #REQUIRED
        \(options.quirks ? "" : ">")
        <!ELEMENT ExportDate EMPTY>
        <!ATTLIST ExportDate
          value CDATA #REQUIRED
        >
        <!ELEMENT Me EMPTY>
        <!ATTLIST Me
          HKCharacteristicTypeIdentifierDateOfBirth         CDATA #REQUIRED
          HKCharacteristicTypeIdentifierBiologicalSex       CDATA #REQUIRED
          HKCharacteristicTypeIdentifierBloodType           CDATA #REQUIRED
        >
        <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
        <!ATTLIST Record
          type          CDATA #REQUIRED
          unit          CDATA #IMPLIED
          value         CDATA #IMPLIED
          sourceName    CDATA #REQUIRED
          sourceVersion CDATA #IMPLIED
          device        CDATA #IMPLIED
          creationDate  CDATA #IMPLIED
          startDate     CDATA #REQUIRED
          endDate       CDATA #REQUIRED
        >
        <!ELEMENT MetadataEntry EMPTY>
        <!ATTLIST MetadataEntry
          key   CDATA #REQUIRED
          value CDATA #REQUIRED
        >
        <!ELEMENT Correlation ((MetadataEntry|Record)*)>
        <!ATTLIST Correlation
          type          CDATA #REQUIRED
          sourceName    CDATA #REQUIRED
          sourceVersion CDATA #IMPLIED
          device        CDATA #IMPLIED
          creationDate  CDATA #IMPLIED
          startDate     CDATA #REQUIRED
          endDate       CDATA #REQUIRED
        >
        <!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutStatistics|WorkoutRoute)*)>
        <!ATTLIST Workout
          workoutActivityType   CDATA #REQUIRED
          duration              CDATA #IMPLIED
          durationUnit          CDATA #IMPLIED
          totalDistance         CDATA #IMPLIED
          totalDistanceUnit     CDATA #IMPLIED
          totalEnergyBurned     CDATA #IMPLIED
          totalEnergyBurnedUnit CDATA #IMPLIED
          sourceName            CDATA #REQUIRED
          sourceVersion         CDATA #IMPLIED
          device                CDATA #IMPLIED
          creationDate          CDATA #IMPLIED
          startDate             CDATA #REQUIRED
          endDate               CDATA #REQUIRED
        >
        <!ELEMENT WorkoutEvent EMPTY>
        <!ATTLIST WorkoutEvent
          type         CDATA #REQUIRED
          date         CDATA #REQUIRED
          duration     CDATA #IMPLIED
          durationUnit CDATA #IMPLIED
        >
        <!ELEMENT WorkoutStatistics EMPTY>
        <!ATTLIST WorkoutStatistics
          type      CDATA #REQUIRED
          startDate CDATA #REQUIRED
          endDate   CDATA #REQUIRED
          sum       CDATA #IMPLIED
          unit      CDATA #IMPLIED
        >
        <!ELEMENT WorkoutRoute ((MetadataEntry|FileReference)*)>
        <!ATTLIST WorkoutRoute
          sourceName    CDATA #REQUIRED
          startDate     CDATA #REQUIRED
          endDate       CDATA #REQUIRED
        >
        <!ELEMENT FileReference EMPTY>
        <!ATTLIST FileReference
          path CDATA #REQUIRED
        >
        <!ELEMENT ActivitySummary EMPTY>
        <!ATTLIST ActivitySummary
          dateComponents           CDATA #IMPLIED
          activeEnergyBurned       CDATA #IMPLIED
          activeEnergyBurnedGoal   CDATA #IMPLIED
          activeEnergyBurnedUnit   CDATA #IMPLIED
          appleExerciseTime        CDATA #IMPLIED
          appleExerciseTimeGoal    CDATA #IMPLIED
          appleStandHours          CDATA #IMPLIED
          appleStandHoursGoal      CDATA #IMPLIED
        >
        <!ELEMENT ClinicalRecord EMPTY>
        <!ATTLIST ClinicalRecord
          type              CDATA #REQUIRED
          identifier        CDATA #REQUIRED
          sourceName        CDATA #REQUIRED
          sourceURL         CDATA #REQUIRED
          fhirVersion       CDATA #REQUIRED
          receivedDate      CDATA #REQUIRED
          resourceFilePath  CDATA #REQUIRED
        >
        ]>
        <HealthData locale="en_US">
         <ExportDate value="\(stamp(local(options.days, 9)))"/>
         <Me HKCharacteristicTypeIdentifierDateOfBirth="1984-05-02" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet"/>

        """)
        let days = 0..<options.days
        for d in days {
            for (hour, onWatch) in [(8, true), (11, false), (14, true), (17, false)] {
                record(out, type: "HKQuantityTypeIdentifierDietaryWater", source: phone, device: phoneDevice, unit: "mL", value: "250",
                       start: local(d, hour))
                if onWatch {
                    record(out, type: "HKQuantityTypeIdentifierDietaryWater", source: watch, device: watchDevice, unit: "mL", value: "250",
                           start: local(d, hour))
                }
            }
            record(out, type: "HKQuantityTypeIdentifierDietaryWater", source: "WaterMinder", unit: "fl_oz_us", value: "12", start: local(d, 20))
            expected[dayName(d), default: Expected()].water = 1000 + 12 * 29.5735295625
        }
        for d in days {
            record(out, type: "HKQuantityTypeIdentifierDietaryEnergyConsumed", source: "MyFitnessPal", unit: "kcal", value: "450",
                   start: local(d, 8, 30), metadata: [("meal", "Breakfast")])
            record(out, type: "HKQuantityTypeIdentifierDietaryEnergyConsumed", source: "MyFitnessPal", unit: "kJ", value: "2900",
                   start: local(d, 12, 30))
            record(out, type: "HKQuantityTypeIdentifierDietaryEnergyConsumed", source: "MyFitnessPal", unit: "kcal", value: "700",
                   start: local(d, 19))
            expected[dayName(d), default: Expected()].meal = 450 + 2900 / 4.184 + 700
        }
        for d in days {
            let pounds = 160.0 + Double(d % 5) * 0.2
            record(out, type: "HKQuantityTypeIdentifierBodyMass", source: "Withings", unit: "lb", value: String(format: "%.1f", pounds),
                   start: local(d, 7))
            expected[dayName(d), default: Expected()].weight = (pounds * 10).rounded() / 10 * 0.45359237
            let mgdl = 95 + d % 10
            record(out, type: "HKQuantityTypeIdentifierBloodGlucose", source: "OneTouch", unit: "mg/dL", value: "\(mgdl)", start: local(d, 7, 30),
                   metadata: [("HKBloodGlucoseMealTime", "1")])
            expected[dayName(d), default: Expected()].glucose = Double(mgdl) / 18.0156
            record(out, type: "HKQuantityTypeIdentifierRestingHeartRate", source: watch, device: watchDevice, unit: "count/min",
                   value: "\(58 + d % 4)", start: local(d, 6), end: local(d, 23))
            record(out, type: "HKQuantityTypeIdentifierStepCount", source: phone, device: phoneDevice, unit: "count", value: "\(4000 + d * 37 % 900)",
                   start: local(d, 9), end: local(d, 10))
        }
        // Blood pressure: the halves first, as Apple lists them, then the correlations.
        var readings: [(Int, Int, Int)] = []
        for d in days where d % 3 == 0 {
            readings.append((d, 120 + d % 7, 80 + d % 5))
        }
        for (d, systolic, diastolic) in readings {
            record(out, type: "HKQuantityTypeIdentifierBloodPressureSystolic", source: "Omron", unit: "mmHg", value: "\(systolic)", start: local(d, 8))
            record(out, type: "HKQuantityTypeIdentifierBloodPressureDiastolic", source: "Omron", unit: "mmHg", value: "\(diastolic)", start: local(d, 8))
        }
        for d in days {
            if options.quirks && d >= options.days - 3 {
                // The iPhone alone: time in bed, nothing else.
                record(out, type: "HKCategoryTypeIdentifierSleepAnalysis", source: phone, device: phoneDevice, unit: nil,
                       value: "HKCategoryValueSleepAnalysisInBed", start: local(d - 1, 22, 45), end: local(d, 6, 50))
                expected[dayName(d), default: Expected()].sleep = 485
                continue
            }
            // The night that ends on day d, from 23:00 the evening before, in elapsed time.
            let bedtime = local(d - 1, 23)
            var at = bedtime
            for (stage, minutes) in [("AsleepCore", 120), ("AsleepDeep", 60), ("AsleepREM", 60), ("Awake", 15), ("AsleepCore", 195)] {
                let end = at.addingTimeInterval(TimeInterval(minutes * 60))
                record(out, type: "HKCategoryTypeIdentifierSleepAnalysis", source: watch, device: watchDevice, unit: nil,
                       value: "HKCategoryValueSleepAnalysis\(stage)", start: at, end: end)
                at = end
            }
            record(out, type: "HKCategoryTypeIdentifierSleepAnalysis", source: phone, device: phoneDevice, unit: nil,
                   value: "HKCategoryValueSleepAnalysisInBed", start: local(d - 1, 22, 45), end: local(d, 6, 50))
            record(out, type: "HKCategoryTypeIdentifierSleepAnalysis", source: "AutoSleep", unit: nil,
                   value: "HKCategoryValueSleepAnalysisAsleep", start: local(d - 1, 23, 10), end: local(d, 6, 20))
            expected[dayName(d), default: Expected()].sleep = 435
        }
        if options.sizeMB > 0 {
            // Heart rate every few seconds across the days, until the file has the size asked for.
            let target = options.sizeMB << 20
            var index = 0
            let span = Double(max(options.days, 1)) * 86_400
            let step = 7.0
            while out.written < target - 4096 {
                let moment = local(0, 0).addingTimeInterval((Double(index) * step).truncatingRemainder(dividingBy: span))
                record(out, type: "HKQuantityTypeIdentifierHeartRate", source: watch, device: watchDevice, unit: "count/min",
                       value: "\(60 + index % 40)", start: moment, metadata: index % 5 == 0 ? [("HKMetadataKeyHeartRateMotionContext", "0")] : [])
                index += 1
            }
        }
        for (d, systolic, diastolic) in readings {
            counts["HKCorrelationTypeIdentifierBloodPressure", default: 0] += 1
            let at = stamp(local(d, 8))
            out.write("""
              <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Omron" sourceVersion="2.1" creationDate="\(at)" startDate="\(at)" endDate="\(at)">
               <Record type="HKQuantityTypeIdentifierBloodPressureDiastolic" sourceName="Omron" sourceVersion="2.1" unit="mmHg" creationDate="\(at)" startDate="\(at)" endDate="\(at)" value="\(diastolic)"/>
               <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Omron" sourceVersion="2.1" unit="mmHg" creationDate="\(at)" startDate="\(at)" endDate="\(at)" value="\(systolic)"/>
              </Correlation>

            """)
            expected[dayName(d), default: Expected()].bp = (Double(systolic), Double(diastolic))
        }
        for d in days {
            if d % 2 == 0 {
                counts["HKWorkoutTypeIdentifier", default: 0] += 1
                let start = local(d, 18)
                let end = start.addingTimeInterval(30.5 * 60)
                out.write("""
                  <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30.5" durationUnit="min" totalDistance="5.1" totalDistanceUnit="km" totalEnergyBurned="250" totalEnergyBurnedUnit="kcal" sourceName="\(watch)" sourceVersion="10.1" device="\(watchDevice)" creationDate="\(stamp(end))" startDate="\(stamp(start))" endDate="\(stamp(end))">
                   <MetadataEntry key="HKIndoorWorkout" value="0"/>
                   <WorkoutEvent type="HKWorkoutEventTypeSegment" date="\(stamp(start))" duration="15" durationUnit="min"/>
                   <WorkoutRoute sourceName="\(watch)" startDate="\(stamp(start))" endDate="\(stamp(end))">
                    <FileReference path="/workout-routes/route_\(dayName(d)).gpx"/>
                   </WorkoutRoute>
                  </Workout>

                """)
                expected[dayName(d), default: Expected()].workout += 30.5
                if d % 6 == 0 {
                    counts["HKWorkoutTypeIdentifier", default: 0] += 1
                    out.write("""
                      <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="31" durationUnit="min" sourceName="Strava" sourceVersion="300" creationDate="\(stamp(end))" startDate="\(stamp(start.addingTimeInterval(20)))" endDate="\(stamp(end.addingTimeInterval(30)))"/>

                    """)
                }
            }
            if d % 4 == 1 {
                counts["HKWorkoutTypeIdentifier", default: 0] += 1
                let start = local(d, 12)
                let end = start.addingTimeInterval(45 * 60)
                out.write("""
                  <Workout workoutActivityType="HKWorkoutActivityTypeWalking" duration="45" durationUnit="min" sourceName="\(phone)" sourceVersion="17.1" device="\(phoneDevice)" creationDate="\(stamp(end))" startDate="\(stamp(start))" endDate="\(stamp(end))">
                   <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="\(stamp(start))" endDate="\(stamp(end))" sum="1046" unit="kJ"/>
                  </Workout>

                """)
                expected[dayName(d), default: Expected()].workout += 45
            }
        }
        for d in days where options.quirks && (d % 3 == 0 || d == 1) {
            // Lose It!: the end is the start; the length is in `duration` (none on day 1).
            counts["HKWorkoutTypeIdentifier", default: 0] += 1
            let at = stamp(local(d, 7, 15))
            let duration = d == 1 ? "" : " duration=\"20\" durationUnit=\"min\""
            out.write("""
              <Workout workoutActivityType="HKWorkoutActivityTypeWalking"\(duration) sourceName="Lose It!" sourceVersion="16.1" creationDate="\(at)" startDate="\(at)" endDate="\(at)"/>

            """)
            if d != 1 { expected[dayName(d), default: Expected()].workout += 20 }
        }
        for d in days {
            counts["ActivitySummary", default: 0] += 1
            out.write(" <ActivitySummary dateComponents=\"\(dayName(d))\" activeEnergyBurned=\"410\" activeEnergyBurnedGoal=\"500\" activeEnergyBurnedUnit=\"kcal\" appleExerciseTime=\"31\" appleExerciseTimeGoal=\"30\" appleStandHours=\"10\" appleStandHoursGoal=\"12\"/>\n")
        }
        for (name, type, version) in clinicalFiles {
            counts[type, default: 0] += 1
            let server = version == "4.0.1" ? "https://fhir.example.org/r4" : "https://portal.example.org/api/FHIR/DSTU2"
            out.write(" <ClinicalRecord type=\"\(type)\" identifier=\"\(name)\" sourceName=\"Example Clinic\" sourceURL=\"\(server)\" fhirVersion=\"\(version)\" receivedDate=\"\(stamp(local(0, 9)))\" resourceFilePath=\"/clinical-records/\(name).json\"/>\n")
        }
        out.write("</HealthData>\n")
        out.flush()
    }
}

// MARK: Output

final class Output {
    var bytes = 0
    private var buffer: [UInt8] = []
    let sink: ([UInt8]) -> Void

    init(sink: @escaping ([UInt8]) -> Void) {
        self.sink = sink
    }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count > 1 << 20 { flush() }
    }

    func flush() {
        bytes += buffer.count
        sink(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    var written: Int { bytes + buffer.count }
}

/// Health Records: FHIR R4 resources, one file each; with --quirks also a DSTU2 one, as US
/// portals served them to the Health app for years (fhirVersion 1.0.2 in export.xml).
let clinicalFiles = [("AllergyIntolerance-synthetic-1", "HKClinicalTypeIdentifierAllergyRecord", "4.0.1"),
                     ("Observation-synthetic-2", "HKClinicalTypeIdentifierLabResultRecord", "4.0.1")]
    + (options.quirks ? [("AllergyIntolerance-dstu2-3", "HKClinicalTypeIdentifierAllergyRecord", "1.0.2")] : [])
let clinicalJSON = [
    "AllergyIntolerance-dstu2-3": """
    {"resourceType":"AllergyIntolerance","id":"dstu2-3","status":"active","criticality":"CRITH","category":"medication","substance":{"coding":[{"system":"http://www.nlm.nih.gov/research/umls/rxnorm","code":"161","display":"Acetaminophen"}],"text":"Acetaminophen"},"patient":{"reference":"Patient/example"},"recordedDate":"2019-02-11","reaction":[{"manifestation":[{"text":"Hives"}],"severity":"severe"}]}
    """,
    "AllergyIntolerance-synthetic-1": """
    {"resourceType":"AllergyIntolerance","id":"synthetic-1","clinicalStatus":{"coding":[{"system":"http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical","code":"active"}]},"code":{"coding":[{"system":"http://snomed.info/sct","code":"91936005","display":"Allergy to penicillin"}],"text":"Penicillin"},"patient":{"reference":"Patient/example"},"reaction":[{"manifestation":[{"text":"Hives"}],"severity":"moderate"}]}
    """,
    "Observation-synthetic-2": """
    {"resourceType":"Observation","id":"synthetic-2","status":"final","category":[{"coding":[{"system":"http://terminology.hl7.org/CodeSystem/observation-category","code":"laboratory"}]}],"code":{"coding":[{"system":"http://loinc.org","code":"4548-4","display":"Hemoglobin A1c"}],"text":"HbA1c"},"subject":{"reference":"Patient/example"},"effectiveDateTime":"2026-03-20T09:00:00+01:00","valueQuantity":{"value":5.4,"unit":"%","system":"http://unitsofmeasure.org","code":"%"}}
    """,
]

// MARK: Writing

func write(_ options: Options) throws {
    let scenario = Scenario(options)

    try FileManager.default.createDirectory(atPath: options.out, withIntermediateDirectories: true)
    let xmlPath = options.out + "/" + options.exportName
    _ = FileManager.default.createFile(atPath: xmlPath, contents: nil)
    let xmlHandle = FileHandle(forWritingAtPath: xmlPath)!
    let zip = ZipWriter(path: options.out + "/export.zip")
    // The XML is written once to export.xml and once into the zip, chunk by chunk.
    zip.member("apple_health_export/" + options.exportName) { sink in
        let out = Output { chunk in
            xmlHandle.write(Data(chunk))
            sink(chunk)
        }
        scenario.writeExport(out)
    }
    xmlHandle.closeFile()
    // The Health app writes the same records as a CDA document beside the export, named after it.
    let cdaName = options.exportName.hasSuffix(".xml") ? String(options.exportName.dropLast(4)) + "_cda.xml" : options.exportName + "_cda"
    zip.member("apple_health_export/" + cdaName) { sink in
        sink(Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <ClinicalDocument xmlns="urn:hl7-org:v3"><templateId root="2.16.840.1.113883.10.20.22.1.2"/><component><structuredBody/></component></ClinicalDocument>

        """.utf8))
    }
    for (name, _, _) in clinicalFiles {
        zip.member("apple_health_export/clinical-records/\(name).json") { sink in sink(Array(clinicalJSON[name]!.utf8)) }
    }
    zip.close()

    var days: [String: [String: Any]] = [:]
    for (day, totals) in scenario.expected {
        var entry: [String: Any] = ["water_ml": totals.water, "meal_kcal": totals.meal, "sleep_min": totals.sleep, "workout_min": totals.workout]
        if let weight = totals.weight { entry["weight_kg"] = weight }
        if let glucose = totals.glucose { entry["glucose_mmol_l"] = glucose }
        if case let (systolic, diastolic)? = totals.bp { entry["bp"] = [systolic, diastolic] }
        days[day] = entry
    }
    let summary: [String: Any] = ["days": days, "records": scenario.counts, "zone": options.zone]
    try JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys, .prettyPrinted]).write(to: URL(fileURLWithPath: options.out + "/expected.json"))
}

try write(options)
