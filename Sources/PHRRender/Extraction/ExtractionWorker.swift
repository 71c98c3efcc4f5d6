import CPHRPoppler
import CPHRSystem
import Glibc
import PHRModel

/// The worker process behind `TextExtractor`: `phr-render extract`, started by the parent with
/// posix_spawn, reads PDFs with poppler and reports in `WorkerProtocol` frames on descriptor 3.
///
/// Everything hostile in a PDF is met here, so the worker first narrows what it can do: it closes
/// every descriptor but 0 to 3, limits its address space, data segment, CPU time, open files and
/// file writes with setrlimit(2), and only then says `ready` and accepts documents. It handles
/// documents one after another until the parent closes the socket or it has used its share
/// (documents or CPU), then exits 0; the parent starts a fresh one when needed.
public enum ExtractionWorker {
    public typealias Settings = ExtractionWorkerSettings

    /// Runs the worker loop; never returns. Exits 0 when the parent has no more jobs, 70 (EX_SOFTWARE)
    /// if the parent breaks the protocol or the socket fails.
    public static func run(_ settings: Settings) -> Never {
        // A worker must never outlive the phr process that started it.
        if phr_die_with_parent() != 0 { exit(70) }
        let socket = WorkerProtocol.workerSocketDescriptor
        closefrom(socket + 1)
        applyLimits(settings)
        signal(SIGPIPE, SIG_DFL)
        WorkerSandbox.confine()

        let log = PopplerLog()
        log.install()
        var channel = WorkerChannel(socket: socket)
        #if DEBUG
        let beforeSending = WorkerTestFaults().trigger(pageText:)
        #else
        let beforeSending: (String) -> Void = { _ in }
        #endif
        do {
            try channel.send(.ready(version: WorkerProtocol.version,
                                    extractor: "poppler \(String(cString: poppler_get_version())); \(ReaderLibraries.tesseract); phr-extract 2"))
            var handled = 0
            let ocr = OCREngine()
            while let (received, descriptor) = try channel.nextJob() {
                var job = received
                advanceCPULimit(settings)
                let kind = (try? FileSniffer.kind(ofDescriptor: descriptor)) ?? .other
                let (status, reason): (WorkerDocumentStatus, String)
                if kind.isImage {
                    for index in job.passwordCandidates.indices { wipe(&job.passwordCandidates[index]) }
                    (status, reason) = try readImage(descriptor: descriptor, kind: kind, job: job, ocr: ocr, settings: settings,
                                                     channel: &channel, beforeSending: beforeSending)
                } else {
                    let opening = PopplerReader.open(descriptor: descriptor, candidates: job.passwordCandidates, log: log)
                    for index in job.passwordCandidates.indices { wipe(&job.passwordCandidates[index]) }
                    switch opening {
                    case let .passwordRequired(message):
                        (status, reason) = (.passwordRequired, message)
                    case let .unreadable(message):
                        (status, reason) = (.unreadable, message)
                    case let .opened(reader):
                        (status, reason) = try readPages(reader, job: job, ocr: ocr, settings: settings, log: log,
                                                         channel: &channel, beforeSending: beforeSending)
                    }
                }
                close(descriptor)
                handled += 1
                // Retire while well inside the hard CPU limit, so no document meets it.
                let retiring = handled >= settings.documentsPerWorker
                    || cpuSecondsUsed() * 2 > Double(settings.cpuLifetimeSeconds)
                try channel.send(.done(status, retiring: retiring, syntaxErrors: log.count, reason: reason))
                if retiring { break }
            }
        } catch {
            exit(70)
        }
        exit(0)
    }

    /// Sends `opened` and every page from the job's first; returns the status and reason for
    /// `done`. `beforeSending` sees each page's text first (the test faults' hook; nothing in
    /// release builds).
    private static func readPages(_ reader: PopplerReader, job: WorkerJob, ocr: OCREngine, settings: Settings, log: PopplerLog,
                                  channel: inout WorkerChannel,
                                  beforeSending: (String) -> Void) throws -> (WorkerDocumentStatus, String) {
        let pageCount = reader.pageCount
        // A hostile title could be megabytes; the parent keeps 300 characters of it anyway.
        let title = reader.title.map { truncated($0, toUTF8Bytes: 2048) }
        try channel.send(.opened(WorkerOpenedDocument(pageCount: pageCount, isEncrypted: reader.isEncrypted,
                                                      creationTime: reader.creationTime, title: title)))
        if pageCount == 0 {
            return (.unreadable, log.sawInvalidPageCount ? "damaged: invalid page count" : "the document has no pages")
        }
        let mode = job.ocr.mode
        // A resumed document starts after the page its last worker died on.
        var last = min(pageCount, job.lastPage ?? pageCount)
        guard job.firstPage - 1 < last else { return (.read, "") }
        for index in max(0, job.firstPage - 1)..<pageCount {
            // The parent may have given the rest of this range to another worker.
            if let limit = try channel.pendingLimit() { last = min(last, limit) }
            guard index < last else { break }
            advanceCPULimit(settings)
            guard let page = reader.page(at: index, words: job.ocr.textLayerWords, coverage: mode == .auto) else {
                try channel.send(.page(WorkerPage(number: index + 1, flags: .failed, text: "")))
                continue
            }
            let quality = PageTextAssessor.quality(of: page.text, hasImages: page.hasImages, failed: false)
            let needsOCR: Bool
            switch mode {
            case .never: needsOCR = false
            case .always: needsOCR = true
            case .auto:
                // No text, junk, or a little text on a page that is mostly picture (a scanned
                // letter with a typed header stamped on it).
                needsOCR = quality == .imageOnly || quality == .junk || (quality == .blank && job.ocr.blankPages)
                    || (quality == .text && page.imageShare > 0.5 && PopplerReader.visibleCount(page.text) < 400)
            }
            var flags: WorkerPageFlags = page.hasImages ? .hasImages : []
            var note = ""
            if needsOCR {
                do {
                    let image = try reader.render(at: index, resolution: 300, maximumMegapixels: ImageDecoder.workingMegapixels)
                    let result = try ocr.read(image, languages: job.ocr.languages, seconds: ocrSeconds(settings), tables: job.ocr.tables)
                    try channel.send(.page(ocrPage(result, number: index + 1, flags: flags, settings: settings, beforeSending: beforeSending)))
                    continue
                } catch let failure as OCRFailure {
                    flags.insert(.ocrFailed)
                    note = failure.note
                }
            }
            beforeSending(page.text)
            let text = truncated(probed(page.text), toUTF8Bytes: settings.maximumPageTextBytes)
            try channel.send(.page(WorkerPage(number: index + 1, flags: flags, width: page.width, height: page.height, note: note,
                                              words: page.words, text: text)))
        }
        return (.read, "")
    }

    /// Reads a scan or photo: every frame is a page, read by OCR.
    private static func readImage(descriptor: Int32, kind: FileSniffer.Kind, job: WorkerJob, ocr: OCREngine, settings: Settings,
                                  channel: inout WorkerChannel,
                                  beforeSending: (String) -> Void) throws -> (WorkerDocumentStatus, String) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return (.unreadable, "the file cannot be read") }
        guard info.st_size <= Int64(ImageDecoder.maximumFileBytes) else {
            return (.unreadable, "the image file is larger than \(ImageDecoder.maximumFileBytes >> 20) MB")
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + filled, $0.count - filled, off_t(filled)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return (.unreadable, "the file cannot be read") }
            filled += count
        }
        let decoder = ImageDecoder(bytes: bytes, kind: kind)
        guard !decoder.hasMorePages else {
            return (.unreadable, "the TIFF holds more than \(ImageDecoder.maximumTIFFPages) pages, more than phr reads; split it (tiffsplit) and add the parts")
        }
        let pageCount = decoder.pageCount()
        try channel.send(.opened(WorkerOpenedDocument(pageCount: pageCount, isEncrypted: false)))
        var last = min(pageCount, job.lastPage ?? pageCount)
        guard job.firstPage - 1 < last else { return (.read, "") }
        for index in max(0, job.firstPage - 1)..<pageCount {
            if let limit = try channel.pendingLimit() { last = min(last, limit) }
            guard index < last else { break }
            advanceCPULimit(settings)
            do {
                let image = try decoder.page(index)
                let result = try ocr.read(image, languages: job.ocr.languages, seconds: ocrSeconds(settings), tables: job.ocr.tables)
                try channel.send(.page(ocrPage(result, number: index + 1, flags: .hasImages, settings: settings, beforeSending: beforeSending)))
            } catch let failure as OCRFailure {
                let flags: WorkerPageFlags = failure.isImageFault ? [.failed, .ocrFailed] : [.hasImages, .ocrFailed]
                try channel.send(.page(WorkerPage(number: index + 1, flags: flags, source: .ocr, note: failure.note, text: "")))
            }
        }
        return (.read, "")
    }

    /// The `page` message for a page OCR read: its text laid out from the words, which
    /// `beforeSending` sees first.
    private static func ocrPage(_ result: OCREngine.Result, number: Int, flags: WorkerPageFlags, settings: Settings,
                                beforeSending: (String) -> Void) -> WorkerPage {
        let text = probed(PageLayout(page: number, width: result.width, height: result.height, source: .ocr, words: result.words).text)
        beforeSending(text)
        return WorkerPage(number: number, flags: flags, source: .ocr, confidence: result.meanConfidence, width: result.width,
                          height: result.height, note: result.note, words: result.words,
                          text: truncated(text, toUTF8Bytes: settings.maximumPageTextBytes))
    }

    #if DEBUG
    private static let probe = SandboxProbe.PageProbe()
    #endif

    /// A page's text, or in debug builds the sandbox probe's report for the page it is set for.
    private static func probed(_ text: String) -> String {
        #if DEBUG
        if let report = probe?.report(forPageText: text) { return report }
        #endif
        return text
    }

    /// Wall-clock seconds OCR may spend on one page: inside the page's CPU limit, so a slow page
    /// ends with its own outcome before the limit kills the worker.
    private static func ocrSeconds(_ settings: Settings) -> Double {
        Double(max(2, settings.cpuSecondsPerStep - 4))
    }

    /// `text` cut to at most `limit` UTF-8 bytes, at a character boundary.
    static func truncated(_ text: String, toUTF8Bytes limit: Int) -> String {
        let utf8 = Array(text.utf8)
        guard utf8.count > limit else { return text }
        var end = limit
        while end > 0 && utf8[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: utf8[..<end], as: UTF8.self)
    }

    // MARK: - Limits

    private static func applyLimits(_ settings: Settings) {
        Sandbox.applyLimits(Sandbox.Limits(memoryBytes: settings.memoryBytes, cpuSoftSeconds: settings.cpuSecondsPerStep,
                                           cpuHardSeconds: settings.cpuLifetimeSeconds, openFiles: 64))
    }

    /// Moves the soft CPU limit to `cpuSecondsPerStep` beyond what the worker has used so far:
    /// a step that overruns it gets SIGXCPU, which the parent reports for that document.
    private static func advanceCPULimit(_ settings: Settings) {
        let soft = min(Int(cpuSecondsUsed()) + settings.cpuSecondsPerStep + 1, settings.cpuLifetimeSeconds)
        var limit = rlimit(rlim_cur: rlim_t(soft), rlim_max: rlim_t(settings.cpuLifetimeSeconds))
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &limit)
    }

    private static func cpuSecondsUsed() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}

/// The worker's end of the socket: blocking writes of whole frames, reads of job frames with
/// the descriptor that came with each.
struct WorkerChannel {
    let socket: Int32
    private var decoder = FrameDecoder(maximumPayload: 1 << 16)
    private var descriptors: [Int32] = []

    init(socket: Int32) {
        self.socket = socket
    }

    mutating func send(_ message: WorkerMessage) throws {
        try UnixSocket.send(socket, message.encoded())
    }

    /// The next job and its document's descriptor, or nil when the parent has closed its end.
    mutating func nextJob() throws -> (WorkerJob, Int32)? {
        var chunk = [UInt8](repeating: 0, count: 4096)
        defer { wipe(&chunk) }
        while true {
            if let frame = try decoder.next() {
                // A limit for the job just finished came too late to matter.
                if frame.kind == WorkerLimit.kind {
                    _ = try WorkerLimit.decode(payload: frame.payload)
                    continue
                }
                let job = try WorkerJob.decode(kind: frame.kind, payload: frame.payload)
                decoder.wipeConsumed()
                guard !descriptors.isEmpty else {
                    throw ExtractionError.protocolViolation(detail: "a job came without a document")
                }
                return (job, descriptors.removeFirst())
            }
            let count = try chunk.withUnsafeMutableBytes { try UnixSocket.receive(socket, into: $0, descriptors: &descriptors) }
            if count == 0 { return nil }
            chunk.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
    }

    /// The lowest page limit the parent has sent during the current job, without waiting; nil
    /// if none came. Only `limit` frames can arrive mid-job (the parent sends the next job after
    /// `done`); anything else breaks the protocol.
    mutating func pendingLimit() throws -> Int? {
        var limit: Int?
        var chunk = [UInt8](repeating: 0, count: 256)
        while !closed {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 0)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { break }
            let count = try chunk.withUnsafeMutableBytes { try UnixSocket.receive(socket, into: $0, descriptors: &descriptors) }
            // The parent gone: the next page sent fails, and the worker exits.
            if count == 0 { closed = true; break }
            chunk.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
        while let frame = try decoder.next() {
            guard frame.kind == WorkerLimit.kind else {
                throw ExtractionError.protocolViolation(detail: "a job before the last one was done")
            }
            let lastPage = try WorkerLimit.decode(payload: frame.payload).lastPage
            limit = min(limit ?? lastPage, lastPage)
        }
        return limit
    }
    private var closed = false
}
