import Foundation
import ScanCorpusCER
import Testing

/// The OCR accuracy corpus, written by the project's generator (Tools/ScanCorpus/make_scans.py,
/// Debian's python3 with python3-pil; `make deps` installs it) into a scratch directory: page
/// images whose text is known, and the manifest that says what each file holds.
struct ScanCorpus {
    struct Manifest: Decodable {
        let version: Int
        let set: String
        let files: [File]
    }

    struct File: Decodable {
        let file: String
        /// The degradation class: clean, skew, rot90, rot180, rot270, jpeg50, noise, blur,
        /// lighting, photo, exif-jpeg, heic, webp, fax-tiff.
        let `class`: String
        /// The resolution the page was scanned at; nil for phone photos.
        let dpi: Int?
        let pages: [Page]

        /// The class, with clean pages told apart by their resolution (clean-300, clean-200).
        var classKey: String { `class` == "clean" ? "clean-\(dpi ?? 0)" : `class` }
    }

    struct Page: Decodable {
        /// Which of the generator's documents (documents.py) is printed on the page.
        let document: String
        let truth: String
        /// Degrees the content is turned clockwise in the stored pixels (before EXIF).
        let rotation: Int
        /// The tables printed on the page, cell by cell (the lab table's rows).
        let tables: [Table]?
    }

    struct Table: Decodable {
        let header: [String]
        let rows: [[String]]
    }

    static let generator = "\(CLI.packageRoot)/Tools/ScanCorpus/make_scans.py"

    let directory: String
    let manifest: Manifest

    func path(_ file: File) -> String { "\(directory)/\(file.file)" }

    /// Runs the generator for `set` (test, bench or full) into `directory`.
    static func generate(set: String, into directory: String) throws -> ScanCorpus {
        let process = Process()
        // Debian's python3, which has python3-pil, whatever python3 comes first on PATH.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [generator, directory, "--set", set]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "make_scans.py failed: \(String(decoding: message, as: UTF8.self))")
        let data = try #require(FileManager.default.contents(atPath: "\(directory)/manifest.json"))
        return ScanCorpus(directory: directory, manifest: try JSONDecoder().decode(Manifest.self, from: data))
    }
}
