import Foundation
import PHRService

/// phr's tools for a local assistant. Every one reads; none writes. Each answers with what the
/// matching `phr … --json` command prints (a page of it where lists run long).
enum MCPTools {
    static let all: [MCPTool] = [
        profiles, search, listRecords, getRecord, documentText, labTrend, medications, dueDoses, logStats, appointments,
        emergencySummary, medicalID, drugInformation, interactionWarnings,
    ]

    /// The tools `scope` allows, in the order above.
    static func available(in scope: MCPScope) -> [MCPTool] { all.filter { $0.available(in: scope) } }

    // MARK: - Profiles

    static let profiles = MCPTool(
        name: "list_profiles", title: "Profiles",
        description: "The people whose records this server may read (phr keeps a profile per family member). Other tools take a profile's name; without one they read the first profile listed here.",
        needs: [], parameters: [], perProfile: false
    ) { engine, _ in
        let allowed = try engine.profilesInScope()
        let listed = try engine.allProfiles().filter { profile in allowed.contains { $0 == profile["name"]?.text } }
        return MCPToolOutput(structured: .object(["profiles": .array(listed)]), profile: nil, count: listed.count)
    }

    // MARK: - Search

    static let searchKinds = ["doc", "med", "appt", "contact", "condition", "allergy", "immunization", "procedure", "family",
                              "observation", "profile", "log"]

    static let search = MCPTool(
        name: "search", title: "Search the records",
        description: """
            Search one profile's records and the text of its documents, offline, as `phr search` does: words match \
            with typos forgiven and synonyms known (HbA1c, A1C), "quoted phrases" match as written, -word excludes. \
            Hits come best first, with a snippet, the record's kind and ID (read one with get_record, a document's \
            text with document_text); at most 1,000 over all pages.
            """,
        needs: MCPKind.allCases, needsAny: true,
        parameters: [
            MCPParameter(name: "query", kind: .string(maxLength: 500), description: "What to look for.", required: true),
            MCPParameter(name: "kind", kind: .choice(searchKinds), description: "Only this kind of record."),
            MCPParameter(name: "type", kind: .string(maxLength: 100), description: "Only records of this type (documents: prescription, insurance, lab, imaging, ...)."),
            MCPParameter(name: "tag", kind: .string(maxLength: 100), description: "Only records with this tag."),
            MCPParameter(name: "since", kind: .day, description: "Only records dated on or after this day."),
            MCPParameter(name: "until", kind: .day, description: "Only records dated on or before this day."),
            MCPParameter(name: "limit", kind: .integer(1...50), description: "At most this many hits (default 20)."),
            MCPPaging.cursorParameter,
        ]
    ) { engine, arguments in
        let profile = try engine.profile(arguments.string("profile"))
        if let kind = arguments.string("kind"), let scoped = MCPKind.ofSearchKind(kind), !engine.scope.allows(scoped) {
            throw MCPError.invalidParams("arguments.kind", "\(kind) records are outside what phr mcp was started to share")
        }
        let limit = arguments.int("limit") ?? 20
        let offset = try MCPPaging.offset(arguments.string("cursor"))
        // phr search gives at most 1,000 hits (and 50 more are asked for, as some may be of
        // kinds outside the scope): past that, no more pages.
        guard offset < 1_000 else {
            return MCPToolOutput(structured: .object(["hits": .array([]), "profile": .string(profile), "next_cursor": .null]), profile: profile, count: 0)
        }
        var command = ["search", "--json", "--profile", profile, "--limit", String(min(offset + limit + 1 + 50, 1_000))]
        for option in ["kind", "type", "tag", "since", "until"] {
            if let value = arguments.string(option) { command.append("--\(option)=\(value)") }
        }
        let answer = try engine.command(command + ["--", arguments.string("query") ?? ""])
        // Hits of kinds outside the scope never leave (a query can name any kind itself).
        let hits = (answer["hits"]?.elements ?? []).filter { hit in
            hit["kind"]?.text.flatMap(MCPKind.ofSearchKind).map(engine.scope.allows) ?? false
        }
        let page = Array(hits.dropFirst(offset).prefix(limit))
        // Not the spelling corrections: they come from the whole vault's vocabulary (every
        // profile, every kind), so they would say what words other records hold.
        var result: [String: JSONValue] = ["hits": .array(page), "profile": .string(profile)]
        let more = hits.count > offset + page.count && offset + page.count < 1_000
        result["next_cursor"] = more ? .string("o\(offset + page.count)") : .null
        return MCPToolOutput(structured: .object(result), profile: profile, count: page.count)
    }

    // MARK: - Lists and single records

    struct RecordKind {
        var name: String
        var scope: MCPKind
        var list: [String]
        /// The member whose first ten characters are the record's day, for since/until.
        var dateKey: String?
        var show: [String]?
    }

    static let recordKinds: [RecordKind] = [
        RecordKind(name: "documents", scope: .documents, list: ["doc", "list"], dateKey: "date", show: ["doc", "show"]),
        RecordKind(name: "medications", scope: .medications, list: ["med", "list", "--all"], dateKey: "start", show: ["med", "show"]),
        RecordKind(name: "appointments", scope: .appointments, list: ["appt", "list"], dateKey: "start", show: ["appt", "show"]),
        RecordKind(name: "lab_results", scope: .results, list: ["lab", "list"], dateKey: "effective", show: ["lab", "show"]),
        RecordKind(name: "observations", scope: .results, list: ["observation", "list"], dateKey: "effective", show: nil),
        RecordKind(name: "log_entries", scope: .log, list: ["log", "list"], dateKey: "day", show: ["log", "show"]),
        RecordKind(name: "contacts", scope: .contacts, list: ["contact", "list"], dateKey: nil, show: nil),
        RecordKind(name: "allergies", scope: .allergies, list: ["allergy", "list"], dateKey: nil, show: nil),
        RecordKind(name: "conditions", scope: .conditions, list: ["condition", "list"], dateKey: "since", show: nil),
        RecordKind(name: "immunizations", scope: .immunizations, list: ["immunization", "list"], dateKey: "date", show: nil),
        RecordKind(name: "procedures", scope: .procedures, list: ["procedure", "list"], dateKey: "date", show: nil),
        RecordKind(name: "family_history", scope: .familyHistory, list: ["family", "list"], dateKey: nil, show: nil),
    ]

    static func recordKind(_ engine: MCPEngine, _ arguments: MCPArguments) throws -> RecordKind {
        let name = arguments.string("kind") ?? ""
        guard let kind = recordKinds.first(where: { $0.name == name }) else {
            throw MCPError.invalidParams("arguments.kind", "'\(name)' is not a kind of record")
        }
        guard engine.scope.allows(kind.scope) else {
            throw MCPError.invalidParams("arguments.kind", "\(name) are outside what phr mcp was started to share")
        }
        return kind
    }

    static let listRecords = MCPTool(
        name: "list_records", title: "List records",
        description: """
            One profile's records of one kind, newest first where they have dates, as `phr <kind> list --json` gives \
            them, a page at a time (next_cursor continues; total says how many there are, except for documents). \
            since/until keep those dated in that range (records without a date are left out then).
            """,
        needs: MCPKind.allCases, needsAny: true,
        parameters: [
            MCPParameter(name: "kind", kind: .choice(recordKinds.map(\.name)), description: "Which records.", required: true),
            MCPParameter(name: "since", kind: .day, description: "Only those dated on or after this day."),
            MCPParameter(name: "until", kind: .day, description: "Only those dated on or before this day."),
            MCPParameter(name: "limit", kind: .integer(1...200), description: "At most this many (default 50)."),
            MCPPaging.cursorParameter,
        ]
    ) { engine, arguments in
        let kind = try recordKind(engine, arguments)
        let profile = try engine.profile(arguments.string("profile"))
        let since = arguments.string("since"), until = arguments.string("until")
        var command = kind.list + ["--json", "--profile", profile]
        if kind.name == "documents" || kind.name == "log_entries" {
            if let since { command += ["--since", since] }
            if let until { command += ["--until", until] }
        }
        let offset = try MCPPaging.offset(arguments.string("cursor"))
        let limit = arguments.int("limit") ?? 50
        if kind.name == "documents" {
            // Thousands of documents: the page is read from the vault, not cut from all of them.
            let records = try engine.command(command + ["--limit", String(limit + 1), "--offset", String(offset)]).elements
            let page = Array(records.prefix(limit))
            return MCPToolOutput(structured: .object([
                "kind": .string(kind.name), "profile": .string(profile), "records": .array(page),
                "next_cursor": records.count > limit ? .string("o\(offset + limit)") : .null,
            ]), profile: profile, count: page.count)
        }
        var records = try engine.command(command).elements
        if since != nil || until != nil {
            guard let key = kind.dateKey else {
                throw MCPError.invalidParams(since != nil ? "arguments.since" : "arguments.until", "\(kind.name) have no date")
            }
            records = records.filter { record in
                guard let day = record[key]?.text.map({ String($0.prefix(10)) }) else { return false }
                return (since.map { day >= $0 } ?? true) && (until.map { day <= $0 } ?? true)
            }
        }
        let page = Array(records.dropFirst(offset).prefix(limit))
        return MCPToolOutput(structured: .object([
            "kind": .string(kind.name), "profile": .string(profile), "records": .array(page), "total": .integer(Int64(records.count)),
            "next_cursor": MCPPaging.cursor(after: offset, count: page.count, total: records.count),
        ]), profile: profile, count: page.count)
    }

    static let getRecord = MCPTool(
        name: "get_record", title: "One record",
        description: """
            One record by its kind and ID (as search and list_records give them), with what `phr <kind> show --json` \
            adds: a medication's schedule, last doses and 30-day adherence; a document's pages and OCR (its text comes \
            from document_text).
            """,
        needs: MCPKind.allCases, needsAny: true,
        parameters: [
            MCPParameter(name: "kind", kind: .choice(recordKinds.map(\.name)), description: "The record's kind.", required: true),
            MCPParameter(name: "id", kind: .id, description: "The record's ID.", required: true),
        ]
    ) { engine, arguments in
        let kind = try recordKind(engine, arguments)
        let profile = try engine.profile(arguments.string("profile"))
        let id = arguments.string("id") ?? ""
        if let show = kind.show {
            let record = try engine.command(show + ["--json", "--profile", profile, "--", id])
            return MCPToolOutput(structured: wrapped(record, as: "record"), profile: profile, count: 1)
        }
        let records = try engine.command(kind.list + ["--json", "--profile", profile]).elements
        guard let record = records.first(where: { $0["id"]?.text == id }) else {
            throw MCPToolFailure(message: "no \(kind.name.replacingOccurrences(of: "_", with: " ")) record with ID \(id) in \(profile)'s records")
        }
        return MCPToolOutput(structured: .object(["record": record]), profile: profile, count: 1)
    }

    /// `value` if it is an object, else `{name: value}` (structured content is an object).
    static func wrapped(_ value: JSONValue, as name: String) -> JSONValue {
        if case .object = value { return value }
        return .object([name: value])
    }

    // MARK: - Documents

    static let documentText = MCPTool(
        name: "document_text", title: "A document's text",
        description: """
            The text phr read from a document (PDF text, or OCR of a scan with its confidence per page), page by page, \
            in chunks: at most max_chars characters per call, next_cursor continues where a chunk ended.
            """,
        needs: [.documents],
        parameters: [
            MCPParameter(name: "id", kind: .id, description: "The document's ID.", required: true),
            MCPParameter(name: "first_page", kind: .integer(1...100_000), description: "The first page (default 1)."),
            MCPParameter(name: "last_page", kind: .integer(1...100_000), description: "The last page (default: the last)."),
            MCPParameter(name: "max_chars", kind: .integer(1_000...100_000), description: "At most this many characters of text in this answer (default 20000)."),
            MCPPaging.cursorParameter,
        ]
    ) { engine, arguments in
        let profile = try engine.profile(arguments.string("profile"))
        let shown = try engine.command(["doc", "show", "--json", "--text", "--profile", profile, "--", arguments.string("id") ?? ""])
        let first = arguments.int("first_page") ?? 1
        let last = arguments.int("last_page") ?? Int.max
        guard first <= last else { throw MCPError.invalidParams("arguments.last_page", "is before first_page") }
        let chunk = try MCPDocumentText.chunk(shown, first: first, last: last, budget: arguments.int("max_chars") ?? 20_000,
                                              cursor: arguments.string("cursor"))
        return MCPToolOutput(structured: chunk.structured, profile: profile, count: chunk.pages)
    }

    // MARK: - Labs

    static let labTrend = MCPTool(
        name: "lab_trend", title: "A lab value over time",
        description: """
            Every result for one analyte (ferritin, HbA1c, LDL, a name as the lab wrote it), oldest first, with values, \
            units, reference ranges, flags, dates and the report each came from, as `phr lab trend --json` gives them.
            """,
        needs: [.results],
        parameters: [
            MCPParameter(name: "analyte", kind: .string(maxLength: 200), description: "The analyte.", required: true),
            MCPParameter(name: "since", kind: .string(maxLength: 20), description: "Only results on or after this day (YYYY-MM-DD, or 5y, 18m, 6w, 30d before today)."),
            MCPParameter(name: "units", kind: .choice(["printed", "si", "conventional"]), description: "printed (as the report printed them, the default), si or conventional."),
        ]
    ) { engine, arguments in
        let profile = try engine.profile(arguments.string("profile"))
        var command = ["lab", "trend", "--json", "--profile", profile]
        if let since = arguments.string("since") { command.append("--since=\(since)") }
        if let units = arguments.string("units") { command.append("--units=\(units)") }
        let trend = try engine.command(command + ["--", arguments.string("analyte") ?? ""])
        return MCPToolOutput(structured: wrapped(trend, as: "trend"), profile: profile, count: trend["points"]?.elements.count)
    }

    // MARK: - Medications

    static let medications = MCPTool(
        name: "medications", title: "Medications",
        description: """
            The medications with their dose, schedule, the next dose and 30-day adherence (doses taken, skipped and \
            missed), as `phr med show --json` gives each; stopped ones too with include_stopped.
            """,
        needs: [.medications],
        parameters: [MCPParameter(name: "include_stopped", kind: .boolean, description: "Include stopped and ended medications.")]
    ) { engine, arguments in
        let profile = try engine.profile(arguments.string("profile"))
        var command = ["med", "list", "--json", "--profile", profile]
        if arguments.bool("include_stopped") { command.append("--all") }
        let listed = try engine.command(command).elements.prefix(200)
        let shown = try listed.map { medication -> JSONValue in
            guard let id = medication["id"]?.text else { return medication }
            var shown = try engine.command(["med", "show", "--json", "--profile", profile, "--", id])
            if case .object(var members) = shown {
                members["doses"] = nil
                shown = .object(members)
            }
            return shown
        }
        return MCPToolOutput(structured: .object(["medications": .array(shown), "profile": .string(profile)]), profile: profile, count: shown.count)
    }

    static let dueDoses = MCPTool(
        name: "due_doses", title: "Doses due",
        description: "Doses due soon and those overdue now, as `phr med due --json` gives them.",
        needs: [.medications],
        parameters: [MCPParameter(name: "within", kind: .string(maxLength: 10), description: "How far ahead to look, e.g. 24h (the default), 3d.")]
    ) { engine, arguments in
        let profile = try engine.profile(arguments.string("profile"))
        var command = ["med", "due", "--json", "--profile", profile]
        if let within = arguments.string("within") { command.append("--within=\(within)") }
        let due = try engine.command(command).elements
        return MCPToolOutput(structured: .object(["due": .array(due), "profile": .string(profile)]), profile: profile, count: due.count)
    }

    static let drugInformation = MCPTool(
        name: "drug_information", title: "What a medicine is",
        description: """
            Ingredients, brands, forms, strengths, classes and the FDA label of a medicine, from the answers phr keeps \
            in the vault (RxNorm and openFDA); no network unless the user started phr mcp with --allow-network. \
            Information, not medical advice.
            """,
        needs: [.medications],
        parameters: [MCPParameter(name: "medicine", kind: .string(maxLength: 200), description: "A medicine's name, the ID of one of the profile's medications, an RxCUI or an NDC.", required: true)]
    ) { engine, arguments in
        let profile = try engine.profile(arguments.string("profile"))
        let info = try engine.command(["med", "info", "--json", "--profile", profile, "--", arguments.string("medicine") ?? ""])
        return MCPToolOutput(structured: wrapped(info, as: "information"), profile: profile, count: 1)
    }

    static let interactionWarnings = MCPTool(
        name: "interaction_warnings", title: "Interaction warnings",
        description: """
            The active medications checked against each other and against the allergies, as `phr med check --json` \
            does, from the answers phr keeps in the vault. Information, not medical advice.
            """,
        needs: [.medications, .allergies],
        parameters: []
    ) { engine, arguments in
        let profile = try engine.profile(arguments.string("profile"))
        let check = try engine.command(["med", "check", "--json", "--profile", profile])
        return MCPToolOutput(structured: wrapped(check, as: "warnings"), profile: profile, count: nil)
    }

    // MARK: - Health log, appointments, the summary

    static let logStats = MCPTool(
        name: "log_stats", title: "Health-log statistics",
        description: "Totals, averages, goals met, streaks and trends from the daily health log (water, sleep, workouts, meals, weight, blood pressure, glucose) for a period, as `phr stats --json` gives them.",
        needs: [.log],
        parameters: [
            MCPParameter(name: "metric", kind: .choice(["water", "sleep", "workout", "meal", "weight", "bp", "glucose"]), description: "One metric (default: all)."),
            MCPParameter(name: "period", kind: .choice(["week", "month", "year"]), description: "The last 7, 30 or 365 days (default week)."),
            MCPParameter(name: "days", kind: .integer(1...3_660), description: "The last N days instead of a period."),
        ]
    ) { engine, arguments in
        let profile = try engine.profile(arguments.string("profile"))
        var command = ["stats", "--json", "--profile", profile]
        if let days = arguments.int("days") {
            guard arguments.string("period") == nil else { throw MCPError.invalidParams("arguments.days", "give days or period, not both") }
            command += ["--days", String(days)]
        } else if let period = arguments.string("period") {
            command.append("--\(period)")
        }
        if let metric = arguments.string("metric") { command += ["--", metric] }
        let stats = try engine.command(command)
        return MCPToolOutput(structured: wrapped(stats, as: "stats"), profile: profile, count: nil)
    }

    static let appointments = MCPTool(
        name: "appointments", title: "Appointments",
        description: "Appointments starting in a range of days (both ends included), or only upcoming ones, as `phr appt list --json` gives them.",
        needs: [.appointments],
        parameters: [
            MCPParameter(name: "from", kind: .day, description: "The first day."),
            MCPParameter(name: "to", kind: .day, description: "The last day."),
            MCPParameter(name: "upcoming", kind: .boolean, description: "Only those not over yet."),
        ]
    ) { engine, arguments in
        let profile = try engine.profile(arguments.string("profile"))
        var command = ["appt", "list", "--json", "--profile", profile]
        if arguments.bool("upcoming") { command.append("--upcoming") }
        let from = arguments.string("from"), to = arguments.string("to")
        if let from, let to, to < from { throw MCPError.invalidParams("arguments.to", "is before from") }
        let listed = try engine.command(command).elements.filter { appointment in
            guard from != nil || to != nil else { return true }
            guard let day = appointment["start"]?.text.map({ String($0.prefix(10)) }) else { return false }
            return (from.map { day >= $0 } ?? true) && (to.map { day <= $0 } ?? true)
        }
        let page = Array(listed.prefix(500))
        return MCPToolOutput(structured: .object(["appointments": .array(page), "profile": .string(profile), "total": .integer(Int64(listed.count))]),
                             profile: profile, count: page.count)
    }

    static let emergencySection: [(key: String, kind: MCPKind)] = [
        ("allergies", .allergies), ("conditions", .conditions), ("medications", .medications), ("contacts", .contacts),
    ]

    static let emergencySummary = MCPTool(
        name: "emergency_summary", title: "Emergency summary",
        description: "What the emergency card says: who (the medical ID), allergies, conditions, medications and whom to call (the parts this server may read; withheld names the others), as `phr emergency --json` gives it.",
        needs: [.allergies, .conditions, .medications, .contacts, .medicalID], needsAny: true,
        parameters: []
    ) { engine, arguments in
        let profile = try engine.profile(arguments.string("profile"))
        let summary = try MCPTools.summary(engine, profile: profile)
        return MCPToolOutput(structured: summary, profile: profile, count: nil)
    }

    /// `phr emergency --json` without what is outside the scope (named in `withheld`): the
    /// sections of kinds not allowed, and everything else on the card (name, birth date, blood
    /// type, organ donation, height, weight, notes: the medical ID) unless the medical ID is.
    static func summary(_ engine: MCPEngine, profile: String) throws -> JSONValue {
        guard case .object(let card) = try engine.command(["emergency", "--json", "--profile", profile]) else {
            throw MCPError(code: MCPError.internalCode, message: "phr's emergency summary was not an object")
        }
        var kept: [String: JSONValue] = [:]
        var withheld: [JSONValue] = []
        for key in card.keys.sorted() {
            let kind = emergencySection.first { $0.key == key }?.kind ?? .medicalID
            if key == "profile" || engine.scope.allows(kind) {
                kept[key] = card[key]
            } else {
                withheld.append(.string(key))
            }
        }
        if !withheld.isEmpty { kept["withheld"] = .array(withheld) }
        return .object(kept)
    }

    static let medicalID = MCPTool(
        name: "medical_id", title: "Medical ID",
        description: "The medical ID: name, date of birth, blood type, organ donation, height, weight and notes, as `phr id show --json` gives it.",
        needs: [.medicalID],
        parameters: []
    ) { engine, arguments in
        let profile = try engine.profile(arguments.string("profile"))
        let id = try engine.command(["id", "show", "--json", "--profile", profile])
        return MCPToolOutput(structured: wrapped(id, as: "medical_id"), profile: profile, count: 1)
    }
}
