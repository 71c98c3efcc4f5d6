import Foundation
import Testing
@testable import PHRRender

/// The zip reader phone exports and Takeouts go through, on archives written byte by byte here:
/// what archivers write is read; what none writes (sizes past the file, ZIP64 sizes near 2^62,
/// members sharing bytes) is refused with a reason, never trapped on.
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
    }

    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    static func le32(_ value: UInt32) -> [UInt8] { le16(Int(value & 0xFFFF)) + le16(Int(value >> 16)) }
    static func le64(_ value: UInt64) -> [UInt8] { le32(UInt32(value & 0xFFFF_FFFF)) + le32(UInt32(value >> 32)) }

    /// The archive's bytes, in a file (the reader takes a descriptor).
    static func archive(_ entries: [Entry]) throws -> (fd: Int32, size: Int64, path: String) {
        var bytes: [UInt8] = []
        var offsets: [Int] = []
        for entry in entries {
            offsets.append(bytes.count)
            guard entry.aliasOf == nil else { continue }
            let name = Array(entry.name.utf8)
            bytes += le32(0x0403_4B50) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0) + le32(crc32(entry.data))
                + le32(UInt32(entry.data.count)) + le32(UInt32(entry.data.count)) + le16(name.count) + le16(0) + name + entry.data
        }
        let directoryOffset = bytes.count
        for (index, entry) in entries.enumerated() {
            let name = Array(entry.name.utf8)
            let size = entry.zip64 != nil ? 0xFFFF_FFFF : entry.claimedSize ?? UInt32(entry.data.count)
            let extra = entry.zip64.map { le16(0x0001) + le16(16) + le64($0.size) + le64($0.compressed) } ?? []
            let local = entry.aliasOf.map { offsets[$0] } ?? offsets[index]
            bytes += le32(0x0201_4B50) + le16(20) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0) + le32(crc32(entry.data))
                + le32(size) + le32(size) + le16(name.count) + le16(extra.count) + le16(0) + le16(0) + le16(0) + le32(0)
                + le32(UInt32(local)) + name + extra
        }
        let directorySize = bytes.count - directoryOffset
        bytes += le32(0x0605_4B50) + le16(0) + le16(0) + le16(entries.count) + le16(entries.count) + le32(UInt32(directorySize))
            + le32(UInt32(directoryOffset)) + le16(0)
        let path = NSTemporaryDirectory() + "phr-zip-\(UUID().uuidString).zip"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        return (fd, Int64(bytes.count), path)
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// Reads `entries` as an archive; the refusal's reason, or nil when it was read.
    static func refusal(_ entries: [Entry]) throws -> String? {
        let (fd, size, path) = try archive(entries)
        defer {
            close(fd)
            try? FileManager.default.removeItem(atPath: path)
        }
        do {
            _ = try ZipArchive(fd: fd, fileSize: size)
            return nil
        } catch let refusal as ZipArchive.Refusal {
            return refusal.reason
        }
    }

    @Test func storedMembersAreReadWithTheirBytes() throws {
        let (fd, size, path) = try Self.archive([Entry(name: "export.xml", data: Array("<HealthData/>".utf8)),
                                                 Entry(name: "a/b.txt", data: Array("hello".utf8))])
        defer {
            close(fd)
            try? FileManager.default.removeItem(atPath: path)
        }
        let zip = try ZipArchive(fd: fd, fileSize: size)
        #expect(zip.members.map(\.name) == ["export.xml", "a/b.txt"])
        let member = try #require(zip.members.first { $0.name == "a/b.txt" })
        #expect(try zip.readWhole(member) == Array("hello".utf8))
    }

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

    @Test func aMemberClaimingMoreThanTheFileIsRefused() throws {
        let reason = try Self.refusal([Entry(name: "a.csv", data: Array("x".utf8), claimedSize: 0xFFFF_FFF0)])
        #expect(reason?.contains("a.csv") == true && reason?.contains("lies outside the file") == true, "\(reason ?? "read")")
    }

    @Test func namesSharingOneMembersBytesAreRefused() throws {
        let reason = try Self.refusal([Entry(name: "export.xml", data: Array(repeating: 0x41, count: 100)),
                                       Entry(name: "copy.xml", data: [], aliasOf: 0)])
        #expect(reason?.contains("share their bytes") == true, "\(reason ?? "read")")
    }

    @Test func aTruncatedArchiveIsRefusedWithItsReason() throws {
        let path = NSTemporaryDirectory() + "phr-zip-\(UUID().uuidString).zip"
        #expect(FileManager.default.createFile(atPath: path, contents: Data([0x50, 0x4B, 3, 4] + Array(repeating: 0, count: 40))))
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        defer {
            close(fd)
            try? FileManager.default.removeItem(atPath: path)
        }
        #expect(throws: ZipArchive.Refusal(reason: "not a complete zip archive: its end (the central directory) is missing; the file may be truncated")) {
            _ = try ZipArchive(fd: fd, fileSize: 44)
        }
    }
}
