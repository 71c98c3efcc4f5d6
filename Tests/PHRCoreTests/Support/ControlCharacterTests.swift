import Foundation
import GRDB
import Testing
@testable import PHRCore

/// Control characters: refused on the way in (one rule, at the record stores), neutralised on
/// the way out to a terminal.
@Suite struct ControlCharacterTests {
    static let attacks = ["\u{1b}[2J", "\u{1b}]0;owned\u{07}", "\u{1b}]52;c;cGF5bG9hZA==\u{07}", "\u{9b}31m", "\u{08}\u{08}ok", "\u{7f}"]

    /// Whether `body` fails with a RecordError (invalid field).
    static func refused(_ body: () throws -> Void) -> Bool {
        do { try body() } catch is PHRCore.RecordError { return true } catch { return false }
        return false
    }

    @Test func everyControlCharacterIsShownVisiblyExceptNewlineAndTab() {
        #expect(TerminalText.neutralized("Asthma\u{1b}[2J") == "Asthma^[[2J")
        #expect(TerminalText.neutralized("t\u{1b}]0;owned\u{07}") == "t^[]0;owned^G")
        #expect(TerminalText.neutralized("\u{9b}31m red") == "\u{FFFD}31m red")
        #expect(TerminalText.neutralized("a\rb\u{7f}\u{0}") == "a^Mb^?^@")
        #expect(TerminalText.neutralized("two\nlines\tand a tab") == "two\nlines\tand a tab")
        #expect(TerminalText.neutralized("Lévothyrox 診断書") == "Lévothyrox 診断書")
        for attack in Self.attacks {
            let shown = TerminalText.neutralized("x" + attack + "y")
            #expect(!shown.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(shown.debugDescription)")
        }
    }

    @Test func onlyTheExactSequencesKeptPass() {
        let own: Set<String> = ["\u{1b}[1m", "\u{1b}[0m"]
        #expect(TerminalText.neutralized("\u{1b}[1mID\u{1b}[0m", keeping: own) == "\u{1b}[1mID\u{1b}[0m")
        // A sequence that is not phr's own, even an SGR one (8 hides text), does not pass.
        #expect(TerminalText.neutralized("\u{1b}[8mhidden\u{1b}[0m", keeping: own) == "^[[8mhidden\u{1b}[0m")
        #expect(TerminalText.neutralized("\u{1b}[1;2H\u{1b}[1m", keeping: own) == "^[[1;2H\u{1b}[1m")
    }

    /// A name is one line (a listing row each): its line breaks and tabs become single spaces,
    /// whatever brought them (a typed option, a FHIR display, a PDF title); notes keep their lines.
    @Test func namesAreOneLineAndNotesKeepTheirLines() throws {
        #expect(try RecordFields.text("Vitamin D\n 25-OH", field: Field.argument("name")) == "Vitamin D 25-OH")
        #expect(try RecordFields.text("a\r\n\r\n\tb\u{2028}c", field: Field.argument("name")) == "a b c")
        #expect(try RecordFields.text("first line\r\nsecond", field: Field("notes"), limit: RecordFields.maximumTextLength, multiline: true)
                == "first line\nsecond")
        #expect(try DocumentFields.title("Blood\ntest") == "Blood test")
        #expect(DocumentImporter.title(metadata: "Lab report\nMarch 2025", fileName: "x.pdf") == "Lab report March 2025")
        #expect(DocumentImporter.title(metadata: nil, fileName: "scan\n2025.pdf") == "Scan 2025")
        #expect(Self.refused { _ = try RecordFields.text("\n\t\n", field: Field.argument("name")) }, "only line breaks is empty")

        let (vault, _, directory) = try TestSupport.makeVault("oneline")
        defer { TestSupport.remove(directory) }
        let profile = try vault.database.read { db in try Profiles.resolve(db, name: nil) }
        let store = ConditionStore(vault: vault, profile: profile, time: TimeContext(now: Date(), zone: TimeZone(identifier: "UTC")!))
        var input = ConditionStore.Input()
        input.name = "Type 2\ndiabetes"
        input.notes = "diet first\nthen metformin"
        let added = try store.add(input)
        #expect(added.name == "Type 2 diabetes")
        #expect(added.notes == "diet first\nthen metformin")
    }

    @Test func recordStoresRefuseControlCharactersInAnyStringField() throws {
        let (vault, _, directory) = try TestSupport.makeVault("controls")
        defer { TestSupport.remove(directory) }
        let profile = try vault.database.read { db in try Profiles.resolve(db, name: nil) }
        let store = ConditionStore(vault: vault, profile: profile, time: TimeContext(now: Date(), zone: TimeZone(identifier: "UTC")!))
        for attack in Self.attacks {
            var input = ConditionStore.Input()
            input.name = "Asthma" + attack
            let badName = input
            #expect(Self.refused { _ = try store.add(badName) })
            input.name = "Asthma"
            input.notes = "note " + attack
            let badNotes = input
            #expect(Self.refused { _ = try store.add(badNotes) })
        }
        // A coding's display (as an importer would bring it) is checked where rows are written.
        let condition = Condition(id: "abcd1234", uid: "u1", name: "Asthma", status: .active, since: nil, resolved: nil, notes: nil,
                                  codes: [Coding(system: Coding.System.snomed, code: "195967001", display: "Asthma\u{1b}[2J")],
                                  source: nil, createdAt: "2026-01-01T00:00:00Z", updatedAt: "2026-01-01T00:00:00Z")
        #expect(throws: PHRCore.RecordError.invalidField(field: Field.path("codes[0].display"), reason: "contains control characters (such as a terminal escape sequence)")) {
            try vault.database.write { db -> Void in try ConditionStore.insert(db, condition, profileID: profile.id) }
        }
        #expect(Self.refused { try vault.database.write { db in _ = try Profiles.create(db, name: "Mia\u{1b}[2J", relation: .child) } })
        // Newlines and tabs in notes stay allowed; CRLF and a lone CR (which would send a
        // terminal's cursor back over the line) become newlines, one rule for every way in.
        var fine = ConditionStore.Input()
        fine.name = "Asthma"
        fine.notes = "line one\r\nline two\n\tindented\rlast"
        #expect(try store.add(fine).notes == "line one\nline two\n\tindented\nlast")
        #expect(try store.list().count == 1)
    }

    @Test func textFromFilesHasControlCharactersReplaced() {
        #expect(RecordFields.replacingControlCharacters("scan\u{1b}[2J.pdf") == "scan\u{FFFD}[2J.pdf")
        #expect(RecordFields.replacingControlCharacters("plain name") == "plain name")
    }
}
