import Foundation
import SampleZip
import Testing

/// `phr import export.zip` with exports written by the project's generator
/// (Tools/HealthExportGenerator): exact daily totals after the sources' duplicates are dropped,
/// across both DST changes; a second import adds nothing and a longer export only the new days;
/// skipped types are counted; a truncated zip, a malformed XML and an entity bomb are refused
/// with nothing imported.
@Suite struct AppleHealthImportCommandTests {
    static let env = ["PHR_PASSPHRASE": "correct horse battery staple", "TZ": "Europe/Berlin", "PHR_TEST_NOW": "2026-11-21T12:00:00Z"]
    static let generator = "\(CLI.binDirectory)/phr-health-export-sample"

    /// Runs the generator into `directory`; returns expected.json.
    static func generate(_ cli: CLI, into name: String, days: Int, start: String, options: [String] = []) throws -> [String: Any] {
        let out = "\(cli.directory)/\(name)"
        let result = try cli.run(["--out", out, "--days", String(days), "--start", start] + options, executable: generator)
        #expect(result.status == 0, "\(result.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(out)/expected.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The log's entries of `metric`, as `phr log list --json` gives them.
    static func entries(_ cli: CLI, _ metric: String) throws -> [[String: Any]] {
        let result = try cli.run(["log", "list", "--metric", metric, "--since", "2000-01-01", "--json"], env)
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    }

    /// Sum per day of value × factor.
    static func totals(_ entries: [[String: Any]]) -> [String: Double] {
        var sums: [String: Double] = [:]
        for entry in entries {
            sums[entry["day"] as! String, default: 0] += (entry["value"] as! Double) * ((entry["factor"] as? Double) ?? 1)
        }
        return sums
    }

    static func close(_ a: Double?, _ b: Double?) -> Bool {
        guard let a, let b else { return false }
        return abs(a - b) < 1e-6
    }

    /// Every type's records are accounted for once: added, updated, already there, summed into
    /// another entry, dropped as a duplicate, skipped or refused.
    static func expectCountsAddUp(_ report: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) {
        let types = report["types"] as? [[String: Any]] ?? []
        #expect(!types.isEmpty, sourceLocation: sourceLocation)
        for type in types {
            let parts = ["added", "updated", "already_there", "summed", "duplicates", "skipped", "rejected"].map { type[$0] as? Int ?? 0 }
            #expect(parts.reduce(0, +) == type["records"] as? Int, "\(type)", sourceLocation: sourceLocation)
        }
    }

    /// An export from a phone set to Spanish (the XML is "exportar.xml", beside "exportar_cda.xml"),
    /// with iOS 16's broken DTD, "Lose It!" workouts that end when they start, and three nights
    /// the iPhone alone recorded: every entry is kept, the repairs are said, and the counts add up.
    @Test func aLocalizedExportWithRealPhonesQuirksKeepsEveryEntry() throws {
        let cli = try CLI(label: "apple-health-quirks")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let expected = try Self.generate(cli, into: "es", days: 12, start: "2026-05-04", options: ["--export-name", "exportar.xml", "--quirks"])
        for path in ["\(cli.directory)/es/export.zip", "\(cli.directory)/es/exportar.xml"] {
            let dry = try cli.run(["import", "--dry-run", "--json", path], Self.env)
            #expect(dry.status == 0, "\(path): \(dry.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(dry.stdout.utf8)) as? [String: Any])
            Self.expectCountsAddUp(report)
        }
        let zip = "\(cli.directory)/es/export.zip"
        let imported = try cli.run(["import", zip], Self.env)
        #expect(imported.status == 0, "\(imported.stderr)")
        // 6 Watch runs, 2 Strava duplicates, 3 walks, 4 Lose It! workouts with a duration, 1 without.
        #expect(imported.stdout.contains("  Workout               16 records: 13 added, 2 duplicates of a higher-priority source, 1 skipped\n"),
                "\(imported.stdout)")
        #expect(imported.stdout.contains("  SleepAnalysis         66 records: 12 added, 45 summed into nights, 9 duplicates of a higher-priority source\n"),
                "\(imported.stdout)")
        #expect(imported.stdout.contains("1 record HKWorkoutTypeIdentifier: a workout that ends when it starts and gives no duration\n"), "\(imported.stdout)")
        #expect(imported.stdout.contains("kept with a repair 1:\n  4 records HKWorkoutTypeIdentifier: ended when they started; their end is taken from their duration\n"),
                "\(imported.stdout)")

        let days = try #require(expected["days"] as? [String: [String: Any]])
        let workouts = Self.totals(try Self.entries(cli, "workout"))
        let sleep = try Self.entries(cli, "sleep")
        let sleepTotals = Self.totals(sleep)
        for (day, totals) in days {
            #expect(Self.close(workouts[day] ?? 0, totals["workout_min"] as? Double), "workout on \(day): \(workouts[day] ?? 0)")
            #expect(Self.close(sleepTotals[day], totals["sleep_min"] as? Double), "sleep on \(day): \(sleepTotals[day] ?? 0)")
        }
        let loseIt = try Self.entries(cli, "workout").filter { ($0["note"] as? String)?.contains("Lose It!") == true }
        #expect(loseIt.count == 4 && loseIt.allSatisfy { $0["value"] as? Double == 20 }, "\(loseIt)")
        // The phone-only nights are time in bed, and say so.
        let inBed = sleep.filter { $0["kind"] as? String == "in bed" }
        #expect(inBed.map { $0["day"] as? String ?? "" }.sorted() == ["2026-05-13", "2026-05-14", "2026-05-15"], "\(inBed)")
        #expect(inBed.allSatisfy { ($0["note"] as? String)?.hasPrefix("no sleep stages were recorded this night; from Apple Health (Jane’s iPhone)") == true })
        #expect(sleep.count == 12)
        // The DSTU2 Health Records file (fhirVersion 1.0.2) is read: a high-criticality acetaminophen allergy.
        #expect(imported.stdout.contains("  allergies      2 added\n"), "\(imported.stdout)")
        #expect(imported.stdout.contains("note: Health Records: 1 file in FHIR DSTU2, read where phr maps DSTU2 to R4\n"), "\(imported.stdout)")
        let allergies = try cli.run(["allergy", "list", "--json"], Self.env)
        let acetaminophen = try #require((try JSONSerialization.jsonObject(with: Data(allergies.stdout.utf8)) as? [[String: Any]])?
            .first { $0["substance"] as? String == "Acetaminophen" }, "\(allergies.stdout)")
        #expect(acetaminophen["criticality"] as? String == "high" && acetaminophen["severity"] as? String == "severe", "\(acetaminophen)")

        // A second import of the bare XML (named in Spanish too) finds everything there.
        let again = try cli.run(["import", "--json", "\(cli.directory)/es/exportar.xml"], Self.env)
        #expect(again.status == 0, "\(again.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        #expect((report["added"] as? [String: Int] ?? [:]).isEmpty, "\(report)")
        // Alone, the XML has no Health Records files: the report says where they are, not that they were imported.
        let skipped = report["skipped"] as? [[String: Any]] ?? []
        #expect(skipped.contains { ($0["reason"] as? String)?.hasSuffix("which the XML alone does not hold; import export.zip to keep it") == true },
                "\(skipped)")
        Self.expectCountsAddUp(report)
    }

    /// Zip aliasing (issue 37, item 1): 600 names for one 4 MB Health Records member took phr to
    /// 9 GB. It is refused when the worker reads the directory, quickly and in little memory,
    /// and nothing is imported.
    @Test func aZipWhoseNamesShareOneMemberIsRefused() throws {
        let cli = try CLI(label: "apple-health-alias")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        let path = "\(cli.directory)/alias.zip"
        let writer = ZipWriter(path: path)
        writer.member("apple_health_export/export.xml", bytes: Array("<HealthData locale=\"en_US\"></HealthData>\n".utf8))
        // 3 MB of JSON that deflates a few times only: each name alone passes the 200x ratio check.
        var json = "{\"resourceType\":\"Observation\",\"note\":["
        var seed: UInt64 = 42
        while json.utf8.count < 3 << 20 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            json += "{\"text\":\"\(String(seed >> 20, radix: 36))\"},"
        }
        json += "{}]}"
        writer.member("apple_health_export/clinical-records/Observation-0.json", bytes: Array(json.utf8))
        for index in 1..<600 {
            writer.alias("apple_health_export/clinical-records/Observation-\(index).json", of: "apple_health_export/clinical-records/Observation-0.json")
        }
        writer.close()
        let before = cli.vaultFingerprint()
        let started = Date()
        let result = try cli.run(["import", path], Self.env)
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("phr: error: \(path): Apple Health export: a zip archive whose members 'apple_health_export/clinical-records/Observation-0.json' and "),
                "\(result.stderr)")
        #expect(result.stderr.contains("share their bytes, which no archiver writes (a zip bomb?)"), "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(cli.vaultFingerprint() == before)
    }

    /// Issue 37, item 4: a blood-pressure correlation with many child records cost time
    /// quadratic in its children (17 MB: 13 minutes). Four times the children, about four times
    /// the time; the reading is the correlation's systolic and diastolic.
    @Test func aCorrelationWithManyChildrenIsReadInLinearTime() throws {
        let cli = try CLI(label: "apple-health-children")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        func run(_ children: Int) throws -> Double {
            let at = "2026-03-01 08:00:00 +0100"
            var xml = "<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n"
            xml += " <Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\" sourceName=\"Omron\" startDate=\"\(at)\" endDate=\"\(at)\">\n"
            let child = "  <Record type=\"HKQuantityTypeIdentifierBloodPressureDiastolic\" sourceName=\"Omron\" unit=\"mmHg\" startDate=\"\(at)\" endDate=\"\(at)\" value=\"80\"/>\n"
            xml += String(repeating: child, count: children)
            xml += "  <Record type=\"HKQuantityTypeIdentifierBloodPressureSystolic\" sourceName=\"Omron\" unit=\"mmHg\" startDate=\"\(at)\" endDate=\"\(at)\" value=\"120\"/>\n"
            xml += " </Correlation>\n</HealthData>\n"
            let path = "\(cli.directory)/children-\(children).xml"
            try xml.write(toFile: path, atomically: true, encoding: .utf8)
            let started = Date()
            let result = try cli.run(["import", "--dry-run", path], Self.env)
            let seconds = Date().timeIntervalSince(started)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("  BloodPressure         1 record: 1 added\n"), "\(result.stdout)")
            return seconds
        }
        _ = try run(100)
        let small = try run(20_000)
        let large = try run(80_000)
        #expect(large / small < 8, "20,000 children: \(small) s; 80,000: \(large) s")
    }

    @Test func importsExactDailyTotalsAcrossDSTAndIsIdempotent() throws {
        let cli = try CLI(label: "apple-health")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        // 2026-03-15 to 2026-04-13 covers the spring change (29 March); the longer export runs on
        // past the autumn one (25 October).
        let expected = try Self.generate(cli, into: "march", days: 30, start: "2026-03-15")
        let zip = "\(cli.directory)/march/export.zip"
        // Every record of every type is accounted for once (issue 26): the report adds up.
        let dry = try cli.run(["import", "--dry-run", "--json", zip], Self.env)
        Self.expectCountsAddUp(try #require(try JSONSerialization.jsonObject(with: Data(dry.stdout.utf8)) as? [String: Any]))
        let first = try cli.run(["import", zip], Self.env)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("imported \(zip) (Apple Health export) into profile me\n"), "\(first.stdout)")
        #expect(first.stdout.contains("  DietaryWater          210 records: 150 added, 60 duplicates of a higher-priority source\n"), "\(first.stdout)")
        #expect(first.stdout.contains("  SleepAnalysis         210 records: 30 added, 150 summed into nights, 30 duplicates of a higher-priority source\n"),
                "\(first.stdout)")
        #expect(first.stdout.contains("  Workout               28 records: 23 added, 5 duplicates of a higher-priority source\n"), "\(first.stdout)")
        #expect(first.stdout.contains("30 records HKQuantityTypeIdentifierRestingHeartRate: phr's health log has no place for heart rate at rest\n"),
                "\(first.stdout)")
        #expect(first.stdout.contains("30 records HKQuantityTypeIdentifierStepCount: not kept in phr's health log\n"), "\(first.stdout)")
        #expect(first.stdout.contains("allergies"), "the Health Records allergy goes in through the FHIR importer: \(first.stdout)")

        let days = try #require(expected["days"] as? [String: [String: Any]])
        #expect(days.count == 30)
        let water = Self.totals(try Self.entries(cli, "water"))
        let meals = Self.totals(try Self.entries(cli, "meal"))
        let sleep = Self.totals(try Self.entries(cli, "sleep"))
        let workouts = Self.totals(try Self.entries(cli, "workout"))
        let weights = Dictionary(uniqueKeysWithValues: try Self.entries(cli, "weight").map { ($0["day"] as! String, $0["value"] as! Double) })
        let glucose = Dictionary(uniqueKeysWithValues: try Self.entries(cli, "glucose").map { ($0["day"] as! String, $0["value"] as! Double) })
        let pressures = try Self.entries(cli, "bp")
        for (day, totals) in days {
            #expect(Self.close(water[day], totals["water_ml"] as? Double), "water on \(day): \(water[day] ?? 0)")
            #expect(Self.close(meals[day], totals["meal_kcal"] as? Double), "meals on \(day): \(meals[day] ?? 0)")
            #expect(Self.close(sleep[day], totals["sleep_min"] as? Double), "sleep on \(day): \(sleep[day] ?? 0)")
            let workout = totals["workout_min"] as! Double
            #expect(workout == 0 ? workouts[day] == nil : Self.close(workouts[day], workout), "workouts on \(day)")
            #expect(Self.close(weights[day], totals["weight_kg"] as? Double), "weight on \(day)")
            #expect(Self.close(glucose[day], totals["glucose_mmol_l"] as? Double), "glucose on \(day)")
            if let bp = totals["bp"] as? [Double] {
                #expect(pressures.contains { $0["day"] as? String == day && $0["value"] as? Double == bp[0] && $0["diastolic"] as? Double == bp[1] },
                        "blood pressure on \(day)")
            }
        }
        #expect(pressures.count == 10)
        // The night into the spring change is as long asleep as any other, and keeps its time in bed apart.
        let night = try #require(try Self.entries(cli, "sleep").first { $0["day"] as? String == "2026-03-29" })
        #expect(night["value"] as? Double == 435)
        #expect((night["note"] as? String)?.hasPrefix("in bed 7 h 5 min; from Apple Health (Jane’s Apple Watch)") == true, "\(night)")

        // The same export again: nothing new.
        let again = try cli.run(["import", zip, "--json"], Self.env)
        #expect(again.status == 0, "\(again.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        #expect((report["added"] as? [String: Int])?["log_entries"] == nil, "\(again.stdout)")
        #expect((report["unchanged"] as? [String: Int])?["log_entries"] == 150 + 90 + 30 + 23 + 30 + 10 + 30)

        // A later export (the export.xml alone this time) with seven months more: only the new days.
        let later = try Self.generate(cli, into: "november", days: 240, start: "2026-03-15")
        let more = try cli.run(["import", "\(cli.directory)/november/export.xml", "--json"], Self.env)
        #expect(more.status == 0, "\(more.stderr)")
        let moreReport = try #require(try JSONSerialization.jsonObject(with: Data(more.stdout.utf8)) as? [String: Any])
        #expect((moreReport["unchanged"] as? [String: Int])?["log_entries"] == 363)
        let laterDays = try #require(later["days"] as? [String: [String: Any]])
        let allWater = Self.totals(try Self.entries(cli, "water"))
        #expect(allWater.count == 240)
        for day in ["2026-10-24", "2026-10-25", "2026-10-26"] {
            #expect(Self.close(allWater[day], laterDays[day]?["water_ml"] as? Double), "water on \(day)")
            #expect(Self.close(Self.totals(try Self.entries(cli, "sleep"))[day], 435), "sleep on \(day)")
        }
    }

    @Test func brokenExportsAreRefusedWithNothingImported() throws {
        let cli = try CLI(label: "apple-health-broken")
        defer { cli.cleanUp() }
        _ = try cli.initVault()
        _ = try Self.generate(cli, into: "export", days: 5, start: "2026-03-27")
        let zipData = try Data(contentsOf: URL(fileURLWithPath: "\(cli.directory)/export/export.zip"))
        let xml = try String(contentsOfFile: "\(cli.directory)/export/export.xml", encoding: .utf8)
        let before = cli.vaultFingerprint()

        let truncated = "\(cli.directory)/truncated.zip"
        try zipData.prefix(zipData.count * 2 / 3).write(to: URL(fileURLWithPath: truncated))
        let cut = try cli.run(["import", truncated], Self.env)
        #expect(cut.status == 65)
        #expect(cut.stderr == """
            phr: error: \(truncated): Apple Health export: not a complete zip archive: its end (the central directory) is missing; the file may be truncated
            phr: hint: nothing was imported; export again from the Health app (profile picture, Export All Health Data) and import the new export.zip

            """, "\(cut.stderr)")

        // A zip whose directory is intact but whose export.xml data is cut short in the middle.
        var damaged = zipData
        let middle = damaged.count / 2
        damaged.replaceSubrange(middle..<(middle + 64), with: Data(repeating: 0xA5, count: 64))
        let damagedPath = "\(cli.directory)/damaged.zip"
        try damaged.write(to: URL(fileURLWithPath: damagedPath))
        let bad = try cli.run(["import", damagedPath], Self.env)
        #expect(bad.status == 65 && bad.stderr.hasPrefix("phr: error: \(damagedPath): Apple Health export: "), "\(bad.stderr)")

        // A zip whose directory claims export.xml inflates to 4 GB from a few kilobytes: refused
        // before inflating anything (a zip bomb).
        var bombZip = zipData
        let entry = try #require(bombZip.range(of: Data([0x50, 0x4B, 0x01, 0x02])))
        bombZip.replaceSubrange((entry.lowerBound + 24)..<(entry.lowerBound + 28), with: Data([0xF0, 0xFF, 0xFF, 0xFF]))
        let bombPath = "\(cli.directory)/bomb.zip"
        try bombZip.write(to: URL(fileURLWithPath: bombPath))
        let inflated = try cli.run(["import", bombPath], Self.env)
        #expect(inflated.status == 65)
        #expect(inflated.stderr.hasPrefix(
            "phr: error: \(bombPath): Apple Health export: 'apple_health_export/export.xml' in the zip would inflate more than 200 times (a zip bomb?)\n"),
            "\(inflated.stderr)")

        // Malformed XML: the records before the fault are not imported either.
        let malformed = "\(cli.directory)/malformed.xml"
        let cutAt = xml.range(of: "<Correlation")!.lowerBound
        try (String(xml[..<cutAt]) + "<Record type=\"HKQuantityTypeIdentifierDietaryWater\" value=\"1\"\n</HealthData>\n")
            .write(toFile: malformed, atomically: true, encoding: .utf8)
        let broken = try cli.run(["import", malformed], Self.env)
        #expect(broken.status == 65)
        #expect(broken.stderr.hasPrefix("phr: error: \(malformed): Apple Health export: export.xml is not well-formed XML (line "), "\(broken.stderr)")

        // Entities: Apple never declares any; a "billion laughs" is refused before it expands.
        let bomb = "\(cli.directory)/bomb.xml"
        var laughs = "<?xml version=\"1.0\"?>\n<!DOCTYPE HealthData [\n<!ENTITY lol0 \"lol\">\n"
        for level in 1...9 { laughs += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">\n" }
        laughs += "]>\n<HealthData locale=\"en_US\"><Record type=\"&lol9;\" sourceName=\"x\" startDate=\"\" endDate=\"\"/></HealthData>\n"
        try laughs.write(toFile: bomb, atomically: true, encoding: .utf8)
        let exploded = try cli.run(["import", bomb], Self.env)
        #expect(exploded.status == 65)
        // phr reads the declaration before libxml2 sees a byte of it, and refuses it there.
        #expect(exploded.stderr.hasPrefix("phr: error: \(bomb): Apple Health export: export.xml declares XML entities, which an Apple Health export never does\n"),
                "\(exploded.stderr)")
        // A harmless entity is refused too, by phr, before any element after the root is read.
        let declared = "\(cli.directory)/entity.xml"
        try "<?xml version=\"1.0\"?>\n<!DOCTYPE HealthData [\n<!ENTITY ml \"mL\">\n]>\n<HealthData locale=\"en_US\"><Record type=\"HKQuantityTypeIdentifierDietaryWater\" unit=\"&ml;\" sourceName=\"x\" startDate=\"2026-03-01 08:00:00 +0100\" endDate=\"2026-03-01 08:00:00 +0100\" value=\"250\"/></HealthData>\n"
            .write(toFile: declared, atomically: true, encoding: .utf8)
        let entity = try cli.run(["import", declared], Self.env)
        #expect(entity.status == 65)
        #expect(entity.stderr.hasPrefix("phr: error: \(declared): Apple Health export: export.xml declares XML entities, which an Apple Health export never does\n"),
                "\(entity.stderr)")

        #expect(cli.vaultFingerprint() == before)
        #expect(try Self.entries(cli, "water").isEmpty)
    }
}
