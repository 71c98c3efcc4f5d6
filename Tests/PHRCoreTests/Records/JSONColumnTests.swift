import Foundation
import Testing
@testable import PHRCore

/// JSON columns written by hand (codings, identifiers, empty arrays) are byte for byte what the
/// encoder writes, so rows, exports and their read-back do not depend on which way was taken.
@Suite struct JSONColumnTests {
    static func encoder<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static let texts: [String?] = [nil, "", "718-7", "http://loinc.org", "urn:oid:2.16.840.1.113883.6.1", "Hemoglobin [Mass/volume] in Blood",
                                   "say \"ok\"", "back\\slash", "tab\there", "line\nbreak", "crlf\r\n", "Lévothyrox", "診断書", "😀",
                                   "\u{7f}", "\u{2028}", "a/b/c", "{\"json\":1}"]

    @Test func codingsAreWrittenAsTheEncoderWritesThem() throws {
        for system in Self.texts {
            for display in Self.texts {
                let codings = [Coding(system: system, code: display ?? "c", display: display), Coding(system: nil, code: "2", display: system)]
                #expect(JSONColumn.encode(codings) == (try Self.encoder(codings)))
                #expect(JSONColumn.encode([codings[0]]) == (try Self.encoder([codings[0]])))
            }
        }
        #expect(JSONColumn.encode([Coding]()) == "[]")
    }

    @Test func identifiersAreWrittenAsTheEncoderWritesThem() throws {
        for system in Self.texts {
            for value in Self.texts {
                let identifiers = [SourceIdentifier(system: system, value: value ?? "v"), SourceIdentifier(system: "urn:oid:1.2", value: "x")]
                #expect(JSONColumn.encode(identifiers) == (try Self.encoder(identifiers)))
            }
        }
        #expect(JSONColumn.encode([SourceIdentifier]()) == "[]")
        #expect(JSONColumn.encode([Observation.Component]()) == (try Self.encoder([Observation.Component]())))
    }
}
