import CPHRSystem
import Foundation
import Glibc
import PHRTypesetting

/// The process that draws share bundles: `phr __share-worker`, started by `ShareRenderer`.
///
/// Drawing a bundle means parsing the chosen documents with poppler, and phr never parses a
/// document in the process that holds the vault's keys (SECURITY.md, "Reading untrusted
/// documents"). So the parent decrypts, and this worker, which never sees a key, a passphrase
/// or phr's environment, draws. It narrows what it can do before reading anything: it dies
/// with its parent, closes every descriptor it was not given, limits its address space, CPU
/// time and open files, and may not write to any file (its output is a pipe).
///
/// Descriptors: 0 the job (JSON, a memory file), 1 the PDF out (a pipe), 2 /dev/null, 3 the
/// result (JSON, a pipe), 4 onwards the documents (memory files), in the job's order. An
/// encrypted bundle is encrypted here too, so the parent only ever copies bytes.
public enum ShareWorker {
    public struct Settings: Equatable, Sendable {
        /// How many document descriptors follow descriptor 3.
        public var documents: Int
        /// RLIMIT_AS and RLIMIT_DATA, in bytes.
        public var memoryBytes: Int
        /// RLIMIT_CPU, in seconds.
        public var cpuSeconds: Int

        public init(documents: Int, memoryBytes: Int, cpuSeconds: Int) {
            self.documents = documents
            self.memoryBytes = memoryBytes
            self.cpuSeconds = cpuSeconds
        }

        /// The worker's argv after the executable; `ShareWorkerCommand` declares these options.
        var arguments: [String] {
            [subcommand, "--documents", String(documents), "--memory-bytes", String(memoryBytes), "--cpu-seconds", String(cpuSeconds)]
        }
    }

    static let subcommand = "__share-worker"
    static let jobDescriptor: Int32 = 0
    static let outputDescriptor: Int32 = 1
    static let resultDescriptor: Int32 = 3
    static let firstDocumentDescriptor: Int32 = 4
    /// A job is the records of one person: a few megabytes at most.
    static let maximumJobBytes = 256 << 20

    /// Draws the bundle and exits: 0 after reporting a result (success or a described failure),
    /// 70 (EX_SOFTWARE) if the result cannot even be reported.
    public static func run(_ settings: Settings) -> Never {
        if phr_die_with_parent() != 0 { exit(70) }
        closefrom(firstDocumentDescriptor + Int32(settings.documents))
        applyLimits(settings)
        signal(SIGPIPE, SIG_DFL)
        #if DEBUG
        if ProcessInfo.processInfo.environment["PHR_TEST_SHARE_WORKER_FAULT"] == "crash" { abort() }
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
        close(outputDescriptor)
        guard let encoded = try? JSONEncoder().encode(result),
              (try? FileDescriptor(fd: resultDescriptor, path: "result").write(Array(encoded))) != nil else { exit(70) }
        exit(0)
    }

    private static func applyLimits(_ settings: Settings) {
        func set(_ resource: __rlimit_resource, _ soft: Int, _ hard: Int) {
            var limit = rlimit(rlim_cur: rlim_t(soft), rlim_max: rlim_t(hard))
            _ = setrlimit(__rlimit_resource_t(resource.rawValue), &limit)
        }
        set(RLIMIT_AS, settings.memoryBytes, settings.memoryBytes)
        set(RLIMIT_DATA, settings.memoryBytes, settings.memoryBytes)
        set(RLIMIT_CORE, 0, 0)
        // Output goes to a pipe; no file may be written.
        set(RLIMIT_FSIZE, 0, 0)
        // The documents, and the font files FreeType keeps open while cairo uses them.
        set(RLIMIT_NOFILE, 256 + settings.documents, 256 + settings.documents)
        set(RLIMIT_CPU, settings.cpuSeconds, settings.cpuSeconds + 5)
    }

    private static func render(_ settings: Settings) throws -> ShareRenderResult {
        let input = try FileDescriptor(fd: jobDescriptor, path: "job").readToEnd(limit: maximumJobBytes)
        let job = try JSONDecoder().decode(ShareRenderJob.self, from: Data(input))
        guard job.content.documents.count == settings.documents else {
            throw ShareError.typesetting(reason: "the job lists \(job.content.documents.count) documents, the worker got \(settings.documents)")
        }
        let documents = try job.content.documents.enumerated().map { index, document in
            try BundleDocument.open(document, descriptor: FileDescriptor(fd: firstDocumentDescriptor + Int32(index),
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
        let output = FileDescriptor(fd: outputDescriptor, path: "the share output pipe")
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
