import Foundation
import Testing
@testable import PHRRender

/// The CSV reader of Google Fit's Takeout (RFC 4180) on text written here: quoting, line breaks
/// inside fields, every line end, a BOM; damage refused whole naming its line; fields, columns
/// and rows bounded.
@Suite struct CSVTableTests {
    @Test func quotedFieldsWithCommasQuotesAndLineBreaksAreRead() throws {
        let text = "\u{FEFF}Date,Note,Weight\r\n2026-03-15,\"a, b\",72.5\r\n2026-03-16,\"say \"\"hi\"\"\nthen go\",\n"
        let table = try CSVTable.parse(Array(text.utf8), label: "weight.csv: ")
        #expect(table.header == ["Date", "Note", "Weight"])
        #expect(table.rows.map(\.fields) == [["2026-03-15", "a, b", "72.5"], ["2026-03-16", "say \"hi\"\nthen go", ""]])
        #expect(table.rows.map(\.line) == [2, 3])
    }

    @Test func damagedCSVIsRefusedNamingTheLine() throws {
        #expect(throws: ZipArchive.Refusal(reason: "daily.csv: line 3: 2 fields, but the header has 3")) {
            _ = try CSVTable.parse(Array("a,b,c\n1,2,3\n4,5\n".utf8), label: "daily.csv: ")
        }
        #expect(throws: ZipArchive.Refusal(reason: "daily.csv: is not UTF-8 text")) {
            _ = try CSVTable.parse([0x61, 0x0A, 0xFF, 0xFE, 0x0A], label: "daily.csv: ")
        }
    }

    /// Each kind of damage, refused whole with the line it is on.
    @Test(arguments: [
        ("a,b\n1,\"2\n", "daily.csv: line 2: a quoted field is never closed (the file ends inside it)"),
        ("a,b\n1,\"2\"x\n", "daily.csv: line 2: text after the closing quote of a field"),
        ("a,b\n1,2\"3\n", "daily.csv: line 2: a quote inside a field that does not start with one"),
        ("a,b\n\"x\ny\",2\n3\n", "daily.csv: line 4: 1 fields, but the header has 2"),
        ("", "daily.csv: is empty: it has no header line"),
        ("\u{FEFF}\n\r\n", "daily.csv: is empty: it has no header line"),
    ])
    func eachDamageIsRefusedNamingItsLine(text: String, reason: String) throws {
        #expect(throws: ZipArchive.Refusal(reason: reason)) { _ = try CSVTable.parse(Array(text.utf8), label: "daily.csv: ") }
    }

    /// Blank lines are no rows; a lone CR ends a line as CRLF and LF do; the last line needs no end.
    @Test func blankLinesAndEveryLineEndAreRead() throws {
        let table = try CSVTable.parse(Array("Date,Steps\r\n\r\n2026-03-15,10\r2026-03-16,20\n\n2026-03-17,30".utf8), label: "")
        #expect(table.header == ["Date", "Steps"])
        #expect(table.rows.map(\.fields) == [["2026-03-15", "10"], ["2026-03-16", "20"], ["2026-03-17", "30"]])
        #expect(table.rows.map(\.line) == [3, 4, 6])
    }

    @Test func fieldsColumnsAndRowsAreBounded() throws {
        let long = String(repeating: "x", count: CSVTable.maximumFieldBytes)
        #expect(try CSVTable.parse(Array("a\n\(long)\n".utf8), label: "").rows.first?.fields == [long])
        #expect(throws: ZipArchive.Refusal(reason: "f.csv: line 2: a field longer than 4096 bytes")) {
            _ = try CSVTable.parse(Array("a\n\"\(long)x\"\n".utf8), label: "f.csv: ")
        }
        let columns = Array(repeating: "c", count: CSVTable.maximumColumns).joined(separator: ",")
        #expect(try CSVTable.parse(Array("\(columns)\n".utf8), label: "").header.count == 1_000)
        #expect(throws: ZipArchive.Refusal(reason: "f.csv: line 1: more than 1000 fields")) {
            _ = try CSVTable.parse(Array("\(columns),c\n".utf8), label: "f.csv: ")
        }
        let rows = "d\n" + String(repeating: "1\n", count: CSVTable.maximumRows)
        #expect(try CSVTable.parse(Array(rows.utf8), label: "").rows.count == 200_000)
        #expect(throws: ZipArchive.Refusal(reason: "f.csv: line 200002: more than 200000 rows")) {
            _ = try CSVTable.parse(Array((rows + "1\n").utf8), label: "f.csv: ")
        }
    }
}
