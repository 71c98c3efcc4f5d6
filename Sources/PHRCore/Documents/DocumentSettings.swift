import GRDB

/// Vault-wide settings of the documents layer, kept in `vault_info` (encrypted like the rest).
public enum DocumentSettings {
    static let ocrLanguagesKey = "ocr_languages"

    /// The OCR languages documents are read with unless a command says otherwise: the stored
    /// setting, else the locale's language (if installed) plus English.
    public static func ocrLanguages(_ vault: Vault, environment: [String: String]) throws -> String {
        let stored = try vault.database.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM vault_info WHERE key = ?", arguments: [ocrLanguagesKey])
        }
        if let stored, OCRLanguages.parse(stored) != nil { return stored }
        return OCRLanguages.defaultSpec(environment: environment)
    }

    /// Stores the default OCR languages after checking their data is installed.
    public static func setOCRLanguages(_ vault: Vault, _ spec: String, environment: [String: String]) throws {
        try OCRLanguages.validate(spec, environment: environment)
        try vault.database.write { db in
            try db.execute(sql: "INSERT INTO vault_info (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                           arguments: [ocrLanguagesKey, spec])
        }
    }
}

extension ExtractionLimits {
    /// The default limits with `PHR_OCR_WORKERS` (1 to 16) workers when it is set, and each
    /// worker's memory from `PHR_READER_MEMORY` (ReaderMemory).
    public static func fromEnvironment(_ environment: [String: String]) throws -> ExtractionLimits {
        var limits = ExtractionLimits.default
        limits.memoryBytes = try ReaderMemory.limit(default: limits.memoryBytes, environment: environment)
        if let raw = environment["PHR_OCR_WORKERS"] {
            guard let count = Int(raw), (1...16).contains(count) else {
                throw RecordError.invalidOption(option: Field.environment("PHR_OCR_WORKERS"), reason: "'\(TerminalText.neutralized(raw))' is not a number of workers from 1 to 16",
                                                hint: "unset it for two workers, or set a number such as 2")
            }
            limits.parallelWorkers = count
        }
        return limits
    }
}
