import Foundation

/// Paper for printed output.
public enum Paper: String, CaseIterable, Sendable, Codable {
    case a4, letter

    /// In PDF points (1/72 inch): A4 is 210 x 297 mm, US Letter 8.5 x 11 inches.
    public var width: Double { self == .a4 ? 595.276 : 612 }
    public var height: Double { self == .a4 ? 841.89 : 792 }

    /// Territories whose printers are loaded with US Letter; everyone else uses A4.
    static let letterTerritories: Set<String> = ["US", "CA", "MX", "PH", "CL", "CO", "VE", "CR", "GT", "PA", "PR", "SV", "DO", "NI"]

    /// The paper of the user's locale: the territory of the first of LC_ALL, LC_PAPER and LANG
    /// that is set, as the C library ranks them ("en_US.UTF-8" gives letter); A4 otherwise.
    public static func preferred(environment: [String: String]) -> Paper {
        for variable in ["LC_ALL", "LC_PAPER", "LANG"] {
            guard let value = environment[variable], !value.isEmpty else { continue }
            let locale = value.split(separator: ".").first.map(String.init) ?? value
            let parts = locale.split(separator: "_")
            guard parts.count >= 2 else { return .a4 }
            let territory = String(parts[1].prefix { $0.isLetter }).uppercased()
            return letterTerritories.contains(territory) ? .letter : .a4
        }
        return .a4
    }

    public static func parse(_ text: String, option: Field = Field.paper) throws -> Paper {
        guard let paper = Paper(rawValue: text.lowercased().trimmingCharacters(in: .whitespaces)) else {
            throw ShareError.invalidOption(option: option, reason: "'\(text)' is not a paper size; use a4 or letter")
        }
        return paper
    }
}
