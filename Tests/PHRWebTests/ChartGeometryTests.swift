import Foundation
import PHRCore
import PHRModel
import Testing
@testable import PHRWeb

/// The web UI's charts pinned by their geometry: the value scale and its ticks, points placed by
/// date, the reference band clipped where it would flatten the results, bars a day or a month
/// with the goal and average lines at their values.
@Suite struct ChartGeometryTests {
    static func day(_ text: String) -> CalendarDate { CalendarDate(text)! }

    static func result(_ name: String, _ value: Double?, _ unit: String?, on date: String, range: ReferenceRange? = nil,
                       text: String? = nil, flag: LabFlag? = nil) -> Observation {
        let analyte = AnalyteCatalog.lookup(name, unit: unit)
        return Observation(id: "r" + date, uid: "u" + date, name: name, category: "laboratory", status: .final, effective: date,
                           valueNumber: value, valueUnit: unit, valueText: text, valueCodes: nil, components: [], notes: nil, codes: [], source: nil,
                           lab: LabDetails(analyte: analyte?.key, unitUCUM: unit.flatMap(LabUnits.ucum), range: range, flag: flag, origin: .typed, reviewed: true),
                           createdAt: "2026-01-01T00:00:00Z", updatedAt: "2026-01-01T00:00:00Z")
    }

    @Test func axisTicksAreRoundAndCoverTheValues() {
        let scale = AxisScale(covering: 8, 25, ticks: 5)
        #expect(scale.ticks == [5, 10, 15, 20, 25])
        #expect(scale.label(10) == "10")
        let fine = AxisScale(covering: 5.2, 6.0, ticks: 5)
        #expect(fine.step == 0.2)
        #expect(fine.ticks.map(fine.label) == ["5.2", "5.4", "5.6", "5.8", "6.0"])
        let quarter = AxisScale(covering: 0, 0.9, ticks: 5)
        #expect(quarter.step == 0.25)
        #expect(quarter.ticks.map(quarter.label) == ["0.00", "0.25", "0.50", "0.75", "1.00"])
        // Never 46.43 or 42.06: every tick is a whole number of steps.
        for (low, high) in [(0.0, 3.7), (41.9, 46.5), (120, 1840), (0.012, 0.047)] {
            let axis = AxisScale(covering: low, high)
            #expect(axis.low <= low && axis.high >= high)
            #expect(axis.high - axis.step < high + 1e-9, "no more than one step beyond")
            for tick in axis.ticks { #expect(abs((tick / axis.step).rounded() - tick / axis.step) < 1e-6) }
            #expect([1.0, 2, 2.5, 5].contains(axis.step / pow(10, log10(axis.step).rounded(.down))))
        }
        #expect(scale.position(5, top: 0, bottom: 100) == 100)
        #expect(scale.position(25, top: 0, bottom: 100) == 0)
        #expect(scale.position(15, top: 0, bottom: 100) == 50)
    }

    @Test func labPointsArePlacedByDateAndTheWideBandIsClipped() throws {
        let range = ReferenceRange(low: 30, high: 400, text: "30-400")
        let trend = LabTrend(results: [
            Self.result("Ferritin", 12, "ng/mL", on: "2025-03-18", range: range),
            Self.result("Ferritin", 25, "ng/mL", on: "2025-07-02", range: range),
            Self.result("Ferritin", 48, "ng/mL", on: "2026-01-10", range: range),
        ], units: .metric, asPrinted: true)
        let chart = try #require(LabChart(trend))
        #expect(chart.unit == "ng/mL")
        // Scaled to the results (8-48), not to the band's 400: the three points spread over the plot.
        #expect(chart.scale.high < 100 && chart.scale.high >= 48)
        let ys = chart.marks.map(\.y)
        #expect(ys[0] - ys[2] > (LabChart.bottom - LabChart.top) * 0.5)
        // x by date: 106 days then 192 days apart.
        let first = chart.marks[0].x, second = chart.marks[1].x, third = chart.marks[2].x
        #expect(abs((second - first) / (third - second) - 106.0 / 192.0) < 0.01)
        // Each point at its value.
        for mark in chart.marks {
            #expect(abs(mark.y - chart.scale.position(mark.value, top: LabChart.top, bottom: LabChart.bottom)) < 1e-9)
        }
        #expect(chart.marks.map(\.shape) == [.low, .low, .inRange])
        #expect(chart.marks.map(\.label) == ["12", "25", "48"])
        let band = try #require(chart.band)
        #expect(band.continuesUp && !band.continuesDown)
        #expect(band.top == LabChart.top)
        #expect(abs(band.bottom - chart.scale.position(30, top: LabChart.top, bottom: LabChart.bottom)) < 1e-9)
        // Month ticks, the year said on the first and where it changes, at most six.
        let labels = chart.dateTicks.map(\.label)
        #expect(labels.count <= 6 && labels.count >= 3)
        #expect(labels.first?.hasSuffix("2025") == true)
        #expect(labels.contains { $0.hasSuffix("2026") })
        #expect(zip(chart.dateTicks, chart.dateTicks.dropFirst()).allSatisfy { $0.x < $1.x })
        let svg = chart.svg(title: "Ferritin").text
        #expect(svg.contains("goes on above"))
        #expect(svg.contains("data-day=\"2025-07-02\" data-value=\"25\""))
    }

    @Test func aNarrowBandIsDrawnWhole() throws {
        let range = ReferenceRange(low: 3.9, high: 5.5, text: "3.9-5.5")
        let trend = LabTrend(results: [
            Self.result("Glucose", 5.2, "mmol/L", on: "2026-01-05", range: range),
            Self.result("Glucose", 6.1, "mmol/L", on: "2026-01-20", range: range),
        ], units: .metric, asPrinted: true)
        let chart = try #require(LabChart(trend))
        let band = try #require(chart.band)
        #expect(!band.continuesUp && !band.continuesDown)
        #expect(chart.scale.low <= 3.9 && chart.scale.high >= 6.1)
        let position = { (value: Double) in chart.scale.position(value, top: LabChart.top, bottom: LabChart.bottom) }
        #expect(abs(band.top - position(5.5)) < 1e-9 && abs(band.bottom - position(3.9)) < 1e-9)
        #expect(chart.marks.map(\.shape) == [.inRange, .high])
        // Dates two weeks apart: a tick each Monday, the year on the first.
        #expect(chart.dateTicks.map(\.label) == ["5 Jan 2026", "12 Jan", "19 Jan"])
        // A few days: the results' own days.
        let days = LabChart.dateTicks(from: Self.day("2026-01-04").dayNumber, to: Self.day("2026-01-09").dayNumber,
                                      results: [Self.day("2026-01-05"), Self.day("2026-01-08")])
        #expect(days.map(\.label) == ["5 Jan 2026", "8 Jan"])
    }

    @Test func oneResultStandsInTheMiddleAndALimitIsAMarkAtItsBound() throws {
        let single = try #require(LabChart(LabTrend(results: [Self.result("TSH", 2.1, "mIU/L", on: "2026-02-01")], units: .metric)))
        #expect(abs(single.marks[0].x - (LabChart.left + LabChart.right) / 2) < 1e-9)
        let limited = try #require(LabChart(LabTrend(results: [
            Self.result("C-reactive protein", nil, "mg/L", on: "2026-02-01", range: ReferenceRange(low: nil, high: 5, text: "<5"), text: "<0.5"),
            Self.result("C-reactive protein", 7.5, "mg/L", on: "2026-03-01", range: ReferenceRange(low: nil, high: 5, text: "<5")),
        ], units: .metric, asPrinted: true)))
        #expect(limited.unit == "mg/L")
        #expect(limited.marks.map(\.shape) == [.beyond, .high])
        #expect(limited.marks[0].label == "<0.5", "\(limited.marks[0])")
        #expect(limited.marks[0].value == 0.5)
        #expect(limited.marks[0].words == "below the lab's limit")
        // A text result with no number is not drawn at all.
        #expect(LabChart(LabTrend(results: [Self.result("Urine protein", nil, nil, on: "2026-02-01", text: "Negative")], units: .metric)) == nil)
    }

    static func waterStats(days: Int, period: StatsPeriod, today: CalendarDate) -> HabitStats {
        var logged: [HabitSeries.Day] = []
        for offset in 0..<days {
            let day = today.plus(-offset)
            // 1.5 L a day, 2.5 L every seventh day.
            let total = offset % 7 == 3 ? 2500.0 : 1500.0
            logged.append(HabitSeries.Day(day: day, total: total, entries: 1))
        }
        return HabitStats.compute(HabitSeries(metric: .water, days: logged), goals: GoalBook([]), period: period, today: today)
    }

    @Test func aMonthIsThirtyBarsWithTheGoalAndAverageAtTheirValues() throws {
        let today = Self.day("2026-11-29")
        let stats = Self.waterStats(days: 60, period: .month(endingOn: today), today: today)
        let chart = HabitChart(stats, units: .metric, today: today)
        #expect(chart.bars.count == 30)
        #expect(chart.units.unit == "L")
        #expect(!chart.monthly)
        let position = { (value: Double) in chart.scale.position(value, top: HabitChart.top, bottom: HabitChart.bottom) }
        for bar in chart.bars { #expect(abs(bar.y - position(bar.value)) < 1e-9) }
        #expect(chart.bars.last?.value == 1.5 && chart.bars.last?.title.contains("29 November 2026") == true)
        // Evenly spaced, left to right by day.
        let gaps = zip(chart.bars, chart.bars.dropFirst()).map { $1.x - $0.x }
        #expect(gaps.allSatisfy { abs($0 - gaps[0]) < 1e-9 })
        // The default goal is 2 L a day: the 2.5 L days meet it, and only they.
        #expect(chart.goal == 2)
        #expect(abs(try #require(chart.goalY) - position(2)) < 1e-9)
        #expect(chart.bars.filter(\.met).allSatisfy { $0.value == 2.5 })
        #expect(chart.bars.filter(\.met).count == chart.bars.filter { $0.value == 2.5 }.count)
        let average = try #require(chart.average)
        #expect(abs(average - (stats.dailyAverage ?? 0) / 1000) < 1e-9)
        #expect(abs(try #require(chart.averageY) - position(average)) < 1e-9)
        let svg = chart.svg(title: "Water").text
        #expect(svg.components(separatedBy: "<g class=\"bar").count - 1 == 30)
        #expect(svg.contains("goal 2 L"))
    }

    @Test func aYearIsABarAMonthOfTheDailyAverage() throws {
        let today = Self.day("2026-11-29")
        let period = StatsPeriod(kind: .year, days: today.dayNumber - Self.day("2025-12-01").dayNumber + 1, endingOn: today)
        let stats = Self.waterStats(days: 45, period: period, today: today)
        let chart = HabitChart(stats, units: .metric, today: today)
        #expect(chart.monthly)
        #expect(chart.bars.count == 12)
        #expect(chart.bars.first?.label == "Dec" && chart.bars.last?.label == "Nov")
        // November: 29 days logged, of which 4 at 2.5 L (the 26th, 19th, 12th, 5th).
        let november = try #require(chart.bars.last)
        #expect(abs(november.value - (25 * 1.5 + 4 * 2.5) / 29) < 1e-9)
        #expect(!november.met)
        #expect(chart.bars.prefix(10).allSatisfy { !$0.logged && $0.value == 0 })
        // The week's chart in US units says fl oz.
        let week = HabitChart(Self.waterStats(days: 7, period: .week(endingOn: today), today: today), units: .us, today: today)
        #expect(week.bars.count == 7 && week.units.unit == "fl oz")
        #expect(abs(week.bars[0].value - 1500 / 29.5735295625) < 0.01)
    }

    @Test func equalResultsAndABandBeyondThemStillMakeAReadableChart() throws {
        let zeros = try #require(LabChart(LabTrend(results: [
            Self.result("Ketones", 0, "mmol/L", on: "2026-01-05"), Self.result("Ketones", 0, "mmol/L", on: "2026-02-05"),
        ], units: .metric, asPrinted: true)))
        #expect(zeros.scale.low == 0 && zeros.scale.high > 0)
        #expect(Set(zeros.scale.ticks.map(zeros.scale.label)).count == zeros.scale.ticks.count, "distinct tick labels")
        let range = ReferenceRange(low: 30, high: 400, text: "30-400")
        let far = try #require(LabChart(LabTrend(results: [
            Self.result("Ferritin", 2, "ng/mL", on: "2026-01-05", range: range), Self.result("Ferritin", 3, "ng/mL", on: "2026-02-05", range: range),
        ], units: .metric, asPrinted: true)))
        #expect(far.band == nil)
        #expect(far.bandOutside == "reference 30–400 ng/mL (above the chart)")
        #expect(far.svg(title: "Ferritin").text.contains("(above the chart)"))
        #expect(AxisScale(covering: -.infinity, .nan).ticks.count >= 2)
    }

    @Test func aWeeklyGoalIsDrawnAsItsDailyShare() throws {
        let today = Self.day("2026-11-29")
        // One 60-minute workout a week against a goal of 150 minutes a week.
        let goals = GoalBook([Goal(metric: .workout, value: 150, period: .week, since: Self.day("2025-01-01"), setAt: "2025-01-01T00:00:00Z")])
        var logged: [HabitSeries.Day] = []
        for week in 0..<8 { logged.append(HabitSeries.Day(day: today.plus(-7 * week - 2), total: 60, entries: 1)) }
        let series = HabitSeries(metric: .workout, days: logged)
        let stats = HabitStats.compute(series, goals: goals, period: .month(endingOn: today), today: today)
        #expect(stats.goal.period == .week)
        let chart = HabitChart(stats, units: .metric, today: today)
        #expect(chart.weekly)
        #expect(abs(chart.goal - stats.goal.value / 7 / 60) < 1e-9, "the goal line is a day's share, in hours")
        // The average is over every day of the month, as the share is: well under the goal.
        let average = try #require(chart.average)
        #expect(abs(average - 60.0 * Double(logged.filter { stats.period.contains($0.day) }.count) / 30 / 60) < 1e-9)
        #expect(average < chart.goal)
        let year = HabitChart(HabitStats.compute(series, goals: goals, period: .year(endingOn: today), today: today), units: .metric, today: today)
        #expect(year.bars.allSatisfy { !$0.met }, "a workout a month does not meet a weekly goal")
    }

    @Test func bloodPressureIsTwoSeriesByDateWithTheirAverages() throws {
        let today = Self.day("2026-11-29")
        let readings: [(Int, Double, Double)] = [(1, 125, 82), (3, 124, 81), (10, 118, 77), (26, 112, 74)]
        let days = readings.map { offset, systolic, diastolic in
            MeasurementSeries.Day(day: today.plus(-offset), readings: 1, mean: systolic, min: systolic, max: systolic,
                                  diastolicMean: diastolic, diastolicMin: diastolic, diastolicMax: diastolic, pulseMean: nil)
        }
        let stats = MeasurementStats.compute(MeasurementSeries(metric: .bp, days: days, latest: nil), period: .month(endingOn: today))
        let chart = try #require(MeasurementChart(stats, unit: "mmHg", convert: { $0 }))
        #expect(chart.series.count == 2 && chart.series.allSatisfy { $0.count == 4 })
        // Oldest first, placed by date over the month: 26 days ago is 3 days into it.
        let span = MeasurementChart.right - MeasurementChart.left
        let first = try #require(chart.series[0].first)
        #expect(first.day == today.plus(-26) && abs(first.x - (MeasurementChart.left + span * 3 / 29)) < 1e-9)
        for (points, values) in zip(chart.series, [readings.map(\.1).reversed(), readings.map(\.2).reversed()]) {
            #expect(points.map(\.value) == Array(values))
            for point in points { #expect(abs(point.y - chart.scale.position(point.value, top: MeasurementChart.top, bottom: MeasurementChart.bottom)) < 1e-9) }
        }
        #expect(chart.scale.low <= 74 && chart.scale.high >= 125)
        #expect(chart.average == 119.75 && chart.lowerAverage == 78.5)
        let svg = chart.svg(title: "Blood pressure", names: ["systolic", "diastolic"]).text
        #expect(svg.components(separatedBy: "<g class=\"mark").count - 1 == 8 && svg.contains("diastolic 74 mmHg"))
        // No reading in the period: no chart.
        #expect(MeasurementChart(MeasurementStats.compute(MeasurementSeries(metric: .weight, days: [], latest: nil), period: .week(endingOn: today)),
                                 unit: "kg", convert: { $0 }) == nil)
    }
}

