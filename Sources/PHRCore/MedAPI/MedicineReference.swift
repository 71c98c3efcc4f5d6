import Foundation

/// How a person names a medicine on the command line: by name, by RxCUI, or by NDC (the code on
/// the package).
///
/// - `rxcui:2556` and `ndc:0071-0155-23` say which explicitly;
/// - up to 8 digits alone are an RxCUI;
/// - an NDC is 10 or 11 digits, hyphenated as 4-4-2, 5-3-2, 5-4-1 or 5-4-2, or 11 plain digits,
///   or a product code without the package part (4-4, 5-3, 5-4);
/// - anything else is a name.
public enum MedicineReference: Sendable, Equatable, CustomStringConvertible {
    case name(String)
    case rxcui(String)
    case ndc(String)

    public static func parse(_ text: String) -> MedicineReference {
        let trimmed = LabelText.collapse(text)
        let lower = trimmed.lowercased()
        if lower.hasPrefix("rxcui:") {
            let value = String(trimmed.dropFirst(6)).trimmingCharacters(in: .whitespaces)
            return RxNavParser.isRxCUI(value) ? .rxcui(value) : .name(trimmed)
        }
        if lower.hasPrefix("ndc:") {
            let value = String(trimmed.dropFirst(4)).trimmingCharacters(in: .whitespaces)
            return isNDC(value) ? .ndc(value) : .name(trimmed)
        }
        if !trimmed.isEmpty, trimmed.count <= 8, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) { return .rxcui(trimmed) }
        if isNDC(trimmed) { return .ndc(trimmed) }
        return .name(trimmed)
    }

    static func isNDC(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false).map(\.count)
        guard text.allSatisfy({ ($0.isASCII && $0.isNumber) || $0 == "-" }) else { return false }
        switch groups {
        case [11], [4, 4, 2], [5, 3, 2], [5, 4, 1], [5, 4, 2], [4, 4], [5, 3], [5, 4]: return true
        default: return false
        }
    }

    /// A package NDC as the 11 digits (5-4-2) RxNav expects, padding the short group with a
    /// leading zero; nil for a product code without the package part.
    static func ndc11(_ text: String) -> String? {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        switch groups.map(\.count) {
        case [11]: return text
        case [4, 4, 2]: return "0" + groups.joined()
        case [5, 3, 2]: return groups[0] + "0" + groups[1] + groups[2]
        case [5, 4, 1]: return groups[0] + groups[1] + "0" + groups[2]
        case [5, 4, 2]: return groups.joined()
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .name(let name): return LabelText.collapse(name)
        case .rxcui(let rxcui): return "RxCUI \(rxcui)"
        case .ndc(let ndc): return "NDC \(ndc)"
        }
    }
}
