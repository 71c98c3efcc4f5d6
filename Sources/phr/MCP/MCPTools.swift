import Foundation
import PHRService

/// One argument a tool takes, and the JSON schema clients see for it.
struct MCPParameter: Sendable {
    enum Kind: Sendable {
        case string(maxLength: Int)
        case integer(ClosedRange<Int>)
        case boolean
        case choice([String])
        /// A calendar day, YYYY-MM-DD.
        case day
        /// A record ID as phr prints it (letters and digits).
        case id
    }

    var name: String
    var kind: Kind
    var description: String
    var required = false

    var schema: JSONValue {
        var schema: [String: JSONValue] = ["description": .string(description)]
        switch kind {
        case .string(let maxLength):
            schema["type"] = .string("string")
            schema["minLength"] = .integer(1)
            schema["maxLength"] = .integer(Int64(maxLength))
        case .integer(let range):
            schema["type"] = .string("integer")
            schema["minimum"] = .integer(Int64(range.lowerBound))
            schema["maximum"] = .integer(Int64(range.upperBound))
        case .boolean:
            schema["type"] = .string("boolean")
        case .choice(let values):
            schema["type"] = .string("string")
            schema["enum"] = .array(values.map { .string($0) })
        case .day:
            schema["type"] = .string("string")
            schema["pattern"] = .string("^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
        case .id:
            schema["type"] = .string("string")
            schema["pattern"] = .string("^[A-Za-z0-9]{1,32}$")
        }
        return .object(schema)
    }

    /// `value` as this parameter takes it, or the reason it is refused (naming the field).
    func check(_ value: JSONValue) throws -> JSONValue {
        let field = "arguments.\(name)"
        switch (kind, value) {
        case (.string(let maxLength), .string(let text)):
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { throw MCPError.invalidParams(field, "is empty") }
            // Counted in code points, as the vault counts text (a letter with 500,000 combining
            // marks is one Character).
            guard text.unicodeScalars.count <= maxLength else { throw MCPError.invalidParams(field, "is longer than \(maxLength) characters") }
            guard !text.unicodeScalars.contains(where: { $0.value == 0 }) else { throw MCPError.invalidParams(field, "holds a NUL character") }
            return .string(trimmed)
        case (.integer(let range), .integer(let number)):
            guard range.contains(Int(clamping: number)) else {
                throw MCPError.invalidParams(field, "must be from \(range.lowerBound) to \(range.upperBound)")
            }
            return value
        case (.integer(let range), .double(let number)) where number.rounded() == number && abs(number) < 1e15:
            return try JSONValue.integer(Int64(number)).checked(range, field)
        case (.boolean, .bool):
            return value
        case (.choice(let values), .string(let text)):
            guard values.contains(text) else { throw MCPError.invalidParams(field, "'\(text)' is not one of \(values.joined(separator: ", "))") }
            return value
        case (.day, .string(let text)):
            guard CalendarDate(text) != nil else { throw MCPError.invalidParams(field, "'\(text)' is not a day (YYYY-MM-DD)") }
            return value
        case (.id, .string(let text)):
            guard Self.isRecordID(text) else {
                throw MCPError.invalidParams(field, "'\(text.prefix(40))' is not a record ID (letters and digits, as phr lists them)")
            }
            return .string(text.lowercased())
        default:
            throw MCPError.invalidParams(field, "must be \(typeWords)")
        }
    }

    /// A record ID as phr prints them: 1 to 32 ASCII letters and digits.
    static func isRecordID(_ text: String) -> Bool {
        (1...32).contains(text.unicodeScalars.count) && text.unicodeScalars.allSatisfy { $0.isASCII && CharacterSet.alphanumerics.contains($0) }
    }

    private var typeWords: String {
        switch kind {
        case .string, .choice, .day, .id: return "a string"
        case .integer: return "an integer"
        case .boolean: return "true or false"
        }
    }
}

private extension JSONValue {
    func checked(_ range: ClosedRange<Int>, _ field: String) throws -> JSONValue {
        guard case .integer(let number) = self, range.contains(Int(clamping: number)) else {
            throw MCPError.invalidParams(field, "must be from \(range.lowerBound) to \(range.upperBound)")
        }
        return self
    }
}

/// A tool's arguments once checked against its parameters.
struct MCPArguments {
    var values: [String: JSONValue]

    func string(_ name: String) -> String? { values[name]?.text }
    func int(_ name: String) -> Int? { values[name]?.int }
    func bool(_ name: String) -> Bool { values[name]?.bool ?? false }
}

/// What a tool answers: structured content (an object), for whom, how many results.
struct MCPToolOutput {
    var structured: JSONValue
    var profile: String?
    var count: Int?
}

/// A read-only tool: its name, what the assistant is told, the kinds of records it needs in
/// scope (all of `needs`, or any of them with `needsAny`), its parameters and what it does.
struct MCPTool: @unchecked Sendable {
    var name: String
    var title: String
    var description: String
    var needs: [MCPKind]
    var needsAny = false
    var parameters: [MCPParameter]
    var perProfile = true
    var run: (MCPEngine, MCPArguments) throws -> MCPToolOutput

    func available(in scope: MCPScope) -> Bool {
        if needs.isEmpty { return true }
        return needsAny ? needs.contains(where: scope.allows) : needs.allSatisfy(scope.allows)
    }

    var allParameters: [MCPParameter] {
        perProfile ? parameters + [MCPParameter(name: "profile", kind: .string(maxLength: 200),
                                                description: "Whose records (a profile's name); the first profile this server may read when left out.")]
                   : parameters
    }

    /// The tool as `tools/list` describes it.
    func listing(titles: Bool) -> JSONValue {
        var properties: [String: JSONValue] = [:]
        for parameter in allParameters { properties[parameter.name] = parameter.schema }
        var schema: [String: JSONValue] = ["type": .string("object"), "properties": .object(properties),
                                           "additionalProperties": .bool(false)]
        let required = allParameters.filter(\.required).map { JSONValue.string($0.name) }
        if !required.isEmpty { schema["required"] = .array(required) }
        var tool: [String: JSONValue] = ["name": .string(name), "description": .string(description), "inputSchema": .object(schema),
                                         "annotations": .object(["readOnlyHint": .bool(true), "destructiveHint": .bool(false),
                                                                 "idempotentHint": .bool(true), "openWorldHint": .bool(false)])]
        if titles { tool["title"] = .string(title) }
        return .object(tool)
    }

    /// `arguments` checked: unknown names refused (no tool takes an argument that writes),
    /// required ones present, each of its type and range.
    func check(_ arguments: [String: JSONValue]) throws -> MCPArguments {
        var checked: [String: JSONValue] = [:]
        let parameters = allParameters
        for name in arguments.keys.sorted() where !parameters.contains(where: { $0.name == name }) {
            throw MCPError.invalidParams("arguments.\(name)", "\(self.name) takes no such argument (it takes \(parameters.map(\.name).joined(separator: ", ")))")
        }
        for parameter in parameters {
            switch arguments[parameter.name] {
            case nil, .null?:
                if parameter.required { throw MCPError.invalidParams("arguments.\(parameter.name)", "is required") }
            case let value?:
                checked[parameter.name] = try parameter.check(value)
            }
        }
        return MCPArguments(values: checked)
    }
}

/// Pages of a long list: the cursor is the offset, as an opaque string.
enum MCPPaging {
    static func offset(_ cursor: String?) throws -> Int {
        guard let cursor else { return 0 }
        guard cursor.hasPrefix("o"), let offset = Int(cursor.dropFirst()), offset >= 0, offset <= 10_000_000 else {
            throw MCPError.invalidParams("arguments.cursor", "is not a cursor this server gave")
        }
        return offset
    }

    static func cursor(after offset: Int, count: Int, total: Int) -> JSONValue {
        offset + count < total ? .string("o\(offset + count)") : .null
    }

    static let cursorParameter = MCPParameter(name: "cursor", kind: .string(maxLength: 40),
                                              description: "Where the previous page ended (its next_cursor).")
}
