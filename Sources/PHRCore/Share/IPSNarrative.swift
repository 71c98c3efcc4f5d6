/// The human-readable part of IPS sections: XHTML tables, as FHIR narratives must be
/// (http://hl7.org/fhir/R4/narrative.html), with every piece of record text escaped.
enum IPSNarrative {
    /// A `text` element: status "generated" and a div holding `body` (already XHTML).
    static func text(_ body: String) -> OrderedJSON {
        .object([
            ("status", .string("generated")),
            ("div", .string("<div xmlns=\"http://www.w3.org/1999/xhtml\">\(body)</div>")),
        ])
    }

    /// A table with a header row; empty cells show as an em dash.
    static func table(_ headers: [String], _ rows: [[String?]]) -> String {
        var html = "<table><thead><tr>" + headers.map { "<th>\(escape($0))</th>" }.joined() + "</tr></thead><tbody>"
        for row in rows {
            html += "<tr>" + row.map { "<td>\(escape($0 ?? "—"))</td>" }.joined() + "</tr>"
        }
        return html + "</tbody></table>"
    }

    static func paragraph(_ text: String) -> String {
        "<p>\(escape(text))</p>"
    }

    /// XML's five reserved characters.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
