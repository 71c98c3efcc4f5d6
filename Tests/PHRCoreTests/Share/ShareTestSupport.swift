import CPHRPoppler
import Foundation
import Testing
@testable import PHRCore

/// A vault holding the seven sample documents and a small, complete set of records, with "now"
/// fixed on 2025-06-15 (UTC) so that the default twelve-month window holds every sample.
struct ShareFixture {
    static let samples = "\(TestSupport.packageRoot)/Samples/documents"
    static let now = TimeContext(now: Timestamp.parse("2025-06-15T09:00:00Z")!, zone: TimeZone(identifier: "UTC")!)

    let vault: Vault
    let profile: Profile
    let directory: String
    let time: TimeContext
    /// The documents as added, in the order of the sample files.
    let documents: [Document]

    init(label: String = "share", documents files: [String]? = nil, time: TimeContext = ShareFixture.now,
         records: Bool = true) throws {
        let (vault, _, directory) = try TestSupport.makeVault(label)
        self.vault = vault
        self.directory = directory
        self.time = time
        profile = try vault.database.read { try Profiles.resolve($0, name: nil) }
        let paths = try files ?? FileManager.default.contentsOfDirectory(atPath: Self.samples).filter { $0.hasSuffix(".pdf") }.sorted()
            .map { "\(Self.samples)/\($0)" }
        let importer = DocumentImporter(vault: vault, profile: profile, extractor: TextExtractor(workerExecutable: TestSupport.renderBinary))
        self.documents = try importer.add(paths, options: .init()).map { try #require($0.document) }
        if records { try addRecords() }
    }

    func remove() {
        TestSupport.remove(directory)
    }

    /// The medication names `addRecords` makes current.
    static let currentMedications = ["Ferrous sulfate", "Cetirizine"]
    static let allergies = ["Penicillin", "Sulfonamide antibiotics", "Latex"]

    func addRecords() throws {
        var id = MedicalIDStore.Input()
        id.name = "Alex Example"
        id.dateOfBirth = "1984-07-22"
        id.sex = "male"
        id.bloodType = "A+"
        id.height = "178cm"
        id.weight = "74kg"
        try MedicalIDStore(vault: vault, profile: profile, time: time).set(id)
        let allergies = AllergyStore(vault: vault, profile: profile, time: time)
        for (substance, reaction, severity) in [("Penicillin", "anaphylaxis", "severe"), ("Sulfonamide antibiotics", "hives", "moderate"),
                                                ("Latex", "contact dermatitis", "mild")] {
            var input = AllergyStore.Input()
            input.substance = substance
            input.reaction = reaction
            input.severity = severity
            try allergies.add(input)
        }
        let medications = MedicationStore(vault: vault, profile: profile, time: time)
        var iron = MedicationStore.Input()
        iron.name = "Ferrous sulfate"
        iron.dose = "325 mg"
        iron.times = "08:00"
        iron.start = "2025-02-20"
        iron.instructions = "with water or juice, not with tea"
        try medications.add(iron)
        var cetirizine = MedicationStore.Input()
        cetirizine.name = "Cetirizine"
        cetirizine.dose = "10 mg"
        cetirizine.asNeeded = true
        try medications.add(cetirizine)
        var antibiotic = MedicationStore.Input()
        antibiotic.name = "Amoxicillin-clavulanate"
        antibiotic.dose = "875 mg"
        antibiotic.times = "08:00,20:00"
        antibiotic.start = "2025-02-20"
        antibiotic.end = "2025-02-24"
        try medications.add(antibiotic)
        let conditions = ConditionStore(vault: vault, profile: profile, time: time)
        var anemia = ConditionStore.Input()
        anemia.name = "Iron-deficiency anemia"
        anemia.since = "2025-02"
        try conditions.add(anemia)
        var pneumonia = ConditionStore.Input()
        pneumonia.name = "Community-acquired pneumonia"
        pneumonia.since = "2025-02-17"
        pneumonia.resolved = "2025-03-10"
        try conditions.add(pneumonia)
        var flu = ImmunizationStore.Input()
        flu.vaccine = "Influenza, seasonal"
        flu.date = "2024-10-14"
        flu.dose = "1"
        try ImmunizationStore(vault: vault, profile: profile, time: time).add(flu)
        var appendectomy = ProcedureStore.Input()
        appendectomy.name = "Appendectomy"
        appendectomy.date = "2009-04"
        appendectomy.bodySite = "appendix"
        try ProcedureStore(vault: vault, profile: profile, time: time).add(appendectomy)
        for (relation, condition, age, died) in [("mother", "Breast cancer", "52", ""), ("father", "Myocardial infarction", "61", "yes")] {
            var relative = FamilyHistoryStore.Input()
            relative.relation = relation
            relative.condition = condition
            relative.onsetAge = age
            relative.causeOfDeath = died
            try FamilyHistoryStore(vault: vault, profile: profile, time: time).add(relative)
        }
        let appointments = AppointmentStore(vault: vault, profile: profile, time: time)
        for (with, at, reason) in [("Dr. Lee", "2025-07-01 09:30", "anemia follow-up"), ("Sample Imaging", "2025-08-12 14:00", "chest X-ray")] {
            var input = AppointmentStore.Input()
            input.with = with
            input.at = at
            input.reason = reason
            input.location = "Sample Family Practice"
            try appointments.add(input)
        }
        var contact = ContactStore.Input()
        contact.name = "Sam Example"
        contact.phone = "555-0101"
        contact.relation = "partner"
        contact.emergency = true
        try ContactStore(vault: vault, profile: profile, time: time).add(contact)
    }

    func request(_ name: String = "bundle.pdf", recipient: String = "Dr. Lee") -> ShareRequest {
        var request = ShareRequest(recipient: recipient, output: "\(directory)/\(name)")
        request.generator = "phr tests"
        return request
    }

    /// The drawing worker is the built `phr-render`, beside `phr`, as for the extraction workers.
    static let renderer = ShareRenderer(workerExecutable: TestSupport.renderBinary)

    func write(_ request: ShareRequest) throws -> ShareResult {
        try ShareBundle.write(request, vault: vault, profile: profile, time: time, renderer: Self.renderer)
    }
}

/// poppler-utils, the independent reader of what phr writes.
enum PDFTools {
    struct Output {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/\(tool)")
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    static func passwordArguments(_ password: String?) -> [String] {
        password.map { ["-upw", $0] } ?? []
    }

    /// The text of pages `first...last` (all when nil).
    static func text(_ path: String, first: Int? = nil, last: Int? = nil, password: String? = nil, layout: Bool = false) throws -> String {
        var arguments = passwordArguments(password) + (layout ? ["-layout"] : [])
        if let first { arguments += ["-f", "\(first)"] }
        if let last { arguments += ["-l", "\(last)"] }
        let output = try run("pdftotext", arguments + [path, "-"])
        #expect(output.status == 0, "pdftotext \(path): \(output.stderr)")
        return output.stdout
    }

    /// `pdfinfo`'s fields, e.g. ["Pages": "12", "Encrypted": "no"]; nil when pdfinfo fails.
    static func info(_ path: String, password: String? = nil, pages: ClosedRange<Int>? = nil) throws -> [String: String]? {
        var arguments = passwordArguments(password)
        if let pages { arguments += ["-f", "\(pages.lowerBound)", "-l", "\(pages.upperBound)"] }
        let output = try run("pdfinfo", arguments + [path])
        guard output.status == 0 else { return nil }
        var fields: [String: String] = [:]
        for line in output.stdout.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return fields
    }

    static func pageCount(_ path: String, password: String? = nil) throws -> Int {
        Int(try #require(try info(path, password: password)?["Pages"])) ?? -1
    }

    /// Page `page`'s size in points, as pdfinfo prints it ("612 x 792").
    static func pageSize(_ path: String, page: Int, password: String? = nil) throws -> (width: Double, height: Double) {
        let fields = try #require(try info(path, password: password, pages: page...page))
        let key = try #require(fields.keys.first { $0.split(separator: " ") == ["Page", Substring("\(page)"), "size"] })
        let text = fields[key]!
        let numbers = text.split(separator: " ").compactMap { Double($0) }
        return (numbers[0], numbers[1])
    }

    /// The outline (bookmarks) as poppler-glib reads it: title and depth, in order.
    static func outline(_ path: String, password: String? = nil) throws -> [(title: String, level: Int)] {
        var error: UnsafeMutablePointer<GError>?
        let uri = "file://" + path
        guard let document = poppler_document_new_from_file(uri, password, &error) else {
            if let error { g_error_free(error) }
            Issue.record("poppler cannot open \(path)")
            return []
        }
        defer { g_object_unref(UnsafeMutableRawPointer(document)) }
        var entries: [(String, Int)] = []
        func walk(_ iterator: OpaquePointer, level: Int) {
            repeat {
                if let action = poppler_index_iter_get_action(iterator) {
                    if let title = action.pointee.any.title { entries.append((String(cString: title), level)) }
                    poppler_action_free(action)
                }
                if let child = poppler_index_iter_get_child(iterator) {
                    walk(child, level: level + 1)
                    poppler_index_iter_free(child)
                }
            } while poppler_index_iter_next(iterator) != 0
        }
        if let iterator = poppler_index_iter_new(document) {
            walk(iterator, level: 0)
            poppler_index_iter_free(iterator)
        }
        return entries
    }

    /// The pages (from 1) with ink closer than `band` points to the paper's edge, rendered in grey
    /// at `dpi`: anything there ran off the content area or would be cut by a printer.
    static func pagesWithInkNearEdges(_ path: String, band: Double = 24, dpi: Int = 50, password: String? = nil) throws -> [Int] {
        let directory = try TestSupport.temporaryDirectory("ink")
        defer { TestSupport.remove(directory) }
        let output = try run("pdftoppm", passwordArguments(password) + ["-gray", "-r", "\(dpi)", path, "\(directory)/page"])
        #expect(output.status == 0, "pdftoppm: \(output.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".pgm") }.sorted()
        // One pixel less than the band, for antialiasing at its inner edge.
        let margin = Int((band * Double(dpi) / 72).rounded(.down)) - 1
        var offending: [Int] = []
        for (index, file) in files.enumerated() {
            let image = try PNMImage(path: "\(directory)/\(file)")
            if image.hasInk(outsideInset: margin) { offending.append(index + 1) }
        }
        return offending
    }
}

/// A binary PGM (P5, grey) or PPM (P6, RGB) image as pdftoppm writes it (`-gray` or neither),
/// with the pixel tests the share and health-report checks use.
struct PNMImage {
    let width: Int
    let height: Int
    /// 1 for grey, 3 for RGB.
    let channels: Int
    let pixels: [UInt8]

    init(path: String) throws {
        try self.init(data: [UInt8](try #require(FileManager.default.contents(atPath: path))), name: path)
    }

    init(data: [UInt8], name: String = "the image") throws {
        try #require(data.count > 2 && data[0] == 0x50 && (data[1] == 0x35 || data[1] == 0x36), "\(name) is not a binary PGM or PPM")
        channels = data[1] == 0x35 ? 1 : 3
        // Header: "P5" or "P6", width, height, maximum value, each followed by whitespace.
        var fields: [Int] = []
        var index = 2
        while fields.count < 3 {
            while index < data.count, data[index] == 0x20 || data[index] == 0x0a { index += 1 }
            var value = 0
            while index < data.count, (0x30...0x39).contains(data[index]) {
                value = value * 10 + Int(data[index] - 0x30)
                index += 1
            }
            fields.append(value)
        }
        index += 1
        width = fields[0]
        height = fields[1]
        let count = width * height * channels
        try #require(data.count - index >= count, "\(name) is shorter than its header says")
        pixels = Array(data[index..<(index + count)])
    }

    /// The colour at `x`, `y` (grey repeated for a PGM).
    func pixel(_ x: Int, _ y: Int) -> (Int, Int, Int) {
        let at = (y * width + x) * channels
        guard channels == 3 else { return (Int(pixels[at]), Int(pixels[at]), Int(pixels[at])) }
        return (Int(pixels[at]), Int(pixels[at + 1]), Int(pixels[at + 2]))
    }

    /// Within `tolerance` of `hex` (0xRRGGBB) on every channel.
    static func near(_ p: (Int, Int, Int), _ hex: UInt32, _ tolerance: Int = 24) -> Bool {
        abs(p.0 - Int(hex >> 16 & 0xFF)) <= tolerance && abs(p.1 - Int(hex >> 8 & 0xFF)) <= tolerance && abs(p.2 - Int(hex & 0xFF)) <= tolerance
    }

    /// The points whose colour is within `tolerance` of `hex` on every channel.
    func points(near hex: UInt32, tolerance: Int) -> [(x: Int, y: Int)] {
        var found: [(x: Int, y: Int)] = []
        for y in 0..<height {
            for x in 0..<width where Self.near(pixel(x, y), hex, tolerance) { found.append((x, y)) }
        }
        return found
    }

    /// Runs of consecutive pixels on row `y` that pass `test`.
    func runs(y: Int, from: Int, to: Int, of test: ((Int, Int, Int)) -> Bool) -> Int {
        guard y >= 0, y < height else { return 0 }
        var count = 0
        var inside = false
        for x in max(0, from)..<min(width, to) {
            let hit = test(pixel(x, y))
            if hit && !inside { count += 1 }
            inside = hit
        }
        return count
    }

    /// The pixels in `rect` that pass `test`.
    func count(in rect: (x: Int, y: Int, width: Int, height: Int), of test: ((Int, Int, Int)) -> Bool) -> Int {
        var total = 0
        for y in max(0, rect.y)..<min(height, rect.y + rect.height) {
            for x in max(0, rect.x)..<min(width, rect.x + rect.width) where test(pixel(x, y)) { total += 1 }
        }
        return total
    }

    /// True if any pixel within `inset` pixels of an edge is darker than near-white.
    func hasInk(outsideInset inset: Int) -> Bool {
        for y in 0..<height {
            let edgeRow = y < inset || y >= height - inset
            for x in 0..<width where edgeRow || x < inset || x >= width - inset {
                if pixels[(y * width + x) * channels] < 235 { return true }
            }
        }
        return false
    }
}
