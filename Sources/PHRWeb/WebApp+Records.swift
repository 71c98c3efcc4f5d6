import Foundation
import PHRService

/// The health record's screen: the medical ID, allergies, conditions, immunizations and
/// contacts, each listed with an add form (the CLI's checks and words, errors beside their
/// fields) and removal with confirmation.
extension WebApp {
    /// The kinds of record this screen lists, by the name their addresses use.
    public enum RecordScreenKind: String, Sendable, CaseIterable {
        case allergy, condition, immunization, procedure, family, contact

        var title: String {
            switch self {
            case .allergy: return "Allergies"
            case .condition: return "Conditions"
            case .immunization: return "Immunizations"
            case .procedure: return "Procedures"
            case .family: return "Family history"
            case .contact: return "Contacts"
            }
        }

        var singular: String {
            switch self {
            case .allergy: return "an allergy"
            case .condition: return "a condition"
            case .immunization: return "an immunization"
            case .procedure: return "a procedure"
            case .family: return "a relative's condition"
            case .contact: return "a contact"
            }
        }

        /// The inputs of its add form that show an error beside them, by the service layer's
        /// field names, with their labels.
        var labels: [String: String] {
            switch self {
            case .allergy: return ["substance": "Substance", "reaction": "Reaction", "severity": "Severity", "category": "Kind", "since": "Since"]
            case .condition: return ["name": "Condition", "since": "Since", "status": "Status"]
            case .immunization: return ["vaccine": "Vaccine", "date": "Date", "dose": "Dose number", "lot": "Lot"]
            case .procedure: return ["name": "Procedure", "date": "Date", "status": "Status", "body-site": "Where on the body", "performer": "By"]
            case .family: return ["relation": "Relative", "condition": "Condition", "age": "Age when it began", "cause-of-death": "Cause of death"]
            case .contact: return ["name": "Name", "phone": "Phone", "relation": "Relation", "email": "E-mail"]
            }
        }
    }

    static let medicalIDLabels = ["name": "Full name", "dob": "Date of birth", "sex": "Sex", "blood-type": "Blood type",
                                  "organ-donor": "Organ donor", "height": "Height", "weight": "Weight"]

    public func records(_ session: WebSession) throws -> HTML {
        let profile = try profile(session)
        let time = clock()
        var sections: [HTML] = []

        // About: the medical ID, and its form.
        let id = try MedicalIDStore(vault: vault, profile: profile, time: time).get()
        let idState = session.takeForm("id-set")
        let idFields = FormFields(form: "id-set", state: idState)
        let facts: [(String, String?)] = [
            ("Name", id?.name), ("Born", id?.dateOfBirth?.description), ("Sex", id?.sex?.rawValue), ("Blood type", id?.bloodType),
            ("Organ donor", id?.organDonor.map { $0 ? "yes" : "no" }), ("Height", id?.heightCm.map { "\(Observation.number($0)) cm" }),
            ("Weight", id?.weightKg.map { "\(Observation.number($0)) kg" }), ("Notes", id?.notes),
        ]
        let factRows: [HTML] = facts.compactMap { name, value in value.map { HTML("<dt>\(name)</dt><dd>\($0)</dd>") } }
        sections.append("""
        <section class="card" aria-labelledby="about-heading"><h2 id="about-heading">About \(profile.name)</h2>
        \(factRows.isEmpty ? HTML("<p>No medical ID yet: it is what the emergency card shows first.</p>") : HTML("<dl class=\"facts\">\(factRows)</dl>"))
        <details class="edit"\(idState == nil ? "" : " open")><summary>Change the medical ID</summary>
        <form method="post" action="/records/id" class="fields" novalidate><input type="hidden" name="csrf" value="\(session.csrf)">
        \(idFields.formError)
        \(idFields.input("name", label: "Full name", value: id?.name ?? "", extra: " autocomplete=\"off\""))
        \(idFields.input("dob", label: "Date of birth", type: "date", value: id?.dateOfBirth?.description ?? ""))
        \(idFields.select("sex", label: "Sex", options: [("", "(not given)")] + MedicalID.Sex.allCases.map { ($0.rawValue, $0.rawValue) }, value: id?.sex?.rawValue ?? ""))
        \(idFields.input("blood-type", label: "Blood type", value: id?.bloodType ?? "", extra: " autocomplete=\"off\"", hint: "A+, O-, AB+"))
        \(idFields.select("organ-donor", label: "Organ donor", options: [("", "(not given)"), ("yes", "yes"), ("no", "no")],
                          value: id?.organDonor.map { $0 ? "yes" : "no" } ?? ""))
        \(idFields.input("height", label: "Height", value: id?.heightCm.map { "\(Observation.number($0)) cm" } ?? "", extra: " autocomplete=\"off\"", hint: "178 cm, 5 ft 10 in"))
        \(idFields.input("weight", label: "Weight", value: id?.weightKg.map { "\(Observation.number($0)) kg" } ?? "", extra: " autocomplete=\"off\"", hint: "72.5 kg, 160 lb"))
        <p><button type="submit">Save the medical ID</button></p>
        </form></details></section>
        """)

        for kind in RecordScreenKind.allCases {
            let rows = try recordRows(kind, profile: profile, time: time)
            let state = session.takeForm("\(kind.rawValue)-add")
            let items: [HTML] = rows.map { row in
                """
                <li>\(row.line) <a class="small" href="/records/\(kind.rawValue)/\(row.id)/edit" aria-label="Change \(row.name)">Change…</a> \
                <a class="small" href="/records/\(kind.rawValue)/\(row.id)/remove" aria-label="Remove \(row.name)">Remove…</a></li>
                """
            }
            sections.append("""
            <section class="card" aria-labelledby="\(kind.rawValue)-heading"><h2 id="\(kind.rawValue)-heading">\(kind.title)</h2>
            \(items.isEmpty ? HTML("<p class=\"muted\">None recorded.</p>") : HTML("<ul class=\"plain\">\(items)</ul>"))
            <details class="edit"\(state == nil ? "" : " open")><summary>Add \(kind.singular)</summary>
            <form method="post" action="/records/\(kind.rawValue)/add" class="fields" novalidate><input type="hidden" name="csrf" value="\(session.csrf)">
            \(recordForm(kind, FormFields(form: "\(kind.rawValue)-add", state: state)))
            <p><button type="submit">Add \(kind.singular)</button></p>
            </form></details></section>
            """)
        }
        let body: HTML = """
        <h1>Health record</h1>
        <p class="whose-line">Profile: \(profile.name)</p>
        <div class="cards">\(sections)\(importForm(session, profile: profile))</div>
        """
        return try layout(.records, session, profile).page(body)
    }

    /// Each record of `kind`: its id, a line that describes it, and its name.
    private func recordRows(_ kind: RecordScreenKind, profile: Profile, time: TimeContext) throws -> [(id: String, line: HTML, name: String)] {
        switch kind {
        case .allergy:
            return try AllergyStore(vault: vault, profile: profile, time: time).list().map { allergy in
                let severe = allergy.severity == .severe || allergy.criticality == .high
                let mark: HTML = severe ? "<span class=\"badge badge-warn\"><span aria-hidden=\"true\">▲</span> severe</span> " : .empty
                let details = [allergy.reaction, severe ? nil : allergy.severity?.rawValue, allergy.category?.rawValue,
                               allergy.status == .active ? nil : allergy.status.rawValue, allergy.since.map { "since \($0)" }].compactMap { $0 }
                return (allergy.id, "\(mark)<strong>\(allergy.substance)</strong>\(details.isEmpty ? "" : ": " + details.joined(separator: ", "))", allergy.substance)
            }
        case .condition:
            return try ConditionStore(vault: vault, profile: profile, time: time).list().map { condition in
                let details = [condition.status.rawValue, condition.since.map { "since \($0)" }, condition.resolved.map { "resolved \($0)" }].compactMap { $0 }
                return (condition.id, "<strong>\(condition.name)</strong> <span class=\"muted\">\(details.joined(separator: ", "))</span>", condition.name)
            }
        case .immunization:
            return try ImmunizationStore(vault: vault, profile: profile, time: time).list().map { shot in
                let details = [shot.date?.description ?? "date not known", shot.doseNumber.map { "dose \($0)" }, shot.lot.map { "lot \($0)" }].compactMap { $0 }
                return (shot.id, "<strong>\(shot.vaccine)</strong> <span class=\"muted\">\(details.joined(separator: ", "))</span>", shot.vaccine)
            }
        case .procedure:
            return try ProcedureStore(vault: vault, profile: profile, time: time).list().map { procedure in
                let details = [procedure.date?.description ?? "undated", procedure.status == .completed ? nil : procedure.status.rawValue,
                               procedure.bodySite, procedure.performer.map { "by \($0)" }].compactMap { $0 }
                return (procedure.id, "<strong>\(procedure.name)</strong> <span class=\"muted\">\(details.joined(separator: ", "))</span>", procedure.name)
            }
        case .family:
            return try FamilyHistoryStore(vault: vault, profile: profile, time: time).list().map { entry in
                let details = [entry.onsetAge.map { "from age \($0)" }, entry.causeOfDeath == true ? "cause of death" : nil].compactMap { $0 }
                return (entry.id, "<strong>\(entry.relation)</strong>: \(entry.condition)\(details.isEmpty ? "" : " ")<span class=\"muted\">\(details.joined(separator: ", "))</span>",
                        "\(entry.relation): \(entry.condition)")
            }
        case .contact:
            return try ContactStore(vault: vault, profile: profile, time: time).list().map { contact in
                let mark: HTML = contact.emergency ? " <span class=\"badge\"><span aria-hidden=\"true\">✚</span> emergency</span>" : .empty
                return (contact.id, """
                    <strong>\(contact.name)</strong>\(contact.relation.map { " (\($0))" })\(mark): <a href="tel:\(contact.phone)">\(contact.phone)</a>\
                    \(contact.email.map { text -> HTML in " · <a href=\"mailto:\(text)\">\(text)</a>" })
                    """, contact.name)
            }
        }
    }

    /// The inputs of `kind`'s form, showing `current` (a record's values by input name, when
    /// changing one); changing one shows the fields only `edit` takes too (status, resolved, notes).
    private func recordForm(_ kind: RecordScreenKind, _ fields: FormFields, current: [String: String] = [:], editing: Bool = false) -> HTML {
        func value(_ name: String) -> String { current[name] ?? "" }
        let notes: HTML = editing ? fields.textarea("notes", label: "Notes", value: value("notes")) : .empty
        switch kind {
        case .allergy:
            let status: HTML = editing
                ? fields.select("status", label: "Status", options: Allergy.Status.allCases.map { ($0.rawValue, $0.rawValue) }, value: value("status"))
                : .empty
            return """
            \(fields.formError)
            \(fields.input("substance", label: "Substance", value: value("substance"), extra: " required autocomplete=\"off\"", hint: "Penicillin, peanuts, latex"))
            \(fields.input("reaction", label: "Reaction", value: value("reaction"), extra: " autocomplete=\"off\"", hint: "hives, anaphylaxis"))
            \(fields.select("severity", label: "Severity", options: [("", "(not given)")] + Allergy.Severity.allCases.map { ($0.rawValue, $0.rawValue) }, value: value("severity")))
            \(fields.select("category", label: "Kind", options: [("", "(not given)")] + Allergy.Category.allCases.map { ($0.rawValue, $0.rawValue) }, value: value("category")))
            \(status)
            \(fields.input("since", label: "Since", value: value("since"), extra: " autocomplete=\"off\"", hint: "2019, 2019-05 or 2019-05-14"))
            \(notes)
            """
        case .condition:
            let resolved: HTML = editing
                ? fields.input("resolved", label: "Resolved", value: value("resolved"), extra: " autocomplete=\"off\"", hint: "a date marks it resolved; empty, not resolved")
                : .empty
            return """
            \(fields.formError)
            \(fields.input("name", label: "Condition", value: value("name"), extra: " required autocomplete=\"off\"", hint: "Hypothyroidism, asthma"))
            \(fields.input("since", label: "Since", value: value("since"), extra: " autocomplete=\"off\"", hint: "2019, 2019-05 or 2019-05-14"))
            \(fields.select("status", label: "Status", options: Condition.Status.allCases.map { ($0.rawValue, $0.rawValue) }, value: current["status"] ?? "active"))
            \(resolved)
            \(notes)
            """
        case .immunization:
            return """
            \(fields.formError)
            \(fields.input("vaccine", label: "Vaccine", value: value("vaccine"), extra: " required autocomplete=\"off\"", hint: "Tetanus (Td), Influenza 2026"))
            \(fields.input("date", label: "Date", value: value("date"), extra: " autocomplete=\"off\"", hint: "2024, 2024-10 or 2024-10-02; empty if not known"))
            \(fields.input("dose", label: "Dose number", value: value("dose"), extra: " inputmode=\"numeric\" autocomplete=\"off\"", hint: "1, 2, 3 in a series"))
            \(fields.input("lot", label: "Lot", value: value("lot"), extra: " autocomplete=\"off\""))
            \(notes)
            """
        case .procedure:
            return """
            \(fields.formError)
            \(fields.input("name", label: "Procedure", value: value("name"), extra: " required autocomplete=\"off\"", hint: "Appendectomy, colonoscopy"))
            \(fields.input("date", label: "Date", value: value("date"), extra: " autocomplete=\"off\"", hint: "2009, 2009-04 or 2009-04-02; empty if not known"))
            \(fields.select("status", label: "Status", options: Procedure.Status.allCases.map { ($0.rawValue, $0.rawValue) }, value: current["status"] ?? "completed"))
            \(fields.input("body-site", label: "Where on the body", value: value("body-site"), extra: " autocomplete=\"off\"", hint: "left knee, colon"))
            \(fields.input("performer", label: "By", value: value("performer"), extra: " autocomplete=\"off\"", hint: "Dr Ortiz, Riverside Hospital"))
            \(notes)
            """
        case .family:
            return """
            \(fields.formError)
            \(fields.input("relation", label: "Relative", value: value("relation"), extra: " required autocomplete=\"off\" list=\"relatives\"", hint: "mother, father, sister, maternal grandmother"))
            <datalist id="relatives">\(FamilyHistory.roleCodes.map { HTML("<option value=\"\($0.words)\">") })</datalist>
            \(fields.input("condition", label: "Condition", value: value("condition"), extra: " required autocomplete=\"off\"", hint: "breast cancer, type 2 diabetes"))
            \(fields.input("age", label: "Age when it began", value: value("age"), extra: " inputmode=\"numeric\" autocomplete=\"off\"", hint: "in years"))
            \(fields.select("cause-of-death", label: "Cause of death", options: [("", "(not said)"), ("yes", "yes, they died of it"), ("no", "no")],
                            value: value("cause-of-death")))
            \(notes)
            """
        case .contact:
            return """
            \(fields.formError)
            \(fields.input("name", label: "Name", value: value("name"), extra: " required autocomplete=\"off\""))
            \(fields.input("phone", label: "Phone", type: "tel", value: value("phone"), extra: " required autocomplete=\"off\""))
            \(fields.input("relation", label: "Relation", value: value("relation"), extra: " autocomplete=\"off\"", hint: "partner, GP, neighbour"))
            \(fields.input("email", label: "E-mail", type: "email", value: value("email"), extra: " autocomplete=\"off\""))
            <div class="field"><label><input type="checkbox" name="emergency" value="1"\(fields.value("emergency", value("emergency")) == "1" ? " checked" as HTML : .empty)> An emergency contact (on the emergency card)</label></div>
            \(notes)
            """
        }
    }

    /// The record `id` of `kind` (its full id, not a prefix): its name and its values by the
    /// name of its form's inputs; NotFound when this profile has no such record.
    private func recordValues(_ kind: RecordScreenKind, id: String, profile: Profile, time: TimeContext) throws -> (name: String, values: [String: String]) {
        func exact<Record>(_ get: () throws -> Record, id recordID: (Record) -> String) throws -> Record {
            guard let record = try? get(), recordID(record) == id else { throw NotFound() }
            return record
        }
        switch kind {
        case .allergy:
            let allergy = try exact({ try AllergyStore(vault: vault, profile: profile, time: time).get(id) }, id: \.id)
            return (allergy.substance, ["substance": allergy.substance, "reaction": allergy.reaction ?? "", "severity": allergy.severity?.rawValue ?? "",
                                        "category": allergy.category?.rawValue ?? "", "status": allergy.status.rawValue,
                                        "since": allergy.since?.description ?? "", "notes": allergy.notes ?? ""])
        case .condition:
            let condition = try exact({ try ConditionStore(vault: vault, profile: profile, time: time).get(id) }, id: \.id)
            return (condition.name, ["name": condition.name, "since": condition.since?.description ?? "", "status": condition.status.rawValue,
                                     "resolved": condition.resolved?.description ?? "", "notes": condition.notes ?? ""])
        case .immunization:
            let shot = try exact({ try ImmunizationStore(vault: vault, profile: profile, time: time).get(id) }, id: \.id)
            return (shot.vaccine, ["vaccine": shot.vaccine, "date": shot.date?.description ?? "", "dose": shot.doseNumber.map(String.init) ?? "",
                                   "lot": shot.lot ?? "", "notes": shot.notes ?? ""])
        case .procedure:
            let procedure = try exact({ try ProcedureStore(vault: vault, profile: profile, time: time).get(id) }, id: \.id)
            return (procedure.name, ["name": procedure.name, "date": procedure.date?.description ?? "", "status": procedure.status.rawValue,
                                     "body-site": procedure.bodySite ?? "", "performer": procedure.performer ?? "", "notes": procedure.notes ?? ""])
        case .family:
            let entry = try exact({ try FamilyHistoryStore(vault: vault, profile: profile, time: time).get(id) }, id: \.id)
            return ("\(entry.relation): \(entry.condition)", ["relation": entry.relation, "condition": entry.condition,
                                                              "age": entry.onsetAge.map(String.init) ?? "",
                                                              "cause-of-death": entry.causeOfDeath.map { $0 ? "yes" : "no" } ?? "", "notes": entry.notes ?? ""])
        case .contact:
            let contact = try exact({ try ContactStore(vault: vault, profile: profile, time: time).get(id) }, id: \.id)
            return (contact.name, ["name": contact.name, "phone": contact.phone, "relation": contact.relation ?? "", "email": contact.email ?? "",
                                   "emergency": contact.emergency ? "1" : "", "notes": contact.notes ?? ""])
        }
    }

    /// A record's form (`phr allergy edit` and the others): what is typed replaces what is
    /// there; an emptied optional field clears it.
    public func editRecordPage(_ session: WebSession, kind: RecordScreenKind, id: String) throws -> HTML {
        let profile = try profile(session)
        let time = clock()
        let (name, values) = try recordValues(kind, id: id, profile: profile, time: time)
        let fields = FormFields(form: "\(kind.rawValue)-edit", state: session.takeForm("\(kind.rawValue)-edit"))
        let body: HTML = """
        <p class="crumbs"><a href="/records#\(kind.rawValue)-heading">Health record</a></p>
        <h1>Change \(name)</h1>
        <p class="whose-line">Profile: \(profile.name) · \(kind.title)</p>
        <form method="post" action="/records/\(kind.rawValue)/\(id)/edit" class="fields" novalidate>
        <input type="hidden" name="csrf" value="\(session.csrf)">
        \(recordForm(kind, fields, current: values, editing: true))
        <div class="actions"><button type="submit">Save the changes</button> <a href="/records#\(kind.rawValue)-heading">Leave it as it is</a></div>
        </form>
        """
        return try layout(.records, session, profile, path: "/records/\(kind.rawValue)/\(id)/edit").page(body)
    }

    /// Changes a record from its form; the page to show next (the record's form again, as typed,
    /// when a field is refused).
    public func editRecord(_ session: WebSession, kind: RecordScreenKind, id: String, form: [String: String]) throws -> String {
        let profile = try profile(session)
        let time = clock()
        _ = try recordValues(kind, id: id, profile: profile, time: time)
        func typed(_ name: String) -> String { (form[name] ?? "").trimmingCharacters(in: .whitespacesAndNewlines) }
        do {
            let saved: String
            switch kind {
            case .allergy:
                var input = AllergyStore.Input()
                (input.substance, input.reaction, input.severity, input.category) = (typed("substance"), typed("reaction"), typed("severity"), typed("category"))
                (input.status, input.since, input.notes) = (typed("status"), typed("since"), typed("notes"))
                saved = try AllergyStore(vault: vault, profile: profile, time: time).edit(id, input).substance
            case .condition:
                var input = ConditionStore.Input()
                (input.name, input.since, input.notes) = (typed("name"), typed("since"), typed("notes"))
                // A resolved date marks it resolved (`phr condition edit --resolved`); the
                // status chosen counts unless it is "active" beside a resolved date.
                input.resolved = typed("resolved")
                let status = typed("status")
                if !(status == Condition.Status.active.rawValue && !typed("resolved").isEmpty) { input.status = status }
                saved = try ConditionStore(vault: vault, profile: profile, time: time).edit(id, input).name
            case .immunization:
                var input = ImmunizationStore.Input()
                (input.vaccine, input.date, input.dose, input.lot, input.notes) = (typed("vaccine"), typed("date"), typed("dose"), typed("lot"), typed("notes"))
                saved = try ImmunizationStore(vault: vault, profile: profile, time: time).edit(id, input).vaccine
            case .procedure:
                var input = ProcedureStore.Input()
                (input.name, input.date, input.status) = (typed("name"), typed("date"), typed("status"))
                (input.bodySite, input.performer, input.notes) = (typed("body-site"), typed("performer"), typed("notes"))
                saved = try ProcedureStore(vault: vault, profile: profile, time: time).edit(id, input).name
            case .family:
                var input = FamilyHistoryStore.Input()
                (input.relation, input.condition, input.onsetAge) = (typed("relation"), typed("condition"), typed("age"))
                (input.causeOfDeath, input.notes) = (typed("cause-of-death"), typed("notes"))
                let entry = try FamilyHistoryStore(vault: vault, profile: profile, time: time).edit(id, input)
                saved = "\(entry.relation): \(entry.condition)"
            case .contact:
                var input = ContactStore.Input()
                (input.name, input.phone, input.relation, input.email) = (typed("name"), typed("phone"), typed("relation"), typed("email"))
                (input.emergency, input.notes) = (form["emergency"] == "1", typed("notes"))
                saved = try ContactStore(vault: vault, profile: profile, time: time).edit(id, input).name
            }
            session.flash("Saved \(saved) in \(kind.title.lowercased()).")
            return "/records"
        } catch {
            var labels = kind.labels
            labels["notes"] = "Notes"
            if kind == .allergy { labels["status"] = "Status" }
            if kind == .condition { labels["resolved"] = "Resolved" }
            session.keepForm(FormState(name: "\(kind.rawValue)-edit", values: form.filter { $0.key != "csrf" }, error: error, labels: labels))
            return "/records/\(kind.rawValue)/\(id)/edit"
        }
    }

    /// Adds a record of `kind` from its form; the outcome, or the refused form, for the next page.
    public func addRecord(_ session: WebSession, kind: RecordScreenKind, form: [String: String]) {
        do {
            let profile = try profile(session)
            let time = clock()
            let added: String
            switch kind {
            case .allergy:
                var input = AllergyStore.Input()
                input.substance = form["substance"] ?? ""
                input.reaction = Self.given(form["reaction"])
                input.severity = Self.given(form["severity"])
                input.category = Self.given(form["category"])
                input.since = Self.given(form["since"])
                added = try AllergyStore(vault: vault, profile: profile, time: time).add(input).substance
            case .condition:
                var input = ConditionStore.Input()
                input.name = form["name"] ?? ""
                input.since = Self.given(form["since"])
                input.status = Self.given(form["status"])
                added = try ConditionStore(vault: vault, profile: profile, time: time).add(input).name
            case .immunization:
                var input = ImmunizationStore.Input()
                input.vaccine = form["vaccine"] ?? ""
                input.date = Self.given(form["date"])
                input.dose = Self.given(form["dose"])
                input.lot = Self.given(form["lot"])
                added = try ImmunizationStore(vault: vault, profile: profile, time: time).add(input).vaccine
            case .procedure:
                var input = ProcedureStore.Input()
                input.name = form["name"] ?? ""
                input.date = Self.given(form["date"])
                input.status = Self.given(form["status"])
                input.bodySite = Self.given(form["body-site"])
                input.performer = Self.given(form["performer"])
                added = try ProcedureStore(vault: vault, profile: profile, time: time).add(input).name
            case .family:
                var input = FamilyHistoryStore.Input()
                input.relation = form["relation"] ?? ""
                input.condition = form["condition"] ?? ""
                input.onsetAge = Self.given(form["age"])
                input.causeOfDeath = Self.given(form["cause-of-death"])
                let entry = try FamilyHistoryStore(vault: vault, profile: profile, time: time).add(input)
                added = "\(entry.relation): \(entry.condition)"
            case .contact:
                var input = ContactStore.Input()
                input.name = form["name"] ?? ""
                input.phone = form["phone"] ?? ""
                input.relation = Self.given(form["relation"])
                input.email = Self.given(form["email"])
                input.emergency = form["emergency"] == "1"
                added = try ContactStore(vault: vault, profile: profile, time: time).add(input).name
            }
            session.flash("Added \(added) to \(kind.title.lowercased()).")
        } catch {
            session.keepForm(FormState(name: "\(kind.rawValue)-add", values: form.filter { $0.key != "csrf" }, error: error, labels: kind.labels))
        }
    }

    /// Sets the medical ID from its form (`phr id set`: an empty field clears it).
    public func setMedicalID(_ session: WebSession, form: [String: String]) {
        do {
            let profile = try profile(session)
            var input = MedicalIDStore.Input()
            input.name = form["name"]?.trimmingCharacters(in: .whitespaces)
            input.dateOfBirth = form["dob"]?.trimmingCharacters(in: .whitespaces)
            input.sex = form["sex"]
            input.bloodType = form["blood-type"]?.trimmingCharacters(in: .whitespaces)
            input.organDonor = form["organ-donor"]
            input.height = form["height"]?.trimmingCharacters(in: .whitespaces)
            input.weight = form["weight"]?.trimmingCharacters(in: .whitespaces)
            _ = try MedicalIDStore(vault: vault, profile: profile, time: clock()).set(input)
            session.flash("Saved the medical ID.")
        } catch {
            session.keepForm(FormState(name: "id-set", values: form.filter { $0.key != "csrf" }, error: error, labels: Self.medicalIDLabels))
        }
    }

    /// The record `id` of `kind`, by name, or NotFound.
    private func recordName(_ kind: RecordScreenKind, id: String, profile: Profile) throws -> String {
        let rows = try recordRows(kind, profile: profile, time: clock())
        guard let row = rows.first(where: { $0.id == id }) else { throw NotFound() }
        return row.name
    }

    public func confirmRecordRemoval(_ session: WebSession, kind: RecordScreenKind, id: String) throws -> HTML {
        let profile = try profile(session)
        let name = try recordName(kind, id: id, profile: profile)
        let body: HTML = """
        <h1>Remove \(kind.singular)?</h1>
        <p><strong>\(name)</strong> goes from \(profile.name)'s \(kind.title.lowercased())\([.allergy, .condition, .contact].contains(kind) ? " and from the emergency card" : ""). This cannot be undone, except from a backup.</p>
        <form method="post" action="/records/\(kind.rawValue)/\(id)/remove" class="actions"><input type="hidden" name="csrf" value="\(session.csrf)">
        <button type="submit" class="danger">Remove it</button> <a href="/records">Keep it</a></form>
        """
        return try layout(.records, session, profile, path: "/records/\(kind.rawValue)/\(id)/remove").page(body)
    }

    public func removeRecord(_ session: WebSession, kind: RecordScreenKind, id: String) throws {
        let profile = try profile(session)
        let time = clock()
        let name = try recordName(kind, id: id, profile: profile)
        switch kind {
        case .allergy: _ = try AllergyStore(vault: vault, profile: profile, time: time).remove(id)
        case .condition: _ = try ConditionStore(vault: vault, profile: profile, time: time).remove(id)
        case .immunization: _ = try ImmunizationStore(vault: vault, profile: profile, time: time).remove(id)
        case .procedure: _ = try ProcedureStore(vault: vault, profile: profile, time: time).remove(id)
        case .family: _ = try FamilyHistoryStore(vault: vault, profile: profile, time: time).remove(id)
        case .contact: _ = try ContactStore(vault: vault, profile: profile, time: time).remove(id)
        }
        session.flash("Removed \(name) from \(kind.title.lowercased()).")
    }
}
