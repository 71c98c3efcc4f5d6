import Foundation
import PHRService

/// Prints an import report: what was added per kind, then what was skipped and why, grouped
/// so a bundle with 18 claims takes one line.
enum ImportReportPrinter {
    static let labels = ["medical_id": "medical ID", "medical_id_notes": "medical ID notes", "medications": "medications", "doses": "doses",
                         "appointments": "appointments", "contacts": "contacts", "allergies": "allergies",
                         "conditions": "conditions", "immunizations": "immunizations",
                         "procedures": "procedures", "family_history": "family history", "observations": "observations",
                         "log_entries": "log entries", "goals": "goals", "reminders": "reminders", "health_settings": "log settings"]

    static func print(_ report: ImportReport, file: String) {
        let verb = report.dryRun ? "would import" : "imported"
        Console.out("\(verb) \(file) (\(report.format)) into profile \(report.profile)\(report.createdProfile ? ", created for it" : "")")
        var any = false
        for kind in ImportReport.kinds {
            var parts: [String] = []
            if kind == "medical_id" || kind == "health_settings" {
                // There is one medical ID (and one set of log settings): say what happened to it, not how many.
                if report.added[kind] != nil { parts.append("set") }
                if report.updated[kind] != nil { parts.append("updated") }
                if report.unchanged[kind] != nil { parts.append("already up to date") }
            } else {
                if let count = report.added[kind] { parts.append("\(count) added") }
                if let count = report.updated[kind] { parts.append("\(count) updated") }
                if let count = report.unchanged[kind] { parts.append("\(count) already there") }
            }
            guard !parts.isEmpty else { continue }
            any = true
            Console.out("  " + (labels[kind] ?? kind).padding(toLength: 15, withPad: " ", startingAt: 0) + parts.joined(separator: ", "))
        }
        if !any { Console.out("  nothing to import") }
        printTypes(report.types ?? [])
        list(report.skipped.filter { !$0.rejected }, heading: "skipped")
        list(report.skipped.filter(\.rejected), heading: "refused as bad data")
        list(report.repaired, heading: "kept with a repair")
        for note in report.notes { Console.out("note: \(note)") }
    }

    /// Per source type (an Apple Health export, a Google Fit Takeout): what became of the records phr keeps.
    private static func printTypes(_ types: [ImportReport.TypeSummary]) {
        let kept = types.filter { $0.added + $0.updated + $0.alreadyThere + $0.summed + $0.duplicates > 0 }
        guard !kept.isEmpty else { return }
        Console.out("by type:")
        for type in kept {
            var name = type.type
            for prefix in ["HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKCorrelationTypeIdentifier", "HKWorkoutTypeIdentifier"]
            where name.hasPrefix(prefix) {
                name = String(name.dropFirst(prefix.count))
            }
            var parts = ["\(type.added) added"]
            if type.updated > 0 { parts.append("\(type.updated) updated") }
            if type.alreadyThere > 0 { parts.append("\(type.alreadyThere) already there") }
            if type.summed > 0 { parts.append("\(type.summed) summed into nights") }
            if type.duplicates > 0 { parts.append("\(type.duplicates) duplicate\(type.duplicates == 1 ? "" : "s") \(type.duplicateNote ?? "of a higher-priority source")") }
            if type.skipped > 0 { parts.append("\(type.skipped) skipped") }
            if type.rejected > 0 { parts.append("\(type.rejected) refused") }
            let unit = type.unit ?? "record"
            Console.out("  " + (name.isEmpty ? "Workout" : name).padding(toLength: 22, withPad: " ", startingAt: 0)
                + "\(type.records) \(unit)\(type.records == 1 ? "" : "s"): " + parts.joined(separator: ", "))
        }
    }

    /// Skipped entries, one line per type and reason.
    private static func list(_ skips: [ImportReport.Skip], heading: String) {
        if !skips.isEmpty {
            Console.out("\(heading) \(skips.count):")
            // In first-seen order, found by key: a report of 200,000 refused entries, each with
            // its own reason, is grouped in linear time (a search per entry took 15 minutes).
            var groups: [(type: String, reason: String, entries: [String])] = []
            var index: [String: Int] = [:]
            for skip in skips {
                let reason = skip.reason.cli
                let key = skip.type + "\u{0}" + reason
                if let at = index[key] {
                    groups[at].entries.append(skip.entry)
                } else {
                    index[key] = groups.count
                    groups.append((skip.type, reason, [skip.entry]))
                }
            }
            for group in groups {
                let where_ = group.entries.count == 1 ? group.entries[0] : "\(group.entries.count)×"
                Console.out("  \(where_) \(group.type): \(group.reason)")
            }
        }
    }
}
