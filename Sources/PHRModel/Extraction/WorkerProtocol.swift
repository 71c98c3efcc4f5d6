/// The messages between phr and its extraction workers (`phr-render extract`), version 4.
///
/// Transport: an AF_UNIX stream socket pair; the worker holds its end as descriptor 3, and its
/// stdout and stderr go to a pipe the parent drains and never prints. Every message is a frame:
///
///     kind u8 | payload length u32 | payload
///
/// Integers are little-endian; `str` is a u32 length and that many UTF-8 bytes.
///
/// Worker to parent:
///
///     0x01 ready   version u16, extractor str ("poppler 22.12.0; phr-extract 1")   once, at start
///     0x02 opened  pageCount u32, flags u8 (1: encrypted), created i64 (Unix time; Int64.min
///                  if unknown), title str
///     0x03 page    number u32 (from 1), flags u8 (1: page failed to load, 2: page has images,
///                  4: OCR was tried and failed), source u8 (0: text layer, 1: OCR), confidence u8
///                  (mean OCR word confidence 0...100, 255: none), width u32, height u32 (the upright
///                  page in hundredths of a point), note str (why OCR failed, or what it did),
///                  words (u32 length, then `PageWordCoding` bytes; empty unless OCR or asked),
///                  text: the rest of the payload, UTF-8
///     0x04 done    status u8 (0: read, 1: password required, 2: unreadable), flags u8 (1: the
///                  worker exits after this job), syntaxErrors u32, reason str
///
/// Parent to worker:
///
///     0x10 job     count u8, then count × (length u16, bytes): the password candidates to try,
///                  in order; OCR mode u8 (0 auto, 1 always, 2 never), languages str ("deu+eng"),
///                  flags u8 (1: send text-layer word boxes too, 2: read OCR pages as tables too),
///                  first page u32 (from 1: the pages before it are skipped, for a document resumed
///                  after a worker died on a page, or the second part of a split document), last
///                  page u32 (0: to the end). The document's descriptor travels with this frame as
///                  SCM_RIGHTS.
///     0x11 limit   last page u32: stop the current job after this page (its remaining pages went
///                  to another worker). The worker looks for it before starting each page; a page
///                  already started is finished and sent, and a limit that arrives after `done`
///                  is ignored.
///
/// A job is answered by `opened`, one `page` per page in order (from the first page asked for to
/// the last, or the limit), and `done`; a document that does not open gets only `done`. Images
/// (PNG, JPEG, TIFF, WebP, HEIC) are documents too: one page per frame. The parent sends the next
/// job only after `done`. The parent closing its end means "no more jobs"; the worker's end
/// closing before `done` means it died.
package enum WorkerProtocol {
    package static let version: UInt16 = 4
    /// The worker's end of the socket pair.
    package static let workerSocketDescriptor: Int32 = 3
    /// The hidden subcommand that runs a worker.
    package static let subcommand = "extract"
    package static let headerSize = 5
}

/// A message from a worker.
package enum WorkerMessage: Equatable {
    case ready(version: UInt16, extractor: String)
    case opened(WorkerOpenedDocument)
    case page(WorkerPage)
    case done(WorkerDocumentStatus, retiring: Bool, syntaxErrors: Int, reason: String)

    package enum Kind: UInt8 {
        case ready = 0x01, opened = 0x02, page = 0x03, done = 0x04
    }

    /// A text-layer page without word boxes.
    package static func page(number: Int, flags: WorkerPageFlags, text: String) -> WorkerMessage {
        .page(WorkerPage(number: number, flags: flags, text: text))
    }

    /// The frame for this message.
    package func encoded() -> [UInt8] {
        var payload = ByteWriter()
        let kind: Kind
        switch self {
        case let .ready(version, extractor):
            kind = .ready
            payload.u16(version)
            payload.string(extractor)
        case let .opened(document):
            kind = .opened
            payload.u32(UInt32(clamping: document.pageCount))
            payload.u8(document.isEncrypted ? 1 : 0)
            payload.i64(document.creationTime ?? Int64.min)
            payload.string(document.title ?? "")
        case let .page(page):
            kind = .page
            payload.u32(UInt32(clamping: page.number))
            payload.u8(page.flags.rawValue)
            payload.u8(page.source == .ocr ? 1 : 0)
            payload.u8(page.confidence.map { UInt8(max(0, min(100, $0.rounded()))) } ?? 255)
            payload.u32(WorkerPage.hundredths(page.width))
            payload.u32(WorkerPage.hundredths(page.height))
            payload.string(page.note)
            let words = page.words.isEmpty ? [] : PageWordCoding.encode(page.words)
            payload.u32(UInt32(words.count))
            payload.bytes(words)
            payload.bytes(Array(page.text.utf8))
        case let .done(status, retiring, syntaxErrors, reason):
            kind = .done
            payload.u8(status.rawValue)
            payload.u8(retiring ? 1 : 0)
            payload.u32(UInt32(clamping: syntaxErrors))
            payload.string(reason)
        }
        return WorkerFrame.make(kind: kind.rawValue, payload: payload.buffer)
    }

    /// Decodes one frame's payload; throws `ExtractionError.protocolViolation` on anything malformed.
    package static func decode(kind rawKind: UInt8, payload: ArraySlice<UInt8>) throws -> WorkerMessage {
        guard let kind = Kind(rawValue: rawKind) else {
            throw ExtractionError.protocolViolation(detail: "unknown message kind \(rawKind)")
        }
        var reader = ByteReader(payload)
        let message: WorkerMessage
        switch kind {
        case .ready:
            message = .ready(version: try reader.u16(), extractor: try reader.string())
        case .opened:
            let pageCount = Int(try reader.u32())
            let flags = try reader.u8()
            let created = try reader.i64()
            let title = try reader.string()
            message = .opened(WorkerOpenedDocument(pageCount: pageCount, isEncrypted: flags & 1 != 0,
                                                   creationTime: created == Int64.min ? nil : created,
                                                   title: title.isEmpty ? nil : title))
        case .page:
            let number = Int(try reader.u32())
            let flags = WorkerPageFlags(rawValue: try reader.u8())
            let sourceByte = try reader.u8()
            guard sourceByte <= 1 else { throw ExtractionError.protocolViolation(detail: "unknown page source") }
            let confidence = try reader.u8()
            guard confidence <= 100 || confidence == 255 else {
                throw ExtractionError.protocolViolation(detail: "a confidence over 100")
            }
            let width = Double(try reader.u32()) / 100
            let height = Double(try reader.u32()) / 100
            let note = try reader.string()
            let wordBytes = try reader.take(Int(try reader.u32()))
            guard let words = PageWordCoding.decode(wordBytes) else {
                throw ExtractionError.protocolViolation(detail: "malformed word boxes")
            }
            message = .page(WorkerPage(number: number, flags: flags, source: sourceByte == 1 ? .ocr : .textLayer,
                                       confidence: confidence == 255 ? nil : Double(confidence), width: width,
                                       height: height, note: note, words: words,
                                       text: String(decoding: reader.rest(), as: UTF8.self)))
        case .done:
            guard let status = WorkerDocumentStatus(rawValue: try reader.u8()) else {
                throw ExtractionError.protocolViolation(detail: "unknown document status")
            }
            let retiring = try reader.u8() & 1 != 0
            let syntaxErrors = Int(try reader.u32())
            message = .done(status, retiring: retiring, syntaxErrors: syntaxErrors, reason: try reader.string())
        }
        guard reader.isAtEnd else {
            throw ExtractionError.protocolViolation(detail: "trailing bytes in a \(kind) message")
        }
        return message
    }
}

/// What a worker learned on opening a document.
package struct WorkerOpenedDocument: Equatable {
    package var pageCount: Int
    package var isEncrypted: Bool
    /// Seconds since 1970, from /CreationDate.
    package var creationTime: Int64?
    package var title: String?

    package init(pageCount: Int, isEncrypted: Bool, creationTime: Int64? = nil, title: String? = nil) {
        self.pageCount = pageCount
        self.isEncrypted = isEncrypted
        self.creationTime = creationTime
        self.title = title
    }
}

/// A `page` message.
package struct WorkerPage: Equatable {
    package var number: Int
    package var flags: WorkerPageFlags
    package var source: PageTextSource
    /// Mean OCR word confidence, 0...100.
    package var confidence: Double?
    /// The upright page size in points.
    package var width: Double
    package var height: Double
    /// Why OCR failed on this page, or what it did ("turned 180 degrees"); short, printable.
    package var note: String
    package var words: [PageWord]
    package var text: String

    package init(number: Int, flags: WorkerPageFlags = [], source: PageTextSource = .textLayer, confidence: Double? = nil,
                 width: Double = 0, height: Double = 0, note: String = "", words: [PageWord] = [], text: String) {
        self.number = number
        self.flags = flags
        self.source = source
        self.confidence = confidence
        self.width = width
        self.height = height
        self.note = note
        self.words = words
        self.text = text
    }

    static func hundredths(_ value: Double) -> UInt32 {
        guard value.isFinite, value > 0 else { return 0 }
        return UInt32(min(Double(UInt32.max), (value * 100).rounded()))
    }
}

/// Flags of a `page` message.
package struct WorkerPageFlags: OptionSet, Equatable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    package static let failed = WorkerPageFlags(rawValue: 1)
    package static let hasImages = WorkerPageFlags(rawValue: 2)
    package static let ocrFailed = WorkerPageFlags(rawValue: 4)
}

/// How a worker finished a job.
package enum WorkerDocumentStatus: UInt8 {
    case read = 0
    case passwordRequired = 1
    case unreadable = 2
}

/// A job for a worker: the password candidates, in the order to try them.
///
/// The candidates are secrets. `encoded()` returns a frame the caller must `wipe` after sending,
/// and `decode` hands back arrays the worker wipes after use.
package struct WorkerJob {
    package static let kind: UInt8 = 0x10
    package var passwordCandidates: [[UInt8]]
    package var ocr: OCROptions
    /// The first page to read, from 1.
    package var firstPage: Int
    /// The last page to read; nil: to the end of the document.
    package var lastPage: Int?

    package init(passwordCandidates: [[UInt8]], ocr: OCROptions = .none, firstPage: Int = 1, lastPage: Int? = nil) {
        self.passwordCandidates = passwordCandidates
        self.ocr = ocr
        self.firstPage = firstPage
        self.lastPage = lastPage
    }

    package func encoded() -> [UInt8] {
        var payload = ByteWriter()
        let candidates = passwordCandidates.prefix(Int(UInt8.max))
        payload.u8(UInt8(candidates.count))
        for candidate in candidates {
            payload.u16(UInt16(clamping: candidate.count))
            payload.bytes(Array(candidate.prefix(Int(UInt16.max))))
        }
        payload.u8(ocr.mode == .auto ? 0 : ocr.mode == .always ? 1 : 2)
        payload.string(ocr.languages)
        payload.u8((ocr.textLayerWords ? 1 : 0) | (ocr.tables ? 2 : 0) | (ocr.blankPages ? 4 : 0))
        payload.u32(UInt32(clamping: max(1, firstPage)))
        payload.u32(lastPage.map { UInt32(clamping: max(1, $0)) } ?? 0)
        defer { payload.wipe() }
        return WorkerFrame.make(kind: Self.kind, payload: payload.buffer)
    }

    package static func decode(kind: UInt8, payload: ArraySlice<UInt8>) throws -> WorkerJob {
        guard kind == Self.kind else {
            throw ExtractionError.protocolViolation(detail: "unknown job kind \(kind)")
        }
        var reader = ByteReader(payload)
        var candidates: [[UInt8]] = []
        for _ in 0..<Int(try reader.u8()) {
            let length = Int(try reader.u16())
            candidates.append(Array(try reader.take(length)))
        }
        let modes: [OCRMode] = [.auto, .always, .never]
        let modeByte = Int(try reader.u8())
        guard modeByte < modes.count else { throw ExtractionError.protocolViolation(detail: "unknown OCR mode") }
        let languages = try reader.string()
        let flags = try reader.u8()
        let firstPage = Int(try reader.u32())
        let lastPage = Int(try reader.u32())
        guard reader.isAtEnd, firstPage >= 1, lastPage == 0 || lastPage >= firstPage else {
            throw ExtractionError.protocolViolation(detail: "a malformed job")
        }
        return WorkerJob(passwordCandidates: candidates,
                         ocr: OCROptions(mode: modes[modeByte], languages: languages, textLayerWords: flags & 1 != 0,
                                         tables: flags & 2 != 0, blankPages: flags & 4 != 0),
                         firstPage: firstPage, lastPage: lastPage == 0 ? nil : lastPage)
    }
}

/// The `limit` frame: the worker stops its current job after `lastPage`.
package struct WorkerLimit: Equatable {
    package static let kind: UInt8 = 0x11
    package var lastPage: Int

    package init(lastPage: Int) {
        self.lastPage = lastPage
    }

    package func encoded() -> [UInt8] {
        var payload = ByteWriter()
        payload.u32(UInt32(clamping: max(1, lastPage)))
        return WorkerFrame.make(kind: Self.kind, payload: payload.buffer)
    }

    package static func decode(payload: ArraySlice<UInt8>) throws -> WorkerLimit {
        var reader = ByteReader(payload)
        let lastPage = Int(try reader.u32())
        guard reader.isAtEnd, lastPage >= 1 else { throw ExtractionError.protocolViolation(detail: "a malformed limit") }
        return WorkerLimit(lastPage: lastPage)
    }
}

/// Frame assembly and splitting for both directions.
package enum WorkerFrame {
    package static func make(kind: UInt8, payload: [UInt8]) -> [UInt8] {
        var frame = [UInt8]()
        frame.reserveCapacity(WorkerProtocol.headerSize + payload.count)
        frame.append(kind)
        withUnsafeBytes(of: UInt32(payload.count).littleEndian) { frame.append(contentsOf: $0) }
        frame.append(contentsOf: payload)
        return frame
    }
}

/// Collects bytes from a stream and cuts them into frames.
package struct FrameDecoder {
    /// Frames larger than this are a protocol violation (a worker cannot send an unbounded page).
    package let maximumPayload: Int
    private var buffer: [UInt8] = []
    private var start = 0

    package init(maximumPayload: Int) {
        self.maximumPayload = maximumPayload
    }

    /// Bytes received and not yet part of a complete frame.
    package var pendingByteCount: Int { buffer.count - start }

    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        // Drop consumed bytes before growing, so a long stream of pages does not accumulate.
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame, or nil if more bytes are needed.
    package mutating func next() throws -> (kind: UInt8, payload: ArraySlice<UInt8>)? {
        guard buffer.count - start >= WorkerProtocol.headerSize else { return nil }
        let kind = buffer[start]
        var length = 0
        for index in 0..<4 { length |= Int(buffer[start + 1 + index]) << (8 * index) }
        guard length <= maximumPayload else {
            throw ExtractionError.protocolViolation(detail: "a message of \(length) bytes exceeds the limit of \(maximumPayload)")
        }
        let payloadStart = start + WorkerProtocol.headerSize
        guard buffer.count - payloadStart >= length else { return nil }
        start = payloadStart + length
        return (kind, buffer[payloadStart..<start])
    }

    /// Overwrites and drops the bytes of frames already returned (job frames carry passwords).
    package mutating func wipeConsumed() {
        buffer.withUnsafeMutableBytes { bytes in
            for index in 0..<start { bytes[index] = 0 }
        }
        buffer.removeFirst(start)
        start = 0
    }
}

/// Little-endian serialisation for frame payloads.
package struct ByteWriter {
    private(set) var buffer: [UInt8] = []

    package mutating func u8(_ value: UInt8) { buffer.append(value) }
    package mutating func u16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { buffer.append(contentsOf: $0) } }
    package mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { buffer.append(contentsOf: $0) } }
    package mutating func i64(_ value: Int64) { withUnsafeBytes(of: value.littleEndian) { buffer.append(contentsOf: $0) } }
    package mutating func bytes(_ value: [UInt8]) { buffer.append(contentsOf: value) }
    package mutating func string(_ value: String) {
        let utf8 = Array(value.utf8)
        u32(UInt32(utf8.count))
        buffer.append(contentsOf: utf8)
    }

    package mutating func wipe() { PHRModel.wipe(&buffer) }
}

/// Little-endian deserialisation that throws instead of reading past the end.
package struct ByteReader {
    private let bytes: ArraySlice<UInt8>
    private var index: Int

    package init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        index = bytes.startIndex
    }

    package var isAtEnd: Bool { index == bytes.endIndex }

    package mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, bytes.endIndex - index >= count else {
            throw ExtractionError.protocolViolation(detail: "a message ends early")
        }
        defer { index += count }
        return bytes[index..<index + count]
    }

    package mutating func rest() -> ArraySlice<UInt8> {
        defer { index = bytes.endIndex }
        return bytes[index...]
    }

    package mutating func u8() throws -> UInt8 { try take(1).first! }
    package mutating func u16() throws -> UInt16 { UInt16(try integer(2)) }
    package mutating func u32() throws -> UInt32 { UInt32(try integer(4)) }
    package mutating func i64() throws -> Int64 { Int64(bitPattern: try integer(8)) }

    package mutating func string() throws -> String {
        let length = Int(try u32())
        return String(decoding: try take(length), as: UTF8.self)
    }

    private mutating func integer(_ size: Int) throws -> UInt64 {
        var value: UInt64 = 0
        for (shift, byte) in try take(size).enumerated() { value |= UInt64(byte) << (8 * UInt64(shift)) }
        return value
    }
}
