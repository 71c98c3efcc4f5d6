import Foundation
import Glibc
import SampleZip
import Testing
@testable import PHRRender

/// The zip reader phone exports and Takeouts go through, on archives written byte by byte here
/// (or deflated by SampleZip's writer and then damaged): what archivers write is read; what none
/// writes (sizes past the file, ZIP64 numbers near 2^62 or negative as signed, members sharing
/// bytes, members inflating past their size) is refused with a reason, never trapped on.
@Suite struct ZipArchiveTests {
    /// A stored (uncompressed) member: its local header and bytes, and the fields its central
    /// directory entry needs.
    struct Entry {
        var name: String
        var data: [UInt8]
        /// Written into the central directory instead of the real sizes (0xFFFFFFFF with `zip64`).
        var claimedSize: UInt32?
        /// A ZIP64 extra field: the uncompressed and compressed sizes it gives.
        var zip64: (size: UInt64, compressed: UInt64)?
        /// Point this entry's local header at another entry's (zip aliasing).
        var aliasOf: Int?
        /// With `zip64`: the local header's offset too, in the extra field (0xFFFFFFFF in the entry).
        var zip64Offset: UInt64?

        init(name: String, data: [UInt8], claimedSize: UInt32? = nil, zip64: (size: UInt64, compressed: UInt64)? = nil,
             aliasOf: Int? = nil, zip64Offset: UInt64? = nil) {
            self.name = name
            self.data = data
            self.claimedSize = claimedSize
            self.zip64 = zip64
            self.aliasOf = aliasOf
            self.zip64Offset = zip64Offset
        }
    }

    /// The numbers of a ZIP64 end-of-central-directory record, written before the usual end
    /// record, which then says 0xFFFF entries.
    struct Zip64End {
        var count: UInt64?
        var directorySize: UInt64?
        var directoryOffset: UInt64?
        /// Where the locator says the record is (its real place when nil).
        var recordOffset: UInt64?
        /// Leave out the locator and the record: only the end record's 0xFFFF says ZIP64.
        var omitted = false
    }

    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    static func le32(_ value: UInt32) -> [UInt8] { le16(Int(value & 0xFFFF)) + le16(Int(value >> 16)) }
    static func le64(_ value: UInt64) -> [UInt8] { le32(UInt32(value & 0xFFFF_FFFF)) + le32(UInt32(value >> 32)) }

    /// The archive's bytes.
    static func bytes(_ entries: [Entry], zip64End: Zip64End? = nil) -> [UInt8] {
        var bytes: [UInt8] = []
        var offsets: [Int] = []
        for entry in entries {
            offsets.append(bytes.count)
            guard entry.aliasOf == nil else { continue }
            let name = Array(entry.name.utf8)
            bytes += le32(0x0403_4B50) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0) + le32(CRC32.checksum(entry.data))
                + le32(UInt32(entry.data.count)) + le32(UInt32(entry.data.count)) + le16(name.count) + le16(0) + name + entry.data
        }
        let directoryOffset = bytes.count
        for (index, entry) in entries.enumerated() {
            let name = Array(entry.name.utf8)
            let size: UInt32 = entry.zip64 != nil ? 0xFFFF_FFFF : entry.claimedSize ?? UInt32(entry.data.count)
            var extra: [UInt8] = []
            if let zip64 = entry.zip64 {
                var fields: [UInt8] = le64(zip64.size) + le64(zip64.compressed)
                if let offset = entry.zip64Offset { fields += le64(offset) }
                extra = le16(0x0001) + le16(fields.count) + fields
            }
            let local: UInt32 = entry.zip64Offset != nil ? 0xFFFF_FFFF : UInt32(entry.aliasOf.map { offsets[$0] } ?? offsets[index])
            var header: [UInt8] = le32(0x0201_4B50) + le16(20) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0)
            header += le32(CRC32.checksum(entry.data)) + le32(size) + le32(size) + le16(name.count) + le16(extra.count)
            header += le16(0) + le16(0) + le16(0) + le32(0) + le32(local)
            bytes += header + name + extra
        }
        let directorySize = bytes.count - directoryOffset
        if let end = zip64End {
            if !end.omitted {
                let record = bytes.count
                bytes += le32(0x0606_4B50) + le64(44) + le16(45) + le16(45) + le32(0) + le32(0)
                    + le64(end.count ?? UInt64(entries.count)) + le64(end.count ?? UInt64(entries.count))
                    + le64(end.directorySize ?? UInt64(directorySize)) + le64(end.directoryOffset ?? UInt64(directoryOffset))
                bytes += le32(0x0706_4B50) + le32(0) + le64(end.recordOffset ?? UInt64(record)) + le32(1)
            }
            bytes += le32(0x0605_4B50) + le16(0) + le16(0) + le16(0xFFFF) + le16(0xFFFF) + le32(0xFFFF_FFFF) + le32(0xFFFF_FFFF) + le16(0)
        } else {
            bytes += le32(0x0605_4B50) + le16(0) + le16(0) + le16(entries.count) + le16(entries.count) + le32(UInt32(directorySize))
                + le32(UInt32(directoryOffset)) + le16(0)
        }
        return bytes
    }

    /// An archive file, open for reading (the reader takes a descriptor); closed and removed
    /// by `close`.
    final class ArchiveFile {
        let path = NSTemporaryDirectory() + "phr-zip-\(UUID().uuidString).zip"
        let fd: Int32
        let size: Int64

        init(_ bytes: [UInt8]) throws {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            fd = open(path, O_RDONLY | O_CLOEXEC)
            size = Int64(bytes.count)
            try #require(fd >= 0)
        }

        func read() throws -> ZipArchive { try ZipArchive(fd: fd, fileSize: size) }

        func close() {
            _ = Glibc.close(fd)
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// Reads `bytes` as an archive; the refusal's reason, or nil when it was read.
    static func refusal(bytes: [UInt8]) throws -> String? {
        let file = try ArchiveFile(bytes)
        defer { file.close() }
        do {
            _ = try file.read()
            return nil
        } catch let refusal as ZipArchive.Refusal {
            return refusal.reason
        }
    }

    static func refusal(_ entries: [Entry], zip64End: Zip64End? = nil) throws -> String? {
        try refusal(bytes: bytes(entries, zip64End: zip64End))
    }

    /// Runs `body` on what `open` or `readWhole` throws for the only member of `bytes`.
    static func readingRefusal(_ bytes: [UInt8], _ read: (ZipArchive, ZipArchive.Member) throws -> Void) throws -> String? {
        let file = try ArchiveFile(bytes)
        defer { file.close() }
        let zip = try file.read()
        let member = try #require(zip.members.first)
        do {
            try read(zip, member)
            return nil
        } catch let refusal as ZipArchive.Refusal {
            return refusal.reason
        }
    }

    // MARK: Stored members and the central directory

    @Test func storedMembersAreReadWithTheirBytes() throws {
        let file = try ArchiveFile(Self.bytes([Entry(name: "export.xml", data: Array("<HealthData/>".utf8)),
                                              Entry(name: "a/b.txt", data: Array("hello".utf8))]))
        defer { file.close() }
        let zip = try file.read()
        #expect(zip.members.map(\.name) == ["export.xml", "a/b.txt"])
        #expect(zip.members.map(\.method) == [0, 0] && zip.members.map(\.size) == [13, 5])
        let member = try #require(zip.members.first { $0.name == "a/b.txt" })
        #expect(try zip.readWhole(member) == Array("hello".utf8))
    }

    @Test func aTruncatedArchiveIsRefusedWithItsReason() throws {
        let reason = try Self.refusal(bytes: [0x50, 0x4B, 3, 4] + Array(repeating: 0, count: 40))
        #expect(reason == "not a complete zip archive: its end (the central directory) is missing; the file may be truncated")
        // The same archive cut before its end record.
        let whole = Self.bytes([Entry(name: "a.csv", data: Array("x".utf8))])
        #expect(try Self.refusal(bytes: Array(whole.dropLast(10)))?.hasPrefix("not a complete zip archive") == true)
    }

    @Test func aMemberClaimingMoreThanTheFileIsRefused() throws {
        let reason = try Self.refusal([Entry(name: "a.csv", data: Array("x".utf8), claimedSize: 0xFFFF_FFF0)])
        #expect(reason == "a zip archive whose member 'a.csv' lies outside the file (truncated?)", "\(reason ?? "read")")
    }

    /// A stored member whose CRC-32 in the directory is not its bytes': read to the end, refused there.
    @Test func aStoredMemberFailingItsCRCIsRefused() throws {
        var bytes = Self.bytes([Entry(name: "a.csv", data: Array("Date,Weight\n".utf8))])
        let directory = try #require(Self.directoryEntries(bytes).first)
        bytes[directory + 16] ^= 0x01
        let reason = try Self.readingRefusal(bytes) { zip, member in _ = try zip.readWhole(member) }
        #expect(reason == "'a.csv' in the zip fails its CRC-32 check: the archive is damaged", "\(reason ?? "read")")
    }

    // MARK: Members sharing bytes

    @Test func namesSharingOneMembersBytesAreRefused() throws {
        let reason = try Self.refusal([Entry(name: "export.xml", data: Array(repeating: 0x41, count: 100)),
                                       Entry(name: "copy.xml", data: [], aliasOf: 0)])
        #expect(reason == "a zip archive whose members 'export.xml' and 'copy.xml' share their bytes, which no archiver writes (a zip bomb?)",
                "\(reason ?? "read")")
    }

    // MARK: ZIP64

    /// Two members claiming ZIP64 sizes near 2^62 used to overflow a sum of their sizes before
    /// either was opened (a trap, the worker's death); the directory parse refuses them now.
    @Test func zip64SizesNear2To62AreRefusedNotSummed() throws {
        let huge = UInt64(1) << 62
        let reason = try Self.refusal([Entry(name: "a.csv", data: Array("x".utf8), zip64: (huge, 1)),
                                       Entry(name: "b.csv", data: Array("y".utf8), zip64: (huge, 1))])
        #expect(reason == "'a.csv' in the zip claims \(Int64(huge) >> 20) MB, more than phr reads", "\(reason ?? "read")")
    }

    @Test func zip64SizesThatAreNegativeAsSignedAreRefused() throws {
        let reason = try Self.refusal([Entry(name: "a.csv", data: Array("x".utf8), zip64: (UInt64.max, UInt64.max))])
        #expect(reason == "a zip archive whose member 'a.csv' lies outside the file (truncated?)", "\(reason ?? "read")")
    }

    /// Real ZIP64 sizes and offset in the extra field are read; an offset past the file, or an
    /// extra field too short for the fields it must hold, is refused.
    @Test func zip64OffsetsAreReadAndOffsetsPastTheFileRefused() throws {
        let data = Array("hello".utf8)
        let file = try ArchiveFile(Self.bytes([Entry(name: "a.txt", data: data, zip64: (5, 5), zip64Offset: 0)]))
        defer { file.close() }
        let zip = try file.read()
        let member = try #require(zip.members.first)
        #expect(member.size == 5 && member.compressedSize == 5 && member.localHeaderOffset == 0)
        #expect(try zip.readWhole(member) == data)

        for offset in [UInt64(1) << 40, UInt64(Int64.max), UInt64.max] {
            let reason = try Self.refusal([Entry(name: "a.txt", data: data, zip64: (5, 5), zip64Offset: offset)])
            #expect(reason == "a zip archive whose member 'a.txt' lies outside the file (truncated?)", "\(offset): \(reason ?? "read")")
        }
        // 0xFFFFFFFF sizes, but an extra field with no room for them.
        var short = Self.bytes([Entry(name: "a.txt", data: data, zip64: (5, 5))])
        let entry = try #require(Self.directoryEntries(short).first)
        let extra = entry + 46 + Int(ZipArchive.u16(short, entry + 28))
        short[extra + 2] = 0  // the ZIP64 field's own length: 16 → 0
        #expect(try Self.refusal(bytes: short) == "a zip archive whose member 'a.txt' lies outside the file (truncated?)")
    }

    /// The ZIP64 end record's entry count, directory size and offset are 64-bit: a count past
    /// what an Int or the member limit holds, or numbers negative as signed, are refused before
    /// anything is allocated or read.
    @Test func aZip64DirectoryWithImpossibleNumbersIsRefused() throws {
        let entries = [Entry(name: "a.txt", data: Array("hello".utf8))]
        let file = try ArchiveFile(Self.bytes(entries, zip64End: Zip64End()))
        defer { file.close() }
        #expect(try file.read().members.map(\.name) == ["a.txt"], "a well-formed ZIP64 end record is read")

        let outOfBounds = "a zip archive whose central directory is out of bounds (truncated or damaged)"
        for end in [Zip64End(count: UInt64(Int64.max)), Zip64End(count: UInt64.max), Zip64End(count: 2_000_001),
                    Zip64End(directorySize: UInt64(1) << 62), Zip64End(directorySize: UInt64.max),
                    Zip64End(directoryOffset: UInt64(1) << 62), Zip64End(directoryOffset: UInt64.max)] {
            #expect(try Self.refusal(entries, zip64End: end) == outOfBounds, "\(end)")
        }
        #expect(try Self.refusal(entries, zip64End: Zip64End(recordOffset: UInt64(1) << 62)) == "a zip archive with a ZIP64 directory out of the file")
        #expect(try Self.refusal(entries, zip64End: Zip64End(recordOffset: UInt64.max)) == "a zip archive with a ZIP64 directory out of the file")
        #expect(try Self.refusal(entries, zip64End: Zip64End(recordOffset: 0)) == "a zip archive with a damaged ZIP64 directory record")
        #expect(try Self.refusal(entries, zip64End: Zip64End(omitted: true)) == "a zip archive whose ZIP64 directory locator is missing")
    }

    // MARK: Deflated members

    /// SampleZip's writer: deflated members, sizes in a data descriptor after each.
    static func written(_ write: (ZipWriter) -> Void) throws -> [UInt8] {
        let path = NSTemporaryDirectory() + "phr-zip-\(UUID().uuidString).zip"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = ZipWriter(path: path)
        write(writer)
        writer.close()
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Where each central directory entry starts in `bytes`.
    static func directoryEntries(_ bytes: [UInt8]) throws -> [Int] {
        let end = try #require(ZipArchive.lastSignature(0x0605_4B50, in: bytes, minimumRemaining: 22))
        var position = Int(ZipArchive.u32(bytes, end + 16))
        var entries: [Int] = []
        while position < end, ZipArchive.u32(bytes, position) == 0x0201_4B50 {
            entries.append(position)
            position += 46 + Int(ZipArchive.u16(bytes, position + 28)) + Int(ZipArchive.u16(bytes, position + 30))
                + Int(ZipArchive.u16(bytes, position + 32))
        }
        return entries
    }

    static func patch32(_ bytes: inout [UInt8], at offset: Int, _ value: UInt32) {
        bytes.replaceSubrange(offset..<(offset + 4), with: le32(value))
    }

    static let text = Array((0..<3000).map { "2026-03-\($0 % 28 + 1),\(70 + $0 % 9).\($0 % 10)\n" }.joined().utf8)

    @Test func deflatedMembersInflateInChunksWithTheirCRCChecked() throws {
        let file = try ArchiveFile(try Self.written { $0.member("Takeout/Fit/Daily activity metrics.csv", bytes: Self.text) })
        defer { file.close() }
        let zip = try file.read()
        let member = try #require(zip.members.first)
        #expect(member.method == 8 && member.size == Int64(Self.text.count) && member.compressedSize < member.size / 3, "\(member)")
        #expect(try zip.readWhole(member) == Self.text)
        // Seven bytes at a time, through the reader a worker streams with.
        let reader = try zip.open(member)
        var read: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 7)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
            if count == 0 { break }
            read += buffer[0..<count]
        }
        #expect(read == Self.text)
        #expect(reader.compressedRead == member.compressedSize)
    }

    /// A member that inflates to more than its directory entry declares is stopped there: the
    /// declared size bounds what a worker allocates.
    @Test func aMemberInflatingPastItsDeclaredSizeIsRefused() throws {
        var bytes = try Self.written { $0.member("export.xml", bytes: Self.text) }
        let entry = try #require(Self.directoryEntries(bytes).first)
        Self.patch32(&bytes, at: entry + 24, UInt32(Self.text.count - 1))
        let reason = try Self.readingRefusal(bytes) { zip, member in _ = try zip.readWhole(member) }
        #expect(reason == "'export.xml' in the zip inflates past the size its directory declares (a zip bomb?)", "\(reason ?? "read")")
    }

    @Test func aMemberClaimingMoreThan200TimesItsCompressedSizeIsRefusedBeforeInflating() throws {
        var bytes = try Self.written { $0.member("export.xml", bytes: Self.text) }
        let entry = try #require(Self.directoryEntries(bytes).first)
        let compressed = ZipArchive.u32(bytes, entry + 20)
        Self.patch32(&bytes, at: entry + 24, compressed * 200 + 1)
        let reason = try Self.readingRefusal(bytes) { zip, member in _ = try zip.open(member) }
        #expect(reason == "'export.xml' in the zip would inflate more than 200 times (a zip bomb?)", "\(reason ?? "read")")
        // Exactly 200 times is allowed to start (and then fails on the real size).
        Self.patch32(&bytes, at: entry + 24, compressed * 200)
        #expect(try Self.readingRefusal(bytes) { zip, member in _ = try zip.open(member) } == nil)
    }

    @Test func aMemberCompressedWithAnotherMethodIsRefused() throws {
        var bytes = try Self.written { $0.member("export.xml", bytes: Self.text) }
        let entry = try #require(Self.directoryEntries(bytes).first)
        bytes.replaceSubrange((entry + 10)..<(entry + 12), with: Self.le16(12))
        let reason = try Self.readingRefusal(bytes) { zip, member in _ = try zip.open(member) }
        #expect(reason == "'export.xml' in the zip is compressed with method 12; phr reads stored and deflated members", "\(reason ?? "read")")
    }

    /// Names are shown printable and short in every message: control characters dropped, 80
    /// characters at the most.
    @Test func memberNamesInMessagesArePrintableAndShort() {
        #expect(ZipArchive.printable("a\u{1B}[31mb\nc\u{7F}.xml") == "'a[31mbc.xml'")
        #expect(ZipArchive.printable(String(repeating: "x", count: 200)) == "'" + String(repeating: "x", count: 80) + "'")
    }
}
