import Foundation

/// `phr share`: one PDF for a clinician (and optionally an HL7 IPS file with the same facts).
///
/// The order of work keeps three promises. Nothing is written before every chosen document
/// has been decrypted and authenticated, so a damaged blob fails the command (vault integrity,
/// exit 80) instead of producing a bundle with a document missing. No document is parsed in
/// this process, which holds the keys: the sandboxed drawing worker (phr-render) draws it (and
/// encrypts it) from the records and the decrypted documents it is given (`ShareRenderer`).
/// And no plaintext reaches a disk the user did not ask for: documents are decrypted into
/// memory files; an encrypted bundle exists in plaintext only in the worker's memory; an
/// unencrypted one is streamed into a temporary file (mode 0600) beside the destination and
/// renamed into place only when complete.
public enum ShareBundle {
    public static func write(_ request: ShareRequest, vault: Vault, profile: Profile, time: TimeContext,
                             renderer: ShareRenderer = ShareRenderer()) throws -> ShareResult {
        try request.validate()
        if !request.force {
            if FileSystem.exists(request.output) { throw ShareError.exists(path: request.output) }
            if let fhir = request.fhirOutput, FileSystem.exists(fhir) { throw ShareError.exists(path: fhir) }
        }
        let output = try OutputFile(destination: request.output, replace: request.force, exists: { ShareError.exists(path: $0) })
        var result: ShareResult
        let content: ShareContent
        do {
            (result, content) = try produce(request, vault: vault, profile: profile, time: time, renderer: renderer) { try output.write($0) }
            try output.commit()
        } catch {
            output.abandon()
            throw error
        }
        result.bytes = FileSystem.fileSize(request.output) ?? 0
        if let fhir = request.fhirOutput {
            try OutputFile.write(try ips(content, request: request, vault: vault, profile: profile, time: time),
                                 to: fhir, replace: request.force, exists: { ShareError.exists(path: $0) })
            result.fhir = fhir
        }
        return result
    }

    /// A bundle drawn into memory (the web UI's download): the PDF's bytes, and the IPS
    /// document Bundle's when asked for. Nothing of it touches a disk; `request.output` and
    /// `request.fhirOutput` only name the files for the result.
    public struct Rendered: Sendable {
        public var result: ShareResult
        public var pdf: [UInt8]
        public var ips: [UInt8]?
    }

    public static func render(_ request: ShareRequest, withIPS: Bool, vault: Vault, profile: Profile, time: TimeContext,
                              renderer: ShareRenderer = ShareRenderer()) throws -> Rendered {
        try request.validate()
        var pdf: [UInt8] = []
        var (result, content) = try produce(request, vault: vault, profile: profile, time: time, renderer: renderer) { pdf.append(contentsOf: $0) }
        result.bytes = Int64(pdf.count)
        let bundle = withIPS ? try ips(content, request: request, vault: vault, profile: profile, time: time) : nil
        result.fhir = withIPS ? request.fhirOutput : nil
        return Rendered(result: result, pdf: pdf, ips: bundle)
    }

    /// The IPS document Bundle of what `request` shares, serialized, without drawing the PDF.
    public static func ipsDocument(_ request: ShareRequest, vault: Vault, profile: Profile, time: TimeContext) throws -> [UInt8] {
        try request.validate()
        let content = try ShareContent.load(vault: vault, profile: profile, request: request, time: time)
        return try ips(content, request: request, vault: vault, profile: profile, time: time)
    }

    /// The IPS document Bundle of `content`, serialized: only the sections `request` shares (the
    /// ones left out are withheld, as in the PDF).
    private static func ips(_ content: ShareContent, request: ShareRequest, vault: Vault, profile: Profile, time: TimeContext) throws -> [UInt8] {
        let patientID = try IPSPatientID.id(keys: vault.keys, profileID: profile.id, medicalID: content.medicalID)
        let shared = ShareSection.allCases.filter { request.sections.contains($0) }
        var builder = IPSDocumentBuilder(content: content.limited(to: shared), time: time, generator: request.generator, patientID: patientID)
        builder.withheld = Set(ShareSection.allCases).subtracting(request.sections)
        return Array(builder.build().serialized())
    }

    /// Loads the content, draws the bundle in the sandbox into `sink`, and says what it holds
    /// (`bytes` and `fhir` are the caller's to fill in).
    private static func produce(_ request: ShareRequest, vault: Vault, profile: Profile, time: TimeContext, renderer: ShareRenderer,
                                sink: @escaping (UnsafeRawBufferPointer) throws -> Void) throws -> (ShareResult, ShareContent) {
        let password = try request.password.map { try BundlePassword.prepared($0, path: request.passwordFile ?? "(password)") }
        let content = try ShareContent.load(vault: vault, profile: profile, request: request, time: time)
        let decrypted = try content.documents.map { try decrypt($0, blobs: vault.blobs) }

        let recipient = request.recipient.trimmingCharacters(in: .whitespacesAndNewlines)
        let options = ShareLayoutOptions(
            recipient: recipient, sections: ShareSection.allCases.filter { request.sections.contains($0) }, paper: request.paper,
            defaultDocumentWindow: request.documentIDs.isEmpty && request.documentTypes.isEmpty && request.since == nil,
            generator: request.generator)
        let job = ShareRenderJob(content: content.limited(to: options.sections), options: options,
                                 password: password,
                                 now: Timestamp.string(time.now), zone: time.zone.identifier)

        let drawn: (pages: Int, summaryPages: Int, firstPages: [Int])
        switch try renderer.render(.share(job), documents: decrypted, sink: sink) {
        case .drawn(let pages, let summaryPages, let firstPages):
            guard firstPages.count == content.documents.count, pages >= summaryPages, summaryPages >= 1 else {
                throw ShareError.renderer(reason: "the process drawing the bundle reported an impossible layout")
            }
            drawn = (pages, summaryPages, firstPages)
        case .documentFailed(let id, let reason):
            throw ShareError.documentNotEmbeddable(id: id, reason: reason)
        case .encryptionFailed(let reason):
            throw ShareError.encryption(reason: reason)
        case .typesettingFailed(let reason):
            throw ShareError.typesetting(reason: reason)
        case .report, .pageImages:
            throw ShareError.renderer(reason: "the process drawing the bundle answered another job")
        }

        // Each document runs from its first page to the next one's (the last, to the end).
        let included = content.documents.indices.map { index in
            let document = content.documents[index]
            let next = index + 1 < drawn.firstPages.count ? drawn.firstPages[index + 1] : drawn.pages + 1
            return ShareResult.IncludedDocument(id: document.id, title: document.title, type: document.type, date: document.date,
                                                pages: next - drawn.firstPages[index], firstPage: drawn.firstPages[index],
                                                sha256: document.sha256)
        }
        var result = ShareResult(path: request.output, recipient: recipient, pages: drawn.pages, summaryPages: drawn.summaryPages,
                                 sections: options.sections.map(\.rawValue), documents: included, skipped: content.skippedDocuments,
                                 encrypted: password != nil, paper: request.paper.rawValue, bytes: 0, fhir: nil)
        if options.defaultDocumentWindow && options.sections.contains(.documents) {
            let all = try vault.database.read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM document WHERE profile_id = ?", arguments: [profile.id]) ?? 0
            }
            result.documentsLeftOut = max(0, all - included.count - content.skippedDocuments.count)
        }
        result.nameNotRecorded = !content.hasName
        return (result, content)
    }

    /// Decrypts `document`'s blob into a new memory file (no path, never on a disk) for the
    /// worker. Throws `VaultError.integrity` if any chunk fails authentication or the content
    /// does not match the blob's name; the memory file is then simply dropped.
    private static func decrypt(_ document: Document, blobs: BlobStore) throws -> FileDescriptor {
        let memory = try MemoryFile.make(label: "phr-share")
        try blobs.read(name: document.blobName) { try memory.write($0) }
        return memory
    }
}
