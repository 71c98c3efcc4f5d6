import Foundation
import Testing
@testable import PHRCore

/// The layout corpus (issue 27): lab reports laid out the ways real laboratories print them,
/// made by two generators (`Samples/lab-layouts`, HTML printed by Chromium from
/// Tools/LabLayouts/generate.py; `Samples/lab-reports`, cairo from Tools/SampleGenerator),
/// each with the rows it prints. Over the corpus at least 95 % of rows must be read all right
/// (name, value, unit, flag, panel and range), and every row the reader is sure of must be right:
/// a wrong row may be proposed, marked for a person's eye, never saved by `--yes`.
@Suite struct LabLayoutCorpusTests {
    static let layoutDirectory = "\(TestSupport.packageRoot)/Samples/lab-layouts"
    typealias Expected = LabExtractionTests.Expected

    struct Layout {
        var name: String
        var pdf: String
        var expected: Expected
    }

    static func layouts() throws -> [Layout] {
        var result: [Layout] = []
        for (directory, names) in [(LabExtractionTests.samples, LabExtractionTests.layouts),
                                   (layoutDirectory, try FileManager.default.contentsOfDirectory(atPath: layoutDirectory)
                                       .filter { $0.hasSuffix(".expected.json") }.map { String($0.dropLast(".expected.json".count)) }.sorted())] {
            for name in names {
                let expected = try JSONDecoder().decode(Expected.self, from: Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name).expected.json")))
                result.append(Layout(name: name, pdf: "\(directory)/\(name).pdf", expected: expected))
            }
        }
        return result
    }

    struct Score {
        var right = 0, total = 0, sure = 0, sureWrong: [String] = [], extra: [String] = [], misses: [String] = []
    }

    /// How the rows of `extraction` compare with what the layout printed.
    static func score(_ extraction: LabExtraction, _ expected: Expected, scanned: Bool = false) -> Score {
        var score = Score(total: expected.rows.count)
        var unmatched = expected.rows
        for (index, row) in extraction.rows.enumerated() {
            var read = LabExtractionTests.read(row)
            let occurrence = extraction.rows[..<index].filter { $0.page == row.page && $0.name == row.name }.count
            let printed = expected.rows.filter { $0.page == row.page && $0.name == row.name }.dropFirst(occurrence).first
            if scanned, let printed {
                // Spaces round a range's dash are not a misreading, nor "X10E3/uL" for "x10E3/uL".
                if read.rangeText?.replacingOccurrences(of: " ", with: "") == printed.rangeText?.replacingOccurrences(of: " ", with: "") {
                    read.rangeText = printed.rangeText
                }
                if let unit = read.unit, let printedUnit = printed.unit, LabUnits.ucum(unit) != nil, LabUnits.ucum(unit) == LabUnits.ucum(printedUnit) {
                    read.unit = printedUnit
                }
            }
            let right = printed == read
            if right, let at = unmatched.firstIndex(of: read) { unmatched.remove(at: at); score.right += 1 }
            if printed == nil { score.extra.append(row.name) }
            if row.unsure == nil {
                score.sure += 1
                if !right { score.sureWrong.append("\(row.name): read \(read), printed \(printed.map { "\($0)" } ?? "nothing")") }
            }
        }
        score.misses = unmatched.map { row in
            let read = extraction.rows.first { $0.page == row.page && $0.name == row.name }
            return read.map { "\(row.name) (read \(LabExtractionTests.read($0)); \($0.unsure ?? "sure"))" } ?? "\(row.name) (not found)"
        }
        return score
    }

    static func patient(_ expected: Expected) -> LabPatient? {
        expected.patient.map { LabPatient(sex: MedicalID.Sex(rawValue: $0.sex), born: $0.dateOfBirth.flatMap(CalendarDate.init)) }
    }

    @Test func theLayoutCorpusIsReadRowForRow() throws {
        let layouts = try Self.layouts()
        #expect(layouts.count >= 20)
        let (vault, profile, directory) = try RecordFixtures.vault("lab-corpus")
        defer { TestSupport.remove(directory) }
        let importer = DocumentImporter(vault: vault, profile: profile, extractor: TextExtractor(workerExecutable: TestSupport.renderBinary))
        var total = Score()
        for layout in layouts {
            let document = try #require(try importer.add([layout.pdf], options: .init())[0].document)
            let pages = try importer.layouts(of: document).map { ($0.page, $0.words) }
            let extraction = LabExtraction.read(documentID: document.id, pages: pages, documentDate: document.date, patient: Self.patient(layout.expected))
            let score = Self.score(extraction, layout.expected)
            #expect(extraction.collected == layout.expected.collected, "\(layout.name): collected \(extraction.collected ?? "nil")")
            print("\(layout.name): \(score.right)/\(score.total) rows right, \(score.sure) sure"
                  + (score.misses.isEmpty ? "" : "; misses: \(score.misses.joined(separator: "; "))")
                  + (score.extra.isEmpty ? "" : "; not results: \(score.extra)"))
            #expect(score.sureWrong.isEmpty, "\(layout.name): rows read wrong without being marked: \(score.sureWrong)")
            #expect(score.extra.isEmpty, "\(layout.name): rows that are not printed results: \(score.extra)")
            total.right += score.right
            total.total += score.total
            total.sure += score.sure
        }
        print("layout corpus: \(layouts.count) layouts, \(total.right)/\(total.total) rows right "
              + "(\(Int((Double(total.right) / Double(max(total.total, 1)) * 1000).rounded()) / 10) %), \(total.sure) sure")
        #expect(Double(total.right) >= 0.95 * Double(total.total))
    }

    /// Scanned variants: layouts drawn at 150 DPI in grey, saved as a low-quality JPEG (the
    /// blur and blocks of a cheap scan) and read by OCR, both readings as `phr lab extract` does.
    /// Every row the reader is sure of is right; most rows are found.
    @Test(arguments: ["observed-value-bold-flags", "lines-colon-ref", "flag-spellings", "qualitative-and-comparators", "no-header-short-panels"])
    func aDegradedScanOfALayoutIsReadWithoutSureMistakes(name: String) throws {
        let layout = try #require(try Self.layouts().first { $0.name == name })
        let directory = try TestSupport.temporaryDirectory("lab-corpus-scan")
        defer { TestSupport.remove(directory) }
        let rendered = try PDFTools.run("pdftoppm", ["-r", "150", "-gray", "-jpeg", "-jpegopt", "quality=35", "-singlefile", layout.pdf, "\(directory)/scan"])
        try #require(rendered.status == 0, "pdftoppm: \(rendered.stderr)")
        let (vault, profile, vaultDirectory) = try RecordFixtures.vault("lab-corpus-scan")
        defer { TestSupport.remove(vaultDirectory) }
        let importer = DocumentImporter(vault: vault, profile: profile, extractor: TextExtractor(workerExecutable: TestSupport.renderBinary))
        let document = try #require(try importer.add(["\(directory)/scan.jpg"], options: .init())[0].document)
        let patient = Self.patient(layout.expected)
        let stored = LabExtraction.read(documentID: document.id, pages: try importer.layouts(of: document).map { ($0.page, $0.words) },
                                        documentDate: document.date, patient: patient)
        let tables = LabExtraction.read(documentID: document.id, pages: try importer.tableLayouts(of: document).map { ($0.page, $0.words) },
                                        documentDate: document.date, patient: patient)
        let extraction = LabExtraction.better(stored, tables)
        let score = Self.score(extraction, layout.expected, scanned: true)
        print("\(name) scanned (150 DPI, JPEG q35): \(score.right)/\(score.total) rows right, \(score.sure) sure"
              + (score.misses.isEmpty ? "" : "; misses: \(score.misses.joined(separator: "; "))"))
        #expect(score.sureWrong.isEmpty, "rows read wrong without being marked: \(score.sureWrong)")
        #expect(score.extra.isEmpty, "rows that are not printed results: \(score.extra)")
        #expect(Double(score.right) >= 0.6 * Double(score.total), "\(score.right) of \(score.total) rows right")
    }
}
