import Foundation
import PHRService

/// A JSON-RPC error: the code, and a message that names the field.
struct MCPError: Error, Equatable {
    var code: Int
    var message: String
    var data: JSONValue?

    static let parse = -32700
    static let invalidRequest = -32600
    static let methodNotFound = -32601
    static let invalidParamsCode = -32602
    static let internalCode = -32603
    /// The request's protocol version is not one phr speaks (2026-07-28).
    static let unsupportedVersion = -32022

    static func invalidParams(_ field: String, _ reason: String) -> MCPError {
        MCPError(code: invalidParamsCode, message: "\(field): \(reason)")
    }
}

/// A tool's own failure, for the assistant to read (a result with isError): "no document with
/// ID x", "the vault is locked".
struct MCPToolFailure: Error {
    var message: String
}

/// One request the vault answers (a tool call, a resource listing or read), as `phr mcp` hands
/// it to the `phr serve` agent or answers it in its own process.
struct MCPCall: Codable, Sendable {
    var method: String
    var params: JSONValue
    var scope: MCPScope
    var client: String
    /// Whether the result may carry `structuredContent` (protocol 2025-06-18 and later).
    var structured: Bool
    /// Whether a tool's refused arguments are a result with isError, for the model to correct
    /// (2025-11-25 and later), rather than a protocol error.
    var toolErrorsAsResults: Bool
    /// The 2026-07-28 revision (a missing resource is -32602 there, -32002 before).
    var modern: Bool
}

/// What a call gives back: a JSON-RPC result or error.
struct MCPReply: Codable, Sendable {
    var result: JSONValue?
    var error: MCPErrorBody?

    struct MCPErrorBody: Codable, Sendable {
        var code: Int
        var message: String
        var data: JSONValue?
    }

    static func success(_ result: JSONValue) -> MCPReply { MCPReply(result: result, error: nil) }

    /// The reply as one JSON value (how the agent hands it to `phr mcp`: a listing of 10,000
    /// records goes through JSONEncoder and JSONDecoder slowly).
    var json: JSONValue {
        var members: [String: JSONValue] = [:]
        if let result { members["result"] = result }
        if let error {
            var body: [String: JSONValue] = ["code": .integer(Int64(error.code)), "message": .string(error.message)]
            if let data = error.data { body["data"] = data }
            members["error"] = .object(body)
        }
        return .object(members)
    }

    static func failure(_ error: MCPError) -> MCPReply {
        MCPReply(result: nil, error: MCPErrorBody(code: error.code, message: error.message, data: error.data))
    }
}

extension MCPReply {
    init(json: JSONValue) throws {
        if let error = json["error"] {
            guard case .integer(let code)? = error["code"], case .string(let message)? = error["message"] else {
                throw MCPError(code: MCPError.internalCode, message: "the agent's answer was not understood")
            }
            self.init(result: nil, error: MCPErrorBody(code: Int(code), message: message, data: error["data"]))
        } else {
            self.init(result: json["result"] ?? .object([:]), error: nil)
        }
    }
}

/// Answers tool calls and resource reads on an open vault, within a scope, by running phr's own
/// read commands in-process (so an answer is what `phr … --json` prints for the same question),
/// and appends each call to the vault's access log before answering it.
struct MCPEngine {
    let vault: Vault
    let scope: MCPScope
    let client: String
    let via: AssistantAccess.Via
    /// The environment the commands see: the caller's, without passphrase sources, offline
    /// unless the user allowed the network.
    let environment: [String: String]
    let toolErrorsAsResults: Bool
    let modern: Bool

    init(vault: Vault, call: MCPCall, via: AssistantAccess.Via, environment: [String: String]) {
        self.vault = vault
        scope = call.scope
        client = call.client
        toolErrorsAsResults = call.toolErrorsAsResults
        modern = call.modern
        self.via = via
        var environment = ProcessEnvironment.withoutPassphrases(environment)
        environment["PHR_PROFILE"] = nil
        environment["NO_COLOR"] = "1"
        if !scope.network { environment["PHR_OFFLINE"] = "1" }
        self.environment = environment
    }

    /// The answer to `call`, after recording it in the access log (no answer without the record).
    func answer(_ call: MCPCall) -> MCPReply {
        var log = MCPLogLine(call: call.method, arguments: "{}", profile: nil, outcome: .answered, results: nil)
        let reply: MCPReply
        do {
            switch call.method {
            case "tools/call":
                reply = .success(try callTool(call.params, structured: call.structured, log: &log))
            case "resources/list":
                reply = .success(try MCPResources.list(self, params: call.params, log: &log))
            case "resources/read":
                reply = .success(try MCPResources.read(self, params: call.params, log: &log))
            default:
                throw MCPError(code: MCPError.methodNotFound, message: "Method not found: \(call.method)")
            }
        } catch let error as MCPError {
            log.outcome = error.code == MCPError.internalCode ? .failed : .refused
            reply = .failure(error)
        } catch {
            log.outcome = .failed
            reply = .failure(MCPError(code: MCPError.internalCode, message: VaultDatabase.describe(error)))
        }
        let access = AssistantAccess(at: Timestamp.string(Date()), client: client, call: log.call, arguments: log.arguments,
                                     profile: log.profile, outcome: log.outcome, results: log.results, via: via)
        do {
            try AssistantAccessLog.append(access, to: vault)
        } catch {
            return .failure(MCPError(code: MCPError.internalCode,
                                     message: "phr could not record this call in its access log, so it does not answer it (\(VaultDatabase.describe(error)))"))
        }
        return reply
    }

    private func callTool(_ params: JSONValue, structured: Bool, log: inout MCPLogLine) throws -> JSONValue {
        guard case .object(let members) = params else { throw MCPError.invalidParams("params", "must be an object") }
        guard case .string(let name)? = members["name"] else { throw MCPError.invalidParams("params.name", "the tool's name is missing") }
        log.call = name
        let arguments: [String: JSONValue]
        switch members["arguments"] {
        case nil, .null?: arguments = [:]
        case .object(let given)?: arguments = given
        default: throw MCPError.invalidParams("params.arguments", "must be an object")
        }
        log.arguments = MCPJSON.compact(.object(arguments))
        guard let tool = MCPTools.all.first(where: { $0.name == name }) else {
            throw MCPError.invalidParams("params.name", "Unknown tool: \(name); phr's tools only read records (tools/list names them)")
        }
        guard tool.available(in: scope) else {
            throw MCPError.invalidParams("params.name", "\(name) reads records outside what phr mcp was started to share")
        }
        do {
            let output = try tool.run(self, try tool.check(arguments))
            log.profile = output.profile
            log.results = output.count
            let text = MCPJSON.compact(output.structured)
            var result: [String: JSONValue] = ["content": .array([.object(["type": .string("text"), "text": .string(text)])]),
                                               "isError": .bool(false)]
            if structured { result["structuredContent"] = output.structured }
            return .object(result)
        } catch let failure as MCPToolFailure {
            log.outcome = .failed
            return Self.toolError(failure.message)
        } catch let error as MCPError where error.code == MCPError.invalidParamsCode && toolErrorsAsResults {
            // An argument refused (outside the scope, not of its schema): the model reads why.
            log.outcome = .refused
            return Self.toolError(error.message)
        }
    }

    static func toolError(_ words: String) -> JSONValue {
        .object(["content": .array([.object(["type": .string("text"), "text": .string(words)])]), "isError": .bool(true)])
    }

    // MARK: - Running phr's read commands

    /// What `phr ARGUMENTS --json` prints, parsed; a command's failure as its own words.
    func command(_ arguments: [String]) throws -> JSONValue {
        guard let run = InProcessCommand.run(arguments, vault: vault, environment: environment) else {
            throw MCPError(code: MCPError.internalCode, message: "phr could not run \(arguments.prefix(2).joined(separator: " "))")
        }
        guard !run.overflowed else { throw MCPToolFailure(message: "the answer is larger than phr hands over at once; ask for less") }
        guard run.status == 0 else { throw MCPToolFailure(message: Self.failureWords(run.stderr)) }
        do {
            return try JSONValue.parse(run.stdout)
        } catch {
            throw MCPError(code: MCPError.internalCode, message: "phr's answer was not JSON")
        }
    }

    /// "phr: error: X" and "phr: hint: Y" as one sentence for the assistant.
    static func failureWords(_ stderr: Data) -> String {
        let lines = String(decoding: stderr, as: UTF8.self).split(separator: "\n").map(String.init)
        let error = lines.first { $0.hasPrefix("phr: error: ") }.map { String($0.dropFirst("phr: error: ".count)) }
        let hint = lines.first { $0.hasPrefix("phr: hint: ") }.map { String($0.dropFirst("phr: hint: ".count)) }
        switch (error, hint) {
        case (let error?, let hint?): return "\(error) (\(hint))"
        case (let error?, nil): return error
        default: return lines.first ?? "phr could not answer"
        }
    }

    // MARK: - Profiles in scope

    /// The vault's profiles as `phr profile list --json` gives them.
    func allProfiles() throws -> [JSONValue] { try command(["profile", "list", "--json"]).elements }

    /// The profiles this server may read, by name, the default one first when it is among them.
    func profilesInScope() throws -> [String] {
        let profiles = try allProfiles()
        let names = profiles.compactMap { $0["name"]?.text }
        let defaultName = profiles.first { $0["default"]?.bool == true }?["name"]?.text
        var allowed: [String]
        switch scope.profiles {
        case nil: allowed = names
        case let listed? where listed.isEmpty: allowed = defaultName.map { [$0] } ?? []
        case let listed?:
            // A name given to --profile is the profile of that exact name, else the one profile
            // that matches it ignoring case (two that differ only in case: neither).
            allowed = listed.compactMap { given in
                if names.contains(given) { return given }
                let folded = names.filter { $0.caseInsensitiveCompare(given) == .orderedSame }
                return folded.count == 1 ? folded[0] : nil
            }
            allowed = allowed.enumerated().filter { index, name in !allowed[..<index].contains(name) }.map(\.element)
        }
        if let defaultName, let index = allowed.firstIndex(of: defaultName), index > 0 {
            allowed.remove(at: index)
            allowed.insert(defaultName, at: 0)
        }
        return allowed
    }

    /// The profile a call is about: the one it names (which must be in scope), else the first in
    /// scope.
    func profile(_ requested: String?) throws -> String {
        let allowed = try profilesInScope()
        guard let requested else {
            guard let first = allowed.first else {
                throw MCPToolFailure(message: "none of the profiles phr mcp was started for is in this vault")
            }
            return first
        }
        let folded = allowed.filter { $0.caseInsensitiveCompare(requested) == .orderedSame }
        guard let match = allowed.first(where: { $0 == requested }) ?? (folded.count == 1 ? folded.first : nil) else {
            throw MCPError.invalidParams("arguments.profile", "'\(requested)' is not a profile this server may read (it may read: \(allowed.joined(separator: ", ")))")
        }
        return match
    }
}

/// What the access log gets for one call, filled in as the call is answered.
struct MCPLogLine {
    var call: String
    var arguments: String
    var profile: String?
    var outcome: AssistantAccess.Outcome
    var results: Int?
}

/// JSON text without newlines (the stdio framing is one message per line).
enum MCPJSON {
    static func compact(_ value: JSONValue) -> String {
        String(decoding: value.jsonText, as: UTF8.self)
    }

    static func data<T: Encodable>(_ value: T) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)) ?? Data("null".utf8)
    }
}
