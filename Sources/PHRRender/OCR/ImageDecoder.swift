import CPHRTesseract
import Glibc
import PHRModel

/// Decodes scans and photos (PNG, JPEG, TIFF with any number of pages, WebP, HEIC/HEIF) into
/// upright grey page images, inside the worker only.
///
/// The dimensions are read from the header before any pixel is decoded, so an image bomb (a
/// 50,000 x 50,000 PNG of a few kilobytes) is refused for that page without allocating it.
/// JPEGs over the pixel budget are decoded at a half, quarter or eighth of their size (libjpeg
/// does that for free); other formats are shrunk right after decoding. JPEG photos are turned
/// as their EXIF Orientation tag says; HEIF images carry their rotation in the container, and
/// libheif applies it.
struct ImageDecoder {
    /// Images with more pixels than this are refused (the decoded page alone would be 4 bytes a pixel).
    static let maximumMegapixels = 100
    /// Decoded pages larger than this are shrunk before anything else (a 300 DPI A4 page is 8.7).
    static let workingMegapixels = 16.0
    /// Image files larger than this are not read at all.
    static let maximumFileBytes = 256 << 20

    /// The most pages of a TIFF read; a file with more says so (`hasMorePages`).
    static let maximumTIFFPages = 10_000

    let bytes: [UInt8]
    let kind: FileSniffer.Kind
    /// A TIFF's image file directories (where each page's header is), walked once: reading page
    /// n by its number made libtiff walk the chain from the start each time, so a 10,000-page
    /// file took over ten minutes (quadratic).
    private let directories: [Int]
    /// True when a TIFF has more pages than `maximumTIFFPages`.
    let hasMorePages: Bool

    init(bytes: [UInt8], kind: FileSniffer.Kind) {
        self.bytes = bytes
        self.kind = kind
        var directories: [Int] = []
        var more = false
        if kind == .tiff, let first = Self.firstTIFFDirectory(bytes), first != 0 {
            // The IFD chain (TIFF 6.0 section 2), without decoding; each offset is past the last,
            // so a loop cannot form.
            var offset = first
            while true {
                guard directories.count < Self.maximumTIFFPages else {
                    more = true
                    break
                }
                directories.append(offset)
                guard let next = Self.nextTIFFDirectory(bytes, after: offset, index: directories.count + 1), next != 0 else { break }
                offset = next
            }
        }
        self.directories = directories
        hasMorePages = more
    }

    /// How many pages the image holds (TIFF may hold several; the others one).
    func pageCount() -> Int {
        guard kind == .tiff else { return 1 }
        return max(1, directories.count)
    }

    /// Page `index` (from 0) as an upright grey image, shrunk to the working size.
    func page(_ index: Int) throws -> GreyImage {
        let image: GreyImage
        switch kind {
        case .heic:
            image = try decodeHEIF()
        case .jpeg:
            image = try decodeJPEG()
        case .tiff:
            image = try decodeWithLeptonica(tiffPage: index)
        default:
            image = try decodeWithLeptonica(tiffPage: nil)
        }
        return try Self.workingSize(image)
    }

    /// Page `index` in colour as PNG bytes, for drawing into a share bundle (cairo reads PNG
    /// and JPEG only). Upright, and no larger than the working size.
    func embeddablePNG(_ index: Int) throws -> [UInt8] {
        let pix = kind == .heic ? try decodeHEIFColour() : try decodeColour(tiffPage: kind == .tiff ? index : nil)
        let owned = try Owned(pix)
        let megapixels = Double(pixGetWidth(pix)) * Double(pixGetHeight(pix)) / 1_000_000
        let scaled = megapixels > Self.workingMegapixels
            ? try Owned(pixScale(owned.pix, Float((Self.workingMegapixels / megapixels).squareRoot()), Float((Self.workingMegapixels / megapixels).squareRoot())))
            : owned
        var data: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard pixWriteMemPng(&data, &size, scaled.pix, 0) == 0, let data else { throw OCRFailure.outOfMemory }
        defer { free(data) }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Page `index` in colour as PNG bytes for a viewer: upright (a JPEG's EXIF orientation
    /// applied; HEIF carries its own), and scaled to fit `maximumWidth` x `maximumHeight`.
    func viewPNG(_ index: Int, maximumWidth: Int, maximumHeight: Int) throws -> [UInt8] {
        var image = try Owned(kind == .heic ? try decodeHEIFColour() : try decodeColour(tiffPage: kind == .tiff ? index : nil))
        if kind == .jpeg, let orientation = ExifOrientation.read(jpeg: bytes) {
            let turned: UnsafeMutablePointer<PIX>?
            switch orientation {
            case 2: turned = pixFlipLR(nil, image.pix)
            case 3: turned = pixRotateOrth(image.pix, 2)
            case 4: turned = pixFlipTB(nil, image.pix)
            case 5: turned = pixRotateOrth(image.pix, 1).map { pixFlipLR($0, $0) }
            case 6: turned = pixRotateOrth(image.pix, 1)
            case 7: turned = pixRotateOrth(image.pix, 3).map { pixFlipLR($0, $0) }
            case 8: turned = pixRotateOrth(image.pix, 3)
            default: turned = nil
            }
            if let turned { image = try Owned(turned) }
        }
        let width = Double(pixGetWidth(image.pix)), height = Double(pixGetHeight(image.pix))
        let factor = min(1, Double(maximumWidth) / width, Double(maximumHeight) / height)
        if factor < 0.999 {
            image = try Owned(pixScaleAreaMap(image.pix, Float(factor), Float(factor)) ?? pixScale(image.pix, Float(factor), Float(factor)))
        }
        var data: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard pixWriteMemPng(&data, &size, image.pix, 0) == 0, let data else { throw OCRFailure.outOfMemory }
        defer { free(data) }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    private func decodeHEIFColour() throws -> UnsafeMutablePointer<PIX> {
        guard let context = heif_context_alloc() else { throw OCRFailure.outOfMemory }
        defer { heif_context_free(context) }
        heif_context_set_maximum_image_size_limit(context, 32_768)
        let read = bytes.withUnsafeBufferPointer { heif_context_read_from_memory(context, $0.baseAddress, $0.count, nil) }
        guard read.code == heif_error_Ok else { throw OCRFailure.undecodable("the HEIF image cannot be read (\(Self.message(read)))") }
        var handle: OpaquePointer?
        guard heif_context_get_primary_image_handle(context, &handle).code == heif_error_Ok, let handle else {
            throw OCRFailure.undecodable("the HEIF file holds no image")
        }
        defer { heif_image_handle_release(handle) }
        try Self.checkSize(width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle)))
        var image: OpaquePointer?
        guard heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, nil).code == heif_error_Ok,
              let image else { throw OCRFailure.undecodable("the HEIF image cannot be decoded") }
        defer { heif_image_release(image) }
        let width = Int(heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(heif_image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        guard width > 0, height > 0, let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride),
              let pix = pixCreate(Int32(width), Int32(height), 32) else { throw OCRFailure.outOfMemory }
        let wordsPerLine = Int(pixGetWpl(pix))
        let target = pixGetData(pix)!
        for y in 0..<height {
            let row = plane + y * Int(stride)
            for x in 0..<width {
                let r = UInt32(row[3 * x]), g = UInt32(row[3 * x + 1]), b = UInt32(row[3 * x + 2])
                target[y * wordsPerLine + x] = r << 24 | g << 16 | b << 8 | 0xFF
            }
        }
        return pix
    }

    // MARK: - Formats

    private func checkHeader() throws -> (width: Int, height: Int) {
        var format: Int32 = 0, width: Int32 = 0, height: Int32 = 0, bps: Int32 = 0, spp: Int32 = 0, colormap: Int32 = 0
        let status = bytes.withUnsafeBufferPointer {
            pixReadHeaderMem($0.baseAddress, $0.count, &format, &width, &height, &bps, &spp, &colormap)
        }
        guard status == 0, width > 0, height > 0 else {
            throw OCRFailure.undecodable("the image cannot be read (damaged or truncated)")
        }
        try Self.checkSize(width: Int(width), height: Int(height))
        return (Int(width), Int(height))
    }

    /// Tesseract refuses a side longer than this ("Image too large"), and through its C API a
    /// 40,000 x 25 image aborted the worker.
    static let maximumSide = 32767

    static func checkSize(width: Int, height: Int) throws {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maximumMegapixels * 1_000_000, width <= maximumSide, height <= maximumSide else {
            throw OCRFailure.tooLarge(width: width, height: height)
        }
    }

    private func decodeWithLeptonica(tiffPage: Int?) throws -> GreyImage {
        let pix = try decodeColour(tiffPage: tiffPage)
        return try GreyImage(taking: pix, resolution: Self.resolution(of: pix))
    }

    /// The image (page `tiffPage` of a TIFF) as leptonica decodes it, after its header's size was
    /// checked: every TIFF page has its own header, and a later page may be the bomb.
    private func decodeColour(tiffPage: Int?) throws -> UnsafeMutablePointer<PIX> {
        var directory: Int?
        if let tiffPage {
            // The page's own header, from its directory (tags 256 and 257), before decoding.
            guard tiffPage < directories.count, let (width, height) = Self.tiffSize(bytes, directory: directories[tiffPage]) else {
                throw OCRFailure.undecodable("the image cannot be read (damaged or truncated)")
            }
            try Self.checkSize(width: width, height: height)
            directory = directories[tiffPage]
        } else {
            _ = try checkHeader()
        }
        let pix: UnsafeMutablePointer<PIX>? = bytes.withUnsafeBufferPointer { buffer in
            if let directory {
                // Straight to the page's directory: libtiff reads that one alone.
                var offset = directory
                return pixReadMemFromMultipageTiff(buffer.baseAddress, buffer.count, &offset)
            }
            return pixReadMem(buffer.baseAddress, buffer.count)
        }
        guard let pix else { throw OCRFailure.undecodable("the image cannot be decoded (damaged or truncated)") }
        return pix
    }

    private func decodeJPEG() throws -> GreyImage {
        let (width, height) = try checkHeader()
        // Decode at 1/2, 1/4 or 1/8 scale when the full image is far beyond the working size.
        var reduction: Int32 = 1
        while reduction < 8 && Double(width / Int(reduction)) * Double(height / Int(reduction)) > Self.workingMegapixels * 4_000_000 {
            reduction *= 2
        }
        var warnings: Int32 = 0
        let pix: UnsafeMutablePointer<PIX>? = bytes.withUnsafeBufferPointer {
            // cmflag 0: no colormap; hint 0. libjpeg converts to grey itself for grey output only,
            // so colour is converted afterwards.
            pixReadMemJpeg($0.baseAddress, $0.count, 0, reduction, &warnings, 0)
        }
        guard let pix else { throw OCRFailure.undecodable("the image cannot be decoded (damaged or truncated)") }
        let resolution = Self.resolution(of: pix) / Int(reduction)
        var image = try GreyImage(taking: pix, resolution: max(resolution, 1))
        if let orientation = ExifOrientation.read(jpeg: bytes), orientation != 1 {
            image = try ExifOrientation.upright(image, orientation: orientation)
        }
        return image
    }

    /// HEIC photos through libheif, which applies the file's rotation and mirroring; decoded to
    /// RGB (libheif 1.15 converts HEVC's YCbCr to RGB, not to monochrome) and then to grey.
    private func decodeHEIF() throws -> GreyImage {
        let pix = try decodeHEIFColour()
        return try GreyImage(taking: pix, resolution: Self.estimatedResolution(width: Int(pixGetWidth(pix)), height: Int(pixGetHeight(pix))))
    }

    private static func message(_ error: heif_error) -> String {
        guard let text = error.message else { return "unknown error" }
        return String(cString: text)
    }

    // MARK: - Size and resolution

    /// The resolution the file states, if plausible for a scan; else one estimated from the size,
    /// taking the page for a sheet of paper (phone photos and receipts rarely state one).
    ///
    /// A stated resolution is believed only if it makes the picture a sheet of paper (the shorter
    /// side at most 12 inches): cameras and image libraries write 72 or 96 "DPI" into photos of
    /// thousands of pixels, which would make a letter four feet wide and its text huge.
    static func resolution(of pix: UnsafeMutablePointer<PIX>) -> Int {
        let stated = Int(pixGetXRes(pix))
        let width = Int(pixGetWidth(pix)), height = Int(pixGetHeight(pix))
        if (70...1200).contains(stated), Double(min(width, height)) / Double(stated) <= 12 { return stated }
        return estimatedResolution(width: width, height: height)
    }

    /// Pixels per inch if the shorter side is a sheet of A4 or Letter paper (8.3 inches),
    /// clamped to what text on paper plausibly has.
    static func estimatedResolution(width: Int, height: Int) -> Int {
        let shorter = Double(min(width, height))
        return Int(max(100, min(600, shorter / 8.3)).rounded())
    }

    /// Shrinks an image beyond the working size, or beyond 400 pixels per inch, to about 300.
    static func workingSize(_ image: GreyImage) throws -> GreyImage {
        let megapixels = Double(image.width) * Double(image.height) / 1_000_000
        var factor = 1.0
        if megapixels > workingMegapixels { factor = (workingMegapixels / megapixels).squareRoot() }
        if image.resolution > 400 { factor = min(factor, 300 / Double(image.resolution)) }
        return factor < 0.99 ? try image.scaled(by: factor) : image
    }

    // MARK: - TIFF directories

    /// A TIFF's bytes read as numbers in the file's byte order ("II" little, "MM" big), nil past the end.
    struct TIFFBytes {
        let bytes: [UInt8]
        var little: Bool { bytes.first == 0x49 }

        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= bytes.count else { return nil }
            return little ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : Int(bytes[at]) << 8 | Int(bytes[at + 1])
        }

        func u32(_ at: Int) -> Int? {
            guard at >= 0, at + 4 <= bytes.count else { return nil }
            let b = bytes[at..<at + 4].map(Int.init)
            return little ? b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24 : b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3]
        }
    }

    /// The offset of the first image file directory, from the header (bytes 4 to 7).
    static func firstTIFFDirectory(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 8, let offset = TIFFBytes(bytes: bytes).u32(4) else { return nil }
        return offset >= 8 && offset < bytes.count ? offset : nil
    }

    /// ImageWidth (256) and ImageLength (257) of the directory at `directory`, SHORT or LONG.
    static func tiffSize(_ bytes: [UInt8], directory: Int) -> (width: Int, height: Int)? {
        guard bytes.count >= 8 else { return nil }
        let tiff = TIFFBytes(bytes: bytes)
        let (u16, u32) = (tiff.u16, tiff.u32)
        guard let entries = u16(directory), entries <= 4096 else { return nil }
        var width: Int?, height: Int?
        for index in 0..<entries {
            let entry = directory + 2 + index * 12
            guard let tag = u16(entry), let type = u16(entry + 2) else { return nil }
            guard tag == 256 || tag == 257 else { continue }
            // A SHORT sits in the first two bytes of the value field, a LONG fills it.
            let value = type == 3 ? u16(entry + 8) : type == 4 ? u32(entry + 8) : nil
            // The first of a repeated tag counts, as for libtiff (it ignores later duplicates):
            // a small size after a large one must not pass the check for the large one.
            if tag == 256 { width = width ?? value ?? -1 } else { height = height ?? value ?? -1 }
        }
        guard let width, let height, width > 0, height > 0 else { return nil }
        return (width, height)
    }

    /// The offset of the image file directory after the one at `offset` (0 for the first: read
    /// from the header), or nil if the file is malformed there.
    static func nextTIFFDirectory(_ bytes: [UInt8], after offset: Int, index: Int) -> Int? {
        guard bytes.count >= 8 else { return nil }
        let tiff = TIFFBytes(bytes: bytes)
        let (u16, u32) = (tiff.u16, tiff.u32)
        let directory = index == 1 ? u32(4) : offset
        guard let directory, let entries = u16(directory) else { return nil }
        let (size, overflow) = entries.multipliedReportingOverflow(by: 12)
        guard !overflow else { return nil }
        guard let next = u32(directory + 2 + size), next == 0 || next > directory else { return nil }
        return next
    }
}

/// The EXIF Orientation tag of a JPEG (values 1-8, CIPA DC-008 section 4.6.4.A), and turning
/// an image upright by it.
enum ExifOrientation {
    /// The tag's value, or nil if the file has none (or a malformed APP1 segment).
    static func read(jpeg bytes: [UInt8]) -> Int? {
        var index = 2
        // Markers up to the first scan; APP1 "Exif\0\0" holds a TIFF structure.
        while index + 4 <= bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            guard length >= 2, index + 2 + length <= bytes.count else { return nil }
            if marker == 0xE1, length >= 16, bytes[(index + 4)..<(index + 10)].elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0]) {
                return orientation(tiff: Array(bytes[(index + 10)..<(index + 2 + length)]))
            }
            index += 2 + length
        }
        return nil
    }

    private static func orientation(tiff: [UInt8]) -> Int? {
        guard tiff.count >= 8 else { return nil }
        let little = tiff[0] == 0x49
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard at >= 0, at + 4 <= tiff.count else { return nil }
            let b = tiff[at..<at + 4].map(Int.init)
            return little ? b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24 : b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3]
        }
        guard let directory = u32(4), let entries = u16(directory), entries < 1000 else { return nil }
        for entry in 0..<entries {
            let at = directory + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            if tag == 0x0112 {
                guard let value = u16(at + 8), (1...8).contains(value) else { return nil }
                return value
            }
        }
        return nil
    }

    /// `image` as it is meant to be seen: orientation 3 is turned 180 degrees, 6 a quarter
    /// clockwise, 8 a quarter counter-clockwise; 2, 4, 5 and 7 are mirrored too.
    static func upright(_ image: GreyImage, orientation: Int) throws -> GreyImage {
        switch orientation {
        case 2: return try image.map { pixFlipLR(nil, $0) }
        case 3: return try image.rotated(quarters: 2)
        case 4: return try image.map { pixFlipTB(nil, $0) }
        case 5: return try image.rotated(quarters: 1).map { pixFlipLR(nil, $0) }
        case 6: return try image.rotated(quarters: 1)
        case 7: return try image.rotated(quarters: 3).map { pixFlipLR(nil, $0) }
        case 8: return try image.rotated(quarters: 3)
        default: return image
        }
    }
}
