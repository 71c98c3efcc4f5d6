import Foundation
import Glibc
import PHRModel
import SampleZip
import Testing
@testable import PHRRender

/// How phr-render finds the export in a phone's zip and reads past its document type
/// declaration: by content, never by name (a Spanish phone writes "exportar.xml"), and past a
/// DTD that is not well-formed (iOS 16's), with nothing of the declaration reaching libxml2.
@Suite struct HealthExportRecognitionTests {
    typealias Prologue = HealthExportReader.Prologue

    static let apple = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!-- HealthKit Export Version: 14 -->
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout)*)>
        <!ATTLIST HealthData
          locale CDATA #REQUIRED

        <!ELEMENT ExportDate EMPTY>
        ]>
        <HealthData locale="es_ES">
         <ExportDate value="2026-05-16 09:00:00 +0200"/>
        </HealthData>

        """

    @Test func theRootIsFoundPastDeclarationsCommentsAndInstructions() {
        #expect(Prologue.rootName(Array(Self.apple.utf8)) == "HealthData")
        #expect(Prologue.rootName(Array("\u{FEFF}<?xml version=\"1.0\"?>\n<!-- <a> -->\n<ClinicalDocument xmlns=\"urn:hl7-org:v3\"/>".utf8)) == "ClinicalDocument")
        #expect(Prologue.rootName(Array("<HealthData/>".utf8)) == "HealthData")
        #expect(Prologue.rootName(Array("<?xml version=\"1.0\"?><!DOCTYPE HealthData [ <!ELEMENT".utf8)) == nil, "the root lies past the bytes")
        #expect(Prologue.rootName(Array("not xml at all".utf8)) == nil)
    }

    /// Reads `text` through the prologue filter in chunks of `chunk` bytes.
    static func filtered(_ text: String, chunk: Int) throws -> String {
        let bytes = Array(text.utf8)
        var offset = 0
        let prologue = Prologue(input: { buffer in
            let count = min(chunk, buffer.count, bytes.count - offset)
            bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
            offset += count
            return count
        })
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 7)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try prologue.read(into: $0) }
            if count == 0 { break }
            out += buffer[0..<count]
        }
        return String(decoding: out, as: UTF8.self)
    }

    @Test(arguments: [1, 5, 64 << 10])
    func theDeclarationIsCutAndItsLinesKept(chunk: Int) throws {
        let out = try Self.filtered(Self.apple, chunk: chunk)
        #expect(!out.contains("DOCTYPE") && !out.contains("ATTLIST"))
        #expect(out.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\n\n\n\n\n\n\n\n<HealthData locale=\"es_ES\">"), "\(out)")
        #expect(out.split(separator: "\n", omittingEmptySubsequences: false).count == Self.apple.split(separator: "\n", omittingEmptySubsequences: false).count)
        let plain = "<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\"/>\n"
        #expect(try Self.filtered(plain, chunk: chunk) == plain, "a document without a declaration passes unchanged")
    }

    @Test func entitiesAndEndlessDeclarationsAreRefused() {
        let laughs = "<?xml version=\"1.0\"?>\n<!DOCTYPE HealthData [\n<!ENTITY lol \"lol\">\n]>\n<HealthData/>"
        #expect(throws: ZipArchive.Refusal.self) { try Self.filtered(laughs, chunk: 100) }
        // A declaration the file ends inside never reaches libxml2 either.
        do {
            _ = try Self.filtered("<?xml version=\"1.0\"?>\n<!DOCTYPE HealthData [\n<!ELEMENT HealthData EMPTY>\n", chunk: 100)
            Issue.record("an unfinished declaration was passed on")
        } catch let refusal as ZipArchive.Refusal {
            #expect(refusal.reason == "export.xml ends inside its document type declaration, before any element")
        } catch {
            Issue.record("\(error)")
        }
        let endless = "<!DOCTYPE HealthData [\n" + String(repeating: "<!ELEMENT x EMPTY>\n", count: 60_000) + "]>\n<HealthData/>"
        do {
            _ = try Self.filtered(endless, chunk: 1 << 16)
            Issue.record("a declaration past 1 MB was read")
        } catch let refusal as ZipArchive.Refusal {
            #expect(refusal.reason.contains("document type declaration is longer than 1 MB"))
        } catch {
            Issue.record("\(error)")
        }
    }

    /// A night the iPhone recorded as time in bed of no length is skipped, not an entry of 0.
    @Test func anEmptyInBedNightIsSkipped() throws {
        var collector = HealthExportCollector(zone: TimeZone(identifier: "UTC")!)
        let phone = collector.source(name: "Jane’s iPhone", device: "model:iPhone")
        try collector.addSleep(.init(start: 1_000_000, end: 1_000_000, stage: .inBed, source: phone))
        try collector.addSleep(.init(start: 2_000_000, end: 2_003_600, stage: .inBed, source: phone))
        var entries: [HealthExportEntry] = []
        try collector.finish { entries.append($0) }
        #expect(entries.map(\.value) == [60] && entries.allSatisfy { $0.kind == "in bed" })
        let tally = try #require(collector.tallies["HKCategoryTypeIdentifierSleepAnalysis"])
        #expect(tally.entries == 1 && tally.skipped == 1)
    }

    /// Writes a zip of `members` and opens it.
    static func archive(_ members: [(String, String)], in directory: String) throws -> (ZipArchive, Int32) {
        let path = "\(directory)/export.zip"
        let writer = ZipWriter(path: path)
        for (name, text) in members { writer.member(name, bytes: Array(text.utf8)) }
        writer.close()
        let fd = open(path, O_RDONLY)
        var info = stat()
        #expect(fstat(fd, &info) == 0)
        return (try ZipArchive(fd: fd, fileSize: Int64(info.st_size)), fd)
    }

    /// Zip aliasing (issue 37, item 1): several names for one member's bytes are refused when the
    /// directory is read, before anything is inflated.
    @Test func membersThatShareBytesAreRefused() throws {
        let directory = NSTemporaryDirectory() + "phr-zip-alias-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/alias.zip"
        let writer = ZipWriter(path: path)
        writer.member("apple_health_export/export.xml", bytes: Array(Self.apple.utf8))
        writer.member("apple_health_export/clinical-records/a.json", bytes: Array(String(repeating: "{}", count: 1000).utf8))
        writer.alias("apple_health_export/clinical-records/b.json", of: "apple_health_export/clinical-records/a.json")
        writer.close()
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        var info = stat()
        #expect(fstat(fd, &info) == 0)
        #expect(throws: ZipArchive.Refusal(reason: "a zip archive whose members 'apple_health_export/clinical-records/a.json' and 'apple_health_export/clinical-records/b.json' share their bytes, which no archiver writes (a zip bomb?)")) {
            _ = try ZipArchive(fd: fd, fileSize: Int64(info.st_size))
        }
    }

    @Test func theExportInAZipIsTheMemberWhoseRootIsHealthData() throws {
        let directory = NSTemporaryDirectory() + "phr-export-recognition-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cda = "<?xml version=\"1.0\"?>\n<ClinicalDocument xmlns=\"urn:hl7-org:v3\"/>\n"
        for name in ["exportar.xml", "eksport.xml", "vienti.xml", "导出.xml", "Export.xml"] {
            let base = String(name.dropLast(4))
            let (archive, fd) = try Self.archive([("apple_health_export/\(base)_cda.xml", cda), ("apple_health_export/\(name)", Self.apple),
                                                  ("apple_health_export/clinical-records/Observation-1.json", "{}")], in: directory)
            defer { close(fd) }
            #expect(try HealthExportWorker.exportMember(archive).name == "apple_health_export/\(name)")
        }
        let (onlyCDA, fd) = try Self.archive([("apple_health_export/export_cda.xml", cda)], in: directory)
        defer { close(fd) }
        #expect(throws: ZipArchive.Refusal(reason: "the zip holds no Apple Health export (no XML file in it whose root element is HealthData)")) {
            try HealthExportWorker.exportMember(onlyCDA)
        }
        let (two, fd2) = try Self.archive([("a/export.xml", Self.apple), ("b/exportar.xml", Self.apple)], in: directory)
        defer { close(fd2) }
        #expect(throws: ZipArchive.Refusal(reason: "the zip holds more than one Apple Health export ('a/export.xml', 'b/exportar.xml')")) {
            try HealthExportWorker.exportMember(two)
        }
    }
}
