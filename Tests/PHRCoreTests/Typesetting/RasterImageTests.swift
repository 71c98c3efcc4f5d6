import Foundation
@testable import PHRTypesetting
import Testing

/// PNG and JPEG headers, EXIF orientation, and images placed on pages: a JPEG goes into the PDF
/// as it is (DCTDecode), a PNG losslessly.
@Suite struct RasterImageTests {
    /// A JPEG header: SOI, optionally an EXIF APP1 with `orientation`, a baseline SOF0 of
    /// `width` x `height` with three components, then the start of scan.
    static func jpegHeader(width: Int, height: Int, orientation: Int?, bigEndian: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        if let orientation {
            func short(_ value: Int) -> [UInt8] { bigEndian ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8)] }
            func long(_ value: Int) -> [UInt8] { bigEndian ? [0, 0, 0, UInt8(value)] : [UInt8(value), 0, 0, 0] }
            let tiff = (bigEndian ? Array("MM".utf8) : Array("II".utf8)) + short(42) + long(8) + short(1)
                + short(0x0112) + short(3) + long(1) + short(orientation) + [0, 0] + long(0)
            let app1 = Array("Exif".utf8) + [0, 0] + tiff
            bytes += [0xFF, 0xE1, UInt8((app1.count + 2) >> 8), UInt8((app1.count + 2) & 0xFF)] + app1
        }
        bytes += [0xFF, 0xC0, 0, 17, 8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 3]
        bytes += [1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        bytes += [0xFF, 0xDA, 0, 2]
        return bytes
    }

    @Test func jpegSizeAndOrientation() throws {
        let upright = try RasterImage(bytes: Self.jpegHeader(width: 4032, height: 3024, orientation: nil))
        #expect(upright.format == .jpeg && upright.pixelWidth == 4032 && upright.pixelHeight == 3024 && upright.orientation == 1)
        let turned = try RasterImage(bytes: Self.jpegHeader(width: 4032, height: 3024, orientation: 6))
        #expect(turned.orientation == 6 && turned.displayWidth == 3024 && turned.displayHeight == 4032)
        let motorola = try RasterImage(bytes: Self.jpegHeader(width: 640, height: 480, orientation: 8, bigEndian: true))
        #expect(motorola.orientation == 8 && motorola.displayWidth == 480)
        let flipped = try RasterImage(bytes: Self.jpegHeader(width: 640, height: 480, orientation: 3))
        #expect(flipped.displayWidth == 640)
    }

    @Test func damagedHeadersAreRefused() {
        let good = Self.jpegHeader(width: 10, height: 10, orientation: 6)
        #expect(throws: TypesettingError.unreadableImage(reason: "the jpeg is truncated")) { try RasterImage(bytes: Array(good.prefix(30))) }
        #expect(throws: TypesettingError.unreadableImage(reason: "not a png or jpeg image")) { try RasterImage(bytes: Array("GIF89a".utf8)) }
        #expect(throws: TypesettingError.unreadableImage(reason: "the image is 0 x 10 pixels, outside 1 to 32767")) {
            try RasterImage(bytes: Self.jpegHeader(width: 0, height: 10, orientation: nil))
        }
    }

    @Test func imagesArePlacedScaledAndJPEGsKeptAsTheyAre() throws {
        let directory = try TestSupport.temporaryDirectory("images")
        defer { TestSupport.remove(directory) }
        let sample = "\(TestSupport.packageRoot)/Samples/documents/prescription-amoxicillin.pdf"
        #expect(try PDFTools.run("pdftoppm", ["-jpeg", "-r", "30", "-singlefile", sample, "\(directory)/photo"]).status == 0)
        #expect(try PDFTools.run("pdftoppm", ["-png", "-r", "30", "-singlefile", sample, "\(directory)/scan"]).status == 0)
        let jpeg = [UInt8](try #require(FileManager.default.contents(atPath: "\(directory)/photo.jpg")))
        let png = [UInt8](try #require(FileManager.default.contents(atPath: "\(directory)/scan.png")))
        let photo = try RasterImage(bytes: jpeg)
        let scan = try RasterImage(bytes: png)
        #expect(scan.format == .png && scan.pixelWidth == photo.pixelWidth && scan.pixelHeight == photo.pixelHeight)

        let path = "\(directory)/out.pdf"
        var placed: [Rect] = []
        try PaginatedRenderer.render(to: .file(path), frame: PageFrame(paper: .a4, margin: 40), metadata: PDFMetadata(title: "images")) { flow in
            let area = Rect(x: flow.left, y: flow.y, width: flow.width, height: flow.bottom - flow.y)
            let first = try flow.canvas.drawImage(photo, fittingIn: area)
            flow.pageBreak()
            let second = try flow.canvas.drawImage(scan, fittingIn: area)
            if !flow.isCounting { placed = [first, second] }
        }
        // Scaled up to the frame's width, keeping the proportions.
        for rect in placed {
            #expect(abs(rect.width - (595.276 - 80)) < 0.01)
            #expect(abs(rect.height / rect.width - Double(photo.pixelHeight) / Double(photo.pixelWidth)) < 0.001)
        }
        let list = try PDFTools.run("pdfimages", ["-list", path]).stdout.split(separator: "\n").dropFirst(2)
        #expect(list.count == 2)
        #expect(list.first?.contains(" jpeg ") == true, "the JPEG is embedded as it is")
        #expect(list.last?.contains(" image ") == true, "the PNG is stored losslessly")
    }
}
