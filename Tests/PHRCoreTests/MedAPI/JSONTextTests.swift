import Foundation
import Testing
@testable import PHRCore

/// JSONValue's own reader and writer (what phr mcp reads requests and pages listings with):
/// RFC 8259 as JSONDecoder reads it, refusals said, and text that reads back the same.
@Suite struct JSONTextTests {
    @Test func readsWhatJSONDecoderReads() throws {
        let text = #" {"a": [1, -2, 3.5, 1e3, 12345678901234567890, true, false, null], "s": "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00", "e": {}, "l": []} "#
        let value = try JSONValue.parse(Data(text.utf8))
        #expect(value["a"] == .array([.integer(1), .integer(-2), .double(3.5), .integer(1000), .double(12345678901234567168), .bool(true), .bool(false), .null]))
        #expect(value["s"] == .string("x\"\\/\u{8}\u{c}\n\r\té😀"))
        #expect(value["e"] == .object([:]) && value["l"] == .array([]))
        // The same as JSONDecoder gives, value for value.
        #expect(value == (try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))))
        // Written out and read back, the same value; members sorted, no newlines.
        let written = value.jsonText
        #expect(try JSONValue.parse(written) == value)
        #expect(!written.contains(0x0A))
        #expect(String(decoding: JSONValue.object(["b": .integer(1), "a": .string("a/b\n")]).jsonText, as: UTF8.self) == #"{"a":"a/b\n","b":1}"#)
    }

    @Test func refusesWhatIsNotJSON() {
        for text in ["", "01", "1.", "-", "1e", "[1,]", "{\"a\" 1}", "{a: 1}", "\"\u{01}\"", "\"\\x\"", "\"\\ud800\"", "\"\\udc00x\"",
                     "tru", "[1] 2", "\"open", "{\"a\":1", "[1", "NaN", "1e999"] {
            #expect(throws: DecodingError.self, "\(text)") { try JSONValue.parse(Data(text.utf8)) }
        }
        // Invalid UTF-8 in a string, and nesting past the limit.
        #expect(throws: DecodingError.self) { try JSONValue.parse(Data([0x22, 0xFF, 0xFE, 0x22])) }
        #expect(throws: DecodingError.self) { try JSONValue.parse(Data(String(repeating: "{\"a\":", count: 600).utf8)) }
    }
}
