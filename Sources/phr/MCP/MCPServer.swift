import Foundation
import Glibc
import PHRService

/// Where `phr mcp`'s calls are answered: by the vault's running `phr serve` agent (no second
/// unlock), else on the vault opened in this process (from the unlock cache or a passphrase
/// variable; `phr mcp` never prompts, its standard input is the protocol).
final class MCPBackend {
    static let agentAction = AgentCommand.mcpAction

    let location: VaultLocation
    let scope: MCPScope
    /// The vault this process opened itself, and whether its keys came from the unlock cache
    /// (then it is closed as soon as the unlock ends or `phr lock` clears it).
    private var vault: Vault?
    private var openedFromCache = false
    /// The vault's key file, read once: its vault ID names the agent and the unlock cache.
    private lazy var keyFile: KeyFile? = try? Vault.readKeyFile(at: location)

    init(location: VaultLocation, scope: MCPScope) {
        self.location = location
        self.scope = scope
    }

    func answer(_ call: MCPCall) -> MCPReply {
        let method = call.method
        // The agent first, whenever one runs: this process then holds no key.
        if let reply = askAgent(call) {
            vault = nil
            return reply
        }
        if vault != nil, openedFromCache, !unlockCacheHolds() { vault = nil }
        do {
            if vault == nil {
                openedFromCache = unlockCacheHolds()
                vault = try Session.openVaultIfUnlockable(location, unlocking: Unlocking(environment: ProcessEnvironment.variables, prompt: nil))
            }
        } catch let error as PHRError {
            return locked(method, error.message.cli)
        } catch {
            return locked(method, VaultDatabase.describe(error))
        }
        guard let vault else {
            return locked(method, "the vault at \(location.root) is locked; phr mcp never asks for the passphrase. Run 'phr serve' (or 'phr unlock') in a terminal, then ask again")
        }
        return MCPEngine(vault: vault, call: call, via: .process, environment: ProcessEnvironment.variables).answer(call)
    }

    /// Whether the unlock cache holds this vault's keys now (`phr unlock`, not yet ended or
    /// locked).
    private func unlockCacheHolds() -> Bool {
        guard let keyFile, let cached = UnlockCache.load(vaultID: keyFile.vaultID) else { return false }
        return cached.keys.matches(keyFile)
    }

    /// The agent's answer, or nil when no agent runs for the vault or it declined.
    private func askAgent(_ call: MCPCall) -> MCPReply? {
        guard let keyFile, let record = AgentRecord.running(vaultID: keyFile.vaultID),
              let socket = record.socket else { return nil }
        let request = AgentCommand(vaultID: keyFile.vaultID, arguments: [String(decoding: MCPJSON.data(call), as: UTF8.self)],
                                   environment: ProcessEnvironment.variables, stdoutIsTTY: false, stderrIsTTY: false, columns: nil,
                                   zone: TimeZone.current.identifier, action: Self.agentAction)
        guard let answer = AgentSocket.ask(request, socket: socket), !answer.declined, answer.status == 0 else { return nil }
        let bytes = answer.output.filter { $0.stream == .stdout }.flatMap(\.bytes)
        return (try? JSONValue.parse(Data(bytes))).flatMap { try? MCPReply(json: $0) }
    }

    /// A locked vault: a tool's failure the assistant can tell the user about.
    private func locked(_ method: String, _ words: String) -> MCPReply {
        if method == "tools/call" {
            return .success(.object(["content": .array([.object(["type": .string("text"), "text": .string(words)])]), "isError": .bool(true)]))
        }
        return .failure(MCPError(code: MCPError.internalCode, message: words))
    }

    /// The agent's side: answers a call from `phr mcp` on its open vault, in the time zone the
    /// caller runs in (else declined, and `phr mcp` answers it itself).
    static func answer(_ request: AgentCommand, vault: Vault) -> AgentAnswer {
        guard request.zone == TimeZone.current.identifier, request.arguments.count == 1,
              let call = try? JSONDecoder().decode(MCPCall.self, from: Data(request.arguments[0].utf8)) else { return .declined }
        let reply = MCPEngine(vault: vault, call: call, via: .agent, environment: request.environment).answer(call)
        return AgentAnswer(status: 0, output: [AgentAnswer.Chunk(stream: .stdout, bytes: Array(reply.json.jsonText))])
    }
}

/// The Model Context Protocol over standard input and output: one JSON-RPC 2.0 message per line.
/// Speaks the current revision (2026-07-28: `server/discover`, the version in each request's
/// `_meta`) and the handshake revisions before it (`initialize`, 2025-11-25 back to 2024-11-05).
///
/// A hostile client gets a protocol error or a clean exit: a line over `lineLimit` bytes is
/// refused without being held, requests are answered one at a time (a flood waits in the pipe),
/// an answer over `answerLimit` bytes is replaced by an error, and a closed stdin or stdout ends
/// the server with status 0.
final class MCPStdioServer {
    static let modernVersions = ["2026-07-28"]
    static let handshakeVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    static let versionMetaKey = "io.modelcontextprotocol/protocolVersion"
    static let clientInfoMetaKey = "io.modelcontextprotocol/clientInfo"
    static let serverInfoMetaKey = "io.modelcontextprotocol/serverInfo"
    static let lineLimit = 1 << 20
    static let answerLimit = 8 << 20
    static let batchLimit = 50

    let backend: MCPBackend
    let scope: MCPScope
    let version: String
    private let output: FileDescriptor
    private var handshakeVersion: String?
    private var handshakeClient = "unnamed client"

    init(backend: MCPBackend, scope: MCPScope, version: String, output: FileDescriptor) {
        self.backend = backend
        self.scope = scope
        self.version = version
        self.output = output
    }

    /// Reads messages from `input` until it ends; the exit status.
    func run(input: Int32) -> Int32 {
        var pending = [UInt8]()
        var discarding = false
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return 0
            }
            if count == 0 { break }
            var start = 0
            for index in 0..<count where buffer[index] == UInt8(ascii: "\n") {
                if discarding {
                    discarding = false
                } else {
                    pending.append(contentsOf: buffer[start..<index])
                    guard handleLine(pending) else { return 0 }
                }
                pending.removeAll(keepingCapacity: true)
                start = index + 1
            }
            if !discarding {
                pending.append(contentsOf: buffer[start..<count])
                if pending.count > Self.lineLimit {
                    pending = []
                    discarding = true
                    let refusal = MCPError(code: MCPError.invalidRequest, message: "a message longer than \(Self.lineLimit) bytes is refused")
                    guard write(response(id: .null, error: refusal)) else { return 0 }
                }
            }
        }
        if !discarding, !pending.isEmpty { _ = handleLine(pending) }
        return 0
    }

    /// Answers one line; false when the answer could not be written (the client is gone).
    private func handleLine(_ line: [UInt8]) -> Bool {
        var bytes = line[...]
        if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
        guard bytes.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else { return true }
        guard let answer = handle(Data(bytes)) else { return true }
        return write(answer)
    }

    /// The answer to one message (nil for notifications and responses).
    func handle(_ data: Data) -> Data? {
        let message: JSONValue
        do {
            message = try JSONValue.parse(data)
        } catch {
            return response(id: .null, error: MCPError(code: MCPError.parse, message: "Parse error: the message is not JSON"))
        }
        if case .array(let batch) = message {
            guard !batch.isEmpty, batch.count <= Self.batchLimit else {
                return response(id: .null, error: MCPError(code: MCPError.invalidRequest,
                                                           message: "a batch holds 1 to \(Self.batchLimit) messages"))
            }
            var total = 0
            let answers = batch.compactMap { message -> Data? in
                guard var answer = handleMessage(message) else { return nil }
                total += answer.count
                if total > Self.answerLimit {
                    // The batch's answers together stay under the limit too.
                    let id = message["id"].flatMap { id -> JSONValue? in
                        switch id {
                        case .string, .integer: return id
                        default: return nil
                        }
                    } ?? .null
                    answer = response(id: id, error: MCPError(code: MCPError.internalCode,
                                                              message: "the batch's answers are larger than \(Self.answerLimit >> 20) MiB; ask for less in each"))
                    total += answer.count
                }
                return answer
            }
            guard !answers.isEmpty else { return nil }
            return Data("[".utf8) + answers.joined(separator: Data(",".utf8)) + Data("]".utf8)
        }
        return handleMessage(message)
    }

    private func handleMessage(_ message: JSONValue) -> Data? {
        guard case .object(let members) = message else {
            return response(id: .null, error: MCPError(code: MCPError.invalidRequest, message: "Invalid request: a message is a JSON object"))
        }
        let id: JSONValue?
        switch members["id"] {
        case nil: id = nil
        case .string?, .integer?: id = members["id"]
        default:
            return response(id: .null, error: MCPError(code: MCPError.invalidRequest, message: "Invalid request: id must be a string or an integer"))
        }
        guard members["jsonrpc"] == .string("2.0") else {
            return response(id: id ?? .null, error: MCPError(code: MCPError.invalidRequest, message: "Invalid request: jsonrpc must be \"2.0\""))
        }
        guard case .string(let method)? = members["method"] else {
            // A response to a request of ours (phr sends none) or nothing: not answered.
            if members["result"] != nil || members["error"] != nil { return nil }
            return response(id: id ?? .null, error: MCPError(code: MCPError.invalidRequest, message: "Invalid request: method is missing"))
        }
        let params = members["params"] ?? .object([:])
        switch params {
        case .object: break
        case .null: break
        default:
            guard let id else { return nil }
            return response(id: id, error: MCPError.invalidParams("params", "must be an object"))
        }
        guard let id else { return nil }  // notifications (initialized, cancelled) need nothing
        do {
            return response(id: id, result: try request(method, params: params))
        } catch let error as MCPError {
            return response(id: id, error: error)
        } catch {
            return response(id: id, error: MCPError(code: MCPError.internalCode, message: VaultDatabase.describe(error)))
        }
    }

    /// The result of one request.
    private func request(_ method: String, params: JSONValue) throws -> JSONValue {
        let meta = params["_meta"]
        var modern = false
        var client = handshakeClient
        if case .string(let requested)? = meta?[Self.versionMetaKey] {
            guard Self.modernVersions.contains(requested) else {
                throw MCPError(code: MCPError.unsupportedVersion, message: "Unsupported protocol version: \(requested.prefix(40))",
                               data: .object(["supported": .array(Self.modernVersions.map { .string($0) }), "requested": .string(String(requested.prefix(40)))]))
            }
            modern = true
            client = Self.clientName(meta?[Self.clientInfoMetaKey]) ?? "unnamed client"
        }
        switch method {
        case "ping":
            return .object([:])
        case "initialize":
            guard case .string(let requested)? = params["protocolVersion"] else {
                throw MCPError.invalidParams("params.protocolVersion", "is missing")
            }
            let chosen = Self.handshakeVersions.contains(requested) ? requested : Self.handshakeVersions[0]
            handshakeVersion = chosen
            handshakeClient = Self.clientName(params["clientInfo"]) ?? "unnamed client"
            var result = serverDescription(titles: chosen >= "2025-06-18")
            result["protocolVersion"] = .string(chosen)
            return .object(result)
        case "server/discover":
            var result = serverDescription(titles: true)
            result["supportedVersions"] = .array((Self.modernVersions + Self.handshakeVersions).map { .string($0) })
            return stamped(.object(result), cacheable: true)
        default:
            break
        }
        guard modern || handshakeVersion != nil else {
            throw MCPError(code: MCPError.invalidRequest,
                           message: "Invalid request: send initialize first (or server/discover, then the protocol version in each request's _meta)")
        }
        let structured = modern || (handshakeVersion ?? "") >= "2025-06-18"
        func call(_ method: String) -> MCPCall {
            MCPCall(method: method, params: params, scope: scope, client: client, structured: structured,
                    toolErrorsAsResults: modern || (handshakeVersion ?? "") >= "2025-11-25", modern: modern)
        }
        func finish(_ reply: MCPReply, cacheable: Bool) throws -> JSONValue {
            if let error = reply.error { throw MCPError(code: error.code, message: error.message, data: error.data) }
            let result = reply.result ?? .object([:])
            return modern ? stamped(result, cacheable: cacheable) : result
        }
        switch method {
        case "tools/list":
            let tools = MCPTools.available(in: scope).map { $0.listing(titles: structured) }
            return try finish(.success(.object(["tools": .array(tools)])), cacheable: true)
        case "tools/call":
            return try finish(backend.answer(call(method)), cacheable: false)
        case "resources/list", "resources/read":
            return try finish(backend.answer(call(method)), cacheable: true)
        case "resources/templates/list":
            return try finish(.success(MCPResources.templates(scope)), cacheable: true)
        default:
            throw MCPError(code: MCPError.methodNotFound, message: "Method not found: \(method.prefix(100))")
        }
    }

    private var serverInfo: JSONValue {
        .object(["name": .string("phr"), "title": .string("phr health records (read-only)"), "version": .string(version)])
    }

    private func serverDescription(titles: Bool) -> [String: JSONValue] {
        var info = serverInfo
        if !titles, case .object(var members) = info {
            members["title"] = nil
            info = .object(members)
        }
        return [
            "capabilities": .object(["tools": .object(["listChanged": .bool(false)]),
                                     "resources": .object(["listChanged": .bool(false), "subscribe": .bool(false)])]),
            "serverInfo": info,
            "instructions": .string(Self.instructions),
        ]
    }

    static let instructions = """
        phr is the user's own encrypted health-records vault, read-only here: documents (with their text), \
        medications, appointments, lab results, the daily health log, allergies, conditions, vaccinations, \
        procedures, family history and contacts, for each person (profile) the user allowed. Start with search or \
        list_records; read one record with get_record and a document's text with document_text. Lists come a page \
        at a time (next_cursor). Every call is recorded in the vault's access log, which the user can read. phr \
        gives information, not medical advice.
        """

    /// A 2026-07-28 result: its type, the server's name, and (lists, reads) caching directives.
    private func stamped(_ result: JSONValue, cacheable: Bool) -> JSONValue {
        guard case .object(var members) = result else { return result }
        members["resultType"] = .string("complete")
        var meta: [String: JSONValue] = [:]
        if case .object(let given)? = members["_meta"] { meta = given }
        meta[Self.serverInfoMetaKey] = serverInfo
        members["_meta"] = .object(meta)
        if cacheable {
            members["ttlMs"] = .integer(0)
            members["cacheScope"] = .string("private")
        }
        return .object(members)
    }

    /// "name version" from a client's Implementation object.
    static func clientName(_ info: JSONValue?) -> String? {
        guard case .string(let name)? = info?["name"] else { return nil }
        if case .string(let version)? = info?["version"] { return "\(name) \(version)" }
        return name
    }

    private func response(id: JSONValue, result: JSONValue) -> Data {
        let data = JSONValue.object(["jsonrpc": .string("2.0"), "id": id, "result": result]).jsonText
        guard data.count <= Self.answerLimit else {
            return response(id: id, error: MCPError(code: MCPError.internalCode,
                                                    message: "the answer is larger than \(Self.answerLimit >> 20) MiB; ask for a smaller page (limit, max_chars)"))
        }
        return data
    }

    private func response(id: JSONValue, error: MCPError) -> Data {
        var body: [String: JSONValue] = ["code": .integer(Int64(error.code)), "message": .string(error.message)]
        if let data = error.data { body["data"] = data }
        return JSONValue.object(["jsonrpc": .string("2.0"), "id": id, "error": .object(body)]).jsonText
    }

    /// Writes one message and its newline; false when the client closed its end.
    private func write(_ data: Data) -> Bool {
        (try? output.write(Array(data) + [UInt8(ascii: "\n")])) != nil
    }
}
