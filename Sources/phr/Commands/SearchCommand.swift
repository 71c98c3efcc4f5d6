import ArgumentParser
import Foundation
import PHRService

struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search every record and document page of a profile, offline.",
        discussion: """
            All words must match, case and accents aside. "quoted phrase", prefix*, a OR b,
            -exclude, and filters inside the query: type:lab tag:insurance kind:doc
            after:2025-01-01 (on or after) before:2026-01-01 (strictly before). Misspelled words
            also find their likely correction, ranked below exact matches.
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "What to look for (quote it for the shell if it has spaces or quotes).")
    var query: [String]

    @Option(help: "Only this kind of record: doc, med, appt, contact, condition, allergy, immunization, procedure, family, observation, profile, log.")
    var kind: String?

    @Option(help: "Only records of this type (for documents: prescription, insurance, lab, imaging, ...).")
    var type: String?

    @Option(help: "Only records with this tag.")
    var tag: String?

    @Option(help: "Only records dated on or after this day (YYYY-MM-DD).")
    var since: String?

    @Option(help: "Only records dated on or before this day (YYYY-MM-DD).")
    var until: String?

    @Option(help: "At most this many results.")
    var limit: Int = 20

    func validate() throws {
        guard (1...1000).contains(limit) else { throw ValidationError("--limit: use a number from 1 to 1000") }
        for (name, value) in [("--since", since), ("--until", until)] {
            if let value, CalendarDate(value) == nil {
                throw ValidationError("\(name): " + CalendarDate.dateReason(value, otherwise: "'\(value)' is not a date; use YYYY-MM-DD"))
            }
        }
    }

    func run() throws {
        let (opened, chosen) = try VaultAccess.open(vault.location, profile: profile)
        let text = query.joined(separator: " ")
        let engine = SearchEngine(vault: opened, profile: chosen)
        let results = try engine.search(text, refine: { query in
            if let kind { try query.addFilter(.kind, kind) }
            if let type { try query.addFilter(.type, type) }
            if let tag { try query.addFilter(.tag, tag) }
            if let since { try query.addFilter(.since, since) }
            if let until { try query.addFilter(.until, until) }
        }, options: SearchEngine.Options(limit: limit))
        if output.json {
            try Console.json(results)
            return
        }
        if let suggestion = results.didYouMean {
            Console.note("nothing matched '\(text)' as typed; did you mean: \(suggestion)")
        } else if results.hits.isEmpty {
            Console.note("no matches for '\(text)' in \(chosen.name)'s records")
        }
        // Kinds are padded to the longest shown, never cut ("allergy" was shown as "aller").
        let width = max(5, results.hits.map(\.kind.count).max() ?? 0)
        for hit in results.hits {
            var heading = "\(hit.kind.padding(toLength: width, withPad: " ", startingAt: 0)) \(hit.id)  "
            heading += Console.bold(hit.title)
            if let date = hit.date { heading += "  \(date)" }
            if let pages = hit.pages, let page = hit.page {
                heading += "  p.\(page)"
                let others = pages.filter { $0 != page }
                if others.count > 6 {
                    heading += " (and \(others.count) more pages)"
                } else if !others.isEmpty {
                    heading += " (also \(others.map(String.init).joined(separator: ", ")))"
                }
            }
            if hit.fuzzy { heading += "  ~" }
            Console.out(heading)
            Console.out(String(repeating: " ", count: width + 1) + highlight(hit.snippet, hit.matches))
        }
    }

    /// Bold, coloured matches on a terminal; the plain snippet elsewhere.
    func highlight(_ snippet: String, _ matches: [[Int]]) -> String {
        guard Console.stdoutColour else { return snippet }
        var scalars = Array(snippet.unicodeScalars)
        for match in matches.sorted(by: { $0[0] > $1[0] }) where match[0] + match[1] <= scalars.count {
            scalars.insert(contentsOf: "\u{1b}[0m".unicodeScalars, at: match[0] + match[1])
            scalars.insert(contentsOf: "\u{1b}[1;33m".unicodeScalars, at: match[0])
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }
}
