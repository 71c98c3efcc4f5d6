import Foundation
import PHRService

/// The timeline: everything of the profile shown by date, newest first, a month to a heading,
/// filtered to one kind if asked, 50 to a page (`Timeline` in the core).
extension WebApp {
    static let timelinePage = 50

    public func timeline(_ session: WebSession, kind: Timeline.Kind?, page: Int) throws -> HTML {
        let profile = try profile(session)
        let time = clock()
        let kinds = kind.map { Set([$0]) } ?? Set(Timeline.Kind.allCases)
        let timeline = Timeline(vault: vault, profile: profile, time: time)
        var pageNumber = max(1, page)
        var (events, total) = try timeline.page(kinds: kinds, offset: (pageNumber - 1) * Self.timelinePage, limit: Self.timelinePage)
        let pages = max(1, (total + Self.timelinePage - 1) / Self.timelinePage)
        if pageNumber > pages {
            // Past the end: the last page.
            pageNumber = pages
            (events, total) = try timeline.page(kinds: kinds, offset: (pageNumber - 1) * Self.timelinePage, limit: Self.timelinePage)
        }

        let everything: HTML = "<li><a href=\"/timeline\"\(kind == nil ? " aria-current=\"page\"" as HTML : .empty)>Everything</a></li>"
        let tabs: [HTML] = [everything] + Timeline.Kind.allCases.map { item in
            "<li><a href=\"/timeline?kind=\(item.rawValue)\"\(item == kind ? " aria-current=\"page\"" as HTML : .empty)>\(item.title)</a></li>"
        }
        var groups: [HTML] = []
        var month = ""
        var items: [HTML] = []
        func flush() {
            guard !items.isEmpty else { return }
            let number = Int(month.suffix(2)) ?? 0
            let heading = month.count >= 7 && (1...12).contains(number) ? "\(HabitChart.months[number - 1]) \(month.prefix(4))" : month
            groups.append("<section class=\"timeline-month\"><h2>\(heading)</h2><ol class=\"timeline\">\(items)</ol></section>")
            items = []
        }
        for event in events {
            let key = String(event.date.prefix(7))
            if key != month {
                flush()
                month = key
            }
            let link: String?
            switch event.kind {
            case .document: link = event.recordID.map { "/documents/\($0)" }
            case .labs: link = event.recordID.map { "/labs/\($0)" }
            case .appointment: link = event.date.count == 10 ? "/appointments?day=\(event.date)" : "/appointments"
            case .doses: link = "/medications"
            case .immunization, .procedure, .condition, .allergy: link = "/records"
            case .imported: link = nil
            }
            let title: HTML = link.map { HTML("<a href=\"\($0)\">\(event.title)</a>") } ?? HTML("\(event.title)")
            items.append("""
            <li class="event event-\(event.kind.rawValue)"><span class="when">\(event.date)</span> <span class="kind">\(Self.timelineKindWord(event.kind))</span> \
            \(title)\(event.detail.map { HTML(" <span class=\"muted\">\($0)</span>") })</li>
            """)
        }
        flush()
        let base = "/timeline?" + (kind.map { "kind=\($0.rawValue)&" } ?? "")
        let newer: HTML = pageNumber > 1 ? "<a href=\"\(base)page=\(pageNumber - 1)\" rel=\"prev\"><span aria-hidden=\"true\">←</span> Newer</a>" : .empty
        let older: HTML = pageNumber < pages ? "<a href=\"\(base)page=\(pageNumber + 1)\" rel=\"next\">Older <span aria-hidden=\"true\">→</span></a>" : .empty
        let pager: HTML = pages > 1 ? """
        <nav aria-label="Pages of the timeline" class="pager">\(newer) <span>Page \(pageNumber) of \(pages)</span> \(older)</nav>
        """ : .empty
        let body: HTML = """
        <h1>Timeline</h1>
        <p class="whose-line">Profile: \(profile.name) · \(total) \(total == 1 ? "event" : "events"), newest first</p>
        <nav aria-label="What to show" class="tabs"><ul>\(tabs)</ul></nav>
        \(groups.isEmpty ? HTML("<p>Nothing yet.</p>") : HTML(groups))
        \(pager)
        """
        let path = "/timeline" + (kind.map { "?kind=\($0.rawValue)" } ?? "")
        return try layout(.timeline, session, profile, path: path).page(body)
    }

    static func timelineKindWord(_ kind: Timeline.Kind) -> String {
        switch kind {
        case .document: return "Document"
        case .labs: return "Results"
        case .doses: return "Doses"
        case .appointment: return "Appointment"
        case .immunization: return "Immunization"
        case .procedure: return "Procedure"
        case .condition: return "Condition"
        case .allergy: return "Allergy"
        case .imported: return "Import"
        }
    }
}
