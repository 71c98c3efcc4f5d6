import Foundation
import PHRService

/// The lab screens: every analyte with its latest value and direction, one analyte's trend as
/// a chart against its reference band with the table of its results, and a result typed in.
/// Values are shown in the unit the report printed (or the user typed); converting is a choice
/// the page offers (issue 35, item 1).
extension WebApp {
    /// What a lab result's flag looks like: a shape and words, never colour alone.
    static func flagBadge(_ flag: LabFlag?, hasRange: Bool) -> HTML {
        switch flag {
        case .high?, .criticalHigh?: return "<span class=\"badge badge-warn\"><span aria-hidden=\"true\">▲</span> \(flag!.words)</span>"
        case .low?, .criticalLow?: return "<span class=\"badge badge-warn\"><span aria-hidden=\"true\">▼</span> \(flag!.words)</span>"
        case .abnormal?: return "<span class=\"badge badge-warn\"><span aria-hidden=\"true\">◆</span> abnormal</span>"
        case .normal?: return "<span class=\"badge\"><span aria-hidden=\"true\">●</span> in range</span>"
        case nil: return hasRange ? "<span class=\"badge\"><span aria-hidden=\"true\">●</span> in range</span>" : "<span class=\"muted\">no range</span>"
        }
    }

    /// A result with its unit, "<0.5 mg/L" included (a result beyond the lab's limit).
    static func resultText(_ point: LabTrend.Point, unit: String?) -> String {
        let text = LabTrend.valueText(point, unit: unit)
        guard point.value == nil, point.bound != nil, let unit = unit.map(LabUnits.display), !unit.isEmpty, !text.hasSuffix(unit) else { return text }
        return text + " " + unit
    }

    static func directionText(_ direction: LabTrend.Direction?) -> HTML {
        switch direction {
        case .up?: return "<span aria-hidden=\"true\">↑</span> up"
        case .down?: return "<span aria-hidden=\"true\">↓</span> down"
        case .steady?: return "<span aria-hidden=\"true\">→</span> steady"
        case nil: return "<span class=\"muted\">—</span>"
        }
    }

    /// The labels of the add-a-result form's inputs, by the service layer's field names.
    static let labLabels = ["analyte": "Test", "value": "Result", "unit": "Unit", "range": "Reference range", "date": "Date", "notes": "Notes"]

    public func labs(_ session: WebSession) throws -> HTML {
        let profile = try profile(session)
        let store = LabStore(vault: vault, profile: profile, time: clock())
        let summaries = try store.summaries()
        let rows: [HTML] = summaries.compactMap { trend in
            guard let latest = trend.latest else { return nil }
            return """
            <tr><th scope="row"><a href="/labs/\(latest.observation.id)">\(trend.displayName)</a></th>
            <td class="number">\(Self.resultText(latest, unit: trend.unit))</td>
            <td>\(Self.flagBadge(latest.flag, hasRange: latest.range != nil))</td>
            <td>\(latest.day?.description ?? "undated")</td>
            <td>\(Self.directionText(trend.direction))</td>
            <td class="number">\(trend.points.count)</td></tr>
            """
        }
        let form = session.takeForm("lab-add")
        let body: HTML = """
        <h1>Lab results</h1>
        <p class="whose-line">Profile: \(profile.name)</p>
        \(rows.isEmpty ? HTML("<p>No lab results yet. Open a lab report among the documents to read its results, or add one here.</p>") : """
        <div class="scroll" tabindex="0" role="region" aria-label="Latest results"><table class="records">
        <caption>Each test's latest result, in the unit its report printed.</caption>
        <thead><tr><th scope="col">Test</th><th scope="col">Latest</th><th scope="col">Flag</th><th scope="col">Date</th><th scope="col">Since the one before</th><th scope="col">Results</th></tr></thead>
        <tbody>\(rows)</tbody></table></div>
        """)
        \(labForm(session, form))
        """
        return try layout(.labs, session, profile).page(body)
    }

    private func labForm(_ session: WebSession, _ state: FormState?) -> HTML {
        let fields = FormFields(form: "lab-add", state: state)
        return """
        <details class="edit card"\(state == nil ? "" : " open")><summary>Add a result</summary>
        <form method="post" action="/labs/add" class="fields" novalidate>
        <input type="hidden" name="csrf" value="\(session.csrf)">
        \(fields.formError)
        \(fields.input("analyte", label: "Test", extra: " required autocomplete=\"off\"", hint: "as the report names it: Ferritin, HbA1c, TSH"))
        \(fields.input("value", label: "Result", extra: " required inputmode=\"decimal\" autocomplete=\"off\"", hint: "12, 3,6, <0.5 or a word: Negative"))
        \(fields.input("unit", label: "Unit", extra: " autocomplete=\"off\"", hint: "ng/mL, mmol/L, %"))
        \(fields.input("range", label: "Reference range", extra: " autocomplete=\"off\"", hint: "30-400, <5, >=60"))
        \(fields.input("date", label: "Date", type: "date", value: clock().today().description))
        \(fields.input("notes", label: "Notes", extra: " autocomplete=\"off\""))
        <p><button type="submit">Add the result</button></p>
        </form></details>
        """
    }

    /// Adds a typed result (`phr lab add`'s checks); the page to show next.
    public func addLab(_ session: WebSession, form: [String: String]) -> String {
        do {
            let profile = try profile(session)
            var input = LabStore.Input(name: form["analyte"] ?? "", value: form["value"] ?? "", unit: Self.given(form["unit"]))
            input.range = Self.given(form["range"])
            input.date = Self.given(form["date"])
            input.notes = Self.given(form["notes"])
            let added = try LabStore(vault: vault, profile: profile, time: clock()).add(input)
            session.flash("Added \(added.name) \(added.valueDescription) (\(added.day?.description ?? "undated")).")
            return "/labs/\(added.id)"
        } catch {
            let kept = form.filter { ["analyte", "value", "unit", "range", "date", "notes"].contains($0.key) }
            session.keepForm(FormState(name: "lab-add", values: kept, error: error, labels: Self.labLabels))
            return "/labs"
        }
    }

    /// A form value, nil when left empty.
    static func given(_ value: String?) -> String? {
        guard let value = value?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
        return value
    }

    /// One analyte, found by any of its results: the chart, the latest value first, the table.
    public func lab(_ session: WebSession, id: String, units: LabUnitChoice = .printed) throws -> HTML {
        let profile = try profile(session)
        let store = LabStore(vault: vault, profile: profile, time: clock())
        guard let shown = try? store.get(id), shown.id == id, shown.isLabResult else { throw NotFound() }
        let printed = try store.series(of: id)
        let trend = units == .printed ? printed : try store.series(of: id, choice: units)
        guard let latest = trend.latest else { throw NotFound() }
        let unitText = trend.unit.map(LabUnits.display)
        let chart = LabChart(trend)
        let headline: HTML = """
        <p class="headline"><span class="big">\(Self.resultText(latest, unit: trend.unit))</span>
        \(Self.flagBadge(latest.flag, hasRange: latest.range != nil)) <span class="muted">on \(latest.day?.description ?? "an unknown date")\
        \(latest.range.map { ", reference \($0.listed)" } ?? "")</span></p>
        """
        var notes: [HTML] = []
        if !trend.convertedFrom.isEmpty {
            notes.append("<p class=\"note\">Results came in \(trend.convertedFrom.map(LabUnits.display).joined(separator: ", ")) and \(unitText ?? "no unit"); all are shown in \(unitText ?? "no unit")\(units == .printed ? ", the latest result's unit" : "").</p>")
        }
        // The other unit systems, offered only where every result converts and the unit differs.
        var choices: [HTML] = []
        if units != .printed { choices.append("<a href=\"/labs/\(id)\">Show the units as printed</a>") }
        for (choice, words) in [(LabUnitChoice.si, "SI units"), (.conventional, "conventional units")] where choice != units {
            if let other = try? store.series(of: id, choice: choice), other.unit != trend.unit, other.convertedFrom.isEmpty || other.points.allSatisfy({ $0.value != nil || $0.observation.valueNumber == nil }),
               let otherUnit = other.unit {
                choices.append("<a href=\"/labs/\(id)?units=\(choice.rawValue)\">Show in \(words) (\(LabUnits.display(otherUnit)))</a>")
            }
        }
        let rows: [HTML] = trend.points.reversed().map { point in
            let source: HTML
            switch point.observation.lab?.origin {
            case .document?:
                if let document = point.observation.lab?.documentID {
                    let page = point.observation.lab?.page
                    source = "<a href=\"/documents/\(document)\(page.map { "#page-\($0)" } ?? "")\">the report\(page.map { ", page \($0)" } ?? "")</a>"
                } else {
                    source = "a report"
                }
            case .fhir?: source = "imported (\(point.observation.importFormat))"
            case .typed?: source = "typed in"
            case nil: source = point.observation.source == nil ? "—" : "imported"
            }
            // A converted result also says what the report printed, and its range is the printed one.
            let observation = point.observation
            let printedUnit = observation.unitUCUM ?? observation.valueUnit
            let converted = observation.valueNumber != nil && printedUnit != trend.unit
            let printed: HTML = converted ? "<br><span class=\"muted\">printed \(observation.valueDescription)</span>" : .empty
            let reference = point.range.map { range in
                converted ? observation.lab?.range.map { $0.listed + (printedUnit.map { " " + LabUnits.display($0) } ?? "") } ?? range.listed : range.listed
            }
            return """
            <tr><td>\(point.day?.description ?? "undated")</td><td class="number">\(Self.resultText(point, unit: trend.unit))\(printed)</td>
            <td>\(reference ?? "—")</td><td>\(Self.flagBadge(point.flag, hasRange: point.range != nil))</td><td>\(source)</td></tr>
            """
        }
        let legend: HTML = """
        <ul class="legend" aria-label="How to read the chart">
        <li><span class="key key-in-range" aria-hidden="true">●</span> in range</li>
        <li><span class="key key-high" aria-hidden="true">▲</span> high</li>
        <li><span class="key key-low" aria-hidden="true">▼</span> low</li>
        <li><span class="key key-abnormal" aria-hidden="true">◆</span> abnormal</li>
        \(trend.points.contains { $0.value == nil && $0.bound != nil } ? "<li><span class=\"key key-beyond\" aria-hidden=\"true\">○</span> beyond the lab's limit</li>" as HTML : .empty)
        \(chart?.band != nil ? "<li><span class=\"key key-band\" aria-hidden=\"true\">▬</span> reference range</li>" as HTML : .empty)
        </ul>
        """
        let chartHTML: HTML = chart.map { chart in
            """
            <figure class="chart-figure">\(chart.svg(title: "\(trend.displayName): \(trend.points.count) results over time\(unitText.map { " in " + $0 } ?? ""); the table below lists them"))
            <figcaption>\(legend)</figcaption></figure>
            """
        } ?? "<p class=\"muted\">No result has a number and a date to chart; the table lists them.</p>"
        let body: HTML = """
        <p class="crumbs"><a href="/labs">Lab results</a></p>
        <h1>\(trend.displayName)\(unitText.map { text -> HTML in " <span class=\"muted\">(\(text))</span>" })</h1>
        <p class="whose-line">Profile: \(profile.name)</p>
        \(headline)
        \(notes)
        \(chartHTML)
        \(choices.isEmpty ? HTML.empty : HTML("<p class=\"choices\">\(HTML(choices, separator: " · "))</p>"))
        <div class="scroll" tabindex="0" role="region" aria-label="Every result"><table class="records">
        <caption>Every result, newest first</caption>
        <thead><tr><th scope="col">Date</th><th scope="col">Result</th><th scope="col">Reference</th><th scope="col">Flag</th><th scope="col">From</th></tr></thead>
        <tbody>\(rows)</tbody></table></div>
        """
        return try layout(.labs, session, profile, path: "/labs/\(id)").page(body)
    }
}
