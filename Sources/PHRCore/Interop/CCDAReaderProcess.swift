import Foundation
import Glibc

/// Runs the C-CDA reader (`phr-render ccda`, PHRRender's `CCDAWorker`) on one document: the
/// parent side of the sandbox for XML.
///
/// phr never parses XML itself (SECURITY.md, "Reading untrusted documents"): it hands the bytes
/// it read to the worker in a memory file, with an environment of the worker's own and the
/// sandbox's limits, and decodes the worker's JSON answer with Foundation. What the answer says
/// is then checked like any imported value (`CCDAImporter`).
///
/// The answer is JSON lines (`CCDAReadMessage`): the entries as the worker reads them, then the
/// result. Each line is decoded as it arrives, so decoding runs beside the worker's parsing on
/// the other core; decoding one 4 MB answer after the worker had finished was a sixth of
/// importing the 5 MB C-CDA benchmark document.
struct CCDAReaderProcess {
    /// phr-render; by default the one beside the running program.
    var workerExecutable = RenderHelper.path
    /// The worker's address-space limit: the Swift runtime and libxml2 with a few kept subtrees.
    var memoryBytes = 1 << 30
    var cpuSeconds = 30
    /// Wall-clock seconds before the worker is killed: a minute, and two seconds more per MB of
    /// document, since the parent storing each entry as it comes holds the worker back on the
    /// pipe (a 100 MB document takes well over a minute to store).
    var timeout = 60.0
    var timeoutPerMegabyte = 2.0
    /// The largest answer read: a few times the largest document's entries.
    static let maximumResultBytes = 256 << 20

    /// Reads `bytes` (a document already in memory), through a memory file.
    func read(_ bytes: ArraySlice<UInt8>, path: String) throws -> CCDAReadResult {
        let document = try MemoryFile.make(label: "phr-import-xml")
        defer { try? document.close() }
        try bytes.withUnsafeBytes { try document.write($0) }
        return try read(document, path: path)
    }

    /// Reads the document `file` holds, from its start: the worker gets the descriptor, so
    /// the document is never copied into phr. With `entry`, each entry goes to it as it is
    /// decoded and the result holds none; without, the result holds them all.
    func read(_ file: FileDescriptor, path: String, entry: ((CCDAEntry) throws -> Void)? = nil) throws -> CCDAReadResult {
        guard lseek(file.fd, 0, SEEK_SET) == 0 else { throw POSIXIOError(operation: "seek", path: path, code: errno) }
        let document = file
        let memoryBytes = try ReaderMemory.limit(default: self.memoryBytes)
        let settings = CCDAWorkerSettings(memoryBytes: memoryBytes, cpuSeconds: cpuSeconds, maximumBytes: RecordImport.maximumBytes)
        let worker = WorkerClient(executable: workerExecutable, arguments: settings.arguments, environment: WorkerClient.environment(),
                                  timeout: timeout + timeoutPerMegabyte * Double((try? document.size()) ?? 0) / Double(1 << 20),
                                  memoryBytes: memoryBytes)
        var answer = Answer(entry: entry)
        var collected = 0
        let ending: WorkerClient.Ending
        do {
            ending = try worker.run(
                inputs: [CCDAWorkerSettings.documentDescriptor: .descriptor(document.fd)],
                outputs: [.init(descriptor: CCDAWorkerSettings.resultDescriptor) { chunk in
                    collected += chunk.count
                    guard collected <= Self.maximumResultBytes else {
                        throw InteropError.malformed(path: path, location: "XML", reason: "the process reading it sent an oversized answer")
                    }
                    try answer.take(chunk)
                }])
        } catch WorkerClient.Failure.unavailable(let code) {
            throw InteropError.readerUnavailable(path: workerExecutable, code: code)
        } catch WorkerClient.Failure.timedOut(let seconds) {
            throw InteropError.malformed(path: path, location: "XML", reason: "reading it \(WorkerClient.Failure.tookLonger(seconds))")
        }
        if ending.memoryExhausted { throw InteropError.readerOutOfMemory(path: path, limit: memoryBytes) }
        if let how = WorkerTermination.how(ending, cpuSeconds: cpuSeconds, memoryBytes: memoryBytes) {
            throw InteropError.malformed(path: path, location: "XML", reason: "the process reading it \(how)")
        }
        guard let result = answer.finished() else {
            throw InteropError.malformed(path: path, location: "XML", reason: "the process reading it failed (exit status 0)")
        }
        return result
    }

    /// The answer so far: the entries decoded, the result once it came, and whether any line
    /// failed to decode or came after the result (then the whole answer is refused, as before
    /// when the one JSON value did not decode).
    struct Answer {
        private var entries: [CCDAEntry] = []
        private var result: CCDAReadResult?
        private var broken = false
        private var partial: [UInt8] = []
        private let decoder = JSONDecoder()
        /// Where each entry goes as it is decoded; nil to keep them for the result.
        private let entry: ((CCDAEntry) throws -> Void)?

        init(entry: ((CCDAEntry) throws -> Void)? = nil) {
            self.entry = entry
        }

        /// Takes bytes from the pipe and decodes every line they complete; what the entry
        /// handler throws stops the reading.
        mutating func take(_ bytes: ArraySlice<UInt8>) throws {
            var start = bytes.startIndex
            while let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
                if partial.isEmpty {
                    try decode(bytes[start..<end])
                } else {
                    partial += bytes[start..<end]
                    try decode(partial[...])
                    partial.removeAll(keepingCapacity: true)
                }
                start = end + 1
            }
            partial += bytes[start...]
        }

        private mutating func decode(_ line: ArraySlice<UInt8>) throws {
            guard !broken else { return }
            guard result == nil, let message = try? decoder.decode(CCDAReadMessage.self, from: Data(line)) else {
                broken = true
                return
            }
            switch message {
            case .entry(let decoded):
                if let entry { try entry(decoded) } else { entries.append(decoded) }
            case .result(let answer):
                result = answer
            }
        }

        /// The result with the entries that came before it; nil if the answer was broken,
        /// unfinished or had anything after the result.
        func finished() -> CCDAReadResult? {
            guard !broken, partial.isEmpty, let result else { return nil }
            guard case .document(var document) = result else { return result }
            document.entries = entries + document.entries
            return .document(document)
        }
    }
}
