import Foundation

/// The memory a reader (a phr-render worker: extraction, drawing, C-CDA, phone exports) may use.
/// Each has a default that fits the files it was built for; `PHR_READER_MEMORY` (e.g. `2G`,
/// `1500M`) gives every reader that limit instead, for a file too large for the default. The
/// limit is the worker's address space (RLIMIT_AS), which the Swift runtime's reservations also
/// count against.
public enum ReaderMemory {
    public static let variable = "PHR_READER_MEMORY"
    public static let allowed = (256 << 20)...(64 << 30)

    /// `defaultBytes`, or the size `PHR_READER_MEMORY` names.
    public static func limit(default defaultBytes: Int, environment: [String: String] = ProcessEnvironment.variables) throws -> Int {
        guard let raw = environment[variable] else { return defaultBytes }
        guard let bytes = parse(raw), allowed.contains(bytes) else {
            throw RecordError.invalidOption(option: Field.environment(variable),
                                            reason: "'\(TerminalText.neutralized(String(raw.prefix(40))))' is not a memory size from 256M to 64G",
                                            hint: "unset it for each reader's default, or set a size such as 2G")
        }
        return bytes
    }

    /// "2G", "2 GB", "1500M", "1500MB" (binary units: 1G is 1024M); a bare number is bytes.
    static func parse(_ text: String) -> Int? {
        let trimmed = text.trimmingWhitespace().uppercased()
        let digits = trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        guard !digits.isEmpty, let number = Double(digits), number.isFinite, number > 0 else { return nil }
        let unit = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
        let scale: Double
        switch unit {
        case "": scale = 1
        case "K", "KB", "KIB": scale = 1024
        case "M", "MB", "MIB": scale = 1_048_576
        case "G", "GB", "GIB": scale = 1_073_741_824
        default: return nil
        }
        let bytes = number * scale
        guard bytes < Double(Int.max / 2) else { return nil }
        return Int(bytes)
    }

    /// "1 GB", "1.5 GB", "512 MB".
    public static func describe(_ bytes: Int) -> String {
        if bytes >= 1 << 30 {
            let gigabytes = Double(bytes) / Double(1 << 30)
            return gigabytes == gigabytes.rounded() ? "\(Int(gigabytes)) GB" : String(format: "%.1f GB", gigabytes)
        }
        return "\(bytes >> 20) MB"
    }

    /// The hint for a reader that ran out of `bytes`: what to set, and to what.
    public static func hint(after bytes: Int) -> Message {
        let gigabytes = min(max(bytes * 2, 2 << 30), allowed.upperBound) >> 30
        return "give the readers more memory with \(Field.environment(variable))=\(gigabytes)G (the computer needs that much free), then try again"
    }
}
