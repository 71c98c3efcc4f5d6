import Foundation
import PHRModel
import PHRTypesetting

/// Lays out a health report in the share bundle's style (BundleStyle): a title block, the
/// period at a glance, a section per habit (its figures, as `phr stats` prints them, and a bar
/// chart with the goal line), per measurement (figures and a trend line), medication
/// adherence, upcoming appointments, and how the figures were made.
///
/// `PaginatedRenderer` calls `compose` twice; it depends only on the report, so both passes
/// lay out the same pages. Chart placements are recorded afresh on each pass.
final class HealthReportComposer {
    let report: HealthReport
    let time: TimeContext
    let format: HealthFormat
    private(set) var charts: [ReportChartPlacement] = []

    init(report: HealthReport, time: TimeContext) {
        self.report = report
        self.time = time
        format = HealthFormat(report.settings)
    }

    var periodText: String {
        "\(report.period.title), \(report.period.from) to \(report.period.to)"
    }

    var decoration: HealthReportPages {
        HealthReportPages(title: "Health report · \(report.patientName)", detail: periodText, patient: report.patientName,
                          generatedOn: time.today().description)
    }

    func compose(_ flow: DocumentFlow) throws {
        charts = []
        drawTitle(flow)
        drawGlance(flow)
        for stats in report.habits { drawHabit(flow, stats) }
        for stats in report.measurements { drawMeasurement(flow, stats) }
        for section in report.labs { drawLab(flow, section) }
        drawAdherence(flow)
        drawAppointments(flow)
        drawNotes(flow)
    }

    // MARK: Title and overview

    private func drawTitle(_ flow: DocumentFlow) {
        let canvas = flow.canvas
        flow.bookmark("Health report")
        canvas.drawText(.plain(displayCapitals("Health report")), x: flow.left, y: flow.y, style: TextStyle(size: 8.5, bold: true, color: BundleStyle.accent))
        flow.y += 18
        let name = canvas.drawText(.plain(report.patientName), x: flow.left, y: flow.y, width: flow.width, style: TextStyle(size: 22, bold: true))
        flow.y += name.height + 2
        var facts: [String] = []
        if let born = report.dateOfBirth { facts.append("Born \(born)") }
        facts.append(periodText)
        let about = canvas.drawText(.plain(facts.joined(separator: " · ")), x: flow.left, y: flow.y, width: flow.width,
                                    style: TextStyle(size: 11, color: .muted))
        flow.y += about.height + 14
        var fields = [
            Field("Period", "\(report.period.from) to \(report.period.to) (\(report.period.days) \(report.period.days == 1 ? "day" : "days"))", emphasized: true),
            Field("Generated", moment(time.now)),
            Field("Profile in phr", report.profile),
            Field("Time zone", report.timeZone),
        ]
        if let bmi = report.bmi {
            fields.append(Field("BMI", "\(HealthFormat.number(bmi.bmi, decimals: 1))" + (bmi.category.map { " (\($0.name.lowercased()))" } ?? "")
                                + ", \(format.amount(bmi.weightKg, .weight)) \(bmi.weightFrom)"))
        }
        flow.fields(fields, columns: 2, boxed: true, style: BundleStyle.body.sized(9.4), after: 16)
    }

    private func drawGlance(_ flow: DocumentFlow) {
        heading(flow, "At a glance", note: "goal met: days with entries that met the day's goal")
        let rows: [Table.Row] = report.habits.map { stats in
            let metric = stats.metric
            return .values([
                .strong(metric.title), Table.Cell(format.amount(stats.total, metric)),
                Table.Cell(stats.dailyAverage.map { format.amount($0, metric) } ?? BundleStyle.missing),
                Table.Cell(HealthStatsText.goal(stats.goal.value, metric, stats.goal.period, format) + (stats.goal.isDefault ? " (default)" : "")),
                Table.Cell(HealthStatsText.tally(stats.goalMet)),
                Table.Cell("\(stats.streak.current) now, best \(stats.streak.longest)"),
                Table.Cell(stats.change.map { "\(stats.trend!.rawValue) \(HealthFormat.percentChange($0))" } ?? BundleStyle.missing),
            ])
        }
        flow.table(Table(columns: [
            Table.Column("Habit", weight: 1.2), Table.Column("Total", weight: 1.1, alignment: .right),
            Table.Column("Daily average", weight: 1.1, alignment: .right), Table.Column("Goal", weight: 1.7),
            Table.Column("Goal met", weight: 1), Table.Column("Streak", weight: 1.1), Table.Column("Trend", weight: 1),
        ], rows: rows, fontSize: 8.6, style: BundleStyle.table), after: 8)
        guard !report.measurements.isEmpty else { return flow.space(6) }
        let measurements: [Table.Row] = report.measurements.map { stats in
            .values([
                .strong(stats.metric.title), Table.Cell(HealthStatsText.latest(stats, format)),
                Table.Cell(HealthStatsText.value(stats.metric, format, stats.average, stats.diastolicAverage) ?? BundleStyle.missing),
                Table.Cell(HealthStatsText.range(stats, format) ?? BundleStyle.missing),
                Table.Cell(HealthStatsText.trend(stats, format) ?? BundleStyle.missing),
            ])
        }
        flow.table(Table(columns: [
            Table.Column("Measurement", weight: 1.2), Table.Column("Latest", weight: 1.6), Table.Column("Average", weight: 1.1),
            Table.Column("Range", weight: 1.8), Table.Column("Trend", weight: 1.5),
        ], rows: measurements, fontSize: 8.6, style: BundleStyle.table), after: 14)
    }

    // MARK: Habits and measurements

    private func drawHabit(_ flow: DocumentFlow, _ stats: HabitStats) {
        let chart = HealthReportCharts.habitChart(stats, format: format)
        let chartHeight = 150.0
        heading(flow, stats.metric.title, note: stats.period.days > HealthReportCharts.dailyBarsUpTo ? "bars: daily average per week" : "bars: each day",
                keep: chartHeight + 60)
        lines(flow, HealthStatsText.habit(stats, format))
        flow.ensureSpace(chartHeight)
        charts.append(ReportChartPlacement(metric: stats.metric, page: flow.pageNumber, x: flow.left, y: flow.y, width: flow.width,
                                           height: chartHeight, values: chart.bars.map(\.value)))
        flow.canvas.drawBarChart(chart, in: Rect(x: flow.left, y: flow.y, width: flow.width, height: chartHeight))
        flow.y += chartHeight + 4
        flow.paragraph(.plain("Dark bars met the goal; the dashed line is the goal."), style: BundleStyle.small, after: 6)
        let reached = stats.achievements.filter { $0.achievedOn != nil }
        if !reached.isEmpty {
            let text = reached.map { "\($0.title) (\($0.achievedOn!))" }.joined(separator: " · ")
            flow.paragraph(.markup("<b>Achievements</b>: \(escapeMarkup(text))"), style: BundleStyle.body.sized(8.6), after: 12)
        } else {
            flow.space(8)
        }
    }

    private func drawMeasurement(_ flow: DocumentFlow, _ stats: MeasurementStats) {
        let chartHeight = 120.0
        heading(flow, stats.metric.title, note: "\(stats.readings) \(stats.readings == 1 ? "reading" : "readings")", keep: chartHeight + 50)
        lines(flow, HealthStatsText.measurement(stats, format))
        flow.ensureSpace(chartHeight)
        let (_, scale, _) = HealthReportCharts.displayUnit(stats.metric, format)
        charts.append(ReportChartPlacement(metric: stats.metric, page: flow.pageNumber, x: flow.left, y: flow.y, width: flow.width,
                                           height: chartHeight, values: stats.days.map { stats.metric == .bp ? $0.mean : $0.mean / scale }))
        HealthReportCharts.drawMeasurementChart(stats, format: format, on: flow.canvas,
                                                in: Rect(x: flow.left, y: flow.y, width: flow.width, height: chartHeight))
        flow.y += chartHeight + 14
    }

    /// A lab analyte asked for with --analyte: its results as a table (those outside the report's
    /// period in grey) and, with two or more numbers, the trend chart with the reference band.
    private func drawLab(_ flow: DocumentFlow, _ section: HealthReport.LabSection) {
        let chartHeight = section.chart == nil ? 0.0 : 110.0
        let count = section.rows.count + section.earlier
        var note = "\(count) \(count == 1 ? "result" : "results")"
        if section.earlier > 0 { note += ", the latest \(section.rows.count)" }
        if let loinc = section.loinc { note += " · LOINC \(loinc)" }
        heading(flow, "Lab: \(section.name)" + (section.unit.map { " (\($0))" } ?? ""), note: note, keep: chartHeight + 70)
        if let chart = section.chart {
            flow.ensureSpace(chartHeight)
            // At most `HealthReport.maximumLabResults` (24) points: each gets its value.
            ResultTrendChart(trend: chart, valueLabels: true).draw(on: flow.canvas, x: flow.left, y: flow.y, width: flow.width, height: chartHeight)
            flow.y += chartHeight + 4
            // The band reaching beyond the axis (ResultTrendChart fits the axis to the results) says so.
            let scale = AxisScale.fitting(chart.points.map(\.value), bandLow: chart.low, bandHigh: chart.high, ticks: 5)
            let beyond = [chart.high.flatMap { high in scale.map { high > $0.high } } == true ? "above" : nil,
                          chart.low.flatMap { low in scale.map { low < $0.low } } == true ? "below" : nil].compactMap { $0 }
            let band = chart.low != nil || chart.high != nil
                ? "the shaded band is the reference range\(beyond.isEmpty ? "" : " (it goes on \(beyond.joined(separator: " and ")) the chart)"); " : ""
            flow.paragraph(.plain("Oldest on the left; \(band)red dots are outside it."), style: BundleStyle.small, after: 6)
        }
        let rows: [Table.Row] = section.rows.reversed().map { row in
            let abnormal = row.flag?.isAbnormal == true
            let tone: Table.Cell.Tone = abnormal ? .alert : row.inPeriod ? .strong : .normal
            return .values([
                Table.Cell(row.date ?? BundleStyle.missing), Table.Cell(row.value + (abnormal ? " (\(row.flag!.rawValue))" : ""), tone: tone),
                Table.Cell(row.range.flatMap { $0.isEmpty ? nil : $0 } ?? BundleStyle.missing), Table.Cell(row.source),
            ])
        }
        flow.table(Table(columns: [
            Table.Column("Date", weight: 1), Table.Column("Result", weight: 1.6), Table.Column("Reference range", weight: 1.4),
            Table.Column("Source", weight: 1.2),
        ], rows: rows, fontSize: 8.6, style: BundleStyle.table), after: 14)
    }

    // MARK: Medications and appointments

    private func drawAdherence(_ flow: DocumentFlow) {
        heading(flow, "Medication adherence", note: "from the dose log, last \(report.period.days) days")
        guard !report.adherence.isEmpty else {
            return flow.paragraph(.plain("No scheduled medications in this period."), style: BundleStyle.body.italicized.colored(.muted), after: 10)
        }
        let rows: [Table.Row] = report.adherence.map { item in
            let a = item.adherence
            let percent = a.percent.map { "\($0)%" } ?? BundleStyle.missing
            return .values([
                .strong(item.name), Table.Cell(item.schedule), Table.Cell("\(a.taken) of \(a.scheduled)"), Table.Cell("\(a.skipped)"),
                a.missed > 0 ? .alert("\(a.missed)") : Table.Cell("0"), Table.Cell("\(a.unscheduled)"),
                (a.percent ?? 100) < 80 ? .alert(percent) : .strong(percent),
            ])
        }
        flow.table(Table(columns: [
            Table.Column("Medication", weight: 2.2), Table.Column("Schedule", weight: 1.6), Table.Column("Taken", weight: 0.9, alignment: .right),
            Table.Column("Skipped", weight: 0.8, alignment: .right), Table.Column("Missed", weight: 0.8, alignment: .right),
            Table.Column("Extra", weight: 0.7, alignment: .right), Table.Column("Adherence", weight: 0.9, alignment: .right),
        ], rows: rows, fontSize: 8.6, style: BundleStyle.table), after: 4)
        flow.paragraph(.plain("Adherence is doses taken out of doses scheduled since the medication was added to phr; a dose neither taken nor skipped by the end of its window counts as missed."),
                       style: BundleStyle.small, after: 12)
    }

    private func drawAppointments(_ flow: DocumentFlow) {
        heading(flow, "Upcoming appointments", note: report.appointments.isEmpty ? nil : "\(report.appointments.count) next")
        guard !report.appointments.isEmpty else {
            return flow.paragraph(.plain("No upcoming appointments recorded."), style: BundleStyle.body.italicized.colored(.muted), after: 10)
        }
        let rows: [Table.Row] = report.appointments.map { appointment in
            let when = appointment.allDay ? "\(appointment.start.date) (all day)" : appointment.start.display
                + (appointment.timeZone == time.zone.identifier ? "" : " \(appointment.timeZone)")
            let remark = [appointment.reason, appointment.status == .tentative ? "tentative" : nil].compactMap { $0 }.joined(separator: " · ")
            return .values([
                Table.Cell(when), .strong(appointment.with), Table.Cell(appointment.location ?? BundleStyle.missing),
                Table.Cell(remark.isEmpty ? BundleStyle.missing : remark),
            ])
        }
        flow.table(Table(columns: [
            Table.Column("When", weight: 1.4), Table.Column("With", weight: 1.6), Table.Column("Where", weight: 1.6), Table.Column("Reason", weight: 2),
        ], rows: rows, fontSize: 8.6, style: BundleStyle.table), after: 14)
    }

    private func drawNotes(_ flow: DocumentFlow) {
        heading(flow, "How these figures were made")
        let items = [
            "Each entry counts for the day it happened in the time zone it was logged in; a sleep or workout counts for the day it ended. Durations are elapsed time, so a night across a clock change is counted as slept.",
            "Daily averages are over the days with entries. Goal met counts those days (for a weekly goal, weeks); a meal goal is a budget, met by staying within it. Streaks run over all history up to today; today's unmet goal does not break one yet.",
            "Water counts each drink's volume times its hydration factor: tea, coffee, juice, soda, beer and sports drinks count as water, milk and oral rehydration solution above it, as measured by \(HydrationFactors.source).",
            "Goals the user did not set are the defaults: water 2 L, sleep 8 h, workouts 60 minutes and meals 2,500 kcal a day.",
        ] + (report.bmi == nil ? [] : ["BMI categories: \(BodyMassIndex.source)."])
        flow.list(items.map { .plain($0) }, style: BundleStyle.small.colored(.ink).spaced(1.1), after: 6)
    }

    // MARK: Pieces

    /// A section title over an accent rule with a short note on the right, kept with `keep`
    /// points of what follows.
    private func heading(_ flow: DocumentFlow, _ title: String, note: String? = nil, keep: Double = 90) {
        let style = TextStyle(size: 12.5, bold: true, color: BundleStyle.accent)
        let size = flow.canvas.measureText(.plain(title), width: flow.width * 0.6, style: style)
        flow.ensureSpace(size.height + keep)
        if flow.y > flow.contentTop { flow.space(6) }
        flow.bookmark(title)
        flow.canvas.drawText(.plain(title), x: flow.left, y: flow.y, width: flow.width * 0.6, style: style)
        if let note {
            let noteStyle = BundleStyle.small.aligned(.right)
            let noteSize = flow.canvas.measureText(.plain(note), width: flow.width * 0.4, style: noteStyle)
            flow.canvas.drawText(.plain(note), x: flow.left + flow.width * 0.6, y: flow.y + size.height - noteSize.height - 2,
                                 width: flow.width * 0.4, style: noteStyle)
        }
        flow.y += size.height + 2
        flow.canvas.line(fromX: flow.left, y: flow.y, toX: flow.right, y: flow.y, width: 1, color: BundleStyle.accent)
        flow.y += 8
    }

    /// Labelled lines, one a row, label then value in one run of text (so they extract together).
    private func lines(_ flow: DocumentFlow, _ lines: [HealthStatsText.Line]) {
        flow.fields(lines.map { Field($0.label, $0.value) }, columns: 1, style: BundleStyle.body.sized(9.2), after: 8)
    }

    /// "2026-03-10 13:00 UTC+01:00".
    private func moment(_ instant: Date) -> String {
        let wall = LocalDateTime(instant, in: time.zone)
        let offset = time.zone.secondsFromGMT(for: instant)
        return "\(wall.date) \(wall.time) UTC" + (offset == 0 ? "" : TimeText.offset(offset))
    }
}
