import ArgumentParser
import Foundation
import PHRService

struct ShareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share",
        abstract: "Write one PDF for a clinician: a summary of the records, then the chosen documents.",
        discussion: """
            The PDF has a cover (patient, recipient, date, contents), the summary sections as \
            tables (patient summary, allergies, medications, conditions, procedures, family \
            history, immunizations, results, upcoming appointments, emergency contacts), a manifest of the included documents with \
            their SHA-256, then every page of every document, with bookmarks and page numbers. \
            Every page says it is confidential and whom it is for.

            Documents: those named with --doc, plus those of the --doc-type types dated on or \
            after --since. Without any of the three: every document of the last 12 months except \
            bills. --doc-type alone has no date limit.

            The PDF is written with mode 0600. With --password-file it is encrypted (AES-256, \
            the PDF 2.0 security handler) and the unencrypted PDF never touches the disk. \
            --fhir also writes the summary as an HL7 IPS document Bundle (FHIR R4 JSON).
            """
    )

    @OptionGroup var vault: VaultOptions
    @OptionGroup var profile: ProfileOptions
    @OptionGroup var output: OutputOptions

    @Option(name: .customLong("for"), help: ArgumentHelp("Who the PDF is for, e.g. \"Dr. Lee\"; printed on the cover and every page.", valueName: "recipient"))
    var recipient: String

    @Option(help: ArgumentHelp("The PDF file to write.", valueName: "file"))
    var out: String

    @Option(help: ArgumentHelp("Sections to include, comma-separated: summary, allergies, medications, conditions, procedures, family-history, immunizations, results, appointments, contacts, documents (default: all).", valueName: "sections"))
    var include: String?

    @Option(name: .customLong("doc"), help: ArgumentHelp("A document to include, by ID or unique ID prefix; repeatable.", valueName: "id"))
    var documents: [String] = []

    @Option(name: .customLong("doc-type"), help: ArgumentHelp("Include the documents of this type (lab, imaging, ...); repeatable.", valueName: "type"))
    var documentTypes: [String] = []

    @Option(help: ArgumentHelp("Include the documents dated on or after this day (YYYY-MM-DD).", valueName: "date"))
    var since: String?

    @Option(help: ArgumentHelp("Paper size: a4 or letter (default: the locale's, else a4).", valueName: "paper"))
    var paper: String?

    @Option(name: .customLong("password-file"), help: ArgumentHelp("Encrypt the PDF with the password on the first line of this file.", valueName: "file"))
    var passwordFile: String?

    @Option(help: ArgumentHelp("Also write the summary as an HL7 IPS document Bundle (FHIR R4 JSON) to this file.", valueName: "file"))
    var fhir: String?

    @Flag(help: "Replace the output files if they exist.")
    var force = false

    func validate() throws {
        try asUsageError {
            if let paper { _ = try Paper.parse(paper) }
            _ = try request()
        }
    }

    static func day(_ text: String) throws -> CalendarDate {
        guard let day = CalendarDate(text.trimmingCharacters(in: .whitespaces)) else {
            throw ShareError.invalidOption(option: Field("since"), reason: RecordFields.dateReason(text, otherwise: "'\(text)' is not a date; use YYYY-MM-DD, e.g. 2025-03-14"))
        }
        return day
    }

    /// The request the options describe, checked; without the password, which `run` reads.
    func request() throws -> ShareRequest {
        var request = ShareRequest(recipient: recipient, output: out)
        if let include { request.sections = try ShareSection.parse(include) }
        request.documentIDs = documents
        request.documentTypes = documentTypes
        request.since = try since.map(Self.day)
        request.paper = try paper.map { try Paper.parse($0) } ?? Paper.preferred(environment: ProcessEnvironment.variables)
        request.passwordFile = passwordFile
        request.fhirOutput = fhir
        request.force = force
        request.generator = "phr \(PHR.version)"
        try request.validate()
        return request
    }

    func run() throws {
        try vault.refuseOutput(out, option: "--out")
        try vault.refuseOutput(fhir, option: "--fhir")
        var request = try request()
        // The password file is read before the vault is unlocked, so a mistake in it costs no passphrase prompt.
        request.password = try passwordFile.map(SharePasswordFile.read)
        let context = try RecordContext(vault, profile)
        let result = try ShareBundle.write(request, vault: context.vault, profile: context.profile, time: context.time)
        for skipped in result.skipped {
            Console.warning("left out document \(skipped.id): \(skipped.reason)")
        }
        if result.documentsLeftOut > 0 {
            Console.note("\(result.documentsLeftOut) older \(result.documentsLeftOut == 1 ? "document was" : "documents were") left out (by default a bundle holds the last 12 months); include them with --since DATE, --doc-type TYPE or --doc ID")
        }
        if result.nameNotRecorded {
            Console.warning("the medical ID has no name, so the bundle says \"Name not recorded\"; set it with 'phr id set --name \"...\"'")
        }
        if output.json { return try Console.json(result) }
        let documentPages = result.documents.reduce(0) { $0 + $1.pages }
        var parts = ["\(result.pages) \(result.pages == 1 ? "page" : "pages")", "\(result.summaryPages) of cover and summary"]
        if !result.documents.isEmpty {
            parts.append("\(result.documents.count) \(result.documents.count == 1 ? "document" : "documents") on \(documentPages)")
        }
        let protection = result.encrypted ? ", encrypted with AES-256" : ""
        Console.note("wrote \(result.path) for \(result.recipient): \(parts.joined(separator: ", "))\(protection) (\(Console.bytes(result.bytes)))")
        if let fhir = result.fhir { Console.note("wrote \(fhir): HL7 IPS document Bundle (FHIR R4)") }
    }
}
