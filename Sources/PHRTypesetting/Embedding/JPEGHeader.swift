/// The facts about a JPEG that placing it needs: its size, colour components and EXIF orientation.
///
/// Walks the marker segments up to the first start-of-frame, reading the EXIF orientation from
/// an APP1 segment on the way; no pixel data is touched. Every read is bounds-checked, since
/// the bytes come from an arbitrary file.
/// https://www.w3.org/Graphics/JPEG/itu-t81.pdf (B.1.1.3, B.2.2), https://www.cipa.jp/std/documents/e/DC-008-2012_E.pdf
struct JPEGHeader {
    var width = 0
    var height = 0
    var components = 0
    var orientation = 1

    init(_ bytes: [UInt8]) throws(TypesettingError) {
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { throw .unreadableImage(reason: "the jpeg markers are damaged") }
            let marker = bytes[offset + 1]
            // Fill bytes and markers without a length (TEM, RSTn) carry no segment.
            if marker == 0xFF { offset += 1; continue }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { offset += 2; continue }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let start = offset + 4
            let end = offset + 2 + length
            guard length >= 2, end <= bytes.count else { throw .unreadableImage(reason: "the jpeg is truncated") }
            switch marker {
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                // SOFn: precision, height, width, component count.
                guard end - start >= 6 else { throw .unreadableImage(reason: "the jpeg frame header is damaged") }
                height = Int(bytes[start + 1]) << 8 | Int(bytes[start + 2])
                width = Int(bytes[start + 3]) << 8 | Int(bytes[start + 4])
                components = Int(bytes[start + 5])
                guard [1, 3, 4].contains(components) else {
                    throw .unreadableImage(reason: "a jpeg with \(components) colour components")
                }
                return
            case 0xE1:
                if let value = Self.exifOrientation(bytes[start..<end]) { orientation = value }
            case 0xDA, 0xD9:
                throw .unreadableImage(reason: "the jpeg has no frame header")
            default:
                break
            }
            offset = end
        }
        throw .unreadableImage(reason: "the jpeg is truncated")
    }

    /// The Orientation tag (0x0112) of IFD0 in an APP1 "Exif" segment, if present and valid.
    private static func exifOrientation(_ segment: ArraySlice<UInt8>) -> Int? {
        let data = Array(segment)
        guard data.count >= 14, data[0..<6].elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0]) else { return nil }
        let tiff = Array(data[6...])
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func read(_ at: Int, _ count: Int) -> Int? {
            guard at >= 0, at + count <= tiff.count else { return nil }
            let slice = tiff[at..<at + count]
            return (little ? slice.reversed() : Array(slice)).reduce(0) { $0 << 8 | Int($1) }
        }
        guard read(2, 2) == 42, let ifd = read(4, 4), let entries = read(ifd, 2) else { return nil }
        for entry in 0..<min(entries, 512) {
            let at = ifd + 2 + entry * 12
            guard let tag = read(at, 2) else { return nil }
            if tag == 0x0112, let type = read(at + 2, 2), type == 3, let value = read(at + 8, 2), (1...8).contains(value) {
                return value
            }
        }
        return nil
    }
}
