import Foundation
import Testing

/// The character error rate of OCR text against a known truth, by the rules of
/// Tools/ScanCorpus/cer.py (the benchmark has a copy): Levenshtein distance over the normalised
/// texts, in Unicode scalars, divided by the normalised truth's length.
///
/// Normalising folds what a reader cannot tell apart and the truth never uses: NFKC (ligatures
/// such as U+FB01 become "fi"), typographic quotes and dashes to ASCII, every run of whitespace
/// (line breaks and form feeds included) to one space, no leading or trailing space. Case and
/// punctuation count.
enum CharacterErrorRate {
    static let folded: [Unicode.Scalar: Unicode.Scalar] = [
        "\u{2018}": "'", "\u{2019}": "'", "\u{201A}": "'", "\u{2032}": "'",
        "\u{201C}": "\"", "\u{201D}": "\"", "\u{201E}": "\"", "\u{2033}": "\"",
        "\u{2010}": "-", "\u{2011}": "-", "\u{2012}": "-", "\u{2013}": "-", "\u{2014}": "-", "\u{2212}": "-",
    ]

    static func normalise(_ text: String) -> [Unicode.Scalar] {
        var out: [Unicode.Scalar] = []
        var pendingSpace = false
        for scalar in text.precomposedStringWithCompatibilityMapping.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace { out.append(" ") }
            pendingSpace = false
            out.append(folded[scalar] ?? scalar)
        }
        return out
    }

    /// Levenshtein distance: insertions, deletions and substitutions cost 1 each.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            let x = a[i - 1]
            for j in 1...b.count {
                let substitution = previous[j - 1] + (x == b[j - 1] ? 0 : 1)
                current[j] = min(substitution, min(previous[j], current[j - 1]) + 1)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// Edits needed and the truth's normalised length, for adding up over several pages.
    static func errors(ocr: String, truth: String) -> (edits: Int, length: Int) {
        let reference = normalise(truth)
        return (distance(normalise(ocr), reference), reference.count)
    }

    static func rate(ocr: String, truth: String) -> Double {
        let (edits, length) = errors(ocr: ocr, truth: truth)
        return Double(edits) / Double(max(1, length))
    }
}

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
