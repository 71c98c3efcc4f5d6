import Foundation
import GRDB

/// A profile's history by date, newest first: documents (by their date, else the day they were
/// added), lab results (one event a day and report), doses (one event a day: how many taken and
/// skipped), appointments, immunizations, procedures, conditions and allergies (from when they began), and
/// imports (one event a day and kind of record brought in from another system). One read
/// transaction of small projections, so a page of 10,000 documents and years of doses is cheap.
public struct Timeline {
    public enum Kind: String, Sendable, CaseIterable {
        case document, labs, doses, appointment, immunization, procedure, condition, allergy, imported

        public var title: String {
            switch self {
            case .document: return "Documents"
            case .labs: return "Lab results"
            case .doses: return "Doses"
            case .appointment: return "Appointments"
            case .immunization: return "Immunizations"
            case .procedure: return "Procedures"
            case .condition: return "Conditions"
            case .allergy: return "Allergies"
            case .imported: return "Imports"
            }
        }
    }

    public struct Event: Sendable, Equatable {
        public var kind: Kind
        /// "2026-03-18", "2026-03" or "2026" (a partial date sorts as its first day).
        public var date: String
        public var title: String
        public var detail: String?
        /// The record to open: a document, a lab result, an appointment's day.
        public var recordID: String?
        /// Among events of one day and kind, their order (documents: as their list orders them).
        var position = 0
    }

    public let vault: Vault
    public let profile: Profile
    public let time: TimeContext

    public init(vault: Vault, profile: Profile, time: TimeContext) {
        self.vault = vault
        self.profile = profile
        self.time = time
    }

    /// The events of `kinds`, newest first, `limit` of them after skipping `offset`; and how many
    /// there are in all.
    public func page(kinds: Set<Kind> = Set(Kind.allCases), offset: Int = 0, limit: Int = 50) throws -> (events: [Event], total: Int) {
        let wanted = offset + limit
        return try vault.database.read { db in
            var events: [Event] = []
            var total = 0
            let profileID = profile.id
            if kinds.contains(.document) {
                // Only the newest `wanted` documents can be on this page.
                total += try Int.fetchOne(db, sql: "SELECT count(*) FROM document WHERE profile_id = ?", arguments: [profileID]) ?? 0
                for (position, row) in try Row.fetchAll(db, sql: """
                    SELECT id, title, type, coalesce(date, substr(added_at, 1, 10)) AS day, date IS NULL AS undated FROM document
                    WHERE profile_id = ? ORDER BY day DESC, added_at DESC, id LIMIT ?
                    """, arguments: [profileID, wanted]).enumerated() {
                    let undated: Bool = row["undated"]
                    events.append(Event(kind: .document, date: row["day"], title: row["title"],
                                        detail: (row["type"] as String) + (undated ? ", added (no date of its own)" : ""), recordID: row["id"],
                                        position: position))
                }
            }
            if kinds.contains(.labs) {
                for row in try Row.fetchAll(db, sql: """
                    SELECT substr(o.effective, 1, 10) AS day, o.lab_document_id AS document, min(o.id) AS first, count(*) AS results,
                           group_concat(o.name, ', ') AS names, d.title AS title,
                           sum(CASE WHEN o.lab_flag IN ('H', 'L', 'HH', 'LL', 'A') THEN 1 ELSE 0 END) AS flagged
                    FROM observation o LEFT JOIN document d ON d.id = o.lab_document_id
                    WHERE o.profile_id = ? AND o.effective IS NOT NULL AND (o.category = 'laboratory' OR o.lab_origin IN ('document', 'typed'))
                    GROUP BY day, o.lab_document_id ORDER BY day DESC
                    """, arguments: [profileID]) {
                    let count: Int = row["results"]
                    let names: String = row["names"] ?? ""
                    let flagged: Int = row["flagged"]
                    let shortNames = names.split(separator: ",").prefix(4).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")
                        + (count > 4 ? ", …" : "")
                    events.append(Event(kind: .labs, date: row["day"], title: "\(count) lab \(count == 1 ? "result" : "results")"
                                            + ((row["title"] as String?).map { " from \($0)" } ?? ""),
                                        detail: shortNames + (flagged > 0 ? " (\(flagged) flagged)" : ""), recordID: row["first"]))
                }
            }
            if kinds.contains(.doses) {
                var days: [String: (taken: Int, skipped: Int, names: Set<String>)] = [:]
                for row in try Row.fetchAll(db, sql: """
                    SELECT d.at, d.status, m.name FROM dose d JOIN medication m ON m.id = d.medication_id WHERE m.profile_id = ?
                    """, arguments: [profileID]) {
                    guard let instant = Timestamp.parse(row["at"]) else { continue }
                    let day = CalendarDate(instant, in: time.zone).description
                    var entry = days[day] ?? (0, 0, [])
                    if (row["status"] as String) == "taken" { entry.taken += 1 } else { entry.skipped += 1 }
                    entry.names.insert(row["name"])
                    days[day] = entry
                }
                for (day, entry) in days {
                    let words = [entry.taken > 0 ? "\(entry.taken) taken" : nil, entry.skipped > 0 ? "\(entry.skipped) skipped" : nil].compactMap { $0 }
                    events.append(Event(kind: .doses, date: day, title: "Doses: " + words.joined(separator: ", "),
                                        detail: entry.names.sorted().joined(separator: ", "), recordID: nil))
                }
            }
            if kinds.contains(.appointment) {
                for row in try Row.fetchAll(db, sql: """
                    SELECT id, with_name, start_local, all_day, location, status FROM appointment WHERE profile_id = ?
                    """, arguments: [profileID]) {
                    let start: String = row["start_local"]
                    let allDay: Bool = row["all_day"]
                    let status: String = row["status"]
                    events.append(Event(kind: .appointment, date: String(start.prefix(10)),
                                        title: "Appointment with \(row["with_name"] as String)" + (status == "cancelled" ? " (cancelled)" : ""),
                                        detail: ([allDay ? "all day" : String(start.suffix(5))] + [row["location"] as String?].compactMap { $0 })
                                            .joined(separator: ", "), recordID: row["id"]))
                }
            }
            if kinds.contains(.immunization) {
                for row in try Row.fetchAll(db, sql: "SELECT id, vaccine, date, dose_number FROM immunization WHERE profile_id = ? AND date IS NOT NULL", arguments: [profileID]) {
                    events.append(Event(kind: .immunization, date: row["date"], title: "Immunization: \(row["vaccine"] as String)",
                                        detail: (row["dose_number"] as Int?).map { "dose \($0)" }, recordID: row["id"]))
                }
            }
            if kinds.contains(.procedure) {
                for row in try Row.fetchAll(db, sql: "SELECT id, name, date, status, body_site FROM procedure WHERE profile_id = ? AND date IS NOT NULL",
                                            arguments: [profileID]) {
                    let status: String = row["status"]
                    let details = [status == "completed" ? nil : status, row["body_site"] as String?].compactMap { $0 }
                    events.append(Event(kind: .procedure, date: row["date"], title: "Procedure: \(row["name"] as String)",
                                        detail: details.isEmpty ? nil : details.joined(separator: ", "), recordID: row["id"]))
                }
            }
            if kinds.contains(.condition) {
                for row in try Row.fetchAll(db, sql: "SELECT id, name, since, status FROM condition WHERE profile_id = ? AND since IS NOT NULL",
                                            arguments: [profileID]) {
                    events.append(Event(kind: .condition, date: row["since"], title: "Condition began: \(row["name"] as String)",
                                        detail: row["status"], recordID: row["id"]))
                }
            }
            if kinds.contains(.allergy) {
                for row in try Row.fetchAll(db, sql: "SELECT id, substance, since, severity FROM allergy WHERE profile_id = ? AND since IS NOT NULL",
                                            arguments: [profileID]) {
                    events.append(Event(kind: .allergy, date: row["since"], title: "Allergy noted: \(row["substance"] as String)",
                                        detail: row["severity"], recordID: row["id"]))
                }
            }
            if kinds.contains(.imported) {
                var sql: [String] = []
                for (table, words) in [("medication", "medications"), ("allergy", "allergies"), ("condition", "conditions"),
                                       ("immunization", "immunizations"), ("procedure", "procedures"), ("family_history", "family history entries"),
                                       ("observation", "results"), ("appointment", "appointments")] {
                    // Results saved from a document carry a source key too ("document:…"): not imports.
                    sql.append("SELECT substr(created_at, 1, 10) AS day, '\(words)' AS what, count(*) AS n FROM \(table) WHERE profile_id = ?1 AND source_key IS NOT NULL AND source_key NOT LIKE 'document%' GROUP BY day")
                }
                for row in try Row.fetchAll(db, sql: sql.joined(separator: " UNION ALL "), arguments: [profileID]) {
                    let count: Int = row["n"]
                    events.append(Event(kind: .imported, date: row["day"], title: "Imported \(count) \(row["what"] as String)",
                                        detail: "from another system's records (FHIR, C-CDA, Apple Health)", recordID: nil))
                }
            }
            total += events.filter { $0.kind != .document }.count
            // Newest first; within a day, the kinds in their order, then by title.
            let order = Dictionary(uniqueKeysWithValues: Kind.allCases.enumerated().map { ($1, $0) })
            events.sort { a, b in
                let (left, right) = (Self.sortKey(a.date), Self.sortKey(b.date))
                if left != right { return left > right }
                if a.kind != b.kind { return order[a.kind]! < order[b.kind]! }
                if a.position != b.position { return a.position < b.position }
                return a.title < b.title
            }
            return (Array(events.dropFirst(offset).prefix(limit)), total)
        }
    }

    /// A partial date sorts after the full dates it holds ("2019" as "2019-00-00", below every
    /// day of 2019 newest first), so a month's heading is never split by it.
    static func sortKey(_ date: String) -> String {
        switch date.count {
        case 4: return date + "-00-00"
        case 7: return date + "-00"
        default: return date
        }
    }
}
