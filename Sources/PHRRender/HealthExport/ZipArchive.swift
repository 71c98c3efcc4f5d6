import CPHRZlib
import Glibc

/// Reads the members of a zip archive (an Apple Health `export.zip`) from a descriptor, without
/// loading it: the central directory at the end says where each member is, and a member is
/// inflated in chunks as it is read.
///
/// The archive is untrusted, so every number in it is bounded before use: the directory's size
/// and entry count, name lengths, a member's declared size (and its ratio to the compressed size,
/// which stops a zip bomb before it starts), and while inflating, the output may never exceed the
/// declared size; at the end the CRC-32 must match. Members that share bytes (several names for
/// one member, "zip aliasing") are refused. Only stored and deflated members are read.
/// Format: PKWARE APPNOTE.TXT 6.3.10, sections 4.3 and 4.5 (ZIP64).
struct ZipArchive {
    struct Member {
        var name: String
        var method: UInt16
        var compressedSize: Int64
        var size: Int64
        var crc: UInt32
        var localHeaderOffset: Int64
    }

    struct Refusal: Error, Equatable {
        let reason: String
    }

    /// The most members read from the directory, and the largest directory.
    static let maximumMembers = 2_000_000
    static let maximumDirectoryBytes: Int64 = 256 << 20
    /// A member may inflate to at most this many times its compressed size. XML compresses about
    /// 10 to 30 times; deflate cannot go past 1032.
    static let maximumRatio: Int64 = 200
    /// The largest member: years of Apple Health data run to a few gigabytes.
    static let maximumMemberBytes: Int64 = 64 << 30

    let fd: Int32
    let fileSize: Int64
    let members: [Member]

    /// True if the file begins like a zip archive (a local header, or an empty archive).
    static func looksLikeZip(_ head: [UInt8]) -> Bool {
        head.count >= 4 && head[0] == 0x50 && head[1] == 0x4B && (head[2], head[3]) == (3, 4)
    }

    init(fd: Int32, fileSize: Int64) throws {
        self.fd = fd
        self.fileSize = fileSize
        // The end-of-central-directory record is in the last 22 + 65535 bytes.
        let tailLength = min(fileSize, 22 + 65_535)
        let tail = try Self.read(fd, at: fileSize - tailLength, count: Int(tailLength))
        guard let eocd = Self.lastSignature(0x0605_4B50, in: tail, minimumRemaining: 22) else {
            throw Refusal(reason: "not a complete zip archive: its end (the central directory) is missing; the file may be truncated")
        }
        var count = Int64(Self.u16(tail, eocd + 10))
        var directorySize = Int64(Self.u32(tail, eocd + 12))
        var directoryOffset = Int64(Self.u32(tail, eocd + 16))
        if count == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
            // ZIP64: the locator (20 bytes) just before the EOCD names the ZIP64 EOCD record.
            guard eocd >= 20, Self.u32(tail, eocd - 20) == 0x0706_4B50 else {
                throw Refusal(reason: "a zip archive whose ZIP64 directory locator is missing")
            }
            let recordOffset = Int64(bitPattern: Self.u64(tail, eocd - 20 + 8))
            guard recordOffset >= 0, recordOffset <= fileSize - 56 else { throw Refusal(reason: "a zip archive with a ZIP64 directory out of the file") }
            let record = try Self.read(fd, at: recordOffset, count: 56)
            guard Self.u32(record, 0) == 0x0606_4B50 else { throw Refusal(reason: "a zip archive with a damaged ZIP64 directory record") }
            count = Int64(bitPattern: Self.u64(record, 32))
            directorySize = Int64(bitPattern: Self.u64(record, 40))
            directoryOffset = Int64(bitPattern: Self.u64(record, 48))
        }
        guard count >= 0, count <= Int64(Self.maximumMembers), directorySize >= 0, directorySize <= Self.maximumDirectoryBytes,
              directoryOffset >= 0, directoryOffset <= fileSize, directorySize <= fileSize - directoryOffset else {
            throw Refusal(reason: "a zip archive whose central directory is out of bounds (truncated or damaged)")
        }
        let directory = try Self.read(fd, at: directoryOffset, count: Int(directorySize))
        var members: [Member] = []
        members.reserveCapacity(Int(count))
        var position = 0
        for _ in 0..<count {
            guard position + 46 <= directory.count, Self.u32(directory, position) == 0x0201_4B50 else {
                throw Refusal(reason: "a zip archive with a damaged central directory")
            }
            let nameLength = Int(Self.u16(directory, position + 28))
            let extraLength = Int(Self.u16(directory, position + 30))
            let commentLength = Int(Self.u16(directory, position + 32))
            let end = position + 46 + nameLength + extraLength + commentLength
            guard end <= directory.count else { throw Refusal(reason: "a zip archive with a damaged central directory") }
            var member = Member(name: String(decoding: directory[(position + 46)..<(position + 46 + nameLength)], as: UTF8.self),
                                method: Self.u16(directory, position + 10),
                                compressedSize: Int64(Self.u32(directory, position + 20)),
                                size: Int64(Self.u32(directory, position + 24)),
                                crc: Self.u32(directory, position + 16),
                                localHeaderOffset: Int64(Self.u32(directory, position + 42)))
            // ZIP64 extended information: the 8-byte fields present are those that are 0xFFFFFFFF.
            var extra = position + 46 + nameLength
            let extraEnd = extra + extraLength
            while extra + 4 <= extraEnd {
                let id = Self.u16(directory, extra)
                let length = Int(Self.u16(directory, extra + 2))
                guard extra + 4 + length <= extraEnd else { break }
                if id == 0x0001 {
                    var field = extra + 4
                    func next() -> Int64? {
                        guard field + 8 <= extra + 4 + length else { return nil }
                        defer { field += 8 }
                        return Int64(bitPattern: Self.u64(directory, field))
                    }
                    if member.size == 0xFFFF_FFFF { member.size = next() ?? -1 }
                    if member.compressedSize == 0xFFFF_FFFF { member.compressedSize = next() ?? -1 }
                    if member.localHeaderOffset == 0xFFFF_FFFF { member.localHeaderOffset = next() ?? -1 }
                }
                extra += 4 + length
            }
            guard member.size >= 0, member.compressedSize >= 0, member.localHeaderOffset >= 0,
                  member.localHeaderOffset < fileSize, member.compressedSize <= fileSize else {
                throw Refusal(reason: "a zip archive whose member \(Self.printable(member.name)) lies outside the file (truncated?)")
            }
            // Here, not when the member is opened: sizes are summed before any is opened (a
            // reader sorting members by size), and two ZIP64 sizes near 2^62 overflow a sum.
            guard member.size <= Self.maximumMemberBytes else {
                throw Refusal(reason: "\(Self.printable(member.name)) in the zip claims \(member.size >> 20) MB, more than phr reads")
            }
            members.append(member)
            position = end
        }
        // Members may not share bytes. A hostile zip gives many names to one member ("zip
        // aliasing"): each passes the ratio check, and the same bytes inflate again and again
        // (600 names for one 4 MB member took phr to 9 GB). A member's bytes start at its local
        // header and run at least 30 header bytes plus its compressed size; the next member
        // may not start before that.
        let order = members.indices.sorted { a, b in
            members[a].localHeaderOffset != members[b].localHeaderOffset ? members[a].localHeaderOffset < members[b].localHeaderOffset : a < b
        }
        for (first, next) in zip(order, order.dropFirst()) {
            let member = members[first]
            guard member.localHeaderOffset + 30 + member.compressedSize <= members[next].localHeaderOffset else {
                throw Refusal(reason: "a zip archive whose members \(Self.printable(member.name)) and \(Self.printable(members[next].name)) share their bytes, which no archiver writes (a zip bomb?)")
            }
        }
        self.members = members
    }

    /// A reader of one member's uncompressed bytes.
    func open(_ member: Member) throws -> MemberReader {
        guard member.method == 0 || member.method == 8 else {
            throw Refusal(reason: "\(Self.printable(member.name)) in the zip is compressed with method \(member.method); phr reads stored and deflated members")
        }
        guard member.size <= max(member.compressedSize, 1) * Self.maximumRatio else {
            throw Refusal(reason: "\(Self.printable(member.name)) in the zip would inflate more than \(Self.maximumRatio) times (a zip bomb?)")
        }
        let header = try Self.read(fd, at: member.localHeaderOffset, count: 30)
        guard header.count == 30, Self.u32(header, 0) == 0x0403_4B50 else {
            throw Refusal(reason: "a zip archive with a damaged member header (\(Self.printable(member.name)))")
        }
        let dataOffset = member.localHeaderOffset + 30 + Int64(Self.u16(header, 26)) + Int64(Self.u16(header, 28))
        guard dataOffset <= fileSize, member.compressedSize <= fileSize - dataOffset else {
            throw Refusal(reason: "\(Self.printable(member.name)) ends past the end of the zip archive: the file is truncated")
        }
        return try MemberReader(fd: fd, member: member, dataOffset: dataOffset)
    }

    /// A small member's whole content (size, ratio and CRC-32 checked as `open` does); the
    /// caller bounds `member.size` first.
    func readWhole(_ member: Member) throws -> [UInt8] {
        let reader = try open(member)
        // One byte spare, so the last read reaches the end of the member and its CRC check.
        var bytes = [UInt8](repeating: 0, count: Int(member.size) + 1)
        var filled = 0
        while true {
            let got = try bytes.withUnsafeMutableBytes { raw in
                try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]))
            }
            if got == 0 { break }
            filled += got
        }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }

    /// Inflates one member chunk by chunk, checking its size and CRC-32.
    final class MemberReader {
        let member: Member
        private let fd: Int32
        private var offset: Int64
        private var remainingInput: Int64
        private var produced: Int64 = 0
        private var crc: UInt = 0
        /// zlib checks that the stream stays at the address it was initialised at.
        private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        private static let inputCapacity = 256 << 10
        /// Compressed bytes read but not yet inflated; a fixed address, as zlib keeps `next_in`.
        private let input = UnsafeMutablePointer<UInt8>.allocate(capacity: inputCapacity)
        private var finished = false
        /// Bytes of the archive read so far (for progress).
        private(set) var compressedRead: Int64 = 0

        init(fd: Int32, member: Member, dataOffset: Int64) throws {
            self.fd = fd
            self.member = member
            offset = dataOffset
            remainingInput = member.compressedSize
            crc = CPHRZlib.crc32(0, nil, 0)
            stream.initialize(to: z_stream())
            if member.method == 8 {
                // On failure deinit frees both buffers (inflateEnd refuses a stream it never set up).
                guard phr_inflate_init_raw(stream) == Z_OK else { throw Refusal(reason: "zlib could not start inflating") }
            }
        }

        deinit {
            if member.method == 8 { inflateEnd(stream) }
            stream.deallocate()
            input.deallocate()
        }

        /// Fills `buffer` with up to its size in bytes; 0 at the end of the member.
        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            guard !finished, buffer.count > 0 else { return 0 }
            var count = 0
            if member.method == 0 {
                let want = Int(min(Int64(buffer.count), remainingInput))
                if want > 0 {
                    count = try pread(into: buffer.baseAddress!, want)
                }
                if remainingInput == 0 { finished = true }
            } else {
                stream.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_out = uInt(buffer.count)
                while stream.pointee.avail_out > 0 {
                    if stream.pointee.avail_in == 0 && remainingInput > 0 {
                        let got = try pread(into: UnsafeMutableRawPointer(input), Int(min(Int64(Self.inputCapacity), remainingInput)))
                        stream.pointee.next_in = input
                        stream.pointee.avail_in = uInt(got)
                    }
                    let status = inflate(stream, Z_NO_FLUSH)
                    if status == Z_STREAM_END {
                        finished = true
                        break
                    }
                    if status == Z_BUF_ERROR && stream.pointee.avail_in == 0 && remainingInput == 0 { throw truncated() }
                    guard status == Z_OK || status == Z_BUF_ERROR else {
                        throw Refusal(reason: "\(ZipArchive.printable(member.name)) in the zip is damaged (its compressed data does not inflate)")
                    }
                    // Hand over what is there rather than wait for a full buffer.
                    if stream.pointee.avail_out < uInt(buffer.count) && stream.pointee.avail_in == 0 { break }
                }
                count = buffer.count - Int(stream.pointee.avail_out)
            }
            produced += Int64(count)
            guard produced <= member.size else {
                throw Refusal(reason: "\(ZipArchive.printable(member.name)) in the zip inflates past the size its directory declares (a zip bomb?)")
            }
            crc = CPHRZlib.crc32(crc, buffer.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(count))
            if finished {
                guard produced == member.size else { throw truncated() }
                guard UInt32(truncatingIfNeeded: crc) == member.crc else {
                    throw Refusal(reason: "\(ZipArchive.printable(member.name)) in the zip fails its CRC-32 check: the archive is damaged")
                }
            }
            return count
        }

        private func pread(into pointer: UnsafeMutableRawPointer, _ want: Int) throws -> Int {
            while true {
                let got = Glibc.pread(fd, pointer, want, off_t(offset))
                if got < 0 && errno == EINTR { continue }
                guard got >= 0 else { throw Refusal(reason: "reading the zip failed (errno \(errno))") }
                guard got > 0 else { throw truncated() }
                offset += Int64(got)
                remainingInput -= Int64(got)
                compressedRead += Int64(got)
                return got
            }
        }

        private func truncated() -> Refusal {
            Refusal(reason: "\(ZipArchive.printable(member.name)) in the zip ends early: the archive is truncated")
        }
    }

    // MARK: Bytes

    static func read(_ fd: Int32, at offset: Int64, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset + Int64(done))) }
            if got < 0 {
                if errno == EINTR { continue }
                throw Refusal(reason: "reading the zip failed (errno \(errno))")
            }
            if got == 0 { break }
            done += got
        }
        bytes.removeLast(count - done)
        return bytes
    }

    static func lastSignature(_ signature: UInt32, in bytes: [UInt8], minimumRemaining: Int) -> Int? {
        guard bytes.count >= minimumRemaining else { return nil }
        var index = bytes.count - minimumRemaining
        while index >= 0 {
            if u32(bytes, index) == signature { return index }
            index -= 1
        }
        return nil
    }

    static func u16(_ bytes: [UInt8], _ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
    static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 { UInt32(u16(bytes, at)) | UInt32(u16(bytes, at + 2)) << 16 }
    static func u64(_ bytes: [UInt8], _ at: Int) -> UInt64 { UInt64(u32(bytes, at)) | UInt64(u32(bytes, at + 4)) << 32 }

    /// A member name as shown in a message: printable, at most 80 characters.
    static func printable(_ name: String) -> String {
        "'" + String(name.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(80).map(Character.init)) + "'"
    }
}
