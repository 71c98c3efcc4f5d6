import CPHRSystem
import Foundation
import Glibc
import PHRModel

/// The process that reads C-CDA documents: `phr-render ccda`, started by `CCDAReaderProcess`
/// for `phr import`. The XML is untrusted, so it is parsed here, apart from the keys, with the
/// sandbox's limits; phr gets back plain values (JSON lines of `CCDAReadMessage`: each entry as it
/// is read, so phr decodes them while this process parses, then the `CCDAReadResult`) and checks
/// them.
///
/// Descriptors: see `CCDAWorkerSettings`.
public enum CCDAWorker {
    public typealias Settings = CCDAWorkerSettings

    /// Reads the document, writes the result and exits: 0 after writing a result (a document or
    /// a refusal), 70 (EX_SOFTWARE) if it cannot.
    public static func run(_ settings: Settings) -> Never {
        if phr_die_with_parent() != 0 { exit(70) }
        closefrom(3)
        Sandbox.applyLimits(Sandbox.Limits(memoryBytes: settings.memoryBytes, cpuSoftSeconds: settings.cpuSeconds,
                                           cpuHardSeconds: settings.cpuSeconds + 5, openFiles: 16))
        signal(SIGPIPE, SIG_DFL)
        WorkerSandbox.confine()
        let input = FileDescriptor(fd: Settings.documentDescriptor, path: "document")
        let output = MessageWriter(FileDescriptor(fd: Settings.resultDescriptor, path: "result"))
        var total = 0
        let result: CCDAReadResult
        do {
            result = try CCDADocumentReader.read({
                let chunk = try input.read(upTo: 64 << 10)
                total += chunk.count
                if total > settings.maximumBytes { throw CCDAWorkerLimit() }
                return chunk
            }, entry: { output.send(.entry($0)) })
        } catch is CCDAWorkerLimit {
            result = .refused(.tooLarge(reason: "larger than \(settings.maximumBytes >> 20) MB"))
        } catch {
            exit(70)
        }
        output.send(.result(result))
        output.flush()
        exit(0)
    }

    private struct CCDAWorkerLimit: Error {}

    /// Writes messages as JSON lines (JSONEncoder escapes every newline inside a string), a
    /// pipe buffer's worth at a time; exits 70 if it cannot.
    private final class MessageWriter {
        private let output: FileDescriptor
        private let encoder = JSONEncoder()
        private var pending: [UInt8] = []

        init(_ output: FileDescriptor) {
            self.output = output
        }

        func send(_ message: CCDAReadMessage) {
            guard let line = try? encoder.encode(message) else { exit(70) }
            pending += line
            pending.append(UInt8(ascii: "\n"))
            if pending.count >= 64 << 10 { flush() }
        }

        func flush() {
            guard (try? output.write(pending)) != nil else { exit(70) }
            pending.removeAll(keepingCapacity: true)
        }
    }
}
