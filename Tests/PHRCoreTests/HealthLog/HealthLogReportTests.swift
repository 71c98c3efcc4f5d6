import Foundation
import Testing
@testable import PHRCore

/// `phr report`: the PDF holds the figures the statistics give (read back with pdftotext), its
/// charts are drawn (rendered with pdftoppm and checked for bars where the data has them), and
/// it is written as an export must be.
@Suite struct HealthLogReportTests {
    typealias F = RecordFixtures
    static let now = "2026-03-31T20:00:00+02:00"

    /// 30 days of varied entries up to 2026-03-31, days without some metrics, a medication with
    /// doses and an appointment ahead.
    static func populate(_ f: HealthLogFixture) throws {
        let start = CalendarDate("2026-03-02")!
        let medications = MedicationStore(vault: f.vault, profile: f.profile, time: F.time("2026-03-01T07:00:00Z", "Europe/Berlin"))
        var input = MedicationStore.Input()
        input.name = "Metformin"
        input.dose = "500 mg"
        input.times = "08:00"
        let metformin = try medications.add(input)
        for offset in 0..<30 {
            let day = start.adding(days: offset)
            let offsetText = day < CalendarDate("2026-03-29")! ? "+01:00" : "+02:00"
            func at(_ clock: String) -> String { "\(day)T\(clock):00\(offsetText)" }
            if offset % 7 != 4 {
                try f.log(.water, "\(1200 + (offset * 170) % 1400)ml", at: at("10:00"))
                try f.log(.water, "250ml", at: at("15:00")) { $0.drink = "tea" }
            }
            try f.log(.sleep, "\(360 + (offset * 37) % 180)min", at: at("07:30"))
            if offset % 2 == 0 { try f.log(.workout, "\(30 + offset % 5 * 10)min", at: at("18:30")) { $0.type = offset % 4 == 0 ? "run" : "swim" } }
            if offset != 19 { try f.log(.meal, "\(1900 + (offset * 90) % 900)kcal", at: at("19:30")) { $0.meal = "dinner" } }
            if offset % 3 == 0 { try f.log(.weight, "\(HealthFormat.number(82 - Double(offset) * 0.1, decimals: 1))kg", at: at("06:30")) }
            if offset % 7 == 0 { try f.log(.bp, "\(120 + offset % 6)/\(78 + offset % 3)", at: at("06:35")) { $0.pulse = "64" } }
            if offset % 5 != 3 {
                _ = try DoseLog(vault: f.vault, profile: f.profile, time: F.time(at("08:05"), "Europe/Berlin")).take(metformin.id)
            }
        }
        var appointment = AppointmentStore.Input()
        appointment.with = "Dr. Lee"
        appointment.at = "2026-04-10 09:30"
        appointment.location = "Praxis Mitte"
        appointment.reason = "check-up"
        try AppointmentStore(vault: f.vault, profile: f.profile, time: F.time(now, "Europe/Berlin")).add(appointment)
        var id = MedicalIDStore.Input()
        id.name = "Alex Example"
        id.dateOfBirth = "1984-07-22"
        id.height = "178cm"
        try MedicalIDStore(vault: f.vault, profile: f.profile, time: F.time(now, "Europe/Berlin")).set(id)
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> Data {
        let (status, stdout) = try Subprocess.output(executable, arguments)
        #expect(status == 0, "\(executable) \(arguments)")
        return stdout
    }

    /// Text with every run of whitespace made one space, so wrapped lines compare as one.
    static func flattened(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test func theReportHoldsTheStatisticsAndItsChartsAreDrawn() throws {
        let f = try HealthLogFixture("report")
        defer { f.cleanUp() }
        try Self.populate(f)
        let time = F.time(Self.now, "Europe/Berlin")
        let report = try HealthReport.build(vault: f.vault, profile: f.profile, time: time, days: 30)
        #expect(report.period.from == CalendarDate("2026-03-02") && report.period.to == CalendarDate("2026-03-31"))
        #expect(report.habits.map(\.metric) == [.water, .sleep, .workout, .meal])
        #expect(report.measurements.map(\.metric) == [.weight, .bp])
        #expect(report.adherence.map(\.adherence.taken) == [24] && report.adherence.first?.adherence.scheduled == 30)
        #expect(report.appointments.map(\.with) == ["Dr. Lee"])
        let path = "\(f.directory)/report.pdf"
        let result = try HealthReportWriter.write(report, to: path, time: time, paper: .a4, force: false, generator: "phr test")
        #expect(result.pages >= 3)
        #expect((try FileManager.default.attributesOfItem(atPath: path))[.posixPermissions] as? Int == 0o600)
        #expect(FileManager.default.subpaths(atPath: f.directory)?.filter { $0.hasPrefix(".report.pdf") }.isEmpty == true)
        #expect(throws: ShareError.exists(path: path)) {
            try HealthReportWriter.write(report, to: path, time: time, paper: .a4, force: false, generator: "phr test")
        }

        // Every figure of the statistics, as `phr stats` prints it, is in the PDF's text.
        let text = Self.flattened(String(decoding: try Self.run("/usr/bin/pdftotext", [path, "-"]), as: UTF8.self))
        let format = HealthFormat(report.settings)
        for stats in report.habits {
            for line in HealthStatsText.habit(stats, format) {
                #expect(text.contains(Self.flattened("\(line.label): \(line.value)")), "\(stats.metric.rawValue) \(line.label)")
            }
        }
        for stats in report.measurements {
            for line in HealthStatsText.measurement(stats, format) {
                #expect(text.contains(Self.flattened("\(line.label): \(line.value)")), "\(stats.metric.rawValue) \(line.label)")
            }
        }
        #expect(text.contains("Metformin 500 mg daily at 08:00") && text.contains("24 of 30 0 6 0 80%"))
        #expect(text.contains("2026-04-10 09:30 Dr. Lee Praxis Mitte check-up"))

        // The charts: at 72 dpi a pixel is a point. Each habit chart has a bar (a run of bar
        // colour along its bottom) for every day with entries, and its dashed goal line.
        #expect(result.charts.map(\.metric) == [.water, .sleep, .workout, .meal, .weight, .bp])
        for chart in result.charts {
            let page = try PNMImage(data: [UInt8](Self.run("/usr/bin/pdftoppm", ["-r", "72", "-f", "\(chart.page)", "-l", "\(chart.page)", path])))
            let rect = (x: Int(chart.x), y: Int(chart.y), width: Int(chart.width), height: Int(chart.height))
            if chart.metric.isHabit {
                let stats = report.habits.first { $0.metric == chart.metric }!
                let withEntries = stats.days.filter { $0.entries > 0 }.count
                #expect(chart.values.count == 30 && chart.values.filter { $0 > 0 }.count == withEntries)
                // Rows the dashed goal line crosses cut bars into pieces; they are left out.
                let rows = (rect.y..<rect.y + rect.height).filter { y in page.runs(y: y, from: rect.x, to: rect.x + rect.width, of: PNMImage.isGoalRed) == 0 }
                let bars = rows.map { y in page.runs(y: y, from: rect.x, to: rect.x + rect.width, of: PNMImage.isBar) }.max() ?? 0
                #expect(bars == withEntries, "\(chart.metric.rawValue): \(bars) bars drawn, \(withEntries) days with entries")
                #expect(page.count(in: rect, of: PNMImage.isGoalRed) > 40, "\(chart.metric.rawValue): no goal line")
            } else {
                #expect(page.count(in: rect, of: PNMImage.isAccent) > 30, "\(chart.metric.rawValue): no trend line")
            }
        }
    }

    @Test func aYearReportGroupsBarsByWeek() throws {
        let f = try HealthLogFixture("report-year")
        defer { f.cleanUp() }
        try f.log(.water, "2l", at: "2026-01-05T12:00:00+01:00")
        let time = F.time(Self.now, "Europe/Berlin")
        let report = try HealthReport.build(vault: f.vault, profile: f.profile, time: time, days: 365)
        let path = "\(f.directory)/year.pdf"
        let result = try HealthReportWriter.write(report, to: path, time: time, paper: .letter, force: false, generator: "phr test")
        // 365 days make 52 weeks and one day.
        #expect(result.charts.first { $0.metric == .water }?.values.count == 53)
        let weeks = try #require(result.charts.first { $0.metric == .water }).values.filter { $0 > 0 }
        #expect(weeks.count == 1 && abs(weeks[0] - 2.0 / 7) < 1e-12)
        #expect(result.paper == "letter")
        #expect(report.measurements.isEmpty && report.adherence.isEmpty && report.bmi == nil)
    }
}

/// The health report's chart colours (PNMImage is in ShareTestSupport).
extension PNMImage {
    /// The bar colours, the accent (goal met) and its pale tint (not met), exactly: a bar's
    /// inside is flat colour, while its anti-aliased edges blend towards white and must not
    /// count as bars of their own.
    static func isBar(_ p: (Int, Int, Int)) -> Bool { near(p, 0x1F4E79, 6) || near(p, 0x9DB4CC, 6) }
    static func isAccent(_ p: (Int, Int, Int)) -> Bool { near(p, 0x1F4E79, 40) }
    static func isGoalRed(_ p: (Int, Int, Int)) -> Bool { near(p, 0xB3261E, 60) }
}
