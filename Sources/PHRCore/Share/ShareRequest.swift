import Foundation

/// What `phr share` was asked to produce.
public struct ShareRequest: Sendable {
    /// Who the bundle is for ("Dr. Lee"): printed on the cover and in every page's footer.
    public var recipient: String
    /// The PDF to write.
    public var output: String
    public var sections: Set<ShareSection> = Set(ShareSection.allCases)
    /// Document ID prefixes given with --doc: always included, whatever their type or date.
    public var documentIDs: [String] = []
    /// Document types given with --doc-type.
    public var documentTypes: [String] = []
    /// --since: documents dated on or after this day.
    public var since: CalendarDate?
    public var paper: Paper = .a4
    /// --password-file: encrypt the bundle with AES-256 under this password.
    public var password: SecretBytes?
    /// The file the password came from, named in messages about it.
    public var passwordFile: String?
    /// --fhir: also write an HL7 IPS document Bundle here.
    public var fhirOutput: String?
    /// Replace existing output files.
    public var force = false
    /// The program and version, written into the PDF's metadata and the IPS Bundle ("phr 0.1.0").
    public var generator = "phr"

    public init(recipient: String, output: String) {
        self.recipient = recipient
        self.output = output
    }

    /// The longest recipient that still fits a footer line.
    static let recipientLimit = 120

    /// Checks what can be checked before the vault is opened (the CLI calls it while parsing
    /// options, so a mistake costs no passphrase prompt).
    public func validate() throws {
        let trimmed = recipient.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw ShareError.invalidOption(option: Field.`for`, reason: "the recipient cannot be empty") }
        guard trimmed.count <= Self.recipientLimit else {
            throw ShareError.invalidOption(option: Field.`for`, reason: "at most \(Self.recipientLimit) characters")
        }
        guard !trimmed.contains(where: \.isNewline) else {
            throw ShareError.invalidOption(option: Field.`for`, reason: "the recipient must be one line")
        }
        guard !sections.isEmpty else { throw ShareError.invalidOption(option: Field.include, reason: "no section chosen") }
        if !sections.contains(.documents), !documentIDs.isEmpty || !documentTypes.isEmpty {
            let option = documentIDs.isEmpty ? Field.docType : Field.doc
            throw ShareError.invalidOption(option: option, reason: "documents are chosen but \(Field.include) leaves out the documents section")
        }
        for type in documentTypes where DocumentType(rawValue: type.lowercased()) == nil {
            let names = DocumentType.allCases.map(\.rawValue).joined(separator: ", ")
            throw ShareError.invalidOption(option: Field.docType, reason: "'\(type)' is not a document type; use one of \(names)")
        }
        if let fhirOutput, Self.samePath(fhirOutput, output) {
            throw ShareError.invalidOption(option: Field.fhir, reason: "the FHIR file cannot be the bundle itself")
        }
    }

    static func samePath(_ a: String, _ b: String) -> Bool {
        URL(fileURLWithPath: a).standardizedFileURL.path == URL(fileURLWithPath: b).standardizedFileURL.path
    }
}
