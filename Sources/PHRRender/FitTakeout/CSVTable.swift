import PHRModel

/// A CSV file as RFC 4180 describes it (https://www.rfc-editor.org/rfc/rfc4180): comma-separated
/// fields, double quotes around a field that holds a comma, quote or line break, a quote
/// doubled inside one, lines ended by CRLF or LF; a UTF-8 byte-order mark is allowed.
///
/// Takeout's CSVs are machine-written, so anything that does not fit is damage and refused
/// whole, naming the line: text that is not UTF-8, a quote inside an unquoted field or text
/// after a closing one, a quoted field never closed, a row with more or fewer fields than the
/// header. Rows, columns and field lengths are bounded.
struct CSVTable {
    var header: [String]
    /// Each row with the line it starts on (the header is line 1).
    var rows: [(line: Int, fields: [String])]

    static let maximumRows = 200_000
    static let maximumColumns = 1_000
    static let maximumFieldBytes = 4_096

    static func parse(_ bytes: [UInt8], label: String) throws -> CSVTable {
        func refuse(_ line: Int, _ what: String) -> ZipArchive.Refusal {
            ZipArchive.Refusal(reason: "\(label)line \(line): \(what)")
        }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw ZipArchive.Refusal(reason: "\(label)is not UTF-8 text")
        }
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var records: [(line: Int, fields: [String])] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var line = 1
        var rowLine = 1

        func endField() throws {
            guard fields.count < maximumColumns else { throw refuse(rowLine, "more than \(maximumColumns) fields") }
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
        }
        func endRow() throws {
            try endField()
            if fields != [""] {
                guard records.count <= maximumRows else { throw refuse(rowLine, "more than \(maximumRows) rows") }
                records.append((rowLine, fields))
            }
            fields.removeAll(keepingCapacity: true)
        }

        while index < bytes.count {
            let byte = bytes[index]
            if quoted {
                if byte == quote {
                    if index + 1 < bytes.count && bytes[index + 1] == quote {
                        field.append(quote)
                        index += 2
                        continue
                    }
                    quoted = false
                    index += 1
                    if index < bytes.count && ![comma, cr, lf].contains(bytes[index]) {
                        throw refuse(line, "text after the closing quote of a field")
                    }
                    continue
                }
                if byte == lf { line += 1 }
                field.append(byte)
            } else {
                switch byte {
                case quote:
                    guard field.isEmpty else { throw refuse(line, "a quote inside a field that does not start with one") }
                    quoted = true
                case comma:
                    try endField()
                case cr, lf:
                    if byte == cr && index + 1 < bytes.count && bytes[index + 1] == lf { index += 1 }
                    try endRow()
                    line += 1
                    rowLine = line
                default:
                    field.append(byte)
                }
            }
            guard field.count <= maximumFieldBytes else { throw refuse(line, "a field longer than \(maximumFieldBytes) bytes") }
            index += 1
        }
        if quoted { throw refuse(rowLine, "a quoted field is never closed (the file ends inside it)") }
        if !field.isEmpty || !fields.isEmpty { try endRow() }

        guard let first = records.first else { throw ZipArchive.Refusal(reason: "\(label)is empty: it has no header line") }
        let rows = Array(records.dropFirst())
        for row in rows where row.fields.count != first.fields.count {
            throw refuse(row.line, "\(row.fields.count) fields, but the header has \(first.fields.count)")
        }
        return CSVTable(header: first.fields, rows: rows)
    }
}
