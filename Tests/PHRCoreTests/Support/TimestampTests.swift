import Foundation
import Testing
@testable import PHRCore
@testable import PHRModel

/// Timestamps are written and read without Foundation's calendar on the common path; they must
/// agree with Foundation's ISO 8601 formatter exactly, both ways.
@Suite struct TimestampTests {
    static func foundationString(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    static func foundationParse(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    @Test func writingAgreesWithFoundation() {
        var generator = SystemRandomNumberGenerator()
        var instants: [TimeInterval] = [0, -1, -86_400, -86_401, 951_782_400, 4_102_444_799, -2_208_988_800, 1_700_000_000.999]
        for _ in 0..<2_000 { instants.append(TimeInterval(Int64.random(in: -2_208_988_800...4_102_444_800, using: &generator))) }
        for instant in instants {
            let date = Date(timeIntervalSince1970: instant)
            #expect(Timestamp.string(date) == Self.foundationString(Date(timeIntervalSince1970: instant.rounded(.down))), "\(instant)")
        }
    }

    @Test func readingAgreesWithFoundation() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let instant = Int64.random(in: -2_208_988_800...4_102_444_800, using: &generator)
            let text = Self.foundationString(Date(timeIntervalSince1970: TimeInterval(instant)))
            #expect(Timestamp.parse(text) == Date(timeIntervalSince1970: TimeInterval(instant)), "\(text)")
        }
        for text in ["2026-11-22T06:22:11+01:00", "2026-11-22T06:22:11-09:30", "2024-02-29T23:59:59+14:00", "1969-12-31T23:59:59Z"] {
            #expect(Timestamp.fastSeconds(text) != nil, "\(text)")
            #expect(Timestamp.parse(text) == Self.foundationParse(text), "\(text)")
        }
        // Other shapes are Foundation's to judge, with the same answer as before.
        for text in ["2026-11-22T06:22:11.5Z", "2026-11-22 06:22:11Z", "2025-02-30T00:00:00Z", "2026-11-22T24:00:00Z",
                     "2026-11-22T06:22:11", "20261122T062211Z", "", "2026-11-22T06:22:11+0100", "２０２６-11-22T06:22:11Z"] {
            #expect(Timestamp.fastSeconds(text) == nil, "\(text)")
            #expect(Timestamp.parse(text) == Self.foundationParse(text), "\(text)")
        }
    }
}
