import ArgumentParser
import Foundation
import PHRService

// The `phr med` subcommands that look medicines up in public databases (RxNorm via RxNav, FDA
// labels and recalls via openFDA): info, alternatives, check, recalls, resolve. Answers are
// kept in the vault, so a lookup made once works offline (PHR_OFFLINE=1). The library does the
// work (PHRCore/MedAPI, `MedicineLookup`); these only parse, call and print.

/// Options every lookup command takes.
struct MedLookupOptions: ParsableArguments {
    @Flag(help: "Ask RxNav and openFDA again even when the vault holds a fresh answer.")
    var refresh = false

    /// The lookups for `vault`, configured from the environment (PHR_OFFLINE, PHR_MEDAPI_MODE, ...).
    func lookup(_ vault: Vault) throws -> MedicineLookup {
        let lookup = try MedicineLookup(vault: vault, environment: ProcessEnvironment.variables, phrVersion: PHR.version)
        lookup.refresh = refresh
        return lookup
    }
}

let medLookupDiscussion = """
    Looks medicines up in NLM's RxNorm (RxNav) and the FDA's openFDA, over https. Answers are \
    kept in the vault (encrypted): labels and RxNorm for 30 days, recalls for a day. With \
    PHR_OFFLINE=1, or when the services cannot be reached, the kept answer is used and its age \
    shown. PHR_OPENFDA_API_KEY raises openFDA's daily limit. This is information, not medical advice.
    """

struct MedInfo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show what a medicine is: ingredients, brands, forms, strengths, classes and its FDA label.",
        discussion: medLookupDiscussion + """


            NAME|ID is a medicine name, the ID of one of your medications, an RxCUI (digits, or \
            rxcui:N) or an NDC from the package (0071-0155-23, or ndc:CODE).
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var lookupOptions: MedLookupOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The medicine: a name, a medication ID, an RxCUI or an NDC.")
    var medicine: [String]

    func run() throws {
        let (opened, chosen) = try VaultAccess.open(vault.location, profile: profile)
        let reference = try MedText.reference(medicine.joined(separator: " "), vault: opened, profile: chosen)
        let info = try lookupOptions.lookup(opened).info(reference)
        MedText.notices(info.notices)
        if output.json {
            try Console.json(info)
            return
        }
        let concept = info.concept
        Console.out(Console.bold(concept.name) + "  (\(concept.kind), RxCUI \(concept.rxcui))")
        var rows: [(String, String?)] = [
            ("ingredients", MedText.list(info.ingredients.map { "\($0.name) (RxCUI \($0.rxcui))" })),
            ("brand names", MedText.list(info.brandNames)),
            ("generic", MedText.list(info.genericNames)),
            ("dose forms", MedText.list(info.doseForms)),
            ("strengths", MedText.list(info.strengths)),
            ("classes", MedText.list(info.classes.map(MedText.className))),
        ]
        if let ndc = info.ndc {
            let status = ndc.status.map { [$0.status, $0.conceptName].compactMap { $0 }.joined(separator: ", ") }
            rows.append(("NDC", "\(ndc.code)\(status.map { $0.isEmpty ? "" : " (\($0))" } ?? "")"))
            for product in ndc.products {
                let ingredients = product.activeIngredients.map { [$0.name, $0.strength].compactMap { $0 }.joined(separator: " ") }
                rows.append(("product", [product.brandName, product.dosageForm, product.labeler].compactMap { $0 }.joined(separator: ", ")
                             + (ingredients.isEmpty ? "" : "; " + ingredients.joined(separator: ", "))))
            }
        }
        MedText.fields(rows)
        if let label = info.label {
            Console.out()
            var heading = "FDA label: \(label.title)"
            if let manufacturer = label.manufacturer { heading += ", \(manufacturer)" }
            if let date = label.effectiveDate { heading += ", effective \(date)" }
            Console.out(Console.bold(heading))
            MedText.fields([
                ("indications", label.indications.flatMap { LabelText.summary([$0], section: .indications) }),
                ("boxed warning", label.boxedWarning.flatMap { LabelText.summary([$0], section: .boxedWarning) }),
                ("contraindicated", label.contraindications.flatMap { LabelText.summary([$0], section: .contraindications) }),
                ("warnings", label.warnings.flatMap { LabelText.summary([$0], section: .warningsAndCautions) }),
                ("full label", label.dailyMedURL),
            ])
        }
        MedText.footer(info.sources)
    }
}

struct MedAlternatives: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alternatives",
        abstract: "List products with the same ingredients and strength, generic and brand, generics first.",
        discussion: medLookupDiscussion + """


            For a product (a strength and form), its generic and every brand of it; for an \
            ingredient or brand name, one group per strength and form. Combinations with other \
            ingredients are not alternatives and are left out.
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var lookupOptions: MedLookupOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The medicine: a name, a medication ID, an RxCUI or an NDC.")
    var medicine: [String]

    func run() throws {
        let (opened, chosen) = try VaultAccess.open(vault.location, profile: profile)
        let reference = try MedText.reference(medicine.joined(separator: " "), vault: opened, profile: chosen)
        let report = try lookupOptions.lookup(opened).alternatives(reference)
        MedText.notices(report.notices)
        if output.json {
            try Console.json(report)
            return
        }
        let concept = report.concept
        let ingredients = report.ingredients.map(\.name).joined(separator: ", ")
        Console.out("Alternatives for " + Console.bold(concept.name) + " (\(concept.kind), RxCUI \(concept.rxcui))"
                    + (ingredients.isEmpty ? "" : ": same ingredients (\(ingredients)), same strength and form"))
        for group in report.groups {
            Console.out()
            if let generic = group.generic { Console.out(Console.bold(generic.name)) }
            Table.print(header: ["kind", "RxCUI", "product"], rows: group.products.map { product in
                let kind = product.kind == .generic ? "generic" : "brand"
                var name = product.brand.map { "\($0): \(product.name)" } ?? product.name
                if product.isAsked { name += "  (asked)" }
                return [kind, product.rxcui, name]
            })
        }
        MedText.footer(report.sources)
    }
}

struct MedCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the active medications against each other and against the allergies.",
        discussion: medLookupDiscussion + """


            For each pair, whether one medicine's FDA label (boxed warning, contraindications, \
            warnings, drug interactions) names the other's ingredients or drug class, quoting it: \
            high for a boxed warning or contraindication, moderate otherwise; also two medicines \
            with the same ingredient or class. Allergies are checked against ingredients and \
            drug classes (RxClass) and what the labels say. A check finds only what labels \
            spell out: no finding does not mean a combination is safe.
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var lookupOptions: MedLookupOptions
    @OptionGroup var output: OutputOptions

    @Option(name: .customLong("with"),
            help: ArgumentHelp("Also check this medicine, as if taken too (repeatable): could I take it?", valueName: "name"))
    var extra: [String] = []

    @Option(name: .customLong("allergy"), help: ArgumentHelp("Also check this allergy (repeatable).", valueName: "substance"))
    var extraAllergies: [String] = []

    func run() throws {
        let (opened, chosen) = try VaultAccess.open(vault.location, profile: profile)
        let records = VaultMedicationRecords(vault: opened, profileID: chosen.id)
        guard let report = try lookupOptions.lookup(opened).checkRecords(records, extraMedicines: extra, extraAllergies: extraAllergies) else {
            throw MedLookupCommandError.nothingToCheck(profile: chosen.name, option: "--with NAME")
        }
        MedText.notices(report.notices)
        if output.json {
            try Console.json(report)
            return
        }
        let names = report.medicines.map(\.entry.name)
        var heading = "Checked \(names.count) medicine\(names.count == 1 ? "" : "s") for \(chosen.name): \(names.joined(separator: ", "))"
        if !report.allergies.isEmpty {
            heading += "; allergies: " + report.allergies.map(\.substance).joined(separator: ", ")
        }
        Console.out(heading)
        for finding in report.allergyFindings {
            Console.out()
            Console.out(MedText.severity(finding.severity) + "  " + Console.bold("\(finding.medicine) and the allergy to \(finding.allergy)"))
            MedText.paragraph(finding.reason.prefix(1).uppercased() + finding.reason.dropFirst() + ".", indent: 10)
            if let quote = finding.quote, let section = finding.section {
                MedText.paragraph("Label, \(section): “\(quote)”", indent: 10)
            }
        }
        // One entry per pair, most serious first, with everything found about it.
        for pair in report.findingsByPair {
            Console.out()
            let first = pair[0]
            Console.out(MedText.severity(first.severity) + "  " + Console.bold(first.medicines.joined(separator: " + ")))
            for finding in pair {
                MedText.paragraph("- " + finding.reason.prefix(1).uppercased() + finding.reason.dropFirst()
                                  + (finding.kind == .labelMention && finding.severity != first.severity ? " (\(finding.severity.rawValue))" : "")
                                  + ".", indent: 10, hanging: 2)
                if let quote = finding.quote { MedText.paragraph("“\(quote)”", indent: 12) }
                if let url = finding.dailyMedURL { MedText.paragraph("label: \(url)", indent: 12) }
            }
        }
        if report.findings.isEmpty && report.allergyFindings.isEmpty {
            Console.out()
            Console.out("No label or class findings.")
        } else if !report.pairsWithoutFindings.isEmpty {
            Console.out()
            MedText.paragraph("No findings for: " + report.pairsWithoutFindings.map { $0.joined(separator: " + ") }.joined(separator: ", "),
                              indent: 0)
        }
        Console.out()
        MedText.paragraph("Labels only name what FDA reviewed; no finding does not mean a combination is safe.", indent: 0)
        MedText.footer(report.sources)
    }
}

struct MedRecalls: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recalls",
        abstract: "Show FDA recalls (enforcement reports) of the active medications, newest first.",
        discussion: medLookupDiscussion + """


            Class I: use may cause serious harm; Class II: temporary or reversible harm; Class \
            III: harm unlikely. A recall concerns particular lots: compare the lot numbers on \
            your package with the report's.
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var lookupOptions: MedLookupOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "Medicines to look up instead of the active medications.")
    var medicines: [String] = []

    @Option(help: "At most this many reports per medicine.")
    var limit = 10

    @Option(help: "Only reports published on or after this day (YYYY-MM-DD).")
    var since: String?

    func validate() throws {
        guard (1...100).contains(limit) else { throw ValidationError("--limit: use a number from 1 to 100") }
        if let since, CalendarDate(since) == nil {
            throw ValidationError("--since: " + CalendarDate.dateReason(since, otherwise: "'\(since)' is not a date; use YYYY-MM-DD"))
        }
    }

    func run() throws {
        let (opened, chosen) = try VaultAccess.open(vault.location, profile: profile)
        guard let report = try lookupOptions.lookup(opened).recalls(VaultMedicationRecords(vault: opened, profileID: chosen.id),
                                                                     medicines: medicines, limit: limit, since: since) else {
            throw MedLookupCommandError.nothingToCheck(profile: chosen.name, option: "medicine names")
        }
        MedText.notices(report.notices)
        if output.json {
            try Console.json(report)
            return
        }
        for (index, medicine) in report.medicines.enumerated() {
            if index > 0 { Console.out() }
            let searched = medicine.searchedFor.joined(separator: " and ")
            let count = medicine.recalls.isEmpty ? "no recalls" : "\(medicine.recalls.count) of \(medicine.total ?? medicine.recalls.count) reports"
            Console.out(Console.bold(medicine.medicine.name) + (searched.lowercased() == medicine.medicine.name.lowercased() ? "" : " (\(searched))")
                        + ": \(count)")
            for entry in medicine.recalls {
                let recall = entry.recall
                let line = [recall.reportDate ?? "????-??-??", recall.classification ?? "unclassified", recall.status ?? "status unknown",
                            recall.recallNumber, recall.recallingFirm].compactMap { $0 }.joined(separator: "  ")
                Console.out("  " + line + (entry.matchesProduct ? "  (your product)" : ""))
                if let reason = recall.reason { MedText.paragraph("reason: \(reason)", indent: 4) }
                if let product = recall.productDescription { MedText.paragraph("product: \(product)", indent: 4) }
                if let lots = recall.codeInfo { MedText.paragraph("lots: \(lots)", indent: 4) }
            }
        }
        MedText.footer(report.sources)
    }
}

struct MedResolve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Look up in RxNorm the medications stored without an RxCUI (added offline or imported without codes).",
        discussion: medLookupDiscussion
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var lookupOptions: MedLookupOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let (opened, chosen) = try VaultAccess.open(vault.location, profile: profile)
        let records = VaultMedicationRecords(vault: opened, profileID: chosen.id)
        let (outcomes, stop) = try lookupOptions.lookup(opened).resolveStored(records, notices: MedText.notices)
        if output.json {
            try Console.json(outcomes)
        } else if outcomes.isEmpty && stop == nil {
            Console.out("Every medication of \(chosen.name) has an RxCUI.")
        } else {
            for outcome in outcomes {
                if let rxcui = outcome.rxcui {
                    let ingredients = outcome.ingredients.isEmpty ? "" : " (\(outcome.ingredients.joined(separator: ", ")))"
                    Console.out("\(outcome.id)  \(outcome.name) → RxCUI \(rxcui) \(outcome.resolvedName ?? "")\(ingredients)")
                } else {
                    Console.out("\(outcome.id)  \(outcome.name): \(outcome.problem ?? "not found"); edit its name and run 'phr med resolve' again")
                }
            }
        }
        if let stop { throw stop }
    }
}

/// What the lookup commands themselves refuse.
enum MedLookupCommandError: PHRError {
    /// The profile has no active medications and none were named.
    case nothingToCheck(profile: String, option: String)

    var exitStatus: ExitStatus { .noInput }

    var message: Message {
        switch self {
        case .nothingToCheck(let profile, _): return "\(profile) has no active medications"
        }
    }

    var hint: Message? {
        switch self {
        case .nothingToCheck(_, let option): return "add them with 'phr med add NAME', or give \(option)"
        }
    }
}

/// Text output shared by the lookup commands.
enum MedText {
    /// A medicine named on the command line: one of the profile's medications by ID (or ID
    /// prefix) when one matches, else a name, RxCUI or NDC (`MedicineReference`).
    static func reference(_ text: String, vault: Vault, profile: Profile) throws -> MedicineReference {
        let records = VaultMedicationRecords(vault: vault, profileID: profile.id)
        if let entry = try records.medication(idPrefix: text) {
            return entry.rxcui.map { .rxcui($0) } ?? .name(entry.name)
        }
        return MedicineReference.parse(text)
    }

    static func notices(_ notices: [String]) {
        notices.forEach { Console.warning($0) }
    }

    static func list(_ items: [String], limit: Int = 12) -> String? {
        guard !items.isEmpty else { return nil }
        if items.count <= limit { return items.joined(separator: ", ") }
        return items.prefix(limit).joined(separator: ", ") + ", and \(items.count - limit) more (--json lists all)"
    }

    static func className(_ drugClass: DrugClass) -> String {
        drugClass.type == "ATC1-4" ? "\(drugClass.name) (ATC \(drugClass.id))" : "\(drugClass.name) (\(drugClass.type))"
    }

    static func severity(_ severity: FindingSeverity) -> String {
        let text = severity == .high ? "HIGH    " : "MODERATE"
        guard Console.stdoutColour else { return text }
        return severity == .high ? "\u{1b}[1;31m\(text)\u{1b}[0m" : "\u{1b}[1;33m\(text)\u{1b}[0m"
    }

    /// Key-value lines, long values wrapped under their column.
    static func fields(_ rows: [(String, String?)], width: Int = 19) {
        for (name, value) in rows {
            guard let value, !value.isEmpty else { continue }
            let lines = wrap(value, width: lineWidth - width)
            Console.out("  " + name.padding(toLength: width - 2, withPad: " ", startingAt: 0) + (lines.first ?? ""))
            for line in lines.dropFirst() { Console.out(String(repeating: " ", count: width) + line) }
        }
    }

    /// A wrapped paragraph; `hanging` indents the lines after the first further (for "- " items).
    static func paragraph(_ text: String, indent: Int, hanging: Int = 0) {
        for (index, line) in wrap(text, width: lineWidth - indent - hanging).enumerated() {
            Console.out(String(repeating: " ", count: indent + (index == 0 ? 0 : hanging)) + line)
        }
    }

    /// Sources with their age, then the disclaimer.
    static func footer(_ sources: [MedAPISource]) {
        if !sources.isEmpty {
            Console.out()
            Console.out(Console.bold("Sources"))
            let now = Date()
            for source in sources {
                let day = String(source.fetchedAt.prefix(10))
                let age = MedAPISource.describeAge(source.age(now: now))
                let origin = source.cached ? "from the vault, fetched \(day), \(age) ago" : "fetched just now"
                paragraph("\(source.publisher): \(source.about) (\(origin))", indent: 2)
                paragraph(source.url, indent: 4)
            }
        }
        Console.out()
        paragraph(MedAPIDisclaimer.text, indent: 0)
    }

    static var lineWidth: Int {
        Console.stdoutIsTTY ? max(60, min(Table.terminalWidth() ?? 100, 120)) : 100
    }

    /// Greedy word wrap; a word longer than the width (a URL) gets a line of its own.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(whereSeparator: \.isWhitespace) {
            if current.isEmpty {
                current = String(word)
            } else if Table.displayWidth(current) + 1 + Table.displayWidth(String(word)) <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
