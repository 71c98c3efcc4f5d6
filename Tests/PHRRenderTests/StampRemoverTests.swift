import CPHRTesseract
import Foundation
import Testing
@testable import PHRRender

/// The stamp remover on pages drawn here pixel by pixel: a tilted frame in lighter ink is
/// whitened, and the text under it and beside it stays; a straight frame (a printed box), one
/// in the text's own black ink, a grid and a square are left alone.
@Suite struct StampRemoverTests {
    /// A drawn 4 x 4 inch page at 300 DPI: black text bars across it, a grey bar beside them
    /// (a lab's printed flag in colour), and a frame 700 x 220 px with grey "letters" inside it,
    /// turned `tilt` degrees, drawn in `frameGrey`, over a black bar.
    static func stampedPage(tilt: Double, frameGrey: UInt32, halfWidth: Double = 350, halfHeight: Double = 110,
                            divided: Bool = false) throws -> GreyImage {
        let pix = try #require(pixCreate(1200, 1200, 8))
        _ = pixSetAllArbitrary(pix, 255)
        func fill(_ x: Int, _ y: Int, _ width: Int, _ height: Int, _ grey: UInt32) {
            for yy in y..<(y + height) { for xx in x..<(x + width) { _ = pixSetPixel(pix, Int32(xx), Int32(yy), grey) } }
        }
        for row in 0..<8 { for column in 0..<20 { fill(100 + column * 50, 100 + row * 130, 12, 36, 20) } }
        fill(1120, 100, 12, 36, 120)
        let (cosine, sine) = (cos(tilt * .pi / 180), sin(tilt * .pi / 180))
        for y in 300..<900 {
            for x in 100..<1100 {
                let (dx, dy) = (Double(x - 600), Double(y - 600))
                let (u, v) = (dx * cosine + dy * sine, -dx * sine + dy * cosine)
                guard abs(u) <= halfWidth, abs(v) <= halfHeight else { continue }
                // `divided`: a rule down the middle makes it two cells of a grid.
                let onFrame = abs(u) >= halfWidth - 6 || abs(v) >= halfHeight - 6 || divided && abs(u - 100) < 3
                let letter = abs(v) < 40 && Int(u + 400) % 40 < 14
                var under: UInt32 = 0
                _ = pixGetPixel(pix, Int32(x), Int32(y), &under)
                // Ink over ink: the darker shows.
                if onFrame || letter { _ = pixSetPixel(pix, Int32(x), Int32(y), min(under, frameGrey)) }
            }
        }
        return try GreyImage(taking: pix, resolution: 300)
    }

    static func grey(_ image: GreyImage, _ x: Int, _ y: Int) -> UInt32 {
        var value: UInt32 = 0
        _ = pixGetPixel(image.pix, Int32(x), Int32(y), &value)
        return value
    }

    @Test func aTiltedStampInLighterInkIsTakenOffThePage() throws {
        let page = try Self.stampedPage(tilt: 12, frameGrey: 130)
        #expect(Self.grey(page, 600, 600) == 130, "a letter of the stamp is drawn at the centre")
        let (cleaned, stamps) = try StampRemover.removing(from: page)
        #expect(stamps.count == 1)
        let stamp = try #require(stamps.first)
        #expect(abs(stamp.tilt - 12) < 1, "\(stamp)")
        #expect(stamp.frameInk == 130 && stamp.textInk == 20, "\(stamp)")
        #expect(Self.grey(cleaned, 600, 600) == 255, "the stamp's letters are whitened")
        #expect(Self.grey(cleaned, 606, 620) == 20, "the text under the stamp stays")
        #expect(Self.grey(cleaned, 1125, 110) == 120, "the grey flag outside the stamp stays")
        #expect(Self.grey(page, 600, 600) == 130, "the original image is left as it was")
    }

    /// A straight frame is a printed box, and a frame in the text's black is part of the page.
    @Test(arguments: [(0.0, UInt32(130)), (12, 20)])
    func aStraightFrameOrOneInBlackInkIsLeftAlone(tilt: Double, ink: UInt32) throws {
        let page = try Self.stampedPage(tilt: tilt, frameGrey: ink)
        let (same, none) = try StampRemover.removing(from: page)
        #expect(none.isEmpty, "tilt \(tilt), ink \(ink): \(none)")
        #expect(same === page, "no stamp: the same image, not a copy")
        #expect(Self.grey(same, 600, 600) == ink)
    }

    /// Tilted and light, but a grid of two cells, or a square (whose tilt cannot be told).
    @Test func aGridOrASquareIsNotAStamp() throws {
        let grid = try StampRemover.removing(from: try Self.stampedPage(tilt: 12, frameGrey: 130, divided: true))
        #expect(grid.1.isEmpty, "\(grid.1)")
        let square = try StampRemover.removing(from: try Self.stampedPage(tilt: 20, frameGrey: 130, halfWidth: 200, halfHeight: 200))
        #expect(square.1.isEmpty, "\(square.1)")
    }

    /// The tilt of a filled bar from its second moments, against the angle it was drawn at; a
    /// disc has no long axis (elongation near 0).
    @Test(arguments: [0.0, 5, 12, 30, -20, 80])
    func theTiltOfABarIsMeasured(degrees: Double) throws {
        let mask = try #require(pixCreate(400, 400, 1))
        defer {
            var pointer: UnsafeMutablePointer<PIX>? = mask
            pixDestroy(&pointer)
        }
        let (cosine, sine) = (cos(degrees * .pi / 180), sin(degrees * .pi / 180))
        for y in 0..<400 {
            for x in 0..<400 {
                let (dx, dy) = (Double(x - 200), Double(y - 200))
                let (u, v) = (dx * cosine + dy * sine, -dx * sine + dy * cosine)
                if abs(u) <= 150 && abs(v) <= 20 { _ = pixSetPixel(mask, Int32(x), Int32(y), 1) }
            }
        }
        let (tilt, elongation) = StampRemover.tilt(of: mask)
        // From the nearest axis: 80 degrees off the horizontal is 10 off the vertical.
        let expected = min(abs(degrees), 90 - abs(degrees))
        #expect(abs(tilt - expected) < 0.5, "drawn at \(degrees): \(tilt)")
        #expect(elongation > 0.8, "\(elongation)")
    }

    @Test func aDiscHasNoLongAxis() throws {
        let mask = try #require(pixCreate(200, 200, 1))
        defer {
            var pointer: UnsafeMutablePointer<PIX>? = mask
            pixDestroy(&pointer)
        }
        for y in 0..<200 {
            for x in 0..<200 where (x - 100) * (x - 100) + (y - 100) * (y - 100) <= 80 * 80 { _ = pixSetPixel(mask, Int32(x), Int32(y), 1) }
        }
        #expect(StampRemover.tilt(of: mask).elongation < 0.02)
        let empty = try #require(pixCreate(10, 10, 1))
        defer {
            var pointer: UnsafeMutablePointer<PIX>? = empty
            pixDestroy(&pointer)
        }
        let none = StampRemover.tilt(of: empty)
        #expect(none.degrees == 0 && none.elongation == 0, "an empty mask has no tilt, and no division by zero")
    }
}
