import CPHRSystem
import Foundation
import Glibc
import PHRModel

/// The process that reads Apple Health exports: `phr-render health-export`, started by phr's
/// `HealthExportImport` for `phr import export.zip` (or `export.xml`).
///
/// An export is a large untrusted file (a zip, then XML), so it is read here, in a process that
/// holds no key and has phr's environment stripped, under limits on memory, CPU time and open
/// files, and which may not write any file. It reads the export from descriptor 3 and writes
/// `HealthExportMessage`s, one JSON object a line, to standard output: progress while it reads,
/// then the entries, the Health Records files and a tally per type, then `finished`; or
/// `refused` with the reason, after which phr imports nothing.
public enum HealthExportWorker {
    public typealias Settings = HealthExportWorkerSettings

    public static func run(_ settings: Settings) -> Never {
        serve(settings, openFiles: 16, read: read)
    }

    /// The life of a phone-export worker, whichever format it reads: limits on itself before
    /// anything is read, then `read` with the export's descriptor, phr's zone and the message
    /// writer; a refusal (or any error) becomes the `refused` message. Exits 0 once the
    /// messages are out, 70 when they cannot be written.
    static func serve(_ settings: Settings, openFiles: Int, read: (Int32, TimeZone, MessageWriter) throws -> Void) -> Never {
        if phr_die_with_parent() != 0 { exit(70) }
        closefrom(Settings.inputDescriptor + 1)
        Sandbox.applyLimits(Sandbox.Limits(memoryBytes: settings.memoryBytes, cpuSoftSeconds: settings.cpuSeconds,
                                           cpuHardSeconds: settings.cpuSeconds + 5, openFiles: openFiles))
        signal(SIGPIPE, SIG_DFL)
        // A Takeout folder comes as a directory descriptor: its tree is the one place on the file
        // system the worker may read beyond its libraries.
        WorkerSandbox.confine(readableDescriptor: Settings.inputDescriptor)
        let output = MessageWriter(fd: Settings.outputDescriptor)
        do {
            guard let zone = TimeZone(identifier: settings.timeZone) else {
                throw ZipArchive.Refusal(reason: "unknown time zone \(settings.timeZone)")
            }
            try read(Settings.inputDescriptor, zone, output)
        } catch let refusal as ZipArchive.Refusal {
            try? output.send(.refused(reason: refusal.reason))
        } catch {
            try? output.send(.refused(reason: "the export could not be read (\(error))"))
        }
        do { try output.flush() } catch { exit(70) }
        exit(0)
    }

    static func read(_ fd: Int32, zone: TimeZone, output: MessageWriter) throws {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ZipArchive.Refusal(reason: "the export cannot be read (errno \(errno))") }
        let size = Int64(info.st_size)
        let head = try ZipArchive.read(fd, at: 0, count: 4)
        var progress = ProgressCounter(total: size, output: output)
        let collector: HealthExportCollector
        var exportDate: String?
        var clinical: [ZipArchive.Member] = []
        if ZipArchive.looksLikeZip(head) {
            let archive = try ZipArchive(fd: fd, fileSize: size)
            clinical = archive.members.filter {
                ($0.name.hasPrefix("clinical-records/") || $0.name.contains("/clinical-records/")) && $0.name.hasSuffix(".json")
            }
            let member = try exportMember(archive)
            let stream = try archive.open(member)
            let reader = HealthExportReader(input: { buffer in
                let count = try stream.read(into: buffer)
                try progress.advance(to: stream.compressedRead)
                return count
            }, collector: HealthExportCollector(zone: zone))
            collector = try reader.read()
            exportDate = reader.exportDate
            guard clinical.count <= Settings.maximumClinicalFiles else {
                throw ZipArchive.Refusal(reason: "the zip holds \(clinical.count) Health Records files, more than the \(Settings.maximumClinicalFiles) phr reads")
            }
            var clinicalBytes: Int64 = 0
            for member in clinical {
                clinicalBytes += member.size
                guard clinicalBytes <= Int64(Settings.maximumClinicalTotalBytes) else {
                    throw ZipArchive.Refusal(reason: "the zip's Health Records files add up to more than \(Settings.maximumClinicalTotalBytes >> 20) MB, more than phr reads")
                }
                let file = member.name.range(of: "clinical-records/", options: .backwards).map { "/" + member.name[$0.lowerBound...] }
                guard member.size <= Settings.maximumClinicalRecordBytes else {
                    throw ZipArchive.Refusal(reason: "\(ZipArchive.printable(member.name)) in the zip is larger than \(Settings.maximumClinicalRecordBytes >> 20) MB")
                }
                let bytes = try archive.readWhole(member)
                guard let text = String(validating: bytes, as: UTF8.self) else {
                    throw ZipArchive.Refusal(reason: "\(ZipArchive.printable(member.name)) in the zip is not UTF-8 text")
                }
                try output.send(.clinicalRecord(path: String(member.name.suffix(300)), json: text,
                                                fhirVersion: file.flatMap { reader.clinicalVersions[String($0.suffix(300))] }))
            }
        } else {
            var offset: Int64 = 0
            let reader = HealthExportReader(input: { buffer in
                while true {
                    let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
                    if count < 0 && errno == EINTR { continue }
                    guard count >= 0 else { throw ZipArchive.Refusal(reason: "reading the export failed (errno \(errno))") }
                    offset += Int64(count)
                    try progress.advance(to: offset)
                    return count
                }
            }, collector: HealthExportCollector(zone: zone), inZip: false)
            collector = try reader.read()
            exportDate = reader.exportDate
        }
        var finished = collector
        try finished.finish { try output.send(.entry($0)) }
        for type in finished.tallies.keys.sorted() {
            var tally = finished.tallies[type]!
            if type == "HKCategoryTypeIdentifierSleepAnalysis" && tally.skipped > 0 && tally.reason == nil {
                tally.reason = "only awake time recorded on a night with no sleep stage and no time in bed"
            }
            try output.send(.tally(tally))
        }
        try output.send(.finished(exportDate: exportDate))
    }

    /// The zip's export: the XML member whose root element is HealthData. The Health app names
    /// it in the phone's language ("export.xml", "exportar.xml", "eksport.xml", "导出.xml") and
    /// puts a CDA document beside it ("export_cda.xml"), so the name decides nothing: each XML
    /// member outside the records folders is looked at (its beginning, past a declaration of up to
    /// 1 MB) and the one that is
    /// an Apple Health export is read.
    static func exportMember(_ archive: ZipArchive) throws -> ZipArchive.Member {
        let folders = ["clinical-records/", "workout-routes/", "electrocardiograms/"]
        let candidates = archive.members.filter { member in
            member.name.lowercased().hasSuffix(".xml") && !folders.contains { member.name.hasPrefix($0) || member.name.contains("/" + $0) }
        }
        var exports: [ZipArchive.Member] = []
        for member in candidates.prefix(64) {
            let stream = try archive.open(member)
            // As far as a declaration may run (1 MB) and some: the root lies past it.
            var head = [UInt8](repeating: 0, count: HealthExportReader.Prologue.maximumDeclaration + (64 << 10))
            var filled = 0
            while filled < head.count {
                let count = try head.withUnsafeMutableBytes { try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...])) }
                if count == 0 { break }
                filled += count
            }
            if HealthExportReader.Prologue.rootName(Array(head[0..<filled])) == "HealthData" { exports.append(member) }
        }
        guard exports.count <= 1 else {
            throw ZipArchive.Refusal(reason: "the zip holds more than one Apple Health export (\(exports.prefix(3).map { ZipArchive.printable($0.name) }.joined(separator: ", ")))")
        }
        guard let member = exports.first else {
            throw ZipArchive.Refusal(reason: "the zip holds no Apple Health export (no XML file in it whose root element is HealthData)")
        }
        return member
    }

    /// Sends a progress message every 4 MB read.
    struct ProgressCounter {
        let total: Int64
        let output: MessageWriter
        var sent: Int64 = 0

        mutating func advance(to read: Int64) throws {
            guard read - sent >= 4 << 20 else { return }
            sent = read
            try output.send(.progress(read: read, total: total))
            try output.flush()
        }
    }

    /// JSON lines to a descriptor, buffered.
    final class MessageWriter {
        /// One FileDescriptor for the worker's life: it closes the descriptor when it goes.
        private let output: FileDescriptor
        private var buffer: [UInt8] = []
        private let encoder = JSONEncoder()

        init(fd: Int32) {
            output = FileDescriptor(fd: fd, path: "the message pipe")
        }

        func send(_ message: HealthExportMessage) throws {
            buffer += try encoder.encode(message)
            buffer.append(0x0A)
            if buffer.count >= 64 << 10 { try flush() }
        }

        func flush() throws {
            guard !buffer.isEmpty else { return }
            try output.write(buffer)
            buffer.removeAll(keepingCapacity: true)
        }
    }
}
