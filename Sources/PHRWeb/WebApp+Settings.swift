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
        let reminderList = try ReminderStore(vault: vault, profile: profile, time: time).list()
        let medications = try MedicationStore(vault: vault, profile: profile, time: time).list().filter { $0.schedule.isScheduled }
        let reminderRows: [HTML] = reminderList.map { reminder in
            let what: String
            if reminder.kind == .med, let id = reminder.medicationID {
                what = medications.first { $0.id == id }.map { "medication: \($0.displayName)" } ?? reminder.summary
            } else {
                what = reminder.summary
            }
            let state: HTML = reminder.paused ? " <span class=\"badge\"><span aria-hidden=\"true\">❚❚</span> paused</span>" : .empty
            return """
            <li>\(what)\(state) \
            <form method="post" action="/settings/reminders/\(reminder.id)/pause" class="inline"><input type="hidden" name="csrf" value="\(session.csrf)">\
            <input type="hidden" name="paused" value="\(reminder.paused ? "0" : "1")">\
            <button type="submit" class="secondary small" aria-label="\(reminder.paused ? "Resume" : "Pause") the reminder: \(what)">\(reminder.paused ? "Resume" : "Pause")</button></form> \
            <a class="small" href="/settings/reminders/\(reminder.id)/remove" aria-label="Remove the reminder: \(what)">Remove…</a></li>
            """
        }
        let reminderFields = FormFields(form: "reminder-add", state: session.takeForm("reminder-add"))
        let medicationOptions = [("", "every medication with a schedule")] + medications.map { ($0.id, $0.displayName) }
        let remindersHTML: HTML = """
        <section class="card" aria-labelledby="reminders-heading"><h2 id="reminders-heading">Reminders</h2>
        \(reminderRows.isEmpty ? HTML("<p>No reminders.</p>") : HTML("<ul class=\"plain\">\(reminderRows)</ul>"))
        <p class="muted">They go to this computer's desktop and every reminder channel, from the timer <code>phr remind install</code> sets up.</p>
        <details class="edit"\(reminderFields.state == nil ? "" : " open")><summary>Add a reminder</summary>
        <form method="post" action="/settings/reminders/add" class="fields" novalidate><input type="hidden" name="csrf" value="\(session.csrf)">
        \(reminderFields.formError)
        \(reminderFields.select("kind", label: "Of what", options: [("water", "water through the day"), ("med", "medication doses"), ("appt", "appointments ahead")], value: "water"))
        <fieldset class="choice"><legend>Water</legend>
        \(reminderFields.select("mode", label: "How often", options: [("rare", "once, when the day starts"), ("default", "four times a day"), ("all", "every two hours")], value: "default"))
        \(reminderFields.input("window", label: "Between", extra: " autocomplete=\"off\"", hint: "08:00-22:00 when empty"))
        </fieldset>
        <fieldset class="choice"><legend>Medication doses</legend>
        \(reminderFields.select("medication", label: "Which", options: medicationOptions))
        </fieldset>
        <fieldset class="choice"><legend>Appointments</legend>
        \(reminderFields.input("before", label: "How long before", extra: " autocomplete=\"off\"", hint: "24h, 1h, 30m; 24h when empty"))
        </fieldset>
        <p><button type="submit">Add the reminder</button></p>
        </form></details></section>
        """

        let channelRows: [HTML] = channels.map { channel in
            let state: String
            if let error = channel.lastError { state = "last try failed: \(error)" }
            else if let success = channel.lastSuccessAt { state = "last sent \(success.prefix(16).replacingOccurrences(of: "T", with: " ")) UTC" }
            else { state = "not used yet" }
            return """
            <li><strong>\(channel.kind.rawValue)</strong> \(channel.displayTarget) <span class="muted">\(channel.id) · \(channel.details ? "with details" : "no record text") · \(state)</span> \
            <a class="small" href="/settings/channels/\(channel.id)/remove" aria-label="Remove the \(channel.kind.rawValue) channel \(channel.id)">Remove…</a></li>
            """
        }
        let channelFields = FormFields(form: "channel-add", state: session.takeForm("channel-add"))
        let addableKinds: [ReminderChannel.Kind] = [.ntfy, .gotify, .email, .webhook]
        let reminders: HTML = """
        <section class="card" aria-labelledby="channels-heading"><h2 id="channels-heading">Reminder channels</h2>
        \(channels.isEmpty ? HTML("<p>No channels: reminders show on this computer only.</p>") : HTML("""
        <ul class="plain">\(channelRows)</ul>
        <form method="post" action="/settings/channels/test"><input type="hidden" name="csrf" value="\(session.csrf)">
        <button type="submit" class="secondary">Send a test notification</button></form>
        """))
        <details class="edit"\(channelFields.state == nil ? "" : " open")><summary>Add a channel</summary>
        <form method="post" action="/settings/channels/add" class="fields" novalidate><input type="hidden" name="csrf" value="\(session.csrf)">
        \(channelFields.formError)
        \(channelFields.select("kind", label: "Kind", options: addableKinds.map { ($0.rawValue, Self.channelKindWords($0)) }, value: "ntfy"))
        \(channelFields.input("target", label: "Address", extra: " required autocomplete=\"off\" spellcheck=\"false\"",
                              hint: "ntfy: the topic's URL (a long random topic); Gotify: the server's URL; e-mail: the address; webhook: the URL. https, or http to this computer only"))
        \(channelFields.input("token", label: "Access token", type: "password", extra: " autocomplete=\"off\"",
                              hint: "Gotify's application token, or a protected ntfy topic's; kept encrypted in the vault"))
        <div class="field"><label><input type="checkbox" name="details" value="1"\(channelFields.value("details") == "1" ? " checked" as HTML : .empty)> \
        Name medications, people and amounts in its notifications (otherwise they say only what is due)</label></div>
        <p><button type="submit">Add the channel</button></p>
        <p class="muted">A command channel (a program run with each reminder) is added on this computer with <code>phr remind channel add command</code>: the browser cannot set a program to run.</p>
        </form></details>
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
        let sync = try syncCard(session)
        let lock: HTML = """
        <section class="card" aria-labelledby="lock-heading"><h2 id="lock-heading">Lock</h2>
        <p>phr locks itself after a while without use. Lock it now to forget its keys at once; run <code>phr serve</code> to come back.</p>
        <form method="post" action="/lock"><input type="hidden" name="csrf" value="\(session.csrf)"><button type="submit">Lock phr now</button></form></section>
        """
        let body: HTML = """
        <h1>Settings</h1>
        <p class="whose-line">Profile: \(profile.name) (units, goals and channels are the profile's; OCR languages the vault's)</p>
        <div class="cards">\(units)\(goalsHTML)\(remindersHTML)\(reminders)\(profilesHTML)\(sync)\(ocr)\(lock)</div>
        """
        return try layout(.settings, session, profile).page(body)
    }

    /// Sync between devices: set up or not, where, when last, what waits each way, the devices
    /// and the open conflicts (docs/sync.md); a button that syncs now. Setting sync up and adding
    /// devices stay on the command line (`phr sync init`, `enroll`, `join`).
    func syncCard(_ session: WebSession) throws -> HTML {
        guard try SyncEngine.isInitialized(vault) else {
            return """
            <section class="card" aria-labelledby="sync-heading"><h2 id="sync-heading">Sync between devices</h2>
            <p>This vault is not synced with another device. To keep it on a second computer through a folder you already share (a USB disk, Syncthing, Nextcloud) or an rclone remote, run <code>phr sync init</code> and <code>phr sync remote add NAME FOLDER</code> here, then <code>phr sync enroll</code>; see <code>docs/sync.md</code>.</p></section>
            """
        }
        // A remote that cannot be read (offline, unmounted) leaves "to receive" unknown.
        let remote = try? SyncEngine.remote(vault, name: nil)
        let status = try (try? SyncEngine.status(vault, remote: remote)) ?? SyncEngine.status(vault, remote: nil)
        let conflicts = try SyncEngine.conflicts(vault)
        let last = status.lastSync.flatMap(Timestamp.parse).map { Self.longDate(CalendarDate($0, in: clock().zone)) + " at " + Self.hourMinute($0, clock().zone) } ?? "never"
        let devices = status.devices.count
        let conflictList: HTML = conflicts.isEmpty ? "" : """
            <h3>Open conflicts</h3>
            <p class="muted">Both devices changed the same thing; the record has the later change, and the other value is kept here. Settle one with <code>phr sync resolve ID --keep current</code> or <code>--keep other</code>.</p>
            <ul class="plain">\(conflicts.prefix(20).map { conflict in
                HTML("<li><strong>\(conflict.kind.replacingOccurrences(of: "_", with: " ")) \(conflict.record ?? "(removed)")</strong>, \(conflict.field == "*" ? "the record" : conflict.field): now <q>\(conflict.kept ?? "kept")</q>, other <q>\(conflict.lost ?? "removed")</q> <span class=\"muted\">(\(conflict.id))</span></li>")
            })</ul>
            """
        return """
        <section class="card" aria-labelledby="sync-heading"><h2 id="sync-heading">Sync between devices</h2>
        <dl class="facts">
        <dt>Through</dt><dd>\(status.remotes.isEmpty ? "no remote yet (phr sync remote add NAME FOLDER)" : status.remotes.map { "\($0.name): \($0.target)" }.joined(separator: ", "))</dd>
        <dt>Last sync</dt><dd>\(last)</dd>
        <dt>To send</dt><dd>\(status.pendingChanges == 0 ? "nothing" : "\(status.pendingChanges) changed record\(status.pendingChanges == 1 ? "" : "s")")</dd>
        <dt>To receive</dt><dd>\(status.remoteLogs.map { $0 == 0 ? "nothing" : "\($0) change log\($0 == 1 ? "" : "s")" } ?? "unknown (the remote cannot be read)")</dd>
        <dt>Devices</dt><dd>\(devices) (this one: \(String(status.device.prefix(8))))</dd>
        <dt>Conflicts</dt><dd>\(status.openConflicts == 0 ? "none" : "\(status.openConflicts) open")</dd>
        </dl>
        \(conflictList)
        \(status.remotes.count == 1 ? HTML("<form method=\"post\" action=\"/settings/sync\"><input type=\"hidden\" name=\"csrf\" value=\"\(session.csrf)\"><button type=\"submit\">Sync now</button></form>") : "")
        </section>
        """
    }

    /// "14:05" in `zone`.
    static func hourMinute(_ date: Date, _ zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

    /// Syncs now with the vault's only remote, and says what it did.
    public func syncNow(_ session: WebSession) {
        do {
            let report = try SyncEngine(vault: vault, remote: try SyncEngine.remote(vault, name: nil)).run()
            var words = "Synced: sent \(report.sentChanges) change\(report.sentChanges == 1 ? "" : "s"), applied \(report.appliedChanges) from \(report.receivedLogs) log\(report.receivedLogs == 1 ? "" : "s")."
            if report.newConflicts > 0 { words += " \(report.newConflicts) new conflict\(report.newConflicts == 1 ? "" : "s"): both devices changed the same thing; the other value is kept, listed below." }
            if report.waitingLogs > 0 { words += " \(report.waitingLogs) log\(report.waitingLogs == 1 ? " waits" : "s wait") for earlier ones that have not arrived." }
            session.flash(words, isError: report.newConflicts > 0)
        } catch {
            session.flash("Not synced. " + Self.words(error), isError: true)
        }
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

    static let channelLabels = ["kind": "Kind", "target": "Address", "token": "Access token", "token-file": "Access token"]

    static func channelKindWords(_ kind: ReminderChannel.Kind) -> String {
        switch kind {
        case .ntfy: return "ntfy (a phone app)"
        case .gotify: return "Gotify (a phone app)"
        case .email: return "e-mail"
        case .webhook: return "webhook (a JSON POST)"
        case .command: return "command"
        }
    }

    static let reminderLabels = ["kind": "Of what", "mode": "How often", "window": "Between", "med": "Which", "before": "How long before"]

    /// Adds a reminder (`phr remind add`): only the chosen kind's fields are read.
    public func addReminder(_ session: WebSession, form: [String: String]) {
        do {
            let profile = try profile(session)
            var input = ReminderStore.Input(kind: form["kind"] ?? "")
            switch input.kind {
            case "water": (input.mode, input.window) = (Self.given(form["mode"]), Self.given(form["window"]))
            case "med": input.medication = Self.given(form["medication"])
            case "appt": input.before = Self.given(form["before"])
            default: break
            }
            let (reminder, outcome) = try ReminderStore(vault: vault, profile: profile, time: clock()).add(input)
            switch outcome {
            case .added: session.flash("Added the reminder: \(reminder.summary).")
            case .updated: session.flash("Changed the water reminder: \(reminder.summary).")
            case .unchanged: session.flash("That reminder is already there: \(reminder.summary).")
            }
        } catch {
            var state = FormState(name: "reminder-add", values: form.filter { $0.key != "csrf" }, error: error, labels: Self.reminderLabels)
            if state.field == "med" { state.field = "medication" }
            session.keepForm(state)
        }
    }

    /// The reminder `id` of the session's profile (its full id), or NotFound.
    private func reminder(_ session: WebSession, id: String) throws -> (Profile, Reminder) {
        let profile = try profile(session)
        guard let reminder = try ReminderStore(vault: vault, profile: profile, time: clock()).list().first(where: { $0.id == id }) else {
            throw NotFound()
        }
        return (profile, reminder)
    }

    public func pauseReminder(_ session: WebSession, id: String, paused: Bool) throws {
        let (profile, reminder) = try reminder(session, id: id)
        let changed = try ReminderStore(vault: vault, profile: profile, time: clock()).setPaused(reminder.id, paused)
        session.flash("\(paused ? "Paused" : "Resumed") the reminder: \(changed.summary).")
    }

    public func confirmReminderRemoval(_ session: WebSession, id: String) throws -> HTML {
        let (profile, reminder) = try reminder(session, id: id)
        let body: HTML = """
        <h1>Remove the reminder?</h1>
        <p><strong>\(reminder.summary)</strong>: no more reminders of it. <strong>Pause</strong> keeps it for later instead.</p>
        <form method="post" action="/settings/reminders/\(reminder.id)/remove" class="actions"><input type="hidden" name="csrf" value="\(session.csrf)">
        <button type="submit" class="danger">Remove it</button> <a href="/settings">Keep it</a></form>
        """
        return try layout(.settings, session, profile, path: "/settings/reminders/\(reminder.id)/remove").page(body)
    }

    public func removeReminder(_ session: WebSession, id: String) throws {
        let (profile, reminder) = try reminder(session, id: id)
        let removed = try ReminderStore(vault: vault, profile: profile, time: clock()).remove(reminder.id)
        session.flash("Removed the reminder: \(removed.summary).")
    }

    /// Adds a reminder channel (`phr remind channel add`'s checks), but never a command.
    public func addChannel(_ session: WebSession, form: [String: String]) {
        let kept = form.filter { ["kind", "target", "details"].contains($0.key) }
        do {
            let profile = try profile(session)
            // The store's own reading of the kind (any case, spaces around): only those offered pass.
            let kind = (form["kind"] ?? "").lowercased().trimmingCharacters(in: .whitespaces)
            guard let chosen = ReminderChannel.Kind(rawValue: kind), [.ntfy, .gotify, .email, .webhook].contains(chosen) else {
                session.keepForm(FormState(name: "channel-add", values: kept, field: "kind",
                                           message: ReminderChannel.Kind(rawValue: kind) == .command
                                               ? "A command channel is added on this computer with phr remind channel add command."
                                               : "Choose ntfy, Gotify, e-mail or a webhook."))
                return
            }
            let token = (form["token"] ?? "").trimmingCharacters(in: .whitespaces)
            if chosen == .gotify && token.isEmpty {
                session.keepForm(FormState(name: "channel-add", values: kept, field: "token",
                                           message: "A Gotify channel needs the application token: Gotify shows it under Apps."))
                return
            }
            let input = ReminderChannelStore.Input(kind: kind, target: form["target"] ?? "", token: token.isEmpty ? nil : token,
                                                   details: form["details"] == "1")
            let channel = try ReminderChannelStore(vault: vault, profile: profile, time: clock()).add(input)
            var words = "Added the \(channel.kind.rawValue) channel \(channel.displayTarget)."
            if channel.details {
                words += channel.leavesTheMachine
                    ? " Its notifications will name medications, people and amounts, and they leave this computer."
                    : " Its notifications will name medications, people and amounts."
            }
            session.flash(words + " Send a test notification to try it.")
        } catch {
            // The token is never sent back to the page; a refused address is said beside it, but
            // one holding a user name or password is not kept (nor shown) either.
            var values = kept
            if let target = values["target"], let url = URLComponents(string: target), url.user != nil || url.password != nil {
                values["target"] = nil
            }
            var state = FormState(name: "channel-add", values: values, error: error, labels: Self.channelLabels)
            if case ReminderChannelError.invalidTarget = error { state.field = "target" }
            session.keepForm(state)
        }
    }

    /// The channel `id` of the session's profile (its full id), or NotFound.
    private func channel(_ session: WebSession, id: String) throws -> (Profile, ReminderChannel) {
        let profile = try profile(session)
        guard let channel = try ReminderChannelStore(vault: vault, profile: profile, time: clock()).list().first(where: { $0.id == id }) else {
            throw NotFound()
        }
        return (profile, channel)
    }

    public func confirmChannelRemoval(_ session: WebSession, id: String) throws -> HTML {
        let (profile, channel) = try channel(session, id: id)
        let body: HTML = """
        <h1>Remove the reminder channel?</h1>
        <p>Reminders stop going to <strong>\(channel.kind.rawValue) \(channel.displayTarget)</strong>; those it still owed are dropped. \
        Adding it again needs its address\(channel.kind == .gotify ? " and token" : "").</p>
        <form method="post" action="/settings/channels/\(channel.id)/remove" class="actions"><input type="hidden" name="csrf" value="\(session.csrf)">
        <button type="submit" class="danger">Remove it</button> <a href="/settings">Keep it</a></form>
        """
        return try layout(.settings, session, profile, path: "/settings/channels/\(channel.id)/remove").page(body)
    }

    public func removeChannel(_ session: WebSession, id: String) throws {
        let (profile, channel) = try channel(session, id: id)
        let removed = try ReminderChannelStore(vault: vault, profile: profile, time: clock()).remove(channel.id)
        session.flash("Removed the \(removed.kind.rawValue) channel \(removed.displayTarget).")
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
