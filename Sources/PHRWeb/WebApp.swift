import Foundation
import PHRService

/// What the web UI shows and does, over the vault `phr serve` holds open: each function builds
/// one page (or does one action) for one browser session. Synchronous; the HTTP layer runs it
/// off the event loop. Nothing here knows HTTP.
public final class WebApp: @unchecked Sendable {
    let vault: Vault
    public let door: WebDoor
    let images: PageImageCache
    let clock: @Sendable () -> TimeContext
    /// One upload is read into the vault at a time (each may start OCR workers).
    let uploads = NSLock()
    /// Uploads read at once.
    let uploadSlots = Slots(2)
    /// Share bundles drawn into memory at once (each may be large).
    let downloadSlots = Slots(1)
    /// Page images drawn at once, each in a sandboxed worker.
    let drawings = DispatchSemaphore(value: 2)

    public init(vault: Vault, door: WebDoor, imageCacheBytes: Int = 48 << 20, clock: @escaping @Sendable () -> TimeContext = { .current() }) {
        self.vault = vault
        self.door = door
        images = PageImageCache(capacity: imageCacheBytes)
        self.clock = clock
    }

    /// Thrown for a record the session's profile does not hold.
    struct NotFound: Error {}

    // MARK: - Session context

    func profile(_ session: WebSession) throws -> Profile {
        try vault.database.read { db in
            if let name = session.profile, let chosen = try? Profiles.resolve(db, name: name) { return chosen }
            return try Profiles.resolve(db, name: nil)
        }
    }

    func layout(_ section: Layout.Section, _ session: WebSession, _ profile: Profile, path: String? = nil) throws -> Layout {
        let profiles = try vault.database.read { db in try Profiles.all(db) }
        return Layout(section: section, path: path ?? section.path, profile: profile, profiles: profiles, settings: session.settings, csrf: session.csrf,
                      flash: session.takeFlash())
    }

    // MARK: - Today

    public func today(_ session: WebSession) throws -> HTML {
        let profile = try profile(session)
        let time = clock()
        let medications = MedicationStore(vault: vault, profile: profile, time: time)
        let due = DoseDue.due(try medications.withLogs(), time: time, within: 12 * 3600)
        let appointments = try AppointmentStore(vault: vault, profile: profile, time: time).list(.upcoming).prefix(5)
        let log = LogStore(vault: vault, profile: profile, time: time)
        let settings = try HealthSettingsStore(vault: vault, profile: profile, time: time).get()
        let format = HealthFormat(settings)
        let today = time.today()
        let progress = try LogMetric.habits.map { try log.progress($0, on: today) }
        let documents = try DocumentStore(vault: vault, profile: profile).list(DocumentStore.Filter(limit: 5))

        let doseRows: [HTML] = due.map { dose in
            let when = TimeText.sentence(dose.instant, time)
            let state: HTML = dose.state == .overdue
                ? "<span class=\"badge badge-warn\"><span aria-hidden=\"true\">▲</span> overdue</span>"
                : "<span class=\"badge\"><span aria-hidden=\"true\">●</span> due</span>"
            // Take and Skip for a dose whose time has come (the dose log takes nothing later than
            // a few minutes ahead); later ones are listed with their time.
            let actionable = dose.instant.timeIntervalSince(time.now) <= DoseLog.earlyMinutes * 60
            let actions: HTML = actionable ? """
            <form method="post" action="/doses/take" class="inline">
            <input type="hidden" name="csrf" value="\(session.csrf)"><input type="hidden" name="medication" value="\(dose.medicationID)">
            <button type="submit" aria-label="Take \(dose.medication) (\(when))">Take</button>
            </form>
            <form method="post" action="/doses/skip" class="inline">
            <input type="hidden" name="csrf" value="\(session.csrf)"><input type="hidden" name="medication" value="\(dose.medicationID)">
            <input type="hidden" name="at" value="\(dose.at)">
            <button type="submit" class="secondary" aria-label="Skip \(dose.medication) (\(when))">Skip</button>
            </form>
            """ : .empty
            return """
            <li class="dose">
            <div><strong>\(dose.medication)</strong>\(dose.dose.map { " " + $0 }) \(state) <span class="muted">\(when)</span></div>
            \(actions)
            </li>
            """
        }
        let appointmentRows: [HTML] = appointments.map { appointment in
            "<li><strong>\(TimeText.sentence(appointment.startInstant, time))</strong> with \(appointment.with)\(appointment.location.map { ", " + $0 })\(appointment.reason.map { " (\($0))" })</li>"
        }
        let goalRows: [HTML] = progress.map { day in
            let amount = day.goal.period == .week ? (day.weekTotal ?? day.total) : day.total
            let share = day.goal.value > 0 ? min(1, amount / day.goal.value) : 0
            let state: String
            switch day.goal.direction {
            case .atLeast: state = day.met ? "goal met" : "\(Int((share * 100).rounded(.down)))% of the goal"
            case .atMost: state = day.entries == 0 ? "nothing logged yet" : day.met ? "within the goal" : "over the goal"
            }
            let period = day.goal.period == .week ? "this week" : "today"
            return """
            <li class="goal"><span class="goal-name">\(day.metric.title)</span>
            <meter min="0" max="1" value="\(String(format: "%.3f", share))" aria-label="\(day.metric.title) \(period)">\(state)</meter>
            <span>\(format.amount(amount, day.metric)) of \(format.amount(day.goal.value, day.metric)) \(period): <strong>\(state)</strong>\(day.met ? " ✓" : "")</span></li>
            """
        }
        let body: HTML = """
        <h1>Today <span class="muted">\(today.description)</span></h1>
        <p class="whose-line">Profile: \(profile.name)</p>
        <div class="cards">
        <section aria-labelledby="doses-heading" class="card"><h2 id="doses-heading">Doses</h2>
        \(doseRows.isEmpty ? "<p>Nothing due in the next 12 hours.</p>" as HTML : "<ul class=\"plain\">\(doseRows)</ul>")
        </section>
        <section aria-labelledby="appointments-heading" class="card"><h2 id="appointments-heading">Next appointments</h2>
        \(appointmentRows.isEmpty ? "<p>No appointments ahead.</p>" as HTML : "<ul class=\"plain\">\(appointmentRows)</ul>")
        </section>
        <section aria-labelledby="goals-heading" class="card"><h2 id="goals-heading">Goals</h2>
        <ul class="plain">\(goalRows)</ul>
        <form method="post" action="/log/add" class="quick"><input type="hidden" name="csrf" value="\(session.csrf)">\
        <input type="hidden" name="metric" value="water"><input type="hidden" name="amount" value="+"><input type="hidden" name="back" value="/">\
        <button type="submit" class="secondary">Add a glass of water (\(format.amount(settings.servingML, .water)))</button> \
        <a href="/log">Health log</a></form>
        </section>
        <section aria-labelledby="recent-heading" class="card"><h2 id="recent-heading">Recent documents</h2>
        \(documents.isEmpty ? "<p>No documents yet.</p>" as HTML : "<ul class=\"plain\">\(documents.map(documentLine))</ul>")
        </section>
        </div>
        \(try pinnedCharts(session, profile: profile))
        """
        return try layout(.today, session, profile).page(body)
    }

    private func documentLine(_ document: Document) -> HTML {
        "<li><a href=\"/documents/\(document.id)\">\(document.title)</a> <span class=\"muted\">\(document.date ?? "undated") · \(document.type)</span></li>"
    }

    /// Logs the due dose of `medication` taken now (`take`) or skipped at `at`; the outcome, or
    /// the dose guard's refusal, is kept for the next page.
    public func dose(_ session: WebSession, medication: String, take: Bool, at: String?) {
        do {
            let profile = try profile(session)
            let time = clock()
            let log = DoseLog(vault: vault, profile: profile, time: time)
            let instant = at.flatMap { text -> Date? in
                let formatter = ISO8601DateFormatter()
                formatter.formatOptions = [.withInternetDateTime]
                return formatter.date(from: text)
            }
            let entry = take ? try log.take(medication) : try log.skip(medication, at: instant)
            let name = entry.medication.displayName
            session.flash(take ? "Took \(name) \(TimeText.sentence(entry.dose.instant, time))." : "Skipped \(name)"
                + (entry.dose.scheduledFor.map { " (the \($0.time) dose)" } ?? "") + ".")
        } catch {
            session.flash(Self.words(error), isError: true)
        }
    }

    // MARK: - Documents

    /// The sizes a page image comes in: a list's thumbnail and the viewer's page.
    public enum ImageSize: String, Sendable {
        case thumb, full
        var box: (width: Int, height: Int) { self == .thumb ? (320, 452) : (1400, 1980) }
    }

    /// Page `number` (from 1) of a document as PNG, from the cache or drawn in the sandbox.
    public func pageImage(_ session: WebSession, id: String, number: Int, size: ImageSize) throws -> [UInt8] {
        let profile = try profile(session)
        guard let document = try? DocumentStore(vault: vault, profile: profile).get(id), document.id == id,
              number >= 1, number <= max(1, document.pageCount) else { throw NotFound() }
        let key = PageImageCache.Key(document: document.sha256, page: number, size: size.rawValue)
        if let cached = images.get(key) { return cached }
        // At most two drawings at a time: a page of thumbnails must not start a worker per image.
        drawings.wait()
        defer { drawings.signal() }
        if let cached = images.get(key) { return cached }
        guard let wanted = try draw(document, pages: [number], size: size)[number] else { throw NotFound() }
        // A viewer asks for the next pages right after: they are drawn meanwhile, when a drawing
        // slot is free (never queued behind what a person asked for).
        if size == .full && number < document.pageCount {
            let next = Array(number + 1...min(document.pageCount, number + 3))
            DispatchQueue.global(qos: .utility).async { [weak self] in
                guard let self, self.drawings.wait(timeout: .now()) == .success else { return }
                defer { self.drawings.signal() }
                let missing = next.filter { self.images.get(PageImageCache.Key(document: document.sha256, page: $0, size: size.rawValue)) == nil }
                if !missing.isEmpty { _ = try? self.draw(document, pages: missing, size: size) }
            }
        }
        return wanted
    }

    /// Draws `pages` (from 1) of `document` in the sandbox and keeps them in the cache.
    private func draw(_ document: Document, pages: [Int], size: ImageSize) throws -> [Int: [UInt8]] {
        let drawn = try DocumentPageImages.draw(document, pages: pages.map { $0 - 1 }, maximumWidth: size.box.width,
                                                maximumHeight: size.box.height, vault: vault)
        var result: [Int: [UInt8]] = [:]
        for page in drawn.pages {
            guard let png = page.png else { continue }
            images.put(PageImageCache.Key(document: document.sha256, page: page.index + 1, size: size.rawValue), png)
            result[page.index + 1] = png
        }
        return result
    }

    /// The original file, decrypted into memory, and its name and type.
    public func original(_ session: WebSession, id: String) throws -> (name: String, mediaType: String, bytes: [UInt8]) {
        let profile = try profile(session)
        guard let document = try? DocumentStore(vault: vault, profile: profile).get(id), document.id == id else { throw NotFound() }
        var bytes: [UInt8] = []
        try vault.blobs.read(name: document.blobName) { bytes.append(contentsOf: $0) }
        return (document.fileName, document.mediaType, bytes)
    }

    // MARK: - Search

    public func search(_ session: WebSession, query: String) throws -> HTML {
        let profile = try profile(session)
        let results = query.trimmingCharacters(in: .whitespaces).isEmpty ? HTML.empty : try searchResults(session, query: query)
        let body: HTML = """
        <h1>Search</h1>
        <p class="whose-line">Profile: \(profile.name) (records and documents)</p>
        <form method="post" action="/search" role="search" class="search" data-live="/search/live" autocomplete="off">
        <input type="hidden" name="csrf" value="\(session.csrf)">
        <label for="q">Search for</label>
        <input id="q" name="q" type="search" value="\(query)" autofocus
         aria-describedby="search-help" aria-controls="results">
        <button type="submit">Search</button>
        <p id="search-help" class="muted">All words must match. "a phrase", prefix*, a OR b, -leave-out, type:lab, tag:insurance, after:2025-01-01.</p>
        </form>
        <div id="results" aria-live="polite">\(results)</div>
        """
        return try layout(.search, session, profile).page(body)
    }

    /// The hits for `query` as a list (the live search fetches this alone). `asYouType` reads
    /// the word being typed as a prefix ("ferr" finds ferritin), as a search box that answers
    /// while typing must.
    public func searchResults(_ session: WebSession, query: String, asYouType: Bool = false) throws -> HTML {
        let profile = try profile(session)
        var text = query.trimmingCharacters(in: .whitespaces)
        if asYouType, query.last.map({ $0.isLetter || $0.isNumber }) == true,
           let last = text.split(separator: " ").last, !last.contains(where: { ":\"*-()".contains($0) }), last.count >= 3,
           last.uppercased() != "OR" {
            text += "*"
        }
        guard !text.isEmpty else { return .empty }
        let results: SearchResults
        do {
            results = try SearchEngine(vault: vault, profile: profile).search(text, refine: { _ in }, options: SearchEngine.Options(limit: 30))
        } catch let error as PHRError {
            return "<p class=\"flash flash-error\" role=\"alert\">\(Self.words(error))</p>"
        }
        var heading: HTML
        if let suggestion = results.didYouMean {
            heading = "<p>Nothing matched as typed; did you mean <strong>\(suggestion)</strong>? These match it:</p>"
        } else if results.hits.isEmpty {
            heading = "<p>No matches.</p>"
        } else {
            heading = "<p>\(results.hits.count) \(results.hits.count == 1 ? "match" : "matches")</p>"
        }
        let hits: [HTML] = results.hits.map { hit in
            let link = hit.kind == "doc" ? "/documents/\(hit.id)" : nil
            let title: HTML = link.map { HTML("<a href=\"\($0)\">\(hit.title)</a>") } ?? HTML("\(hit.title)")
            let page: HTML = hit.page.map { HTML(" · page \($0)") } ?? .empty
            return """
            <li class="hit"><span class="kind">\(Self.kindLabel(hit.kind))</span> \(title)
            <span class="muted">\(hit.date)\(page)</span><p class="snippet">\(Self.highlight(hit.snippet, hit.matches))</p></li>
            """
        }
        return "\(heading)<ol class=\"hits\">\(hits)</ol>"
    }

    static func kindLabel(_ kind: String) -> String {
        switch kind {
        case "doc": return "Document"
        case "med": return "Medication"
        case "appt": return "Appointment"
        case "contact": return "Contact"
        case "condition": return "Condition"
        case "allergy": return "Allergy"
        case "immunization": return "Immunization"
        case "procedure": return "Procedure"
        case "family": return "Family history"
        case "observation": return "Result"
        case "profile": return "Profile"
        case "log": return "Log"
        default: return kind
        }
    }

    /// The snippet with its matches marked (`<mark>`), escaped.
    static func highlight(_ snippet: String, _ matches: [[Int]]) -> HTML {
        let scalars = Array(snippet.unicodeScalars)
        var parts: [HTML] = []
        var position = 0
        for match in matches.sorted(by: { $0[0] < $1[0] }) where match.count == 2 {
            let start = match[0], end = match[0] + match[1]
            guard start >= position, end <= scalars.count, start < end else { continue }
            parts.append(HTML("\(Self.text(scalars[position..<start]))"))
            parts.append(HTML("<mark>\(Self.text(scalars[start..<end]))</mark>"))
            position = end
        }
        parts.append(HTML("\(Self.text(scalars[position...]))"))
        return HTML(parts)
    }

    private static func text(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    // MARK: - Emergency

    public func emergency(_ session: WebSession) throws -> HTML {
        let profile = try profile(session)
        let card = try EmergencyCard.build(vault: vault, profile: profile, time: clock())
        func section(_ title: String, _ rows: [HTML], empty: String) -> HTML {
            "<section class=\"card\"><h2>\(title)</h2>\(rows.isEmpty ? HTML("<p>\(empty)</p>") : HTML("<ul class=\"plain\">\(rows)</ul>"))</section>"
        }
        var about: [String] = []
        if let age = card.age { about.append("\(age) years") }
        if let born = card.dateOfBirth { about.append("born \(born)") }
        if let sex = card.sex { about.append(sex) }
        if let blood = card.bloodType { about.append("blood type \(blood)") }
        if let donor = card.organDonor { about.append(donor ? "organ donor" : "not an organ donor") }
        let allergies: [HTML] = card.allergies.map { allergy in
            let severe = allergy.severity == "severe" || allergy.criticality == "high"
            return "<li\(severe ? " class=\"severe\"" as HTML : .empty)>\(severe ? HTML("<strong><span aria-hidden=\"true\">▲ </span>\(allergy.substance)</strong> (severe)") : HTML("\(allergy.substance)"))\(allergy.reaction.map { ": " + $0 })</li>"
        }
        let body: HTML = """
        <h1>Emergency information</h1>
        <div class="emergency">
        <p class="person"><strong>\(card.name ?? "\(profile.name) (no name set)")</strong>\(about.isEmpty ? "" : " · " + about.joined(separator: ", "))</p>
        \(section("Allergies", allergies, empty: "No allergies recorded."))
        \(section("Conditions", card.conditions.map { HTML("<li>\($0)</li>") }, empty: "No conditions recorded."))
        \(section("Medications", card.medications.map { HTML("<li>\($0.name)\($0.dose.map { " " + $0 }) · \($0.schedule)</li>") }, empty: "No medications recorded."))
        \(section("Emergency contacts", card.contacts.map { HTML("<li>\($0.name)\($0.relation.map { " (\($0))" }): <a href=\"tel:\($0.phone)\">\($0.phone)</a></li>") }, empty: "No emergency contacts recorded."))
        \(card.notes.map { HTML("<section class=\"card\"><h2>Notes</h2><p>\($0)</p></section>") })
        </div>
        <p class="no-print"><button type="button" data-print>Print this page</button></p>
        """
        return try layout(.emergency, session, profile).page(body)
    }

    // MARK: - Profile and settings

    public func chooseProfile(_ session: WebSession, name: String) {
        if (try? vault.database.read({ db in try Profiles.resolve(db, name: name) })) != nil {
            if session.profile != name {
                // What was chosen or read for one profile never carries over to another.
                session.documentFilter = DocumentStore.Filter()
                session.shareChoices = nil
                session.labReview = nil
            }
            session.profile = name
        } else {
            session.flash("There is no profile named \(name).", isError: true)
        }
    }

    public func applySettings(_ session: WebSession, text: String?, theme: String?) {
        var settings = session.settings
        if let size = text.flatMap(WebSettings.TextSize.init(rawValue:)) { settings.textSize = size }
        if let chosen = theme.flatMap(WebSettings.Theme.init(rawValue:)) { settings.theme = chosen }
        session.settings = settings
    }

    /// An error as one sentence for a page: the message, then what to do.
    static func words(_ error: Error) -> String {
        if let error = error as? PHRError {
            let message = error.message.description, hint = error.hint?.description
            return message.prefix(1).uppercased() + message.dropFirst() + "." + (hint.map { " " + $0.prefix(1).uppercased() + $0.dropFirst() + "." } ?? "")
        }
        return (error as? LocalizedError)?.errorDescription ?? "\(error)"
    }
}

/// A count of slots taken without waiting: `take` says no when all are in use.
final class Slots: @unchecked Sendable {
    private let lock = NSLock()
    private var free: Int

    init(_ count: Int) { free = count }

    func take() -> Bool {
        lock.withLock {
            guard free > 0 else { return false }
            free -= 1
            return true
        }
    }

    func give() { lock.withLock { free += 1 } }
}
