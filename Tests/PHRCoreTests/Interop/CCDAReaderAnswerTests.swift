import Foundation
import Testing
@testable import PHRCore

/// The C-CDA reader's answer as phr reads it: JSON lines, the entries first and the result last,
/// decoded however the pipe cuts them; anything broken, unfinished or after the result refuses
/// the whole answer, as one undecodable JSON value did.
@Suite struct CCDAReaderAnswerTests {
    static func entry(_ index: Int) -> CCDAEntry {
        var entry = CCDAEntry(kind: .result, location: "section[0] entry[\(index)]", type: "Result Observation")
        entry.code = CCDACode(code: "718-7", system: "2.16.840.1.113883.6.1", display: "Hemoglobin\nline two")
        entry.value = CCDAValue(type: "PQ", quantity: CCDAQuantity(value: "13.\(index)", unit: "g/dL"))
        return entry
    }

    static func lines(_ messages: [CCDAReadMessage]) throws -> [UInt8] {
        let encoder = JSONEncoder()
        return try messages.flatMap { try Array(encoder.encode($0)) + [UInt8(ascii: "\n")] }
    }

    /// The answer after taking `bytes` in pieces of `piece` bytes.
    static func read(_ bytes: [UInt8], piece: Int) throws -> CCDAReaderProcess.Answer {
        var answer = CCDAReaderProcess.Answer()
        var start = 0
        while start < bytes.count {
            try answer.take(bytes[start..<min(start + piece, bytes.count)])
            start += piece
        }
        return answer
    }

    @Test(arguments: [1, 7, 100, 1 << 20])
    func entriesComeBeforeTheDocument(piece: Int) throws {
        var document = CCDADocument()
        document.title = "Summary"
        document.skipped = [CCDASkip(location: "section[3]", type: "Social History section", reason: "not kept")]
        let entries = (0..<5).map(Self.entry)
        let bytes = try Self.lines(entries.map { .entry($0) } + [.result(.document(document))])
        var expected = document
        expected.entries = entries
        #expect(try Self.read(bytes, piece: piece).finished() == .document(expected))
    }

    @Test func aRefusalAfterEntriesRefuses() throws {
        let bytes = try Self.lines([.entry(Self.entry(0)), .result(.refused(.malformed(line: 9, message: "unexpected end")))])
        #expect(try Self.read(bytes, piece: 3).finished() == .refused(.malformed(line: 9, message: "unexpected end")))
    }

    @Test func brokenOrUnfinishedAnswersAreRefused() throws {
        let good = try Self.lines([.entry(Self.entry(0)), .result(.document(CCDADocument()))])
        #expect(try Self.read(good, piece: 5).finished() != nil)
        // No result: the worker stopped (or was stopped) before the end.
        #expect(try Self.read(try Self.lines([.entry(Self.entry(0))]), piece: 5).finished() == nil)
        // A result without its line end, a line that is not a message, anything after the result.
        #expect(try Self.read(Array(good.dropLast()), piece: 5).finished() == nil)
        #expect(try Self.read(Array("{\"entry\":{}}\n".utf8) + good, piece: 5).finished() == nil)
        #expect(try Self.read(good + Array("\n".utf8), piece: 5).finished() == nil)
        #expect(try Self.read(good + (try Self.lines([.entry(Self.entry(1))])), piece: 5).finished() == nil)
        #expect(try Self.read([], piece: 5).finished() == nil)
    }
}
