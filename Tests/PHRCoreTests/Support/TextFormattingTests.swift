import Foundation
import Testing
@testable import PHRCore

/// The hand-written fast paths that imports write text through give what Foundation gives:
/// trimming, a value's number, a calendar date.
@Suite struct TextFormattingTests {
    @Test func trimmingMatchesFoundation() {
        for text in ["", " ", "a", " a", "a ", "\ta\n", "\u{A0}a\u{3000}", "é ", " é", "a\u{2028}", "\u{85}a", "ab c", "\r\n", "x\u{0B}"] {
            #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
            #expect(text.trimmingWhitespaceAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(text.debugDescription)")
        }
    }

    /// Observation.number as it was written: String(format: "%.2f") without trailing zeros.
    static func reference(_ value: Double) -> String {
        var text = String(format: "%.2f", value)
        while text.contains("."), text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    @Test func numbersAreWrittenAsStringFormatWritesThem() {
        var values: [Double] = [0, -0.0, 1, -1, 0.005, 0.015, 0.125, 2.675, 1.005, 177.94489, 7.5, 72, 1e15, -1e15, 123456789.125,
                                .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, 1e-300, 0.1 + 0.2]
        for index in 0..<2000 { values.append(Double(index) / 8 - 100 + Double(index % 7) / 1000) }
        for value in values {
            #expect(Observation.number(value) == Self.reference(value), "\(value)")
        }
    }

    @Test func datesAreWrittenAsStringFormatWritesThem() {
        for (year, month, day) in [(1900, 1, 1), (2026, 3, 14), (2200, 12, 31), (999, 5, 7), (12, 1, 2), (0, 1, 1), (-5, 1, 1), (10000, 1, 1)] {
            let date = CalendarDate(computedYear: year, month: month, day: day)
            #expect(date.description == String(format: "%04d-%02d-%02d", year, month, day))
        }
    }
}
