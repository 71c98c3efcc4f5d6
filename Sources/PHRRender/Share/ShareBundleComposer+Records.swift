import Foundation
import PHRModel
import PHRTypesetting

/// The record sections as tables: allergies, medications, conditions, immunizations, results,
/// appointments and emergency contacts. Codes kept from imports (RxNorm, SNOMED CT, ICD-10,
/// LOINC, CVX) are printed small under each name, for the clinician's own system. A column
/// that would be empty in every row (no notes, no lot numbers) is left out.
extension ShareBundleComposer {
    /// A column and, for each row, its cell; `optional` columns are dropped when every cell is empty.
    private struct TableColumn {
        var column: Table.Column
        var optional = false
        var cells: [Table.Cell?]
    }

    private func table(_ flow: DocumentFlow, _ columns: [TableColumn], groups: [Int: String] = [:]) {
        let kept = columns.filter { !$0.optional || $0.cells.contains { $0 != nil } }
        let count = kept.first?.cells.count ?? 0
        var rows: [Table.Row] = []
        for index in 0..<count {
            if let group = groups[index] { rows.append(.group(group)) }
            rows.append(.values(kept.map { $0.cells[index] ?? .muted(BundleStyle.missing) }))
        }
        flow.table(Table(columns: kept.map(\.column), rows: rows, fontSize: 8.8, style: BundleStyle.table), after: 4)
    }

    private func text(_ value: String?) -> Table.Cell? {
        guard let value, !value.isEmpty else { return nil }
        return Table.Cell(value)
    }

    func drawAllergies(_ flow: DocumentFlow) {
        let allergies = content.allergies
        guard !allergies.isEmpty else { return noneRecorded(flow, "No allergies or intolerances recorded.") }
        let firstInactive = allergies.firstIndex { $0.status != .active }
        let dangerous = allergies.map { $0.status == .active && $0.dangerRank == 0 }
        table(flow, [
            TableColumn(column: Table.Column("Substance", weight: 2.6), cells: allergies.indices.map { index in
                .markup(BundleStyle.nameWithCodes(allergies[index].substance, codes: allergies[index].codes),
                        tone: dangerous[index] ? .alert : .normal)
            }),
            TableColumn(column: Table.Column("Reaction", weight: 2.2), cells: allergies.map { text($0.reaction) }),
            TableColumn(column: Table.Column("Severity", weight: 1.2), cells: allergies.indices.map { index in
                let allergy = allergies[index]
                let severity = [allergy.severity?.rawValue, allergy.criticality == .high ? "high risk" : nil]
                    .compactMap { $0 }.joined(separator: " · ")
                return dangerous[index] ? .alert(severity) : text(severity)
            }),
            TableColumn(column: Table.Column("Category", weight: 1.1), optional: true, cells: allergies.map { text($0.category?.rawValue) }),
            TableColumn(column: Table.Column("Since", weight: 0.9), optional: true, cells: allergies.map { text($0.since?.description) }),
            TableColumn(column: Table.Column("Notes", weight: 2), optional: true, cells: allergies.map { text($0.notes) }),
        ], groups: firstInactive.map { [$0: "Inactive or resolved"] } ?? [:])
    }

    func drawMedications(_ flow: DocumentFlow) {
        let current = content.currentMedications
        let all = current + content.recentlyStoppedMedications
        guard !all.isEmpty else { return noneRecorded(flow, "No current medications recorded.") }
        var groups: [Int: String] = [:]
        if current.isEmpty { groups[0] = "No current medications; stopped in the last 12 months:" }
        if !current.isEmpty, current.count < all.count { groups[current.count] = "Stopped in the last 12 months" }
        table(flow, [
            TableColumn(column: Table.Column("Medication", weight: 2.6), cells: all.indices.map { index in
                .markup(BundleStyle.nameWithCodes(all[index].name, codes: all[index].codes, detail: all[index].form),
                        tone: index < current.count ? .normal : .muted)
            }),
            TableColumn(column: Table.Column("Dose", weight: 1.1), cells: all.map { text($0.dose) }),
            TableColumn(column: Table.Column("How taken", weight: 1.9), cells: all.map { medication in
                .markup(BundleStyle.withNote(medication.schedule.summary, [medication.instructions]))
            }),
            TableColumn(column: Table.Column("Dates", weight: 1.6), cells: all.indices.map { index in
                text(medicationDates(all[index], stopped: index >= current.count))
            }),
            TableColumn(column: Table.Column("Prescriber and notes", weight: 1.9), optional: true, cells: all.map { medication in
                text([medication.prescriber, medication.pharmacy.map { "pharmacy: \($0)" }, medication.notes]
                    .compactMap { $0 }.joined(separator: "\n"))
            }),
        ], groups: groups)
    }

    /// "from 2025-02-20", "from 2025-02-20\nuntil 2025-03-01".
    private func medicationDates(_ medication: Medication, stopped: Bool) -> String {
        var lines: [String] = []
        if let start = medication.start { lines.append("from \(start)") }
        if stopped {
            lines.append(ShareContent.lastDay(of: medication).map { "until \($0)" } ?? "stopped")
        } else if let end = medication.end {
            lines.append("until \(end)")
        }
        return lines.joined(separator: "\n")
    }

    func drawConditions(_ flow: DocumentFlow) {
        let conditions = content.conditions
        guard !conditions.isEmpty else { return noneRecorded(flow, "No conditions recorded.") }
        let firstPast = conditions.firstIndex { !$0.isCurrent }
        var groups: [Int: String] = [:]
        if let firstPast { groups[firstPast] = firstPast == 0 ? "No current conditions; past conditions:" : "Past conditions" }
        table(flow, [
            TableColumn(column: Table.Column("Condition", weight: 3), cells: conditions.map {
                .markup(BundleStyle.nameWithCodes($0.name, codes: $0.codes))
            }),
            TableColumn(column: Table.Column("Status", weight: 1.1), cells: conditions.map {
                Table.Cell($0.status.rawValue, tone: $0.isCurrent ? .strong : .normal)
            }),
            TableColumn(column: Table.Column("Since", weight: 1), cells: conditions.map { text($0.since?.description) }),
            TableColumn(column: Table.Column("Resolved", weight: 1), optional: true, cells: conditions.map { text($0.resolved?.description) }),
            TableColumn(column: Table.Column("Notes", weight: 2.4), optional: true, cells: conditions.map { text($0.notes) }),
        ], groups: groups)
    }

    func drawImmunizations(_ flow: DocumentFlow) {
        let immunizations = content.immunizations
        guard !immunizations.isEmpty else { return noneRecorded(flow, "No immunizations recorded.") }
        table(flow, [
            TableColumn(column: Table.Column("Vaccine", weight: 3), cells: immunizations.map {
                .markup(BundleStyle.nameWithCodes($0.vaccine, codes: $0.codes))
            }),
            TableColumn(column: Table.Column("Date", weight: 1.1), cells: immunizations.map { text($0.date?.description ?? "date not known") }),
            TableColumn(column: Table.Column("Dose", weight: 0.8), optional: true, cells: immunizations.map { text($0.doseNumber.map { "dose \($0)" }) }),
            TableColumn(column: Table.Column("Lot", weight: 1.2), optional: true, cells: immunizations.map { text($0.lot) }),
            TableColumn(column: Table.Column("Notes", weight: 2.4), optional: true, cells: immunizations.map { text($0.notes) }),
        ])
    }

    func drawProcedures(_ flow: DocumentFlow) {
        let procedures = content.procedures
        guard !procedures.isEmpty else { return noneRecorded(flow, "No procedures recorded.") }
        table(flow, [
            TableColumn(column: Table.Column("Procedure", weight: 3), cells: procedures.map {
                .markup(BundleStyle.nameWithCodes($0.name, codes: $0.codes))
            }),
            TableColumn(column: Table.Column("Date", weight: 1.1), cells: procedures.map { text($0.date?.description) }),
            TableColumn(column: Table.Column("Status", weight: 1), optional: true, cells: procedures.map {
                $0.status == .completed ? nil : Table.Cell($0.status.rawValue, tone: .strong)
            }),
            TableColumn(column: Table.Column("Site", weight: 1.3), optional: true, cells: procedures.map { text($0.bodySite) }),
            TableColumn(column: Table.Column("By", weight: 1.6), optional: true, cells: procedures.map { text($0.performer) }),
            TableColumn(column: Table.Column("Notes", weight: 2.2), optional: true, cells: procedures.map { text($0.notes) }),
        ])
    }

    func drawFamilyHistory(_ flow: DocumentFlow) {
        let entries = content.familyHistory
        guard !entries.isEmpty else { return noneRecorded(flow, "No family history recorded.") }
        table(flow, [
            TableColumn(column: Table.Column("Relative", weight: 1.6), cells: entries.map { Table.Cell($0.relation, tone: .strong) }),
            TableColumn(column: Table.Column("Condition", weight: 3), cells: entries.map {
                .markup(BundleStyle.nameWithCodes($0.condition, codes: $0.codes))
            }),
            TableColumn(column: Table.Column("Age at onset", weight: 1), optional: true, cells: entries.map { text($0.onsetAge.map(String.init)) }),
            TableColumn(column: Table.Column("Cause of death", weight: 1), optional: true, cells: entries.map {
                $0.causeOfDeath == true ? Table.Cell("yes") : nil
            }),
            TableColumn(column: Table.Column("Notes", weight: 2.2), optional: true, cells: entries.map { text($0.notes) }),
        ])
    }

    func drawResults(_ flow: DocumentFlow) {
        let results = content.results
        guard !results.isEmpty else { return noneRecorded(flow, "No results recorded.") }
        table(flow, [
            TableColumn(column: Table.Column("Test or measurement", weight: 3), cells: results.map {
                .markup(BundleStyle.nameWithCodes($0.name, codes: $0.codes))
            }),
            TableColumn(column: Table.Column("Latest result", weight: 2), cells: results.map { observation in
                guard !observation.valueDescription.isEmpty else { return nil }
                let flag = observation.effectiveFlag
                let abnormal = flag?.isAbnormal == true
                return Table.Cell(observation.valueDescription + (abnormal ? " (\(flag!.rawValue))" : ""), tone: abnormal ? .alert : .strong)
            }),
            TableColumn(column: Table.Column("Reference range", weight: 1.4), optional: true, cells: results.map { observation in
                text(observation.lab?.range.map { $0.text ?? $0.display })
            }),
            TableColumn(column: Table.Column("Date", weight: 1.1), cells: results.map { text($0.effective.map { String($0.prefix(10)) }) }),
            TableColumn(column: Table.Column("Category", weight: 1.2), optional: true, cells: results.map { text($0.category) }),
            TableColumn(column: Table.Column("Notes", weight: 2), optional: true, cells: results.map { text($0.notes) }),
        ])
        drawResultTrends(flow)
    }

    /// Small charts, three to a row, of the lab results with several values: the reference
    /// band shaded, the values joined by a line, those out of range drawn as larger red dots.
    func drawResultTrends(_ flow: DocumentFlow) {
        let trends = content.resultTrends ?? []
        guard !trends.isEmpty else { return }
        let canvas = flow.canvas
        let gap = 12.0
        let perRow = 3
        let width = (flow.width - gap * Double(perRow - 1)) / Double(perRow)
        let height = 78.0
        flow.space(6)
        for start in stride(from: 0, to: trends.count, by: perRow) {
            flow.ensureSpace(height + 20)
            let top = flow.y
            for (offset, trend) in trends[start..<min(start + perRow, trends.count)].enumerated() {
                let left = flow.left + Double(offset) * (width + gap)
                canvas.drawText(.plain(trend.name + (trend.unit.map { " (\($0))" } ?? "")), x: left, y: top, width: width,
                                style: BundleStyle.small.emboldened.colored(.ink))
                ResultTrendChart(trend: trend).draw(on: canvas, x: left, y: top + 13, width: width, height: height - 13)
            }
            flow.y = top + height + 10
        }
    }


    func drawAppointments(_ flow: DocumentFlow) {
        let appointments = content.appointments
        guard !appointments.isEmpty else { return noneRecorded(flow, "No upcoming appointments recorded.") }
        table(flow, [
            TableColumn(column: Table.Column("When", weight: 1.7), cells: appointments.enumerated().map { index, appointment in
                let days = today.days(until: appointment.start.date)
                let relative = days == 0 ? "today" : days == 1 ? "tomorrow" : days > 1 ? "in \(days) days" : "in progress"
                let status = appointment.status == .tentative ? " · tentative" : ""
                return .markup(BundleStyle.withNote(appointmentWhen(appointment), [relative + status]), tone: index == 0 ? .strong : .normal)
            }),
            TableColumn(column: Table.Column("With", weight: 2), cells: appointments.enumerated().map { index, appointment in
                Table.Cell(appointment.with, tone: index == 0 ? .strong : .normal)
            }),
            TableColumn(column: Table.Column("Where", weight: 2.1), cells: appointments.map { text($0.location) }),
            TableColumn(column: Table.Column("Reason", weight: 2.4), cells: appointments.map { appointment in
                appointment.reason == nil && appointment.notes == nil
                    ? nil : .markup(BundleStyle.withNote(appointment.reason ?? BundleStyle.missing, [appointment.notes]))
            }),
        ])
    }

    /// "2026-12-03 09:30", with the appointment's zone when it is not the user's, or "(all day)".
    func appointmentWhen(_ appointment: Appointment) -> String {
        if appointment.allDay { return "\(appointment.start.date) (all day)" }
        var text = "\(appointment.start.date) \(appointment.start.time)"
        if appointment.timeZone != time.zone.identifier { text += " \(appointment.timeZone)" }
        return text
    }

    func drawContacts(_ flow: DocumentFlow) {
        let contacts = content.emergencyContacts
        guard !contacts.isEmpty else { return noneRecorded(flow, "No emergency contacts recorded.") }
        table(flow, [
            TableColumn(column: Table.Column("Name", weight: 2.2), cells: contacts.map { .strong($0.name) }),
            TableColumn(column: Table.Column("Relation", weight: 1.4), cells: contacts.map { text($0.relation) }),
            TableColumn(column: Table.Column("Phone", weight: 1.8), cells: contacts.map { Table.Cell($0.phone, family: BundleStyle.mono.family) }),
            TableColumn(column: Table.Column("Email", weight: 2.4), optional: true, cells: contacts.map { text($0.email) }),
        ])
    }
}

/// One small trend chart: a frame, the band between the range's bounds (or to the chart's
/// edge for a one-sided range) in pale green, the values joined, dots red when out of range.
struct ResultTrendChart {
    static let band = Color(hex: 0xDCEFD9)
    static let line = Color(hex: 0x1F4E79)
    static let outOfRange = Color(hex: 0xC0392B)

    var trend: ResultTrend
    /// Each value printed above its dot (in a chart wide enough for them: a report's).
    var valueLabels = false

    func draw(on canvas: PDFCanvas, x: Double, y: Double, width: Double, height: Double) {
        let values = trend.points.map(\.value)
        // Round ticks on a value axis that fits the results; the band clipped, never flattening them.
        guard let scale = AxisScale.fitting(values, bandLow: trend.low, bandHigh: trend.high, ticks: 5) else { return }
        let (low, high) = (scale.low, scale.high)
        let tickStyle = BundleStyle.small.sized(valueLabels ? 6.4 : 5.6)
        let labels = scale.ticks.map { (value: $0, text: scale.label($0)) }
        let axisWidth = (labels.map { canvas.measureText(.plain($0.text), style: tickStyle).width }.max() ?? 0) + 3
        let frame = (x: x + axisWidth, width: width - axisWidth)
        let plot = (x: frame.x + 2, y: y + 2, width: frame.width - 4, height: height - 14)
        func yOf(_ value: Double) -> Double { plot.y + plot.height * (high - value) / (high - low) }
        canvas.rectangle(x: frame.x, y: y, width: frame.width, height: height - 10, stroke: .muted, lineWidth: 0.4)
        if trend.low != nil || trend.high != nil {
            let top = max(plot.y, min(plot.y + plot.height, trend.high.map(yOf) ?? plot.y))
            let bottom = max(plot.y, min(plot.y + plot.height, trend.low.map(yOf) ?? plot.y + plot.height))
            if bottom > top {
                canvas.rectangle(x: plot.x, y: top, width: plot.width, height: max(0.5, bottom - top), fill: Self.band)
            }
        }
        for label in labels {
            let at = yOf(label.value)
            canvas.line(fromX: frame.x - 2, y: at, toX: frame.x, y: at, width: 0.4, color: .muted)
            let size = canvas.measureText(.plain(label.text), style: tickStyle)
            canvas.drawText(.plain(label.text), x: frame.x - 3 - size.width, y: at - size.height / 2, style: tickStyle)
        }
        let days = trend.points.compactMap { CalendarDate($0.day) }
        let first = days.first.map { $0.dayNumber } ?? 0
        let span = max(1, (days.last.map { $0.dayNumber } ?? 1) - first)
        let points = trend.points.enumerated().map { index, point -> (x: Double, y: Double) in
            let day = CalendarDate(point.day).map { $0.dayNumber } ?? first
            return (plot.x + 4 + (plot.width - 8) * Double(day - first) / Double(span), yOf(point.value))
        }
        for (a, b) in zip(points, points.dropFirst()) {
            canvas.line(fromX: a.x, y: a.y, toX: b.x, y: b.y, width: 0.9, color: Self.line)
        }
        for (point, value) in zip(points, trend.points) {
            canvas.circle(centerX: point.x, centerY: point.y, radius: value.outOfRange ? 2.4 : 1.6,
                          fill: value.outOfRange ? Self.outOfRange : Self.line)
            if valueLabels {
                let label = Observation.number(value.value)
                let style = BundleStyle.small.sized(6.4).colored(value.outOfRange ? Self.outOfRange : .ink)
                let size = canvas.measureText(.plain(label), style: style)
                let left = min(max(point.x - size.width / 2, frame.x + 1), x + width - size.width - 1)
                canvas.drawText(.plain(label), x: left, y: max(y + 1, point.y - size.height - 2.5), style: style)
            }
        }
        canvas.drawText(.plain(trend.points.first?.day ?? ""), x: frame.x, y: y + height - 9, style: BundleStyle.small.sized(6.2))
        canvas.drawText(.plain(trend.points.last?.day ?? ""), x: frame.x, y: y + height - 9, width: frame.width,
                        style: BundleStyle.small.sized(6.2).aligned(.right))
    }
}
