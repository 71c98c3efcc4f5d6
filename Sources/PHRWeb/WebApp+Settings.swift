import Foundation
import PHRService

/// The settings screen: the profile's units and water serving, its goals, the reminder
/// channels with a test button, the profiles (and a new one), the vault's OCR languages, and
/// locking. Each form has the CLI's checks (`phr log settings`, `phr goal set`, `phr remind
/// channel test`, `phr profile add`, `phr ocr languages`), errors beside their fields.
extension WebApp {
    static let healthSettingsLabels = ["units": "Units", "glucose-unit": "Glucose unit", "serving": "A glass of water"]
    static let goalLabels = ["value": "Goal", "per": "Per"]
    static let profileLabels = ["name": "Name", "relation": "Relation"]
    static let ocrLabels = ["ocr": "OCR languages"]

    public func settingsPage(_ session: WebSession) throws -> HTML {
        let profile = try profile(session)
        let time = clock()
        let settings = try HealthSettingsStore(vault: vault, profile: profile, time: time).get()
        let format = HealthFormat(settings)

        let unitsFields = FormFields(form: "units", state: session.takeForm("units"))
        let units: HTML = """
        <section class="card" aria-labelledby="units-heading"><h2 id="units-heading">Units</h2>
        <form method="post" action="/settings/health" class="fields" novalidate><input type="hidden" name="csrf" value="\(session.csrf)">
        \(unitsFields.formError)
        \(unitsFields.select("units", label: "Units", options: [("metric", "metric (litres, kilograms)"), ("us", "US (fluid ounces, pounds)")], value: settings.units.rawValue))
        \(unitsFields.select("glucose-unit", label: "Glucose unit", options: [("mmol/L", "mmol/L"), ("mg/dL", "mg/dL")],
                             value: settings.glucoseUnit == .milligramPerDecilitre ? "mg/dL" : "mmol/L"))
        \(unitsFields.input("serving", label: "A glass of water", value: format.amount(settings.servingML, .water), extra: " autocomplete=\"off\"", hint: "what one press of Add a glass logs: 250 ml, 8 fl oz"))
        <input type="hidden" name="serving-shown" value="\(format.amount(settings.servingML, .water))">
        <p><button type="submit">Save the units</button></p>
        </form>
        <p class="muted">Lab results keep the unit their report printed; a test's page offers the other units.</p></section>
        """

        let goals = try GoalStore(vault: vault, profile: profile, time: time).list().filter { $0.current.metric.isHabit }
        let goalState = session.takeForm("goal")
        let goalForms: [HTML] = goals.map { listing in
            let goal = listing.current
            let metric = goal.metric
            let state = goalState?.values["metric"] == metric.rawValue ? goalState : nil
            let fields = FormFields(form: "goal-\(metric.rawValue)", state: state)
            return """
            <li><form method="post" action="/settings/goal" class="fields goal-form" novalidate><input type="hidden" name="csrf" value="\(session.csrf)">\
            <input type="hidden" name="metric" value="\(metric.rawValue)">
            <strong>\(metric.title)</strong>: \(format.goal(goal.value, metric, period: goal.period))\(goal.isDefault ? " (the default)" : "")
            \(fields.formError)
            \(fields.input("value", label: "New goal for \(metric.title.lowercased())", extra: " autocomplete=\"off\"", hint: metric == .water ? "2 l, 80 fl oz" : metric == .meal ? "2200 kcal" : "8h, 150 min"))
            \(fields.select("per", label: "Per", options: [("day", "day"), ("week", "week")], value: goal.period.rawValue))
            <p><button type="submit">Set the goal</button></p></form></li>
            """
        }
        let goalsHTML: HTML = """
        <section class="card" aria-labelledby="goals-heading"><h2 id="goals-heading">Goals</h2>
        <ul class="plain">\(goalForms)</ul></section>
        """

        let channels = try ReminderChannelStore(vault: vault, profile: profile, time: time).list()
        let channelRows: [HTML] = channels.map { channel in
            let state: String
            if let error = channel.lastError { state = "last try failed: \(error)" }
            else if let success = channel.lastSuccessAt { state = "last sent \(success.prefix(16).replacingOccurrences(of: "T", with: " ")) UTC" }
            else { state = "not used yet" }
            return "<li><strong>\(channel.kind.rawValue)</strong> <span class=\"muted\">\(channel.id) · \(channel.details ? "with details" : "no record text") · \(state)</span></li>"
        }
        let reminders: HTML = """
        <section class="card" aria-labelledby="channels-heading"><h2 id="channels-heading">Reminder channels</h2>
        \(channels.isEmpty ? HTML("<p>No channels: reminders show on this computer only. Add one with <code>phr remind channel add</code> (ntfy, Gotify, e-mail, a webhook, a command).</p>") : HTML("""
        <ul class="plain">\(channelRows)</ul>
        <form method="post" action="/settings/channels/test"><input type="hidden" name="csrf" value="\(session.csrf)">
        <button type="submit" class="secondary">Send a test notification</button></form>
        """))
        </section>
        """

        let profiles = try vault.database.read { db in try Profiles.all(db) }
        let profileFields = FormFields(form: "profile-add", state: session.takeForm("profile-add"))
        let profilesHTML: HTML = """
        <section class="card" aria-labelledby="profiles-heading"><h2 id="profiles-heading">Profiles</h2>
        <ul class="plain">\(profiles.map { other in HTML("<li><strong>\(other.name)</strong> <span class=\"muted\">\(other.relation.rawValue)\(other.isDefault ? ", the default" : "")</span></li>") })</ul>
        <details class="edit"\(profileFields.state == nil ? "" : " open")><summary>Add a profile</summary>
        <form method="post" action="/settings/profile" class="fields" novalidate><input type="hidden" name="csrf" value="\(session.csrf)">
        \(profileFields.formError)
        \(profileFields.input("name", label: "Name", extra: " required autocomplete=\"off\"", hint: "a child, a parent you care for"))
        \(profileFields.select("relation", label: "Relation", options: Profile.Relation.allCases.map { ($0.rawValue, $0.rawValue) }, value: "child"))
        <p><button type="submit">Add the profile</button></p>
        </form></details></section>
        """

        let languages = try DocumentSettings.ocrLanguages(vault, environment: ProcessEnvironment.variables)
        let ocrFields = FormFields(form: "ocr", state: session.takeForm("ocr"))
        let ocr: HTML = """
        <section class="card" aria-labelledby="ocr-heading"><h2 id="ocr-heading">Reading scans</h2>
        <form method="post" action="/settings/ocr" class="fields" novalidate><input type="hidden" name="csrf" value="\(session.csrf)">
        \(ocrFields.formError)
        \(ocrFields.input("ocr", label: "OCR languages", value: languages, extra: " autocomplete=\"off\"", hint: "Tesseract's names joined by +: eng, deu+eng, fra+eng"))
        <p><button type="submit">Save the languages</button></p>
        </form>
        <p class="muted">Documents added from now on are read in these languages; <code>phr doc reindex --ocr always ID</code> reads one again.</p></section>
        """
        let lock: HTML = """
        <section class="card" aria-labelledby="lock-heading"><h2 id="lock-heading">Lock</h2>
        <p>phr locks itself after a while without use. Lock it now to forget its keys at once; run <code>phr serve</code> to come back.</p>
        <form method="post" action="/lock"><input type="hidden" name="csrf" value="\(session.csrf)"><button type="submit">Lock phr now</button></form></section>
        """
        let body: HTML = """
        <h1>Settings</h1>
        <p class="whose-line">Profile: \(profile.name) (units, goals and channels are the profile's; OCR languages the vault's)</p>
        <div class="cards">\(units)\(goalsHTML)\(reminders)\(profilesHTML)\(ocr)\(lock)</div>
        """
        return try layout(.settings, session, profile).page(body)
    }

    public func saveHealthSettings(_ session: WebSession, form: [String: String]) {
        do {
            let profile = try profile(session)
            var input = HealthSettingsStore.Input()
            input.units = form["units"]
            input.glucoseUnit = form["glucose-unit"]
            // The glass size is shown rounded in the units of the moment (8.5 fl oz for 250 ml):
            // saved only when changed, so saving the units never nudges it.
            let serving = form["serving"]?.trimmingCharacters(in: .whitespaces)
            input.serving = serving == form["serving-shown"] ? nil : serving
            _ = try HealthSettingsStore(vault: vault, profile: profile, time: clock()).set(input)
            session.flash("Saved the units.")
        } catch {
            session.keepForm(FormState(name: "units", values: form.filter { $0.key != "csrf" }, error: error, labels: Self.healthSettingsLabels))
        }
    }

    public func setGoal(_ session: WebSession, form: [String: String]) {
        do {
            let profile = try profile(session)
            let goal = try GoalStore(vault: vault, profile: profile, time: clock()).set(form["metric"] ?? "", form["value"] ?? "", per: form["per"])
            let format = HealthFormat(try HealthSettingsStore(vault: vault, profile: profile, time: clock()).get())
            session.flash("The \(goal.metric.title.lowercased()) goal is \(format.goal(goal.value, goal.metric, period: goal.period)) from \(goal.since) on.")
        } catch {
            session.keepForm(FormState(name: "goal", values: form.filter { $0.key != "csrf" }, error: error, labels: Self.goalLabels))
        }
    }

    /// Sends a test notification through every channel; what became of each, in words.
    public func testChannels(_ session: WebSession) {
        do {
            let profile = try profile(session)
            let sender = try ReminderChannelSender.fromEnvironment(ProcessEnvironment.variables)
            let results = try ReminderDelivery(vault: vault, profile: profile, time: clock(), sender: sender, spelling: PlainSpelling()).test(nil)
            let words = results.map { channel, outcome -> String in
                switch outcome {
                case .sent: return "\(channel.kind.rawValue) (\(channel.id)): sent"
                case .failed(let failure): return "\(channel.kind.rawValue) (\(channel.id)): failed, \(failure.reason)"
                case .held: return "\(channel.kind.rawValue) (\(channel.id)): not sent, PHR_OFFLINE is set"
                }
            }
            let failed = results.contains { if case .sent = $0.1 { return false } else { return true } }
            session.flash("Test notification: " + words.joined(separator: "; ") + ".", isError: failed)
        } catch {
            session.flash(Self.words(error), isError: true)
        }
    }

    public func addProfile(_ session: WebSession, form: [String: String]) {
        do {
            let relation = try Profiles.relation(form["relation"] ?? "other")
            let created = try vault.database.write { db in try Profiles.create(db, name: form["name"] ?? "", relation: relation) }
            session.flash("Added the profile \(created.name). Choose it under “Records of” to see and add its records.")
        } catch {
            session.keepForm(FormState(name: "profile-add", values: form.filter { $0.key != "csrf" }, error: error, labels: Self.profileLabels))
        }
    }

    public func setOCRLanguages(_ session: WebSession, form: [String: String]) {
        do {
            let spec = (form["ocr"] ?? "").trimmingCharacters(in: .whitespaces)
            try DocumentSettings.setOCRLanguages(vault, spec, environment: ProcessEnvironment.variables)
            session.flash("Documents are read in \(spec) from now on.")
        } catch {
            session.keepForm(FormState(name: "ocr", values: form.filter { $0.key != "csrf" }, error: error, labels: Self.ocrLabels))
        }
    }
}
