import CPHRSystem
import Foundation
import Glibc
import PHRModel
import PHRTypesetting

/// The process that draws PDFs: `phr-render draw`, started by `ShareRenderer` for share
/// bundles, emergency cards and health reports.
///
/// Drawing a bundle means parsing the chosen documents with poppler, and phr never parses a
/// document in the process that holds the vault's keys (SECURITY.md, "Reading untrusted
/// documents"). So the parent decrypts, and this worker, which never sees a key, a passphrase
/// or phr's environment, draws. It narrows what it can do before reading anything: it dies
/// with its parent, closes every descriptor it was not given, limits its address space, CPU
/// time and open files, and may not write to any file (its output is a pipe).
///
/// Descriptors: see `RenderWorkerSettings`. An encrypted bundle is encrypted here too, so the
/// parent only ever copies bytes.
public enum ShareWorker {
    public typealias Settings = RenderWorkerSettings

    /// Draws the bundle and exits: 0 after reporting a result (success or a described failure),
    /// 70 (EX_SOFTWARE) if the result cannot even be reported.
    public static func run(_ settings: Settings) -> Never {
        if phr_die_with_parent() != 0 { exit(70) }
        closefrom(Settings.firstDocumentDescriptor + Int32(settings.documents))
        applyLimits(settings)
        signal(SIGPIPE, SIG_DFL)
        WorkerSandbox.confine()
        #if DEBUG
        if ProcessEnvironment["PHR_TEST_SHARE_WORKER_FAULT"] == "crash" { abort() }
        #endif
        let result: ShareRenderResult
        do {
            result = try render(settings)
        } catch ShareError.documentNotEmbeddable(let id, let reason) {
            result = .documentFailed(id: id, reason: reason)
        } catch ShareError.encryption(let reason) {
            result = .encryptionFailed(reason: reason)
        } catch {
            result = .typesettingFailed(reason: (error as? LocalizedError)?.errorDescription ?? "\(error)")
        }
        close(Settings.outputDescriptor)
        guard let encoded = try? JSONEncoder().encode(result),
              (try? FileDescriptor(fd: Settings.resultDescriptor, path: "result").write(Array(encoded))) != nil else { exit(70) }
        exit(0)
    }

    /// Output goes to a pipe; the open-file limit leaves room for the documents and the font
    /// files FreeType keeps open while cairo uses them.
    private static func applyLimits(_ settings: Settings) {
        Sandbox.applyLimits(Sandbox.Limits(memoryBytes: settings.memoryBytes, cpuSoftSeconds: settings.cpuSeconds,
                                           cpuHardSeconds: settings.cpuSeconds + 5, openFiles: 256 + settings.documents))
    }

    private static func render(_ settings: Settings) throws -> ShareRenderResult {
        let input = try FileDescriptor(fd: Settings.jobDescriptor, path: "job").readToEnd(limit: Settings.maximumJobBytes)
        let job = try JSONDecoder().decode(RenderJob.self, from: Data(input))
        guard job.documentCount == settings.documents else {
            throw ShareError.typesetting(reason: "the job lists \(job.documentCount) documents, the worker got \(settings.documents)")
        }
        let output = FileDescriptor(fd: Settings.outputDescriptor, path: "the drawing worker's output pipe")
        switch job {
        case .share(let share):
            return try bundle(share, output: output)
        case .emergency(let emergency):
            let pages = try EmergencyCardDrawing.draw(emergency, to: .stream { try output.write($0) })
            return .drawn(pages: pages, summaryPages: pages, documentFirstPages: [])
        case .report(let report):
            let (pages, charts) = try HealthReportDrawing.draw(report, to: .stream { try output.write($0) })
            return .report(pages: pages, charts: charts)
        case .pages(let pages):
            return try PageImageDrawing.draw(pages, descriptor: FileDescriptor(fd: Settings.firstDocumentDescriptor, path: "the document"),
                                             output: output)
        }
    }

    private static func bundle(_ job: ShareRenderJob, output: FileDescriptor) throws -> ShareRenderResult {
        let documents = try job.content.documents.enumerated().map { index, document in
            try BundleDocument.open(document, descriptor: FileDescriptor(fd: Settings.firstDocumentDescriptor + Int32(index),
                                                                        path: "document \(index + 1)"))
        }
        let time = job.time
        let composer = ShareBundleComposer(content: job.content, options: job.options, time: time, documents: documents)
        let metadata = PDFMetadata(title: "Health summary: \(job.content.patientName), for \(job.options.recipient)",
                                   author: job.content.patientName, subject: "Confidential personal health information",
                                   keywords: "health summary, medications, allergies, conditions, immunizations",
                                   creator: job.options.generator, creationDate: Timestamp.string(time.now))
        let frame = BundleStyle.reportFrame(job.options.paper)
        let decoration = CoverPages(footer: composer.footer)
        let pagination: Pagination
        if let password = job.password {
            let buffer = PlaintextBuffer()
            defer { buffer.wipe() }
            pagination = try PaginatedRenderer.render(to: .stream { buffer.append($0) }, frame: frame, metadata: metadata,
                                                      decoration: decoration, compose: composer.compose)
            try output.write(try BundleEncryption.encrypt(buffer.bytes, password: password))
        } else {
            pagination = try PaginatedRenderer.render(to: .stream { try output.write($0) }, frame: frame, metadata: metadata,
                                                      decoration: decoration, compose: composer.compose)
        }
        return .drawn(pages: pagination.pageCount, summaryPages: composer.summaryPageCount,
                      documentFirstPages: composer.documentFirstPages)
    }
}
