import Glibc

/// When a document's pages are read by OCR (`phr doc add --ocr`).
public enum OCRMode: String, Codable, Sendable, CaseIterable {
    /// Images, and PDF pages without a usable text layer: none, junk, or a little text on a page
    /// that is mostly image (a scan with a stamped header).
    case auto
    /// Every page, text layer or not (the OCR text replaces a text layer).
    case always
    /// No OCR: images and scanned pages are stored and wait for `phr doc reindex --ocr`.
    case never
}

/// What the extraction workers are asked to do beyond reading a text layer.
public struct OCROptions: Sendable, Equatable {
    public var mode: OCRMode
    /// Tesseract language codes joined by "+", as Tesseract spells them: "eng", "deu+eng".
    public var languages: String
    /// Also send the word boxes of text-layer pages (the lab-results reader wants columns).
    public var textLayerWords: Bool
    /// Read OCR pages once more as one block of rows (Tesseract's single-block layout), which
    /// keeps what the automatic layout drops from tables, such as the lone letters of a flag
    /// column; the reading with more confident text is kept. For `phr lab extract`.
    public var tables: Bool
    /// In `.auto`, read also the pages that show nothing to a text reader (no text, no image):
    /// a page whose text is drawn as outlines looks so, and so does a blank page. `phr doc
    /// reindex --ocr` asks for it: such a document waits for OCR after `doc add`, and reading it
    /// settles it either way (its text, or "OCR found no text").
    public var blankPages: Bool

    public init(mode: OCRMode = .auto, languages: String = "eng", textLayerWords: Bool = false, tables: Bool = false,
                blankPages: Bool = false) {
        self.mode = mode
        self.languages = languages
        self.textLayerWords = textLayerWords
        self.tables = tables
        self.blankPages = blankPages
    }

    public static let `default` = OCROptions()
    public static let none = OCROptions(mode: .never)
}

/// Tesseract's trained language data on this machine: where it is and which languages are there.
public enum OCRLanguages {
    /// Below this mean word confidence (0 to 100) an OCR page is "low-confidence OCR": still
    /// searchable, ranked below text-layer hits, and marked in `phr doc show`.
    public static let lowConfidenceFloor = 60.0

    /// The directory Tesseract reads `LANG.traineddata` from: $TESSDATA_PREFIX, else Debian's
    /// location.
    public static func dataDirectory(environment: [String: String]) -> String {
        // Tesseract 5 reads LANG.traineddata from $TESSDATA_PREFIX itself (the tessdata folder).
        if let prefix = environment["TESSDATA_PREFIX"], !prefix.isEmpty {
            return prefix.count > 1 && prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
        }
        return "/usr/share/tesseract-ocr/5/tessdata"
    }

    /// The languages `spec` names ("deu+eng"), or nil if it is not a valid specification.
    public static func parse(_ spec: String) -> [String]? {
        let parts = spec.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        guard !parts.isEmpty, parts.count <= 8 else { return nil }
        for part in parts {
            guard (2...20).contains(part.count),
                  part.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" })
            else { return nil }
        }
        return parts
    }

    /// The languages of `spec` whose data is missing in `directory`.
    public static func missing(_ spec: String, directory: String) -> [String] {
        (parse(spec) ?? []).filter { access("\(directory)/\($0).traineddata", R_OK) != 0 }
    }

    /// Checks `spec` names installed languages; throws a usage error for a malformed list and
    /// `DocumentError.ocrLanguageMissing` (exit 69) naming the Debian package to install.
    public static func validate(_ spec: String, environment: [String: String], option: Field = Field.ocrLang) throws {
        guard parse(spec) != nil else {
            throw RecordError.invalidOption(option: option, reason: "'\(TerminalText.neutralized(spec))' is not a list of Tesseract languages",
                                            hint: "use Tesseract's codes joined by '+', for example eng or deu+eng")
        }
        let directory = dataDirectory(environment: environment)
        let absent = missing(spec, directory: directory)
        guard absent.isEmpty else { throw DocumentError.ocrLanguageMissing(languages: absent, directory: directory, option: option) }
    }

    /// The Debian package of a Tesseract language ("chi_sim" is tesseract-ocr-chi-sim).
    public static func package(of language: String) -> String {
        "tesseract-ocr-" + language.split(separator: "_").joined(separator: "-")
    }

    /// The first OCR languages for a new vault: the locale's language (if its data is installed)
    /// plus English.
    public static func defaultSpec(environment: [String: String]) -> String {
        let locale = environment["LC_ALL"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["LC_MESSAGES"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["LANG"] ?? ""
        let code = String(locale.prefix { $0.isLetter }).lowercased()
        let directory = dataDirectory(environment: environment)
        if let tesseract = isoToTesseract[code], tesseract != "eng",
           access("\(directory)/\(tesseract).traineddata", R_OK) == 0 {
            return "\(tesseract)+eng"
        }
        return "eng"
    }

    /// ISO 639-1 codes of common locales to Tesseract's ISO 639-2 names.
    static let isoToTesseract: [String: String] = [
        "en": "eng", "de": "deu", "fr": "fra", "es": "spa", "it": "ita", "nl": "nld", "pt": "por", "pl": "pol",
        "sv": "swe", "da": "dan", "nb": "nor", "no": "nor", "fi": "fin", "cs": "ces", "sk": "slk", "hu": "hun",
        "ro": "ron", "el": "ell", "tr": "tur", "ru": "rus", "uk": "ukr", "ar": "ara", "he": "heb", "ja": "jpn",
        "zh": "chi_sim", "ko": "kor", "hi": "hin",
    ]
}
