import Foundation
import PHRService

/// A document's text in chunks no larger than the caller asks for.
enum MCPDocumentText {
    struct Chunk {
        var structured: JSONValue
        var pages: Int
    }

    /// The pages `first`...`last` of `shown` (what `phr doc show --json --text` prints) from
    /// `cursor` on, at most `budget` characters of text, with each page's OCR status and
    /// confidence where OCR read it.
    static func chunk(_ shown: JSONValue, first: Int, last: Int, budget: Int, cursor: String?) throws -> Chunk {
        var (startPage, startOffset) = (first, 0)
        if let cursor {
            let parts = cursor.dropFirst().split(separator: "c")
            guard cursor.hasPrefix("p"), parts.count == 2, let page = Int(parts[0]), let offset = Int(parts[1]),
                  page >= first, page <= last, offset >= 0 else {
                throw MCPError.invalidParams("arguments.cursor", "is not a cursor this server gave for these pages")
            }
            (startPage, startOffset) = (page, offset)
        }
        var ocr: [Int: JSONValue] = [:]
        for page in shown["ocr_pages"]?.elements ?? [] {
            guard let number = page["page"]?.int else { continue }
            var entry: [String: JSONValue] = [:]
            if let status = page["status"] { entry["status"] = status }
            if let confidence = page["confidence"] { entry["confidence"] = confidence }
            ocr[number] = .object(entry)
        }
        let texts = (shown["text"]?.elements ?? []).filter { page in
            guard let number = page["page"]?.int else { return false }
            return number >= startPage && number <= last
        }
        var remaining = budget
        var pages: [JSONValue] = []
        var next: JSONValue = .null
        for page in texts {
            guard let number = page["page"]?.int else { continue }
            let characters = Array(page["text"]?.text ?? "")
            let offset = number == startPage ? min(startOffset, characters.count) : 0
            if remaining == 0 {
                next = .string("p\(number)c\(offset)")
                break
            }
            let end = min(characters.count, offset + remaining)
            var entry: [String: JSONValue] = ["page": .integer(Int64(number)), "text": .string(String(characters[offset..<end]))]
            if offset > 0 { entry["from_character"] = .integer(Int64(offset)) }
            entry["complete"] = .bool(end == characters.count)
            if let reading = ocr[number] { entry["ocr"] = reading }
            pages.append(.object(entry))
            remaining -= end - offset
            if end < characters.count {
                next = .string("p\(number)c\(end)")
                break
            }
        }
        let result: JSONValue = .object([
            "document": shown["document"] ?? .null, "pages": .array(pages), "next_cursor": next,
            "page_count": shown["document"]?["page_count"] ?? .null,
        ])
        return Chunk(structured: result, pages: pages.count)
    }
}

/// The resources: each profile's summary, and its documents, page by page, as `phr://` URIs:
/// `phr://PROFILE/summary`, `phr://PROFILE/documents/ID`, `phr://PROFILE/documents/ID/pages/N`
/// (PROFILE percent-encoded).
enum MCPResources {
    static let pageTemplate = "phr://{profile}/documents/{id}/pages/{page}"
    /// Resources per page of `resources/list` (PHR_MCP_RESOURCE_PAGE, for the tests, may make it smaller).
    static let pageSize = ProcessEnvironment["PHR_MCP_RESOURCE_PAGE"].flatMap(Int.init).map { min(max($0, 1), 100) } ?? 100
    static let pageTextLimit = 100_000

    static func encoded(_ profile: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return profile.addingPercentEncoding(withAllowedCharacters: allowed) ?? profile
    }

    static func uri(_ profile: String, _ path: String) -> String { "phr://\(encoded(profile))/\(path)" }

    static func list(_ engine: MCPEngine, params: JSONValue, log: inout MCPLogLine) throws -> JSONValue {
        var cursor: String?
        switch params["cursor"] {
        case nil, .null?: cursor = nil
        case .string(let given)?: cursor = given
        default: throw MCPError.invalidParams("params.cursor", "must be a string")
        }
        log.arguments = MCPJSON.compact(.object(cursor.map { ["cursor": .string($0)] } ?? [:]))
        // The cursor says where the last page ended: a profile (by its place in the scope) and
        // how many of its documents were listed (-1: not even its summary).
        var (profileIndex, documentOffset) = (0, -1)
        if let cursor {
            let parts = cursor.dropFirst().split(separator: ":")
            guard cursor.hasPrefix("r"), parts.count == 2, let index = Int(parts[0]), let offset = Int(parts[1]), index >= 0, offset >= -1 else {
                throw MCPError.invalidParams("params.cursor", "is not a cursor this server gave")
            }
            (profileIndex, documentOffset) = (index, offset)
        }
        let summary = MCPTools.emergencySummary.available(in: engine.scope)
        let profiles = try engine.profilesInScope()
        var resources: [JSONValue] = []
        var next: String?
        while resources.count < pageSize, profileIndex < profiles.count {
            let profile = profiles[profileIndex]
            if documentOffset == -1 {
                if summary {
                    resources.append(.object(["uri": .string(uri(profile, "summary")), "name": .string("\(profile): summary"),
                                              "description": .string("Allergies, conditions, medications and whom to call."),
                                              "mimeType": .string("application/json")]))
                }
                documentOffset = 0
                if resources.count >= pageSize, engine.scope.allows(.documents) {
                    // The page is full with the summary: its documents start the next one.
                    next = "r\(profileIndex):0"
                    break
                }
            }
            if engine.scope.allows(.documents) {
                let wanted = pageSize - resources.count
                let documents = try engine.command(["doc", "list", "--json", "--profile", profile, "--limit", String(wanted + 1),
                                                    "--offset", String(documentOffset)]).elements
                for document in documents.prefix(wanted) {
                    guard let id = document["id"]?.text else { continue }
                    let details = [document["type"]?.text, document["date"]?.text, document["page_count"]?.int.map { "\($0) page\($0 == 1 ? "" : "s")" }]
                    resources.append(.object(["uri": .string(uri(profile, "documents/\(id)")),
                                              "name": .string("\(profile): \(document["title"]?.text ?? document["file_name"]?.text ?? id)"),
                                              "description": .string(details.compactMap { $0 }.joined(separator: ", ")),
                                              "mimeType": .string("application/json")]))
                }
                if documents.count > wanted {
                    next = "r\(profileIndex):\(documentOffset + wanted)"
                    break
                }
            }
            profileIndex += 1
            documentOffset = -1
        }
        if next == nil, resources.count >= pageSize, profileIndex < profiles.count { next = "r\(profileIndex):\(documentOffset)" }
        log.results = resources.count
        var result: [String: JSONValue] = ["resources": .array(resources)]
        if let next { result["nextCursor"] = .string(next) }
        return .object(result)
    }

    static func templates(_ scope: MCPScope) -> JSONValue {
        guard scope.allows(.documents) else { return .object(["resourceTemplates": .array([])]) }
        return .object(["resourceTemplates": .array([.object([
            "uriTemplate": .string(pageTemplate), "name": .string("A document's page"),
            "description": .string("The text of one page of a document (its ID from resources/list or search)."),
            "mimeType": .string("text/plain"),
        ])])])
    }

    static func read(_ engine: MCPEngine, params: JSONValue, log: inout MCPLogLine) throws -> JSONValue {
        guard case .string(let address)? = params["uri"] else { throw MCPError.invalidParams("params.uri", "is missing") }
        log.arguments = MCPJSON.compact(.object(["uri": .string(String(address.prefix(500)))]))
        guard address.hasPrefix("phr://"), address.count <= 1_000 else {
            throw MCPError(code: MCPError.invalidParamsCode, message: "params.uri: not a phr:// resource", data: .object(["uri": .string(String(address.prefix(200)))]))
        }
        let parts = address.dropFirst("phr://".count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let encodedProfile = parts.first, let name = encodedProfile.removingPercentEncoding else {
            throw MCPError.invalidParams("params.uri", "names no profile")
        }
        let profile = try engine.profile(name)
        log.profile = profile
        let rest = Array(parts.dropFirst())
        if rest == ["summary"] {
            guard MCPTools.emergencySummary.available(in: engine.scope) else { throw outside(address) }
            let summary = try toolFailureAsError(engine) { try MCPTools.summary(engine, profile: profile) }
            log.results = 1
            return contents(address, "application/json", MCPJSON.compact(summary))
        }
        guard rest.count >= 2, rest[0] == "documents" else { throw notFound(address, engine) }
        guard engine.scope.allows(.documents) else { throw outside(address) }
        let id = rest[1]
        guard MCPParameter.isRecordID(id) else {
            throw notFound(address, engine)
        }
        switch rest.count {
        case 2:
            let shown = try toolFailureAsError(engine) { try engine.command(["doc", "show", "--json", "--profile", profile, "--", id]) }
            let count = shown["document"]?["page_count"]?.int ?? 0
            let pages = (0..<min(count, 10_000)).map { JSONValue.string(uri(profile, "documents/\(id)/pages/\($0 + 1)")) }
            log.results = 1
            return contents(address, "application/json", MCPJSON.compact(.object([
                "document": shown["document"] ?? .null, "ocr_pages": shown["ocr_pages"] ?? .array([]), "pages": .array(pages),
            ])))
        case 4 where rest[2] == "pages":
            guard let number = Int(rest[3]), number >= 1 else { throw notFound(address, engine) }
            let shown = try toolFailureAsError(engine) { try engine.command(["doc", "show", "--json", "--text", "--profile", profile, "--", id]) }
            guard let page = shown["text"]?.elements.first(where: { $0["page"]?.int == number }) else { throw notFound(address, engine) }
            var text = page["text"]?.text ?? ""
            if text.count > pageTextLimit {
                text = String(text.prefix(pageTextLimit)) + "\n[phr: the page goes on; document_text reads the rest]"
            }
            log.results = 1
            return contents(address, "text/plain", text)
        default:
            throw notFound(address, engine)
        }
    }

    static func contents(_ address: String, _ type: String, _ text: String) -> JSONValue {
        .object(["contents": .array([.object(["uri": .string(address), "mimeType": .string(type), "text": .string(text)])])])
    }

    /// MCP's "resource not found": -32002 in the handshake revisions, -32602 in 2026-07-28.
    static func notFound(_ address: String, _ engine: MCPEngine) -> MCPError {
        MCPError(code: engine.modern ? MCPError.invalidParamsCode : -32002, message: "Resource not found: \(address.prefix(200))", data: .object(["uri": .string(String(address.prefix(200)))]))
    }

    static func outside(_ address: String) -> MCPError {
        MCPError(code: MCPError.invalidParamsCode, message: "params.uri: outside what phr mcp was started to share",
                 data: .object(["uri": .string(String(address.prefix(200)))]))
    }

    /// A command's failure ("no document with ID x") as the protocol's not-found error.
    static func toolFailureAsError<T>(_ engine: MCPEngine, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let failure as MCPToolFailure {
            throw MCPError(code: engine.modern ? MCPError.invalidParamsCode : -32002, message: "Resource not found: \(failure.message)")
        }
    }
}
