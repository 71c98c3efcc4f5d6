import CPHRTesseract
import Glibc
import PHRModel

/// Tesseract 5 through its C API, inside an extraction worker: one engine per language set,
/// loaded the first time a page needs it and kept for the worker's life (loading a model costs
/// more than reading a page).
///
/// Reading a page: the image is cleaned (background levelled, light shading and long table rules
/// removed, skew corrected), recognised with Sauvola thresholding, and checked for orientation:
/// Tesseract reports text it found sideways, and a page that reads badly is given to its
/// orientation detector (OSD), turned, and read again, keeping whichever reading is more
/// confident. Words come back with their boxes in points on the upright page.
///
/// The image only ever comes from memory (`TessBaseAPISetImage2`): libtesseract would fetch a
/// URL given as an image name, and phr never gives it a name.
final class OCREngine {
    /// The preprocessing steps; `PHR_OCR_STEPS` (a comma-separated list, "all" or "none")
    /// chooses others for the accuracy benchmark. Each default earned its place on the generated
    /// corpus (38 pages, docs/benchmarks.md): without deskew, skewed scans went from 0.0% to 25.4%
    /// character errors; without orientation, upside-down and sideways pages from under 1% to
    /// 87%; without Sauvola thresholding the whole set from 0.70% to 1.02% (JPEG q50 2.6%, phone
    /// photos 3.8%); without background levelling noisy scans from 5.1% to 7.3%. Removing long
    /// table rules did not pay: 0.78% with it against 0.70% without (it blanked the textured
    /// surround of phone photos into the page), so it is off unless asked for.
    struct Steps: Equatable {
        var background = true
        var rules = false
        var deskew = true
        var sauvola = true
        var orientation = true
        var retry = true
        var stamps = true

        static func fromEnvironment() -> Steps {
            guard let raw = getenv("PHR_OCR_STEPS") else { return Steps() }
            let names = Set(String(cString: raw).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            if names.contains("all") {
                return Steps(background: true, rules: true, deskew: true, sauvola: true, orientation: true, retry: true,
                             stamps: true)
            }
            return Steps(background: names.contains("background"), rules: names.contains("rules"),
                         deskew: names.contains("deskew"), sauvola: names.contains("sauvola"),
                         orientation: names.contains("orientation"), retry: names.contains("retry"),
                         stamps: names.contains("stamps"))
        }
    }

    struct Result {
        var words: [PageWord]
        var meanConfidence: Double
        /// The upright page in points.
        var width: Double
        var height: Double
        /// What was done to read it ("turned 180 degrees"), or "".
        var note: String
    }

    let steps: Steps
    private var engines: [String: OpaquePointer] = [:]
    private var osd: OpaquePointer?
    private var osdUnavailable = false

    init(steps: Steps = .fromEnvironment()) {
        self.steps = steps
    }

    deinit {
        for engine in engines.values { TessBaseAPIDelete(engine) }
        if let osd { TessBaseAPIDelete(osd) }
    }

    /// Reads `image` with `languages` ("deu+eng") within `seconds` of wall-clock time. With
    /// `tables`, the upright page is also read as a single block of text lines, which keeps the
    /// sparse columns of a table (a flag column's lone "H") that the automatic layout drops, and
    /// that reading is kept unless it is clearly less confident.
    ///
    /// Tesseract stops recognising words at the deadline, but not its layout analysis, nor
    /// orientation detection; on a dark, noisy photo each pass can take seconds before the first
    /// word. So another pass starts only if the slowest step so far would still end before the
    /// deadline: the cap holds, and the page ends with its own outcome instead of the worker
    /// being killed at its CPU limit (issue 37, item 7).
    func read(_ image: GreyImage, languages: String, seconds: Double, tables: Bool = false) throws -> Result {
        let deadline = Monotonic.now() + seconds
        let engine = try self.engine(languages)
        let (prepared, stamps) = try prepare(image)
        var slowest = 0.0
        func timed<T>(_ body: () throws -> T) rethrows -> T {
            let started = Monotonic.now()
            defer { slowest = max(slowest, Monotonic.now() - started) }
            return try body()
        }
        /// Whether a step as slow as the slowest so far still ends before the deadline.
        func fits() -> Bool { Monotonic.now() + slowest < deadline }
        func pass(_ image: GreyImage) throws -> Pass {
            try timed { try self.pass(image, engine: engine, deadline: deadline, budget: seconds) }
        }
        func orientation(_ image: GreyImage) -> Int? { timed { detectOrientation(image) } }
        var best = try pass(prepared)
        var note = ""
        func noting(_ step: String) { note = note.isEmpty ? step : note + ", " + step }

        if steps.orientation {
            // Text Tesseract found turned (a page scanned sideways): turn the page and read again,
            // so the words' boxes are upright for the lab-results reader.
            if !tables, !best.looksBad,
               let quarters = best.orientation != 0 ? best.orientation : best.isSideways ? best.sidewaysTurn : nil {
                // Tesseract read the turned text well (a page scanned sideways): keep its words
                // and turn their boxes upright, rather than read the page again.
                // The pixels are not turned (nothing reads them again on this path): only the
                // boxes, and the page's size.
                best = Pass(image: prepared,
                            words: best.words.map { Self.turned($0, quarters: quarters, width: prepared.width, height: prepared.height) },
                            meanConfidence: best.meanConfidence, orientation: 0, turned: quarters % 2 == 1)
                note = "turned \(90 * quarters) degrees"
            } else if best.orientation != 0 || best.isSideways {
                // Text read sideways (a page scanned turned): Tesseract reads the words, but
                // with their boxes on end. Turn the page upright, the way OSD says or, when it
                // cannot tell, whichever quarter turn reads best, and read it again.
                // OSD is asked only when the turn Tesseract's layout reported does not read well.
                var candidates: [Int] = best.orientation != 0 ? [best.orientation] : []
                var askedOSD = false
                let sideways = best
                var tried = 0
                while fits() {
                    if tried == candidates.count {
                        guard !askedOSD else { break }
                        askedOSD = true
                        if let detected = orientation(prepared), detected % 2 == 1, !candidates.contains(detected) {
                            candidates.append(detected)
                        }
                        for quarters in [1, 3] where !candidates.contains(quarters) { candidates.append(quarters) }
                        continue
                    }
                    let quarters = candidates[tried]
                    tried += 1
                    let turned = try prepared.rotated(quarters: quarters)
                    let again = try pass(turned)
                    if !again.isSideways, again.score >= sideways.score * 0.8, again.score > (best === sideways ? 0 : best.score) {
                        best = again
                        note = "turned \(90 * quarters) degrees"
                        if !again.looksBad { break }
                    }
                }
            } else if best.looksBad, fits() {
                // Upside down reads as nonsense: ask OSD, and when it is unsure try half a turn.
                var candidates: [Int] = []
                if let detected = orientation(prepared), detected != 0 { candidates.append(detected) }
                if !candidates.contains(2) { candidates.append(2) }
                for quarters in candidates where fits() {
                    let turned = try prepared.rotated(quarters: quarters)
                    let again = try pass(turned)
                    if again.score > best.score * 1.2 {
                        best = again
                        note = "turned \(90 * quarters) degrees"
                    }
                    if !best.looksBad { break }
                }
            }
        }
        if steps.retry, best.looksBad, fits() {
            // Thin strokes (dot-matrix receipts, faint faxes): thicken them and read again.
            let thickened = try best.image.map { pixErodeGray($0, 3, 3) }
            let again = try pass(thickened)
            if again.score > best.score * 1.2 {
                best = again
                noting("strokes thickened")
            }
        }
        if tables, fits() {
            TessBaseAPISetPageSegMode(engine, PSM_SINGLE_BLOCK)
            defer { TessBaseAPISetPageSegMode(engine, PSM_AUTO) }
            let block = try pass(best.image)
            if block.score >= best.score * 0.95 {
                best = block
                noting("read as a table")
            }
        }
        if stamps > 0 { noting(stamps == 1 ? "a stamp left out" : "\(stamps) stamps left out") }
        if Monotonic.now() > deadline && best.words.isEmpty { throw OCRFailure.timedOut(seconds: Int(seconds)) }
        let scale = 72 / Double(best.image.resolution)
        let words = best.words.map { word in
            PageWord(text: word.text, x0: word.x0 * scale, y0: word.y0 * scale, x1: word.x1 * scale,
                     y1: word.y1 * scale, line: word.line, confidence: word.confidence)
        }
        return Result(words: words, meanConfidence: best.meanConfidence, width: Double(best.width) * scale,
                      height: Double(best.height) * scale, note: note)
    }

    // MARK: - One reading

    private final class Pass {
        var image: GreyImage
        /// Words in pixels of `image`.
        var words: [PageWord]
        var meanConfidence: Double
        /// Quarter turns clockwise that would make the text Tesseract found upright.
        var orientation: Int
        /// The upright page's size in pixels: `image`'s, or its sides swapped when the words
        /// were turned a quarter without the pixels.
        let width: Int, height: Int

        init(image: GreyImage, words: [PageWord], meanConfidence: Double, orientation: Int, turned: Bool = false) {
            self.image = image
            self.words = words
            self.meanConfidence = meanConfidence
            self.orientation = orientation
            (width, height) = turned ? (image.height, image.width) : (image.width, image.height)
        }

        /// Confident characters: a reading of the right way up scores far above nonsense.
        var score: Double {
            words.reduce(0) { total, word in
                let confidence = (word.confidence ?? 0) / 100
                return total + Double(word.text.count) * confidence * confidence
            }
        }

        var characters: Int { words.reduce(0) { $0 + $1.text.count } }

        var looksBad: Bool { meanConfidence < 70 || characters < 20 }

        /// For text read on its side, the quarter turns clockwise that make it upright, from
        /// the way the words of its lines run: up the image (the page lies turned
        /// anticlockwise) 1, down it 3; nil unless four lines in five of three or more agree.
        var sidewaysTurn: Int? {
            var lines: [Int: (first: PageWord, last: PageWord)] = [:]
            for word in words { lines[word.line] = (lines[word.line]?.first ?? word, word) }
            var up = 0
            var down = 0
            for (first, last) in lines.values where first != last {
                let (start, end) = ((first.y0 + first.y1) / 2, (last.y0 + last.y1) / 2)
                if end < start { up += 1 } else if end > start { down += 1 }
            }
            guard up + down >= 3 else { return nil }
            if up * 5 >= (up + down) * 4 { return 1 }
            if down * 5 >= (up + down) * 4 { return 3 }
            return nil
        }

        /// Most words of three or more letters stand on end: the text runs up or down the image.
        var isSideways: Bool {
            let long = words.filter { $0.text.count >= 3 }
            guard long.count >= 5 else { return false }
            let upright = long.filter { ($0.y1 - $0.y0) > ($0.x1 - $0.x0) * 1.2 }.count
            return upright * 2 > long.count
        }
    }

    private func pass(_ image: GreyImage, engine: OpaquePointer, deadline: Double, budget: Double) throws -> Pass {
        #if DEBUG
        Self.spinForTests()
        #endif
        TessBaseAPISetImage2(engine, image.pix)
        TessBaseAPISetSourceResolution(engine, Int32(image.resolution))
        let remaining = max(1, deadline - Monotonic.now())
        let monitor = TessMonitorCreate()
        defer { TessMonitorDelete(monitor) }
        TessMonitorSetDeadlineMSecs(monitor, Int32(min(remaining, budget) * 1000))
        _ = TessBaseAPIRecognize(engine, monitor)
        defer { TessBaseAPIClear(engine) }

        var words: [PageWord] = []
        var orientationVotes = [0, 0, 0, 0]
        guard let iterator = TessBaseAPIGetIterator(engine) else {
            return Pass(image: image, words: [], meanConfidence: 0, orientation: 0)
        }
        defer { TessResultIteratorDelete(iterator) }
        let page = TessResultIteratorGetPageIterator(iterator)
        var line = -1
        var weighted = 0.0
        var characters = 0
        repeat {
            if TessPageIteratorIsAtBeginningOf(page, RIL_TEXTLINE) != 0 { line += 1 }
            if TessPageIteratorIsAtBeginningOf(page, RIL_BLOCK) != 0 {
                var orientation = ORIENTATION_PAGE_UP
                var direction = WRITING_DIRECTION_LEFT_TO_RIGHT
                var order = TEXTLINE_ORDER_TOP_TO_BOTTOM
                var skew: Float = 0
                TessPageIteratorOrientation(page, &orientation, &direction, &order, &skew)
                orientationVotes[Int(orientation.rawValue) & 3] += 1
            }
            guard let raw = TessResultIteratorGetUTF8Text(iterator, RIL_WORD) else { continue }
            let text = String(cString: raw)
            TessDeleteText(raw)
            guard text.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else { continue }
            let confidence = Double(TessResultIteratorConfidence(iterator, RIL_WORD))
            var left: Int32 = 0, top: Int32 = 0, right: Int32 = 0, bottom: Int32 = 0
            guard TessPageIteratorBoundingBox(page, RIL_WORD, &left, &top, &right, &bottom) != 0 else { continue }
            let clamped = max(0, min(100, confidence))
            words.append(PageWord(text: text, x0: Double(left), y0: Double(top), x1: Double(right), y1: Double(bottom),
                                  line: max(0, line), confidence: clamped))
            weighted += clamped * Double(text.count)
            characters += text.count
        } while TessResultIteratorNext(iterator, RIL_WORD) != 0

        // The most common block orientation, if most blocks agree it is not upright.
        let blocks = orientationVotes.reduce(0, +)
        let (dominant, votes) = orientationVotes.enumerated().max { $0.element < $1.element } ?? (0, 0)
        let turn = blocks > 0 && votes * 2 > blocks ? Self.quartersToUpright(iteratorOrientation: dominant) : 0
        return Pass(image: image, words: words, meanConfidence: characters > 0 ? weighted / Double(characters) : 0,
                    orientation: turn)
    }

    #if DEBUG
    /// The tests of the OCR cap: each pass first burns `PHR_TEST_OCR_PASS_SPIN` seconds of CPU,
    /// as Tesseract's layout analysis of a hostile photo does before its deadline applies.
    private static let passSpin: Double = getenv("PHR_TEST_OCR_PASS_SPIN").flatMap { Double(String(cString: $0)) } ?? 0

    private static func spinForTests() {
        guard passSpin > 0 else { return }
        func cpu() -> Double {
            var now = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
            return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        }
        let end = cpu() + passSpin
        var counter: UInt64 = 0
        while cpu() < end { counter &+= 1 }
        if counter == .max { print(counter) }
    }
    #endif

    /// `word`'s box on a `width` x `height` image, after the image is turned `quarters` quarter
    /// turns clockwise.
    static func turned(_ word: PageWord, quarters: Int, width: Int, height: Int) -> PageWord {
        var turned = word
        let (w, h) = (Double(width), Double(height))
        switch ((quarters % 4) + 4) % 4 {
        case 1: (turned.x0, turned.y0, turned.x1, turned.y1) = (h - word.y1, word.x0, h - word.y0, word.x1)
        case 2: (turned.x0, turned.y0, turned.x1, turned.y1) = (w - word.x1, h - word.y1, w - word.x0, h - word.y0)
        case 3: (turned.x0, turned.y0, turned.x1, turned.y1) = (word.y0, w - word.x1, word.y1, w - word.x0)
        default: break
        }
        return turned
    }

    /// Tesseract's ORIENTATION_PAGE_RIGHT means the text reads upright once the page is turned
    /// a quarter counter-clockwise, that is three quarters clockwise; PAGE_LEFT the other way.
    static func quartersToUpright(iteratorOrientation: Int) -> Int {
        switch iteratorOrientation {
        case 1: return 3
        case 2: return 2
        case 3: return 1
        default: return 0
        }
    }

    // MARK: - Orientation detection

    /// Quarter turns clockwise that make the page upright, by Tesseract's OSD model; nil if the
    /// model is missing or finds too little text to say.
    private func detectOrientation(_ image: GreyImage) -> Int? {
        if osd == nil && !osdUnavailable {
            let api = TessBaseAPICreate()!
            if TessBaseAPIInit3(api, nil, "osd") == 0 {
                TessBaseAPISetPageSegMode(api, PSM_OSD_ONLY)
                osd = api
            } else {
                TessBaseAPIDelete(api)
                osdUnavailable = true
            }
        }
        guard let osd else { return nil }
        TessBaseAPISetImage2(osd, image.pix)
        TessBaseAPISetSourceResolution(osd, Int32(image.resolution))
        defer { TessBaseAPIClear(osd) }
        var degrees: Int32 = 0
        var confidence: Float = 0
        var scriptConfidence: Float = 0
        // No script name asked for: Tesseract 5 returns a pointer into its own character set
        // there, and freeing it as capi.h's comment says corrupts the heap.
        guard TessBaseAPIDetectOrientationScript(osd, &degrees, &confidence, nil, &scriptConfidence) != 0 else { return nil }
        // orient_deg is how far the page is turned clockwise; turning it back is the rest of a turn.
        return ((4 - Int(degrees) / 90) % 4 + 4) % 4
    }

    // MARK: - Engines

    private func engine(_ languages: String) throws -> OpaquePointer {
        if let engine = engines[languages] { return engine }
        guard let api = TessBaseAPICreate() else { throw OCRFailure.outOfMemory }
        guard TessBaseAPIInit3(api, nil, languages) == 0 else {
            TessBaseAPIDelete(api)
            throw OCRFailure.languageMissing(languages)
        }
        TessBaseAPISetPageSegMode(api, PSM_AUTO)
        if steps.sauvola { _ = TessBaseAPISetVariable(api, "thresholding_method", "2") }
        engines[languages] = api
        return api
    }

    // MARK: - Cleaning

    /// The page as Tesseract should see it, and how many stamps were taken off it.
    func prepare(_ image: GreyImage) throws -> (GreyImage, stamps: Int) {
        var page = image
        if steps.background {
            // Levels uneven lighting (phone photos) so the paper is one grey, then maps light
            // greys (row shading in lab tables, paper texture) to white.
            page = try page.map { pixBackgroundNormSimple($0, nil, nil) }
            page = try page.map { pixGammaTRC(nil, $0, 1.0, 0, 185) }
        }
        if steps.rules {
            page = try removingRules(page)
        }
        if steps.deskew {
            page = try page.map { pixDeskew($0, 0) }
        }
        var stamps: [StampRemover.Stamp] = []
        if steps.stamps {
            // After deskew, so that a tilted frame is a stamp and not a page scanned askew.
            (page, stamps) = try StampRemover.removing(from: page)
        }
        return (page, stamps.count)
    }

    /// Paints long horizontal and vertical lines white: ruled table cells otherwise make
    /// Tesseract take a whole table for a picture.
    private func removingRules(_ image: GreyImage) throws -> GreyImage {
        let horizontalLength = Int32(max(40, image.resolution * 3 / 5))
        let verticalLength = Int32(max(40, image.resolution * 2 / 5))
        let binary = try Owned(pixThresholdToBinary(image.pix, 140))
        let horizontal = try Owned(pixOpenBrick(nil, binary.pix, horizontalLength, 1))
        let vertical = try Owned(pixOpenBrick(nil, binary.pix, 1, verticalLength))
        let lines = try Owned(pixOr(nil, horizontal.pix, vertical.pix))
        var count: Int32 = 0
        _ = pixCountPixels(lines.pix, &count, nil)
        guard count > 0 else { return image }
        let mask = try Owned(pixDilateBrick(nil, lines.pix, 3, 3))
        let cleaned = try image.copy()
        _ = pixPaintThroughMask(cleaned.pix, mask.pix, 0, 0, 255)
        return cleaned
    }
}

/// A leptonica image of any depth freed with its owner (binary masks and the like).
final class Owned {
    let pix: UnsafeMutablePointer<PIX>

    init(_ pix: UnsafeMutablePointer<PIX>?) throws {
        guard let pix else { throw OCRFailure.outOfMemory }
        self.pix = pix
    }

    deinit {
        var pointer: UnsafeMutablePointer<PIX>? = pix
        pixDestroy(&pointer)
    }
}
