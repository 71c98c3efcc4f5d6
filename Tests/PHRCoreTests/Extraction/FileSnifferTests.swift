import Foundation
import Testing
@testable import PHRCore

/// File types by magic bytes, whatever the name says.
@Suite struct FileSnifferTests {
    @Test func magicBytesDecide() {
        #expect(FileSniffer.kind(ofHeader: Array("%PDF-1.7\n".utf8)) == .pdf)
        #expect(FileSniffer.kind(ofHeader: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00]) == .png)
        #expect(FileSniffer.kind(ofHeader: [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]) == .jpeg)
        #expect(FileSniffer.kind(ofHeader: Array("oops\n".utf8)) == .other)
        #expect(FileSniffer.kind(ofHeader: []) == .other)
        #expect(FileSniffer.kind(ofHeader: [0x89, 0x50, 0x4E, 0x47]) == .other, "a truncated PNG signature")
        #expect(FileSniffer.kind(ofHeader: [0xFF, 0xD8]) == .other)
    }

    @Test func aPDFHeaderMayFollowUpTo1024BytesOfJunk() {
        let junk = [UInt8](repeating: 0x20, count: 1000)
        #expect(FileSniffer.kind(ofHeader: junk + Array("%PDF-1.4".utf8)) == .pdf)
        let tooMuch = [UInt8](repeating: 0x20, count: 1020)
        #expect(FileSniffer.kind(ofHeader: tooMuch + Array("%PDF-1.4".utf8)) == .other)
    }

    @Test func mediaTypes() {
        #expect(FileSniffer.Kind.pdf.mediaType == "application/pdf")
        #expect(FileSniffer.Kind.jpeg.mediaType == "image/jpeg")
        #expect(FileSniffer.Kind.png.isImage && FileSniffer.Kind.jpeg.isImage && !FileSniffer.Kind.pdf.isImage)
    }

    @Test(.corpus) func everyCorpusFileIsSniffedFromDisk() throws {
        for file in ExtractionFixtures.corpusFiles {
            let kind = try FileSniffer.kind(ofFileAt: file.path)
            #expect(kind == (file.dest == "qpdf__bad1.pdf" ? .other : .pdf), "\(file.dest)")
        }
    }

    @Test func readingLeavesTheFileOffsetAlone() throws {
        let directory = try TestSupport.temporaryDirectory("sniff")
        defer { TestSupport.remove(directory) }
        let path = "\(directory)/scan.jpg"
        _ = FileManager.default.createFile(atPath: path, contents: Data([0xFF, 0xD8, 0xFF, 0xDB] + [UInt8](repeating: 7, count: 2000)))
        let file = try FileDescriptor.openForReading(path)
        #expect(try FileSniffer.kind(ofDescriptor: file.fd) == .jpeg)
        #expect(try file.read(upTo: 2) == [0xFF, 0xD8])
        #expect(throws: POSIXIOError.self) { try FileSniffer.kind(ofFileAt: "\(directory)/missing") }
    }
}
