import Foundation
import PHRCore
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
            TableColumn(column: Table.Column("Date", weight: 1.1), cells: immunizations.map { Table.Cell($0.date.description) }),
            TableColumn(column: Table.Column("Dose", weight: 0.8), optional: true, cells: immunizations.map { text($0.doseNumber.map { "dose \($0)" }) }),
            TableColumn(column: Table.Column("Lot", weight: 1.2), optional: true, cells: immunizations.map { text($0.lot) }),
            TableColumn(column: Table.Column("Notes", weight: 2.4), optional: true, cells: immunizations.map { text($0.notes) }),
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
                observation.valueDescription.isEmpty ? nil : Table.Cell(observation.valueDescription, tone: .strong)
            }),
            TableColumn(column: Table.Column("Date", weight: 1.1), cells: results.map { text($0.effective.map { String($0.prefix(10)) }) }),
            TableColumn(column: Table.Column("Category", weight: 1.2), optional: true, cells: results.map { text($0.category) }),
            TableColumn(column: Table.Column("Notes", weight: 2), optional: true, cells: results.map { text($0.notes) }),
        ])
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
