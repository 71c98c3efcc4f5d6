import PHRService

/// The frame every page shares: landmarks, the skip link, the main navigation, whose records
/// these are with the profile switch, and the display settings (text size, theme, palette).
///
/// Titles are the same on every page ("phr"): a browser keeps titles and addresses in its
/// history even for pages it may not cache, so neither ever holds record text.
struct Layout {
    enum Section: String, CaseIterable {
        case today, timeline, documents, records, medications, appointments, labs, log, share, search, emergency, settings

        var label: String {
            switch self {
            case .today: return "Today"
            case .documents: return "Documents"
            case .timeline: return "Timeline"
            case .settings: return "Settings"
            case .share: return "Share"
            case .records: return "Health record"
            case .medications: return "Medications"
            case .appointments: return "Appointments"
            case .labs: return "Lab results"
            case .log: return "Health log"
            case .search: return "Search"
            case .emergency: return "Emergency"
            }
        }

        var path: String { self == .today ? "/" : "/\(rawValue)" }
    }

    var section: Section
    /// The page's own path, where the profile switch and the display settings come back to.
    var path: String
    var profile: Profile
    var profiles: [Profile]
    var settings: WebSettings
    var csrf: String
    /// A one-line outcome of the last action (a dose logged, a refusal), shown once.
    var flash: Flash?

    struct Flash {
        var text: String
        var isError: Bool
    }

    func page(_ body: HTML) -> HTML {
        let nav = Section.allCases.map { item -> HTML in
            let current: HTML = item == section ? " aria-current=\"page\"" : ""
            return "<li><a href=\"\(item.path)\"\(current)>\(item.label)</a></li>"
        }
        let options = profiles.map { other -> HTML in
            let selected: HTML = other.id == profile.id ? " selected" : ""
            return "<option value=\"\(other.name)\"\(selected)>\(other.name)</option>"
        }
        let flashHTML: HTML = flash.map { flash in
            "<p class=\"flash \(flash.isError ? "flash-error" : "flash-ok")\" role=\"\(flash.isError ? "alert" : "status")\"><span class=\"flash-mark\" aria-hidden=\"true\">\(flash.isError ? "!" : "✓")</span> \(flash.text)</p>"
        } ?? .empty
        return """
        <!doctype html>
        <html lang="en" class="\(settings.classes)">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <title>phr</title>
        <link rel="stylesheet" href="/assets/app.css">
        <link rel="icon" href="/assets/icon.svg" type="image/svg+xml">
        <script src="/assets/app.js" defer></script>
        </head>
        <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="top">
        <p class="brand"><span aria-hidden="true">▣</span> phr</p>
        <nav aria-label="Main"><ul>\(nav)</ul></nav>
        <form class="whose" method="post" action="/profile">
        <input type="hidden" name="csrf" value="\(csrf)"><input type="hidden" name="back" value="\(path)">
        <label for="profile-choice">Records of</label>
        <select id="profile-choice" name="profile" data-autosubmit>\(options)</select>
        <button type="submit" class="secondary">Show</button>
        </form>
        </header>
        <main id="main" tabindex="-1">
        \(flashHTML)
        \(body)
        </main>
        <footer class="bottom">
        <form method="post" action="/settings" class="settings" aria-label="Display">
        <input type="hidden" name="csrf" value="\(csrf)"><input type="hidden" name="back" value="\(path)">
        <fieldset><legend>Text size</legend>
        \(WebSettings.TextSize.allCases.map { size -> HTML in
            let checked: HTML = size == settings.textSize ? " checked" : ""
            return "<label><input type=\"radio\" name=\"text\" value=\"\(size.rawValue)\"\(checked) data-autosubmit> \(size.label)</label>"
        })
        </fieldset>
        <fieldset><legend>Theme</legend>
        \(WebSettings.Theme.allCases.map { theme -> HTML in
            let checked: HTML = theme == settings.theme ? " checked" : ""
            return "<label><input type=\"radio\" name=\"theme\" value=\"\(theme.rawValue)\"\(checked) data-autosubmit> \(theme.label)</label>"
        })
        </fieldset>
        <button type="submit" class="secondary">Apply</button>
        </form>
        <form method="post" action="/lock"><input type="hidden" name="csrf" value="\(csrf)"><button type="submit" class="secondary">Lock phr</button></form>
        </footer>
        </body>
        </html>
        """
    }

    /// A page for someone not signed in, or a refused request: no navigation, no records.
    static func bare(heading: String, text: String) -> HTML {
        """
        <!doctype html>
        <html lang="en">
        <head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>phr</title>
        <link rel="stylesheet" href="/assets/app.css"></head>
        <body><main id="main" class="bare"><h1>\(heading)</h1><p>\(text)</p></main></body>
        </html>
        """
    }
}

/// How a browser session shows pages: kept with the session, applied as classes on <html>, so
/// it works without JavaScript.
struct WebSettings: Sendable, Equatable {
    enum TextSize: String, CaseIterable, Sendable {
        case normal, large, larger, largest
        var label: String {
            switch self {
            case .normal: return "Normal"
            case .large: return "Large"
            case .larger: return "Larger"
            case .largest: return "Largest"
            }
        }
    }

    enum Theme: String, CaseIterable, Sendable {
        case system, light, dark
        var label: String {
            switch self {
            case .system: return "As the system"
            case .light: return "Light"
            case .dark: return "Dark"
            }
        }
    }

    var textSize: TextSize = .normal
    var theme: Theme = .system

    var classes: String { "text-\(textSize.rawValue) theme-\(theme.rawValue)" }
}
