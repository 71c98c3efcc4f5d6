import ArgumentParser
import Foundation
import Glibc
import PHRService

struct LabExtract: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract", abstract: "Read the results of a lab report and save those you accept.",
        discussion: """
            Finds the result rows (test, value, flag, unit, reference range) from where the words stand on each page: \
            the text layer, or OCR for scanned pages. On a terminal the rows are shown for review: accept all, drop \
            rows or correct them. --yes accepts every row the reader is sure of; --json prints the proposal and saves \
            nothing. Running it again on the same document does not add rows accepted before.
            """)

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The document's ID (any unique prefix).") var document: String
    @Flag(help: "Save every row the reader is sure of, without review.") var yes = false
    @Option(help: "The collection date (YYYY-MM-DD) when the report's own is missing or wrong.") var date: String?

    func run() throws {
        let interactive = isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1
        guard yes || output.json || interactive else {
            throw LabExtractError.nobodyToReview
        }
        let context = try RecordContext(vault, profile)
        let documents = DocumentStore(vault: context.vault, profile: context.profile)
        let found = try documents.get(document)
        let extractor = TextExtractor(limits: try ExtractionLimits.fromEnvironment(ProcessEnvironment.variables))
        let importer = DocumentImporter(vault: context.vault, profile: context.profile, extractor: extractor)
        let layouts = try importer.layouts(of: found)
        // Ranges printed per sex or age are read for the profile's (its medical ID).
        let patient = LabPatient(try MedicalIDStore(vault: context.vault, profile: context.profile, time: context.time).get())
        var extraction = LabExtraction.read(documentID: found.id, pages: layouts.map { ($0.page, $0.words) }, documentDate: found.date,
                                            patient: patient)
        // Scanned pages are read again as tables, which keeps a flag column's lone letters; the
        // reading with more rows the reader is sure of wins. A scan whose first reading holds
        // no candidate row, and that phr did not take for a lab report, is not read twice.
        if layouts.contains(where: { $0.source == .ocr }), !extraction.rows.isEmpty || found.type == "lab" {
            if interactive { Console.note("reading the scanned pages again as tables...") }
            let tables = try importer.tableLayouts(of: found)
            extraction = LabExtraction.better(extraction, LabExtraction.read(documentID: found.id, pages: tables.map { ($0.page, $0.words) },
                                                                             documentDate: found.date, patient: patient))
        }
        if let date {
            extraction.collected = try RecordContext.options { try RecordFields.date(date, field: Field("date")) }.description
        }
        if output.json { return try Console.json(extraction) }
        guard !extraction.rows.isEmpty else {
            // A scan stored without OCR has no words yet: say so rather than "no rows".
            if found.ocr == .waiting {
                return Console.note("document \(found.id) has pages waiting for OCR; read them with 'phr doc reindex --ocr \(found.id)', then extract again")
            }
            return Console.note("no result rows found in document \(found.id); type results in with 'phr lab add'")
        }
        let store = LabStore(vault: context.vault, profile: context.profile, time: context.time)
        TestPause.here(.resultsRead)
        if yes {
            let sure = extraction.rows.indices.filter { extraction.rows[$0].unsure == nil }
            let accepted = try RecordContext.options { try store.accept(extraction, indices: sure, requireDocument: true) }
            report(accepted, skippedUnsure: extraction.rows.filter { $0.unsure != nil }, document: found.id)
            return
        }
        var review = LabReview(extraction: extraction)
        guard let chosen = try review.run() else {
            return Console.note("nothing saved")
        }
        let accepted = try RecordContext.options { try store.accept(chosen.extraction, indices: chosen.indices, requireDocument: true) }
        report(accepted, skippedUnsure: [], document: found.id)
    }

    private func report(_ accepted: LabStore.Accepted, skippedUnsure: [LabReportReader.Row], document: String) {
        Console.out("saved \(accepted.added.count) result\(accepted.added.count == 1 ? "" : "s") from document \(document)")
        if !accepted.alreadyThere.isEmpty {
            Console.note("\(accepted.alreadyThere.count) already saved from this document before, left alone")
        }
        for row in skippedUnsure {
            Console.warning("not saved, unsure: page \(row.page) \(row.name) \(row.valueDisplay) (\(row.unsure ?? ""))")
        }
        if !skippedUnsure.isEmpty {
            Console.message("phr: hint: review them on a terminal with 'phr lab extract \(document)', or type them in with 'phr lab add'")
        }
    }
}

/// The terminal review of an extraction: the rows as a numbered table, then commands until the
/// user saves or quits.
struct LabReview {
    var extraction: LabExtraction
    var kept: [Bool]

    init(extraction: LabExtraction) {
        self.extraction = extraction
        // A result OCR misread ("4l") starts dropped: it can be kept once corrected (e N).
        kept = extraction.rows.map { !$0.resultUnread }
    }

    func printTable() {
        Console.out("collected \(extraction.collected ?? "(unknown: save with --date)")")
        Table.print(header: ["#", "", "PAGE", "TEST", "VALUE", "FLAG", "RANGE", "PANEL"], rows: extraction.rows.indices.map { index in
            let row = extraction.rows[index]
            let mark = !kept[index] ? "dropped" : row.unsure != nil ? "?" : ""
            // The flag the lab printed, else the one its range implies: what the result will show
            // once saved, so an abnormal row does not look normal in review.
            let flag = row.flag ?? row.valueNumber.flatMap { LabFlag.computed($0, range: row.range) }
            return [String(index + 1), mark, String(row.page), row.name, row.valueDisplay, flag?.rawValue ?? "",
                    row.range.map(\.listed) ?? "", row.panel ?? ""]
        })
        for (index, row) in extraction.rows.enumerated() where kept[index] && row.unsure != nil {
            Console.message("phr: note: row \(index + 1) is unsure: \(row.unsure!)")
        }
    }

    /// nil when the user quits without saving.
    mutating func run() throws -> (extraction: LabExtraction, indices: [Int])? {
        printTable()
        while true {
            Console.writeErr(Data("[a] save all kept rows, [d N] drop row N, [k N] keep it again, [e N] edit row N, [q] quit without saving: ".utf8))
            guard let line = readLine()?.trimmingCharacters(in: .whitespaces) else { return nil }
            let parts = line.split(separator: " ").map(String.init)
            guard let command = parts.first?.lowercased() else { continue }
            let number = parts.count > 1 ? Int(parts[1]) : nil
            let index = number.map { $0 - 1 }.flatMap { extraction.rows.indices.contains($0) ? $0 : nil }
            switch command {
            case "a", "s", "save": return (extraction, kept.indices.filter { kept[$0] })
            case "q", "quit": return nil
            case "d" where index != nil: kept[index!] = false; printTable()
            case "k" where index != nil:
                guard !extraction.rows[index!].resultUnread else {
                    Console.error("row \(index! + 1): '\(extraction.rows[index!].valueText ?? "")' is not a result; correct it with 'e \(index! + 1)'")
                    continue
                }
                kept[index!] = true
                printTable()
            case "e" where index != nil:
                var row = extraction.rows[index!]
                func ask(_ label: String, _ current: String) -> String? {
                    Console.writeErr(Data("\(label) [\(current)]: ".utf8))
                    guard let answer = readLine() else { return nil }
                    return answer.isEmpty ? nil : (answer == "-" ? "" : answer)
                }
                let value = ask("value", row.valueNumber.map(Observation.number) ?? row.valueText ?? "")
                let unit = ask("unit (- for none)", row.unit ?? "")
                let range = ask("range (- for none)", row.range?.text ?? "")
                let flag = ask("flag (- for none)", row.flag?.rawValue ?? "")
                do {
                    try row.edit(value: value, unit: unit, range: range, flag: flag)
                    extraction.rows[index!] = row
                    kept[index!] = true
                } catch let error as PHRError {
                    Console.error(error.message.cli)
                } catch {
                    Console.error(error.localizedDescription)
                }
                printTable()
            default:
                Console.message("phr: note: type a, d N, k N, e N or q")
            }
        }
    }
}

/// `phr lab extract` off a terminal without `--yes` or `--json`: nobody to review the rows. The
/// message names no option: none was given wrongly (it used to read "--yes: ...").
enum LabExtractError: PHRError {
    case nobodyToReview

    var message: Message { "lab extract shows the rows it read for review, and there is no terminal to show them on" }
    var hint: Message? { "add --yes to save the rows the reader is sure of, or --json to print them without saving" }
    var exitStatus: ExitStatus { .usage }
}
