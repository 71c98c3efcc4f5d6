import Foundation

/// Reads iCalendar text (RFC 5545) into components and properties: unfolds lines, splits
/// names, parameters and values. Interpretation is left to `ICalendarImport`.
struct ICalendarParser {
    struct Property {
        /// Upper-cased, as names are case-insensitive.
        var name: String
        /// Parameter names upper-cased; values unquoted.
        var parameters: [String: String]
        /// The raw value (TEXT still escaped).
        var value: String
        var line: Int

        var text: String { ICalendarText.unescape(value) }
    }

    final class Component {
        let name: String
        let line: Int
        var properties: [Property] = []
        var components: [Component] = []

        init(name: String, line: Int) {
            self.name = name
            self.line = line
        }

        func first(_ name: String) -> Property? { properties.first { $0.name == name } }
        func all(_ name: String) -> [Property] { properties.filter { $0.name == name } }
    }

    struct SyntaxError: Error {
        let line: Int
        let reason: String
    }

    /// The deepest nesting read. Calendars nest three deep (VCALENDAR, VEVENT, VALARM); the
    /// limit keeps a file of 100,000 BEGIN lines from building a tree whose release recurses
    /// once per level and overflows the stack.
    static let maximumDepth = 16

    /// The top-level components (normally one VCALENDAR).
    static func parse(_ text: String) throws -> [Component] {
        var logical: [(line: Int, text: String)] = []
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            var line = String(raw)
            if line.hasSuffix("\r") { line.removeLast() }
            if let first = line.first, first == " " || first == "\t", !logical.isEmpty {
                logical[logical.count - 1].text += line.dropFirst()
            } else if !line.isEmpty {
                logical.append((index + 1, line))
            }
        }
        var roots: [Component] = []
        var stack: [Component] = []
        for (number, line) in logical {
            let property = try parseLine(line, number: number)
            switch property.name {
            case "BEGIN":
                guard stack.count < maximumDepth else {
                    throw SyntaxError(line: number, reason: "components nested more than \(maximumDepth) deep")
                }
                let component = Component(name: property.value.uppercased(), line: number)
                if let parent = stack.last { parent.components.append(component) } else { roots.append(component) }
                stack.append(component)
            case "END":
                guard let open = stack.popLast(), open.name == property.value.uppercased() else {
                    throw SyntaxError(line: number, reason: "END:\(property.value) does not close the open component")
                }
            default:
                guard let open = stack.last else { throw SyntaxError(line: number, reason: "a property outside any component") }
                open.properties.append(property)
            }
        }
        if let open = stack.last { throw SyntaxError(line: open.line, reason: "BEGIN:\(open.name) is never closed") }
        return roots
    }

    /// NAME *(";" param) ":" value, with quoted parameter values that may hold ":" and ";".
    static func parseLine(_ line: String, number: Int) throws -> Property {
        var name = ""
        var parameters: [String: String] = [:]
        var index = line.startIndex
        while index < line.endIndex, line[index] != ";", line[index] != ":" {
            name.append(line[index])
            index = line.index(after: index)
        }
        guard !name.isEmpty, index < line.endIndex else { throw SyntaxError(line: number, reason: "not a content line (NAME:value)") }
        while line[index] == ";" {
            index = line.index(after: index)
            var key = ""
            while index < line.endIndex, line[index] != "=" {
                key.append(line[index])
                index = line.index(after: index)
            }
            guard index < line.endIndex else { throw SyntaxError(line: number, reason: "parameter \(key) has no value") }
            index = line.index(after: index)
            var value = ""
            var quoted = false
            while index < line.endIndex {
                let character = line[index]
                if character == "\"" { quoted.toggle() } else if !quoted && (character == ";" || character == ":") { break } else { value.append(character) }
                index = line.index(after: index)
            }
            guard index < line.endIndex, !quoted else { throw SyntaxError(line: number, reason: "unterminated parameter \(key)") }
            parameters[key.uppercased()] = value
        }
        guard line[index] == ":" else { throw SyntaxError(line: number, reason: "not a content line (NAME:value)") }
        return Property(name: name.uppercased(), parameters: parameters, value: String(line[line.index(after: index)...]), line: number)
    }
}
