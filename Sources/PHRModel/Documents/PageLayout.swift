/// Where a page's text came from.
public enum PageTextSource: String, Codable, Sendable, CaseIterable {
    /// The PDF's own text layer (born-digital text).
    case textLayer = "text"
    /// Optical character recognition of the page image.
    case ocr
}

/// One recognised word and where it sits on its page.
///
/// Coordinates are PDF points (1/72 inch) from the page's top-left corner, upright (after any
/// rotation OCR applied). The lab-results reader uses them to find columns.
public struct PageWord: Equatable, Sendable, Codable {
    public var text: String
    public var x0: Double
    public var y0: Double
    public var x1: Double
    public var y1: Double
    /// The reading-order line on the page, from 0.
    public var line: Int
    /// Tesseract's confidence, 0 to 100, for OCR; nil for a text layer.
    public var confidence: Double?

    public init(text: String, x0: Double, y0: Double, x1: Double, y1: Double, line: Int, confidence: Double? = nil) {
        self.text = text
        self.x0 = x0
        self.y0 = y0
        self.x1 = x1
        self.y1 = y1
        self.line = line
        self.confidence = confidence
    }
}

/// A page's words with their boxes, and how the text was obtained.
public struct PageLayout: Equatable, Sendable, Codable {
    /// The page number, from 1.
    public var page: Int
    /// The page size in points, upright.
    public var width: Double
    public var height: Double
    public var source: PageTextSource
    /// The mean word confidence (0 to 100) of OCR; nil for a text layer.
    public var meanConfidence: Double?
    public var words: [PageWord]

    public init(page: Int, width: Double, height: Double, source: PageTextSource, meanConfidence: Double? = nil,
                words: [PageWord]) {
        self.page = page
        self.width = width
        self.height = height
        self.source = source
        self.meanConfidence = meanConfidence
        self.words = words
    }

    /// The words as lines of text, in reading order: the page's text as OCR read it.
    public var text: String {
        var lines: [String] = []
        var current: [String] = []
        var line = words.first?.line ?? 0
        for word in words {
            if word.line != line {
                lines.append(current.joined(separator: " "))
                current = []
                line = word.line
            }
            current.append(word.text)
        }
        if !current.isEmpty { lines.append(current.joined(separator: " ")) }
        return lines.joined(separator: "\n")
    }
}

/// The compact binary form of a page's words, as stored (inside the encrypted database) and as
/// sent by a worker. Little-endian:
///
///     version u8 (1) | count u32 | count × word
///     word: x0 y0 x1 y1 u16 each (tenths of a point, so pages up to 6553 pt) | line u16 |
///           confidence u8 (0...100, 255 for none) | length u8 | UTF-8 text (at most 255 bytes)
///
/// Decoding treats the bytes as untrusted: every length is checked and nothing can trap.
public enum PageWordCoding {
    static let version: UInt8 = 1
    /// Words kept per page; a real page holds a few hundred to a few thousand.
    public static let maximumWords = 20_000

    public static func encode(_ words: [PageWord]) -> [UInt8] {
        var out: [UInt8] = [version]
        let kept = words.prefix(maximumWords)
        append32(UInt32(kept.count), to: &out)
        for word in kept {
            for value in [word.x0, word.y0, word.x1, word.y1] { append16(tenths(value), to: &out) }
            append16(UInt16(clamping: max(0, word.line)), to: &out)
            out.append(word.confidence.map { UInt8(max(0, min(100, $0.rounded()))) } ?? 255)
            var text = Array(word.text.utf8)
            if text.count > 255 {
                var end = 255
                while end > 0 && text[end] & 0xC0 == 0x80 { end -= 1 }
                text = Array(text[..<end])
            }
            out.append(UInt8(text.count))
            out.append(contentsOf: text)
        }
        return out
    }

    /// The words in `bytes`, or nil if they are not a valid encoding.
    public static func decode<Bytes: Collection>(_ bytes: Bytes) -> [PageWord]? where Bytes.Element == UInt8 {
        let data = Array(bytes)
        if data.isEmpty { return [] }
        guard data[0] == version, data.count >= 5 else { return nil }
        var index = 1
        func u16() -> UInt16? {
            guard data.count - index >= 2 else { return nil }
            defer { index += 2 }
            return UInt16(data[index]) | UInt16(data[index + 1]) << 8
        }
        var count: UInt32 = 0
        for shift in 0..<4 { count |= UInt32(data[index + shift]) << (8 * UInt32(shift)) }
        index += 4
        guard count <= UInt32(maximumWords) else { return nil }
        var words: [PageWord] = []
        words.reserveCapacity(Int(count))
        for _ in 0..<Int(count) {
            guard let x0 = u16(), let y0 = u16(), let x1 = u16(), let y1 = u16(), let line = u16(),
                  data.count - index >= 2 else { return nil }
            let confidence = data[index]
            let length = Int(data[index + 1])
            index += 2
            guard data.count - index >= length else { return nil }
            let text = String(decoding: data[index..<index + length], as: UTF8.self)
            index += length
            words.append(PageWord(text: text, x0: Double(x0) / 10, y0: Double(y0) / 10, x1: Double(x1) / 10,
                                  y1: Double(y1) / 10, line: Int(line),
                                  confidence: confidence == 255 ? nil : Double(min(confidence, 100))))
        }
        return index == data.count ? words : nil
    }

    private static func tenths(_ value: Double) -> UInt16 {
        guard value.isFinite else { return 0 }
        return UInt16(max(0, min(65535, (value * 10).rounded())))
    }

    private static func append16(_ value: UInt16, to out: inout [UInt8]) {
        out.append(UInt8(value & 0xFF))
        out.append(UInt8(value >> 8))
    }

    private static func append32(_ value: UInt32, to out: inout [UInt8]) {
        for shift in 0..<4 { out.append(UInt8((value >> (8 * UInt32(shift))) & 0xFF)) }
    }
}
