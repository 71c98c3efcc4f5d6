import CPHRTesseract
import Glibc

/// An 8-bit grey leptonica image owned by Swift: the page picture OCR reads.
///
/// Every transformation returns a new image and leaves this one alone; leptonica returns NULL
/// when it cannot allocate (the worker runs under an address-space limit), which surfaces as
/// `OCRFailure.outOfMemory` for that page only.
final class GreyImage {
    let pix: UnsafeMutablePointer<PIX>
    /// Pixels per inch the image is taken to have.
    let resolution: Int

    /// Takes ownership of `pix`, converting it to 8-bit grey if it is not.
    init(taking pix: UnsafeMutablePointer<PIX>, resolution: Int) throws {
        if pixGetDepth(pix) == 8 && pixGetColormap(pix) == nil {
            self.pix = pix
        } else {
            var source: UnsafeMutablePointer<PIX>? = pix
            defer { pixDestroy(&source) }
            guard let grey = pixConvertTo8(pix, 0) else { throw OCRFailure.outOfMemory }
            self.pix = grey
        }
        self.resolution = resolution
    }

    deinit {
        var pointer: UnsafeMutablePointer<PIX>? = pix
        pixDestroy(&pointer)
    }

    var width: Int { Int(pixGetWidth(pix)) }
    var height: Int { Int(pixGetHeight(pix)) }

    /// The image turned clockwise by `quarters` right angles.
    func rotated(quarters: Int) throws -> GreyImage {
        let turns = ((quarters % 4) + 4) % 4
        guard turns != 0 else { return try copy() }
        guard let turned = pixRotateOrth(pix, Int32(turns)) else { throw OCRFailure.outOfMemory }
        return try GreyImage(taking: turned, resolution: resolution)
    }

    /// The image scaled by `factor` (area-mapped when shrinking, so thin strokes survive).
    func scaled(by factor: Double) throws -> GreyImage {
        guard abs(factor - 1) > 0.01 else { return try copy() }
        let result = factor < 1 ? pixScaleAreaMap(pix, Float(factor), Float(factor)) : pixScale(pix, Float(factor), Float(factor))
        guard let result else { throw OCRFailure.outOfMemory }
        return try GreyImage(taking: result, resolution: max(1, Int((Double(resolution) * factor).rounded())))
    }

    func copy() throws -> GreyImage {
        guard let copied = pixCopy(nil, pix) else { throw OCRFailure.outOfMemory }
        return try GreyImage(taking: copied, resolution: resolution)
    }

    /// Applies `transform` (a leptonica function returning a new image, or NULL) and wraps the result.
    func map(_ transform: (UnsafeMutablePointer<PIX>) -> UnsafeMutablePointer<PIX>?) throws -> GreyImage {
        guard let result = transform(pix) else { throw OCRFailure.outOfMemory }
        return try GreyImage(taking: result, resolution: resolution)
    }

    /// A grey image from 32-bit pixels as cairo's RGB24 format stores them (native-endian
    /// 0x00RRGGBB words, `stride` bytes per row).
    static func fromCairoRGB24(_ data: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int,
                               resolution: Int) throws -> GreyImage {
        guard let grey = pixCreate(Int32(width), Int32(height), 8) else { throw OCRFailure.outOfMemory }
        let wordsPerLine = Int(pixGetWpl(grey))
        let target = pixGetData(grey)!
        for y in 0..<height {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            let line = target + y * wordsPerLine
            for x in 0..<width {
                let pixel = row[x]
                let r = (pixel >> 16) & 0xFF, g = (pixel >> 8) & 0xFF, b = pixel & 0xFF
                let value = (r * 77 + g * 150 + b * 29) >> 8
                // leptonica keeps 8-bit pixels in 32-bit words, most significant byte first.
                let shift = UInt32(24 - 8 * (x & 3))
                line[x >> 2] = (line[x >> 2] & ~(0xFF << shift)) | (value << shift)
            }
        }
        _ = pixSetResolution(grey, Int32(resolution), Int32(resolution))
        return try GreyImage(taking: grey, resolution: resolution)
    }
}

/// Why OCR of one page did not happen; the page's note says it to the user.
enum OCRFailure: Error, Equatable {
    case outOfMemory
    case tooLarge(width: Int, height: Int)
    case undecodable(String)
    case languageMissing(String)
    case timedOut(seconds: Int)

    /// The image itself is at fault (too large, damaged), not the reading of it.
    var isImageFault: Bool {
        switch self {
        case .tooLarge, .undecodable: return true
        default: return false
        }
    }

    var note: String {
        switch self {
        case .outOfMemory: return "the page image is too large for the reader's memory"
        case let .tooLarge(width, height):
            return "the image is \(width) x \(height) pixels, more than phr reads (\(ImageDecoder.maximumMegapixels) megapixels, "
                + "\(ImageDecoder.maximumSide) pixels a side)"
        case let .undecodable(reason): return reason
        case let .languageMissing(languages): return "no OCR language data for \(languages)"
        case let .timedOut(seconds): return "OCR took longer than \(seconds) s"
        }
    }
}
