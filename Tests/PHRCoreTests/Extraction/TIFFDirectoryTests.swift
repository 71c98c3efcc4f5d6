import Testing
@testable import PHRRender

/// A TIFF page's size is read from its own directory before it is decoded, as libtiff reads it:
/// the first of a repeated tag counts, so a small size after a large one cannot slip a large
/// page past the size check; SHORT and LONG values, either byte order.
@Suite struct TIFFDirectoryTests {
    /// A TIFF header and one directory at offset 8 holding `entries` (tag, type, value).
    static func tiff(littleEndian: Bool, _ entries: [(tag: Int, type: Int, value: Int)]) -> [UInt8] {
        func u16(_ value: Int) -> [UInt8] { littleEndian ? [UInt8(value & 0xFF), UInt8(value >> 8)] : [UInt8(value >> 8), UInt8(value & 0xFF)] }
        func u32(_ value: Int) -> [UInt8] {
            let bytes = [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24 & 0xFF)]
            return littleEndian ? bytes : bytes.reversed()
        }
        var bytes: [UInt8] = (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8) + u16(entries.count)
        for entry in entries {
            bytes += u16(entry.tag) + u16(entry.type) + u32(1)
            bytes += entry.type == 3 ? u16(entry.value) + [0, 0] : u32(entry.value)
        }
        return bytes + u32(0)
    }

    @Test(arguments: [true, false])
    func theFirstOfARepeatedSizeCounts(littleEndian: Bool) {
        let bytes = Self.tiff(littleEndian: littleEndian, [(256, 4, 60_000), (257, 3, 40_000), (256, 3, 100), (257, 3, 100)])
        #expect(ImageDecoder.firstTIFFDirectory(bytes) == 8)
        let size = ImageDecoder.tiffSize(bytes, directory: 8)
        #expect(size?.width == 60_000 && size?.height == 40_000)
        #expect(throws: OCRFailure.self) { try ImageDecoder.checkSize(width: size!.width, height: size!.height) }
        let plain = Self.tiff(littleEndian: littleEndian, [(256, 3, 850), (257, 4, 1100)])
        #expect(ImageDecoder.tiffSize(plain, directory: 8).map { [$0.width, $0.height] } == [850, 1100])
        #expect(ImageDecoder.tiffSize(Self.tiff(littleEndian: littleEndian, [(256, 3, 850)]), directory: 8) == nil, "no height")
    }
}
