import Foundation
import Testing
@testable import PHRCore

/// The small rules behind `phr share`'s options and files: --include, the locale's paper, the
/// request checks, and the JSON writer of the IPS file.
@Suite struct ShareOptionsTests {
    @Test func includeNamesSections() throws {
        #expect(try ShareSection.parse("Medications, allergies") == [.medications, .allergies])
        #expect(try ShareSection.parse("all") == Set(ShareSection.allCases))
        #expect(throws: ShareError.invalidOption(option: Field("include"), reason: "an empty section name")) { try ShareSection.parse("summary,") }
        #expect(throws: ShareError.self) { try ShareSection.parse("vitals") }
        // Allergies before medications: the first thing to know before prescribing.
        #expect(ShareSection.allCases.prefix(3) == [.summary, .allergies, .medications])
    }

    @Test func paperFollowsTheLocale() throws {
        #expect(Paper.preferred(environment: [:]) == .a4)
        #expect(Paper.preferred(environment: ["LANG": "C.UTF-8"]) == .a4)
        #expect(Paper.preferred(environment: ["LANG": "en_US.UTF-8"]) == .letter)
        #expect(Paper.preferred(environment: ["LANG": "en_US.UTF-8", "LC_PAPER": "de_DE.UTF-8"]) == .a4)
        #expect(Paper.preferred(environment: ["LC_ALL": "es_MX", "LC_PAPER": "de_DE.UTF-8"]) == .letter)
        #expect(Paper.preferred(environment: ["LANG": "en_CA.UTF-8@euro"]) == .letter)
        #expect(try Paper.parse("Letter") == .letter)
        #expect(throws: ShareError.invalidOption(option: Field("paper"), reason: "'a5' is not a paper size; use a4 or letter")) { try Paper.parse("a5") }
    }

    @Test func requestChecks() throws {
        var request = ShareRequest(recipient: "  ", output: "b.pdf")
        #expect(throws: ShareError.invalidOption(option: Field("for"), reason: "the recipient cannot be empty")) { try request.validate() }
        request.recipient = "Dr. Lee\nsecond line"
        #expect(throws: ShareError.invalidOption(option: Field("for"), reason: "the recipient must be one line")) { try request.validate() }
        request.recipient = String(repeating: "x", count: 121)
        #expect(throws: ShareError.invalidOption(option: Field("for"), reason: "at most 120 characters")) { try request.validate() }
        request.recipient = "Dr. Lee"
        request.fhirOutput = "./b.pdf"
        #expect(throws: ShareError.invalidOption(option: Field("fhir"), reason: "the FHIR file cannot be the bundle itself")) { try request.validate() }
        request.fhirOutput = nil
        request.documentTypes = ["lab", "xray"]
        #expect(throws: ShareError.self) { try request.validate() }
        request.documentTypes = ["LAB"]
        try request.validate()
    }

    @Test func orderedJSONKeepsOrderAndEscapes() throws {
        let value = OrderedJSON.members([
            ("resourceType", .string("Patient")), ("absent", nil), ("name", .string("Zoë \"Z\" \\ O'Brien\n\u{01}")),
            ("weight", .number(72.5)), ("height", .number(178)), ("list", .array([.bool(true), .integer(3), .object([])])),
        ])
        let text = String(decoding: value.serialized(), as: UTF8.self)
        #expect(text == """
            {
              "resourceType": "Patient",
              "name": "Zoë \\"Z\\" \\\\ O'Brien\\n\\u0001",
              "weight": 72.5,
              "height": 178,
              "list": [
                true,
                3,
                {}
              ]
            }

            """)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(parsed["name"] as? String == "Zoë \"Z\" \\ O'Brien\n\u{01}")
    }
}
