import Glibc

/// Extracts text per page from PDFs, with poppler running in worker processes that may crash,
/// hang or run out of memory without taking phr down.
///
/// Overview of Extraction/:
/// - `TextExtractor` (this type): the public entry point and the parent's scheduler. It keeps up
///   to `ExtractionLimits.parallelWorkers` workers alive across documents (starting one costs
///   about as much as reading a short PDF), hands each a document descriptor and the password
///   candidates over a socket, hands pages to the caller as they arrive, enforces the wall-clock
///   limits, and turns a worker's death into that document's outcome, then starts a fresh worker.
/// - `ExtractionWorker`, `PopplerReader`, `PopplerLog` (PHRRender): the worker process (`phr-render extract`).
/// - `WorkerProtocol`, `UnixSocket`, `WorkerProcess`: the framed messages, descriptor passing,
///   and the parent's handle on a child.
/// - `DocumentAssembly`, `PageTextAssessor`, `PageTextCleaner`: the parent's checks of what a
///   worker reports, junk detection, and text clean-up for search.
/// - `FileSniffer`, `DocumentTypeGuesser`, `DocumentDateGuesser`, `SASLprep`,
///   `PDFPasswordCandidates`, `MemoryFile`: helpers for the documents layer.
///
/// Not thread-safe: use one extractor from one thread. Callbacks run on the calling thread;
/// time spent in them does not count against a worker's limits.
public final class TextExtractor {
    /// The executable run as a worker with its `extract` subcommand: phr-render.
    public let workerExecutable: String
    public let limits: ExtractionLimits
    /// What the workers read with, as the last one to start said ("poppler 22.12.0;
    /// phr-extract 1"); nil until a worker has started.
    public fileprivate(set) var extractorVersion: String?

    #if DEBUG
    /// Test-only environment for workers (see `WorkerTestFaults`).
    var testFaults: [String: String] = [:]
    #endif

    private var idleWorkers: [WorkerProcess] = []

    /// - Parameter workerExecutable: phr-render; by default the one beside the running program.
    public init(workerExecutable: String = RenderHelper.path, limits: ExtractionLimits = .default) {
        self.workerExecutable = workerExecutable
        self.limits = limits
    }

    deinit { shutdown() }

    /// Extracts one document, calling `onPage` for each page as soon as it is read.
    ///
    /// Problems with the document itself (damaged, encrypted, hostile) are the summary's
    /// outcome, never a thrown error. Throws `ExtractionError` if no worker can run, or whatever
    /// `onPage` throws (the worker is then killed).
    public func extract(_ source: ExtractionSource, password: SecretBytes? = nil, ocr: OCROptions = .none,
                        onPage: (ExtractedPage) throws -> Void) throws -> ExtractionSummary {
        var result: ExtractionSummary?
        try extractAll(CollectionOfOne(ExtractionJob(source, password: password, ocr: ocr)),
                       onPage: { _, page in try onPage(page) },
                       onFinish: { _, summary in result = summary })
        return result!
    }

    /// Extracts a batch with up to `limits.parallelWorkers` documents in flight.
    ///
    /// Jobs are taken from `jobs` only when a worker is free, so a lazy sequence can open each
    /// document (or decrypt it into a `MemoryFile`) just in time. `onPage(index, page)` and
    /// `onFinish(index, summary)` name the job by its position in `jobs`; pages of one document
    /// arrive in order and before its `onFinish`, but documents interleave.
    public func extractAll<Jobs: Sequence>(_ jobs: Jobs,
                                           onPage: (Int, ExtractedPage) throws -> Void,
                                           onFinish: (Int, ExtractionSummary) throws -> Void) throws
        where Jobs.Element == ExtractionJob {
        try withoutActuallyEscaping(onPage) { onPage in
            try withoutActuallyEscaping(onFinish) { onFinish in
                var run = BatchRun(extractor: self, jobs: jobs.makeIterator(), onPage: onPage, onFinish: onFinish)
                do {
                    try run.execute()
                } catch {
                    run.abandon()
                    throw error
                }
            }
        }
    }

    /// Stops the idle workers. Later calls start new ones.
    public func shutdown() {
        for worker in idleWorkers { worker.finish() }
        idleWorkers.removeAll()
    }

    // MARK: - Workers

    /// A worker's whole environment: nothing of phr's own (PHR_PASSPHRASE and the like never
    /// reach a process that parses hostile files), only the Swift backtracer switched off, since
    /// a crash report is slow and could print memory.
    /// OMP_THREAD_LIMIT=1: Tesseract's OpenMP threads on two workers at once made OCR twenty
    /// times slower; phr parallelises across pages instead. TESSDATA_PREFIX is passed on so a
    /// user's own language data is found. Neither holds anything secret.
    var workerEnvironment: [String] {
        var environment = ["SWIFT_BACKTRACE=enable=no", "OMP_THREAD_LIMIT=1"]
        // TESSDATA_PREFIX, and the benchmark's PHR_OCR_STEPS (which preprocessing steps run).
        for name in ["TESSDATA_PREFIX", "PHR_OCR_STEPS"] {
            if let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty { environment.append("\(name)=\(value)") }
        }
        #if DEBUG
        environment += testFaults.map { "\($0.key)=\($0.value)" }.sorted()
        #endif
        return environment
    }

    fileprivate func takeWorker() throws -> WorkerProcess {
        if let worker = idleWorkers.popLast() { return worker }
        return try WorkerProcess.spawn(executable: workerExecutable,
                                       arguments: ExtractionWorkerSettings(limits).arguments,
                                       environment: workerEnvironment,
                                       maximumPayload: limits.maximumPageTextBytes + (6 << 20))
    }

    fileprivate func returnWorker(_ worker: WorkerProcess) {
        idleWorkers.append(worker)
    }
}

/// One call of `extractAll`: the slots, the document in each, and the poll loop.
private struct BatchRun<Jobs: IteratorProtocol> where Jobs.Element == ExtractionJob {
    let extractor: TextExtractor
    var jobs: Jobs
    let onPage: (Int, ExtractedPage) throws -> Void
    let onFinish: (Int, ExtractionSummary) throws -> Void

    private var slots: [Slot]
    private var nextIndex = 0
    private var exhausted = false

    /// A worker and the document it is reading.
    struct Slot {
        var worker: WorkerProcess?
        var document: Document?
    }

    struct Document {
        let index: Int
        /// The job and its open file, kept to resume the document in a fresh worker after one
        /// died on a page (an image bomb, a page that hangs OCR).
        let job: ExtractionJob
        let file: FileDescriptor
        var resumes = 0
        var assembly = DocumentAssembly()
        /// Monotonic times, moved forward by the time callbacks take.
        var started: Double
        var lastProgress: Double
    }

    init(extractor: TextExtractor, jobs: Jobs, onPage: @escaping (Int, ExtractedPage) throws -> Void,
         onFinish: @escaping (Int, ExtractionSummary) throws -> Void) {
        self.extractor = extractor
        self.jobs = jobs
        self.onPage = onPage
        self.onFinish = onFinish
        slots = Array(repeating: Slot(), count: max(1, extractor.limits.parallelWorkers))
    }

    private var limits: ExtractionLimits { extractor.limits }

    mutating func execute() throws {
        while true {
            try fillIdleSlots()
            let busy = slots.indices.filter { slots[$0].document != nil }
            if busy.isEmpty { break }
            try waitAndHandle(busy)
        }
        for index in slots.indices {
            if let worker = slots[index].worker { extractor.returnWorker(worker) }
            slots[index].worker = nil
        }
    }

    /// Kills the workers of unfinished documents after an error (their state is unknown) and
    /// keeps the idle ones.
    mutating func abandon() {
        for index in slots.indices {
            guard let worker = slots[index].worker else { continue }
            if slots[index].document != nil {
                worker.kill()
                _ = worker.reap()
            } else {
                extractor.returnWorker(worker)
            }
            slots[index] = Slot()
        }
    }

    // MARK: Dispatch

    private mutating func fillIdleSlots() throws {
        for slot in slots.indices where slots[slot].document == nil {
            while slots[slot].document == nil && !exhausted {
                guard let job = jobs.next() else {
                    exhausted = true
                    break
                }
                let index = nextIndex
                nextIndex += 1
                if let summary = try dispatch(job, index: index, slot: slot) {
                    let onFinish = self.onFinish
                    try callback { try onFinish(index, summary) }
                }
            }
        }
    }

    /// Sends `job` to the worker of `slot`; returns a summary instead if the file never needs a worker.
    private mutating func dispatch(_ job: ExtractionJob, index: Int, slot: Int) throws -> ExtractionSummary? {
        // The descriptor must stay open until the worker has its copy: hold its owner until then.
        let owner: FileDescriptor
        switch job.source {
        case let .path(path):
            let raw = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
            guard raw >= 0 else {
                return ExtractionSummary(outcome: .unreadable, reason: "cannot open the file: \(ExtractionError.describe(errno))")
            }
            owner = FileDescriptor(fd: raw, path: path)
        case let .file(file):
            owner = file
        }
        return try dispatchOpen(job, file: owner, index: index, slot: slot)
    }

    /// Checks the open file is a regular file and a PDF, then sends it with the password
    /// candidates to the slot's worker (starting one if needed).
    private mutating func dispatchOpen(_ job: ExtractionJob, file: FileDescriptor, index: Int, slot: Int) throws -> ExtractionSummary? {
        let descriptor = file.fd
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            return ExtractionSummary(outcome: .unreadable, reason: "cannot read the file: \(ExtractionError.describe(errno))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            return ExtractionSummary(outcome: .unreadable, reason: "not a regular file")
        }
        let kind: FileSniffer.Kind
        do {
            kind = try FileSniffer.kind(ofDescriptor: descriptor)
        } catch let error as POSIXIOError {
            return ExtractionSummary(outcome: .unreadable, reason: "cannot read the file: \(ExtractionError.describe(error.code))")
        }
        guard kind == .pdf || kind.isImage else {
            return ExtractionSummary(outcome: .unreadable, reason: "not a PDF file or an image")
        }
        if kind.isImage && job.ocr.mode == .never {
            return ExtractionSummary(outcome: .noText, pageCount: 1, reason: "an image: needs OCR to be searchable")
        }
        try send(job, file: file, firstPage: 1, slot: slot)
        let now = Monotonic.now()
        slots[slot].document = Document(index: index, job: job, file: file, started: now, lastProgress: now)
        return nil
    }

    /// Sends the job for `file` to the slot's worker, starting one if needed.
    private mutating func send(_ job: ExtractionJob, file: FileDescriptor, firstPage: Int, slot: Int) throws {
        let descriptor = file.fd
        var candidates = job.password.map(PDFPasswordCandidates.make) ?? []
        var frame = WorkerJob(passwordCandidates: candidates, ocr: job.ocr, firstPage: firstPage).encoded()
        defer {
            wipe(&frame)
            for index in candidates.indices { wipe(&candidates[index]) }
        }
        // A worker kept from an earlier batch may have exited meanwhile; one retry with a new one.
        // A new worker that is gone before it takes its first job never worked: that is the
        // same failure as one that exits without saying it is ready (a slow machine lets
        // `/bin/true` exit before the job is sent).
        var attempts = 0
        while true {
            let worker = try slots[slot].worker ?? extractor.takeWorker()
            slots[slot].worker = worker
            worker.clearDiagnostics()
            do {
                try worker.send(frame, passing: descriptor)
                break
            } catch ExtractionError.system(_, let code) where code == EPIPE || code == ECONNRESET {
                let kept = worker.isReady
                slots[slot].worker = nil
                if kept && attempts == 0 {
                    attempts += 1
                    _ = worker.reap()
                    continue
                }
                worker.drainDiagnostics()
                let status = WorkerTermination(status: worker.reap())
                let detail = status.exitCode.map { "it exited with status \($0)" }
                    ?? "it was killed by \(WorkerTermination.signalName(status.signal ?? 0))"
                throw ExtractionError.workerNotReady(executable: extractor.workerExecutable, detail: detail)
            }
        }
    }

    /// After the worker died or was killed on a page, resumes the document after that page in a
    /// fresh worker, at most `maximumResumes` times; returns false if the document is finished.
    private mutating func resume(_ slot: Int, reason: String) throws -> Bool {
        guard var document = slots[slot].document, document.resumes < Self.maximumResumes,
              document.assembly.opened != nil else { return false }
        document.assembly.noteLostPage(reason)
        let pagesBefore = document.assembly.pagesReceived
        guard let next = document.assembly.skipPageAfterFailure() else {
            slots[slot].document = document
            slots[slot].worker = nil
            guard document.assembly.pagesReceived > pagesBefore else { return false }
            // The last page was the one lost: the document is complete without it.
            try finish(slot, try document.assembly.summary(status: .read, syntaxErrors: 0, reason: ""))
            return true
        }
        document.resumes += 1
        let now = Monotonic.now()
        document.lastProgress = now
        slots[slot].document = document
        slots[slot].worker = nil
        try send(document.job, file: document.file, firstPage: next, slot: slot)
        return true
    }

    /// Pages a document may lose to dying workers before the rest of it is given up.
    static var maximumResumes: Int { 3 }

    // MARK: Waiting

    private mutating func waitAndHandle(_ busy: [Int]) throws {
        var descriptors: [pollfd] = []
        for slot in busy {
            let worker = slots[slot].worker!
            descriptors.append(pollfd(fd: worker.socket, events: Int16(POLLIN), revents: 0))
            // poll(2) skips negative descriptors: closed diagnostics would otherwise report POLLHUP forever.
            descriptors.append(pollfd(fd: worker.diagnosticsOpen ? worker.diagnostics : -1, events: Int16(POLLIN), revents: 0))
        }
        let now = Monotonic.now()
        let nearest = busy.map { deadline(of: slots[$0].document!) }.min()!
        let timeout = Int32(max(0, min((nearest - now) * 1000 + 1, 60_000)))
        let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
        if ready < 0 && errno != EINTR { throw ExtractionError.system(operation: "poll", code: errno) }

        for (position, slot) in busy.enumerated() {
            guard slots[slot].document != nil, let worker = slots[slot].worker else { continue }
            if descriptors[position * 2 + 1].revents != 0 { worker.drainDiagnostics() }
            if descriptors[position * 2].revents != 0 { try handleReadable(slot) }
        }
        let after = Monotonic.now()
        for slot in busy {
            guard let document = slots[slot].document, after >= deadline(of: document) else { continue }
            let worker = slots[slot].worker!
            worker.kill()
            _ = worker.reap()
            slots[slot].worker = nil
            let wholeDocument = after >= document.started + limits.documentTimeout
            let failure = wholeDocument
                ? "the reader took longer than \(Self.seconds(limits.documentTimeout)) in all"
                : "the reader made no progress for \(Self.seconds(limits.stepTimeout))"
            if !wholeDocument, try resume(slot, reason: failure) { continue }
            try finish(slot, slots[slot].document!.assembly.summary(failure: failure))
        }
    }

    private func deadline(of document: Document) -> Double {
        min(document.lastProgress + limits.stepTimeout, document.started + limits.documentTimeout)
    }

    private mutating func handleReadable(_ slot: Int) throws {
        let worker = slots[slot].worker!
        let received: WorkerProcess.Received
        do {
            received = try worker.receive()
        } catch let error as ExtractionError {
            guard case .protocolViolation = error, worker.isReady else { throw error }
            // A worker that talks nonsense mid-document was most likely subverted by that
            // document: it is that document's outcome, and the worker is replaced.
            return try failDocument(slot, reason: "the reader sent an invalid message")
        }
        // Part of a long page, or a new worker's `ready`, is progress too.
        if received.madeProgress { slots[slot].document?.lastProgress = Monotonic.now() }
        if let version = worker.extractor { extractor.extractorVersion = version }
        for message in received.messages {
            guard slots[slot].document != nil else {
                // Nothing was asked of this worker: it is broken, and no document is to blame.
                worker.kill()
                _ = worker.reap()
                slots[slot].worker = nil
                return
            }
            switch message {
            case .ready:
                break  // consumed by `WorkerProcess.receive`
            case let .opened(opened):
                try checked(slot) { try $0.assembly.open(opened) }
            case let .page(workerPage):
                guard let page = try checked(slot, { try $0.assembly.page(workerPage) }) else { return }
                let index = slots[slot].document!.index
                let onPage = self.onPage
                try callback { try onPage(index, page) }
            case let .done(status, retiring, syntaxErrors, reason):
                guard let summary = try checked(slot, { try $0.assembly.summary(status: status, syntaxErrors: syntaxErrors, reason: reason) }) else { return }
                if retiring {
                    worker.finish()
                    slots[slot].worker = nil
                }
                try finish(slot, summary)
            }
            slots[slot].document?.lastProgress = Monotonic.now()
        }
        if received.closed, slots[slot].document == nil, slots[slot].worker != nil {
            _ = worker.reap()
            slots[slot].worker = nil
        }
        if received.closed, slots[slot].document != nil {
            guard worker.isReady else {
                worker.drainDiagnostics()
                let status = WorkerTermination(status: worker.reap())
                slots[slot].worker = nil
                let detail = status.exitCode.map { "it exited with status \($0)" }
                    ?? "it was killed by \(WorkerTermination.signalName(status.signal ?? 0))"
                throw ExtractionError.workerNotReady(executable: extractor.workerExecutable, detail: detail)
            }
            worker.drainDiagnostics()
            let termination = WorkerTermination(status: worker.reap())
            let reason = termination.reason(limits: limits, memoryExhausted: worker.diagnosticsShowMemoryExhaustion)
            slots[slot].worker = nil
            if try resume(slot, reason: reason) { return }
            try finish(slot, slots[slot].document!.assembly.summary(failure: reason))
        }
    }

    /// Runs `body` on the slot's document; a protocol violation fails the document (and returns nil).
    @discardableResult
    private mutating func checked<Value>(_ slot: Int, _ body: (inout Document) throws -> Value) throws -> Value? {
        do {
            return try body(&slots[slot].document!)
        } catch ExtractionError.protocolViolation {
            try failDocument(slot, reason: "the reader sent an invalid message")
            return nil
        }
    }

    private mutating func failDocument(_ slot: Int, reason: String) throws {
        let worker = slots[slot].worker!
        worker.kill()
        _ = worker.reap()
        slots[slot].worker = nil
        try finish(slot, slots[slot].document!.assembly.summary(failure: reason))
    }

    private mutating func finish(_ slot: Int, _ summary: ExtractionSummary) throws {
        let index = slots[slot].document!.index
        slots[slot].document = nil
        let onFinish = self.onFinish
        try callback { try onFinish(index, summary) }
    }

    /// Runs a caller's callback and moves every running document's clock forward by the time
    /// it took: a slow database insert must not make a worker look hung.
    private mutating func callback(_ body: () throws -> Void) throws {
        let start = Monotonic.now()
        defer {
            let spent = Monotonic.now() - start
            for slot in slots.indices where slots[slot].document != nil {
                slots[slot].document!.started += spent
                slots[slot].document!.lastProgress += spent
            }
        }
        try body()
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
