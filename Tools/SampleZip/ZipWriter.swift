import CPHRZlib
import Foundation

/// A zip archive written as it goes: each member deflated, sizes and CRC in a data descriptor
/// after it, the central directory at the end (PKWARE APPNOTE 4.3). No ZIP64: members stay under 4 GB.
/// Shared by the sample generators (Apple Health's export.zip, Google Takeout's zip).
public final class ZipWriter {
    let handle: FileHandle
    var offset = 0
    var directory: [UInt8] = []
    var count = 0
    /// Each member's CRC, sizes and local header offset, for `alias`.
    var written: [String: (crc: Int, compressed: Int, size: Int, start: Int)] = [:]

    public init(path: String) {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        handle = FileHandle(forWritingAtPath: path)!
    }

    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    static func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16(value >> 16 & 0xFFFF) }

    func raw(_ bytes: [UInt8]) {
        handle.write(Data(bytes))
        offset += bytes.count
    }

    /// Writes one member whose content `produce` hands to the given sink.
    public func member(_ name: String, _ produce: (@escaping ([UInt8]) -> Void) -> Void) {
        let start = offset
        let nameBytes = Array(name.utf8)
        raw(Self.le32(0x0403_4B50) + Self.le16(20) + Self.le16(8) + Self.le16(8) + Self.le16(0) + Self.le16(0x5A21)
            + Self.le32(0) + Self.le32(0) + Self.le32(0) + Self.le16(nameBytes.count) + Self.le16(0) + nameBytes)
        // zlib checks that the stream stays where it was initialised.
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer { stream.deallocate() }
        precondition(phr_deflate_init_raw(stream, 6) == Z_OK)
        var crc = crc32(0, nil, 0)
        var size = 0
        var compressed = 0
        var out = [UInt8](repeating: 0, count: 256 << 10)
        func pump(_ input: [UInt8], flush: Int32) {
            var input = input
            input.withUnsafeMutableBufferPointer { buffer in
                stream.pointee.next_in = buffer.baseAddress
                stream.pointee.avail_in = uInt(buffer.count)
                repeat {
                    let produced: Int = out.withUnsafeMutableBufferPointer { outBuffer in
                        stream.pointee.next_out = outBuffer.baseAddress
                        stream.pointee.avail_out = uInt(outBuffer.count)
                        _ = deflate(stream, flush)
                        return outBuffer.count - Int(stream.pointee.avail_out)
                    }
                    if produced > 0 {
                        raw(Array(out[0..<produced]))
                        compressed += produced
                    }
                } while stream.pointee.avail_out == 0 || (flush == Z_FINISH && stream.pointee.avail_in > 0)
            }
        }
        produce { chunk in
            crc = chunk.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, uInt($0.count)) }
            size += chunk.count
            pump(chunk, flush: Z_NO_FLUSH)
        }
        pump([], flush: Z_FINISH)
        deflateEnd(stream)
        raw(Self.le32(0x0807_4B50) + Self.le32(Int(crc)) + Self.le32(compressed) + Self.le32(size))
        directory += Self.le32(0x0201_4B50) + Self.le16(20) + Self.le16(20) + Self.le16(8) + Self.le16(8) + Self.le16(0) + Self.le16(0x5A21)
            + Self.le32(Int(crc)) + Self.le32(compressed) + Self.le32(size) + Self.le16(nameBytes.count) + Self.le16(0) + Self.le16(0)
            + Self.le16(0) + Self.le16(0) + Self.le32(0) + Self.le32(start) + nameBytes
        count += 1
        written[name] = (Int(crc), compressed, size, start)
    }

    /// Adds a directory entry `name` for the bytes of the member `target` already written: two
    /// names, one member. Real archivers never do this; a hostile zip does ("zip aliasing"), so
    /// that each name passes a ratio check while the same bytes are inflated again and again.
    public func alias(_ name: String, of target: String) {
        guard let member = written[target] else { preconditionFailure("no member \(target)") }
        let nameBytes = Array(name.utf8)
        directory += Self.le32(0x0201_4B50) + Self.le16(20) + Self.le16(20) + Self.le16(8) + Self.le16(8) + Self.le16(0) + Self.le16(0x5A21)
            + Self.le32(member.crc) + Self.le32(member.compressed) + Self.le32(member.size) + Self.le16(nameBytes.count) + Self.le16(0)
            + Self.le16(0) + Self.le16(0) + Self.le16(0) + Self.le32(0) + Self.le32(member.start) + nameBytes
        count += 1
    }

    public func close() {
        let directoryOffset = offset
        raw(directory)
        raw(Self.le32(0x0605_4B50) + Self.le16(0) + Self.le16(0) + Self.le16(count) + Self.le16(count) + Self.le32(directory.count)
            + Self.le32(directoryOffset) + Self.le16(0))
        handle.closeFile()
    }
}

extension ZipWriter {
    /// Writes one member holding `bytes`.
    public func member(_ name: String, bytes: [UInt8]) {
        member(name) { sink in sink(bytes) }
    }
}
