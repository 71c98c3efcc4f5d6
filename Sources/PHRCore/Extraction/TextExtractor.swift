import Glibc

/// Extracts text per page from PDFs, with poppler running in worker processes that may crash,
/// hang or run out of memory without taking phr down.
///
/// Overview of Extraction/:
/// - `TextExtractor` (this type): the public entry point and the parent's scheduler. It keeps up
///   to `ExtractionLimits.parallelWorkers` workers alive across documents (starting one costs
///   about as much as reading a short PDF), hands each a document descriptor and the password
///   candidates over a socket, splits a long scan's pages across idle workers, hands pages to
///   the caller as they arrive, enforces the wall-clock limits, and turns a worker's death into
///   that page's or that document's outcome, then starts a fresh worker.
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
    /// How many times a document's remaining pages were given to a second worker, since this
    /// extractor was made.
    fileprivate(set) var splits = 0

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

    /// Extracts a batch with up to `limits.parallelWorkers` workers reading.
    ///
    /// Jobs are taken from `jobs` only when a worker is free, so a lazy sequence can open each
    /// document (or decrypt it into a `MemoryFile`) just in time. Once every job is taken, a
    /// worker that falls idle takes half the remaining pages of a document being OCR'd.
    /// `onPage(index, page)` and `onFinish(index, summary)` name the job by its position in
    /// `jobs`; pages of one document arrive in order and before its `onFinish`, but documents
    /// interleave.
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
        var environment = Sandbox.workerEnvironment(["OMP_THREAD_LIMIT=1"])
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

/// One call of `extractAll`: the slots, the documents in them, and the poll loop.
///
/// A slot is a worker and the part of a document it is reading: a run of pages, at first the
/// whole document. Once no document is waiting, a slot that falls idle takes the second half of
/// the pages another worker has not started yet, and that worker is told to stop before them
/// (`WorkerLimit`), so one long scan is read on every core. Pages are handed to the caller in
/// order: those of a later part wait until the pages before them have come.
private struct BatchRun<Jobs: IteratorProtocol> where Jobs.Element == ExtractionJob {
    let extractor: TextExtractor
    var jobs: Jobs
    let onPage: (Int, ExtractedPage) throws -> Void
    let onFinish: (Int, ExtractionSummary) throws -> Void

    private var slots: [Slot]
    /// The documents being read, by their position in `jobs`.
    private var documents: [Int: Document] = [:]
    private var nextIndex = 0
    private var exhausted = false

    /// A worker and the part of a document it is reading.
    struct Slot {
        var worker: WorkerProcess?
        var part: Part?
    }

    /// A run of one document's pages given to one worker.
    struct Part {
        let document: Int
        /// The next page the worker is to send.
        var next: Int
        /// The last page that is this part's; nil until the document's page count is known.
        /// Lowered when the pages after it go to another worker; pages the worker sends beyond
        /// it (it started one before it saw the limit) are dropped.
        var last: Int?
        /// This job's `opened` has come.
        var opened = false
        /// Monotonic time of the worker's last sign of life, moved forward by the time callbacks take.
        var lastProgress: Double
    }

    struct Document {
        /// The job and its open file, kept to resume the document in a fresh worker after one
        /// died on a page (an image bomb, a page that hangs OCR), and to split it.
        let job: ExtractionJob
        let file: FileDescriptor
        /// Pages are slow to read (OCR): worth splitting across workers.
        var slowPages: Bool
        var resumes = 0
        var assembly = DocumentAssembly()
        /// Monotonic time the document was first sent, moved forward by the time callbacks take.
        var started: Double
        /// Pages (or lost pages) that came ahead of the next one to hand on.
        var waiting: [Int: Arrival] = [:]
        var syntaxErrors = 0
    }

    enum Arrival {
        case page(WorkerPage)
        /// The pages from this one to `through` are lost.
        case lost(through: Int, reason: String)
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
            let busy = slots.indices.filter { slots[$0].part != nil }
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
            if slots[index].part != nil {
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
        for slot in slots.indices where slots[slot].part == nil {
            while slots[slot].part == nil && !exhausted {
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
            if slots[slot].part == nil && exhausted { try split(into: slot) }
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
        try send(job, file: file, firstPage: 1, lastPage: nil, slot: slot)
        let now = Monotonic.now()
        documents[index] = Document(job: job, file: file, slowPages: kind.isImage || job.ocr.mode == .always,
                                    started: now)
        slots[slot].part = Part(document: index, next: 1, last: nil, lastProgress: now)
        return nil
    }

    /// Gives the idle `slot` the later half of the unstarted pages of the document part with
    /// the most of them, if its pages are slow (OCR): the worker reading that part is told to
    /// stop before them.
    private mutating func split(into slot: Int) throws {
        var chosen: (slot: Int, unstarted: Int)?
        for other in slots.indices {
            guard let part = slots[other].part, let last = part.last, let worker = slots[other].worker, worker.isReady,
                  let document = documents[part.document], document.slowPages, document.assembly.opened != nil else { continue }
            // `next` is being read now; the pages after it are not started.
            let unstarted = last - part.next
            if unstarted >= 1 && unstarted > (chosen?.unstarted ?? 0) { chosen = (other, unstarted) }
        }
        guard let (source, _) = chosen, let part = slots[source].part, let last = part.last,
              let document = documents[part.document] else { return }
        // The worker is part way through `next`: it keeps the pages up to the middle of what is
        // left, counting its current page as half done.
        let first = max(part.next + 1, (last + part.next + 2) / 2)
        do {
            try slots[source].worker!.send(WorkerLimit(lastPage: first - 1).encoded())
        } catch ExtractionError.system(_, let code) where code == EPIPE || code == ECONNRESET {
            return  // it died; the poll loop finds out and resumes it
        }
        slots[source].part!.last = first - 1
        try send(document.job, file: document.file, firstPage: first, lastPage: last, slot: slot)
        extractor.splits += 1
        slots[slot].part = Part(document: part.document, next: first, last: last, lastProgress: Monotonic.now())
    }

    /// Sends the job for `file` to the slot's worker, starting one if needed.
    private mutating func send(_ job: ExtractionJob, file: FileDescriptor, firstPage: Int, lastPage: Int?, slot: Int) throws {
        let descriptor = file.fd
        var candidates = job.password.map(PDFPasswordCandidates.make) ?? []
        var frame = WorkerJob(passwordCandidates: candidates, ocr: job.ocr, firstPage: firstPage, lastPage: lastPage).encoded()
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

    /// The worker of `slot` died or was killed (`reason` says how) before finishing its part:
    /// the page it was on is lost, and the part resumes after it in a fresh worker, at most
    /// `maximumResumes` times a document; then, or if the document never opened, the
    /// document ends with what it has.
    private mutating func partStopped(_ slot: Int, reason: String) throws {
        guard let part = slots[slot].part, var document = documents[part.document] else { return }
        slots[slot].worker = nil
        guard let pageCount = document.assembly.opened?.pageCount else {
            return try failDocument(part.document, reason: reason)
        }
        let last = min(part.last ?? pageCount, pageCount)
        if part.next > last {
            // It died after its last page (on one it began before it saw its limit).
            return try endPart(slot)
        }
        guard document.resumes < Self.maximumResumes else {
            return try failDocument(part.document, reason: reason, page: part.next)
        }
        document.resumes += 1
        document.waiting[part.next] = .lost(through: part.next, reason: reason)
        documents[part.document] = document
        slots[slot].part!.next += 1
        slots[slot].part!.last = last
        try deliver(part.document)
        guard documents[part.document] != nil else { return }
        if part.next + 1 > last { return try endPart(slot) }
        slots[slot].part!.opened = false
        slots[slot].part!.lastProgress = Monotonic.now()
        try send(document.job, file: document.file, firstPage: part.next + 1, lastPage: last, slot: slot)
    }

    /// Pages a document may lose to dying workers before the rest of it is given up.
    static var maximumResumes: Int { 3 }

    /// Hands the caller the document's pages that are next in order.
    private mutating func deliver(_ index: Int) throws {
        while let next = documents[index].map({ $0.assembly.pagesReceived + 1 }),
              let arrival = documents[index]!.waiting.removeValue(forKey: next) {
            switch arrival {
            case let .lost(last, reason):
                guard (try? documents[index]!.assembly.losePages(through: last, reason)) != nil else {
                    return try failDocument(index, reason: "the reader sent an invalid message")
                }
            case let .page(workerPage):
                let page: ExtractedPage
                do {
                    page = try documents[index]!.assembly.page(workerPage)
                } catch ExtractionError.protocolViolation {
                    return try failDocument(index, reason: "the reader sent an invalid message")
                }
                let onPage = self.onPage
                try callback { try onPage(index, page) }
            }
        }
    }

    /// The part in `slot` is complete (its worker stays, if alive); the document ends with its
    /// last part.
    private mutating func endPart(_ slot: Int) throws {
        guard let part = slots[slot].part else { return }
        slots[slot].part = nil
        guard documents[part.document] != nil else { return }
        try deliver(part.document)
        // The document ends with its last part: no slot reads it any more.
        guard let document = documents[part.document], !slots.contains(where: { $0.part?.document == part.document }) else { return }
        let summary: ExtractionSummary
        do {
            summary = try document.assembly.summary(status: .read, syntaxErrors: document.syntaxErrors, reason: "")
        } catch ExtractionError.protocolViolation {
            return try failDocument(part.document, reason: "the reader sent an invalid message")
        }
        try finish(part.document, summary)
    }

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
        let nearest = busy.map { deadline(of: slots[$0].part!) }.min()!
        let timeout = Int32(max(0, min((nearest - now) * 1000 + 1, 60_000)))
        let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
        if ready < 0 && errno != EINTR { throw ExtractionError.system(operation: "poll", code: errno) }

        for (position, slot) in busy.enumerated() {
            guard slots[slot].part != nil, let worker = slots[slot].worker else { continue }
            if descriptors[position * 2 + 1].revents != 0 { worker.drainDiagnostics() }
            if descriptors[position * 2].revents != 0 { try handleReadable(slot) }
        }
        let after = Monotonic.now()
        for slot in busy {
            guard let part = slots[slot].part, after >= deadline(of: part), let document = documents[part.document] else { continue }
            let worker = slots[slot].worker!
            worker.kill()
            _ = worker.reap()
            slots[slot].worker = nil
            if after >= document.started + limits.documentTimeout {
                try failDocument(part.document, reason: "the reader took longer than \(Self.seconds(limits.documentTimeout)) in all",
                                 timedOut: true)
            } else {
                try partStopped(slot, reason: "the reader made no progress for \(Self.seconds(limits.stepTimeout))")
            }
        }
    }

    private func deadline(of part: Part) -> Double {
        let started = documents[part.document]?.started ?? part.lastProgress
        return min(part.lastProgress + limits.stepTimeout, started + limits.documentTimeout)
    }

    private mutating func handleReadable(_ slot: Int) throws {
        let worker = slots[slot].worker!
        let received: WorkerProcess.Received
        do {
            received = try worker.receive()
        } catch let error as ExtractionError {
            guard case .protocolViolation = error, worker.isReady, let part = slots[slot].part else { throw error }
            // A worker that talks nonsense mid-document was most likely subverted by that
            // document: it is that document's outcome, and the worker is replaced.
            return try failDocument(part.document, reason: "the reader sent an invalid message")
        }
        // Part of a long page, or a new worker's `ready`, is progress too.
        if received.madeProgress { slots[slot].part?.lastProgress = Monotonic.now() }
        if let version = worker.extractor { extractor.extractorVersion = version }
        for message in received.messages {
            guard let part = slots[slot].part, documents[part.document] != nil else {
                // Nothing was asked of this worker: it is broken, and no document is to blame.
                worker.kill()
                _ = worker.reap()
                slots[slot] = Slot()
                return
            }
            let index = part.document
            let invalid = "the reader sent an invalid message"
            switch message {
            case .ready:
                break  // consumed by `WorkerProcess.receive`
            case let .opened(opened):
                guard !part.opened, (try? documents[index]!.assembly.open(opened)) != nil else {
                    return try failDocument(index, reason: invalid)
                }
                slots[slot].part!.opened = true
                if part.last == nil { slots[slot].part!.last = opened.pageCount }
            case let .page(workerPage):
                guard part.opened, workerPage.number == part.next,
                      workerPage.number <= documents[index]!.assembly.opened?.pageCount ?? 0 else {
                    return try failDocument(index, reason: invalid)
                }
                slots[slot].part!.next += 1
                if workerPage.source == .ocr { documents[index]!.slowPages = true }
                // A page past the part's end was read before the worker saw its limit: another
                // worker has it.
                if workerPage.number <= part.last ?? Int.max {
                    documents[index]!.waiting[workerPage.number] = .page(workerPage)
                    try deliver(index)
                }
            case let .done(status, retiring, syntaxErrors, reason):
                if retiring {
                    worker.finish()
                    slots[slot].worker = nil
                }
                documents[index]!.syntaxErrors += syntaxErrors
                if status == .read {
                    guard part.opened, let last = part.last, part.next > last else {
                        return try failDocument(index, reason: invalid)
                    }
                    try endPart(slot)
                } else if !part.opened, let pageCount = documents[index]!.assembly.opened?.pageCount {
                    // A resumed or split part whose worker could not open the document again
                    // loses its pages; the rest of the document stands. (A document that opens
                    // with no pages is this job's own outcome: the branch below.)
                    let why = DocumentAssembly.sanitize(reason) ?? "the document could not be opened again"
                    let last = min(part.last ?? pageCount, pageCount)
                    if part.next <= last { documents[index]!.waiting[part.next] = .lost(through: last, reason: why) }
                    slots[slot].part!.next = last + 1
                    try endPart(slot)
                } else {
                    let summary: ExtractionSummary
                    do {
                        summary = try documents[index]!.assembly.summary(status: status, syntaxErrors: documents[index]!.syntaxErrors,
                                                                         reason: reason)
                    } catch ExtractionError.protocolViolation {
                        return try failDocument(index, reason: invalid)
                    }
                    slots[slot].part = nil
                    try finish(index, summary)
                }
            }
            if slots[slot].part != nil { slots[slot].part!.lastProgress = Monotonic.now() }
        }
        if received.closed, slots[slot].part == nil, slots[slot].worker != nil {
            _ = worker.reap()
            slots[slot].worker = nil
        }
        if received.closed, slots[slot].part != nil, slots[slot].worker != nil {
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
            try partStopped(slot, reason: reason)
        }
    }

    /// Ends the document with what it has: its workers are killed (their state is unknown).
    private mutating func failDocument(_ index: Int, reason: String, page: Int? = nil, timedOut: Bool = false) throws {
        guard let document = documents[index] else { return }
        var summary = document.assembly.summary(failure: reason, page: page)
        summary.timedOut = timedOut
        try finish(index, summary)
    }

    /// Ends document `index` with `summary`. Any part of it still being read (a split document
    /// whose other worker said it is done, or failed) is abandoned with its worker: no slot is
    /// left reading a document that is gone.
    private mutating func finish(_ index: Int, _ summary: ExtractionSummary) throws {
        for slot in slots.indices where slots[slot].part?.document == index {
            if let worker = slots[slot].worker {
                worker.kill()
                _ = worker.reap()
            }
            slots[slot] = Slot()
        }
        documents[index] = nil
        let onFinish = self.onFinish
        try callback { try onFinish(index, summary) }
    }

    /// Runs a caller's callback and moves every running document's clock forward by the time
    /// it took: a slow database insert must not make a worker look hung.
    private mutating func callback(_ body: () throws -> Void) throws {
        let start = Monotonic.now()
        defer {
            let spent = Monotonic.now() - start
            for index in documents.keys { documents[index]!.started += spent }
            for slot in slots.indices where slots[slot].part != nil { slots[slot].part!.lastProgress += spent }
        }
        try body()
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
