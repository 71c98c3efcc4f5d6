import Foundation
import Testing
@testable import PHRCore

/// Record and replay: record mode writes what a server said with secrets redacted; replay
/// answers from cassettes and fails loudly, without a socket, for anything not recorded.
@Suite("MedAPI cassettes", .serialized)
struct MedAPICassetteTests {
    @Test("record mode writes each interaction with the API key redacted; replay serves it back offline")
    func recordThenReplay() throws {
        let directory = try TestSupport.temporaryDirectory("cassettes")
        defer { TestSupport.remove(directory) }
        let secret = "SECRET-KEY-7f3a9"
        let server = try LoopbackHTTPServer { request in
            if request.path == "/drug/label.json" {
                return .json(200, #"{"meta":{"results":{"total":1}},"results":[{"set_id":"s-1","openfda":{"brand_name":["Testum"]},"warnings":["Do not mix with zed."]}]}"#,
                             headers: ["X-RateLimit-Remaining": "239", "Set-Cookie": "session=abc"])
            }
            return .json(404, #"{"error":{"code":"NOT_FOUND","message":"No matches found!"}}"#)
        }
        let recording = MedAPITest.configuration(server, mode: .record, cassettes: directory, apiKey: secret)
        let recorder = try OpenFDAClient(http: MedAPITest.client(recording, transport: MedicineLookup.makeTransport(recording)))
        let live = try recorder.labels(search: "openfda.brand_name:\"Testum\"")
        _ = try recorder.enforcementReports(search: "nothing")
        server.stop()
        #expect(live.value.results.first?.brandNames == ["Testum"])
        #expect(server.requests.allSatisfy { $0.queryItems["api_key"] == secret }, "the key went to the server")

        let path = "\(directory)/openfda.json"
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!written.contains(secret))
        #expect(written.contains("api_key=REDACTED"))
        #expect(!written.contains("session=abc"), "cookies are not kept")
        let cassette = try Cassette.load(path: path)
        #expect(cassette.service == .openFDA)
        #expect(cassette.interactions.count == 2)
        #expect(cassette.interactions[0].request.query == "limit=10&search=openfda.brand_name:%22Testum%22&sort=effective_time:desc")
        #expect(cassette.interactions[0].response.headers == ["content-type": "application/json", "x-ratelimit-remaining": "239"])
        #expect(cassette.interactions[0].response.body?[path: "results"]?.elements.first?["set_id"]?.text == "s-1")
        #expect(cassette.interactions[1].response.status == 404)
        try MedAPICassetteTests.validateAgainstSchema([path])

        // Replay: the server is gone, and no key is needed to match.
        let replaying = MedAPITest.configuration(server, mode: .replay, cassettes: directory)
        let player = try OpenFDAClient(http: MedAPITest.client(replaying, transport: MedicineLookup.makeTransport(replaying)))
        let replayed = try player.labels(search: "openfda.brand_name:\"Testum\"")
        #expect(replayed.value.results == live.value.results)
        #expect(try player.enforcementReports(search: "nothing").value.results.isEmpty)
    }

    @Test("recording the same request again replaces the old interaction")
    func rerecord() throws {
        let directory = try TestSupport.temporaryDirectory("cassettes")
        defer { TestSupport.remove(directory) }
        let request = HTTPRequest(service: .rxnav, path: "/REST/rxcui.json", query: [QueryItem("name", "a")],
                                  baseURL: URL(string: "https://rxnav.nlm.nih.gov")!)
        try CassetteLibrary(directory: directory).record(request, response: HTTPResponse(status: 500), at: Date())
        let second = CassetteLibrary(directory: directory)
        try second.record(request, response: HTTPResponse(status: 429), at: Date())
        try second.record(request, response: HTTPResponse(status: 200, body: Data(#"{"idGroup":{}}"#.utf8)), at: Date())
        let cassette = try Cassette.load(path: "\(directory)/rxnav.json")
        #expect(cassette.interactions.map(\.response.status) == [429, 200], "a new session replaces; within it, a sequence is kept")
    }

    @Test("replay of an interaction nobody recorded fails loudly and opens no socket")
    func replayMiss() throws {
        let server = try LoopbackHTTPServer { _ in .json(200, #"{"idGroup":{"rxnormId":["1"]}}"#) }
        defer { server.stop() }
        let (vault, _, directory) = try TestSupport.makeVault("replay")
        defer { TestSupport.remove(directory) }
        let configuration = MedAPITest.configuration(server, mode: .replay, cassettes: MedAPITest.cassettes)
        let lookup = try MedicineLookup(configuration: configuration, cache: MedAPICache(vault: vault), limiter: RateLimiter())
        do {
            _ = try lookup.resolve("never-recorded-medicine")
            Issue.record("replay must not answer what it never recorded")
        } catch let error as MedAPIError {
            #expect(error == .notRecorded(service: .rxnav, request: "GET /REST/rxcui.json?name=never-recorded-medicine&search=2",
                                          directory: MedAPITest.cassettes))
            #expect(error.exitStatus == .failure)
            #expect(error.localizedDescription.hasPrefix("replay: no recorded RxNav answer for GET /REST/rxcui.json?name=never-recorded-medicine"))
            #expect(error.hint?.description.contains("PHR_MEDAPI_MODE=record") == true)
        }
        #expect(server.connectionCount == 0)
        // A cached answer must not hide a missing recording either.
        #expect(!MedAPIError.notRecorded(service: .rxnav, request: "", directory: "").allowsCacheFallback)
    }

    @Test("matching ignores query order, encoding and the API key")
    func normalisedMatching() {
        let base = URL(string: "http://127.0.0.1:1")!
        let a = HTTPRequest(service: .openFDA, path: "/drug/label.json",
                            query: [QueryItem("search", "a b"), QueryItem("limit", "10")], secretQuery: [QueryItem("api_key", "k")], baseURL: base)
        let b = HTTPRequest(service: .openFDA, path: "/drug/label.json", query: [QueryItem("limit", "10"), QueryItem("search", "a b")], baseURL: base)
        #expect(a.matchKey == b.matchKey)
        #expect(a.matchKey == "GET /drug/label.json?limit=10&search=a+b")
        #expect(QueryString.normalized("search=a%20b&limit=1%30&api_key=xyz") == "limit=10&search=a+b")
        #expect(Cassette.matchKey(method: "get", path: "/drug/label.json", query: "search=a+b&limit=10") == a.matchKey)
        #expect(a.displayURL == "http://127.0.0.1:1/drug/label.json?search=a+b&limit=10&api_key=REDACTED")
        #expect(a.wireURL.absoluteString.hasSuffix("api_key=k"))
    }

    @Test("several recordings of one request replay in order, the last repeating: a 429 then a 200")
    func sequences() throws {
        let directory = try TestSupport.temporaryDirectory("cassettes")
        defer { TestSupport.remove(directory) }
        var cassette = Cassette(service: .rxnav, note: "test")
        for (status, body) in [(429, JSONValue.object([:])), (200, .object(["idGroup": .object(["rxnormId": .array([.string("42")])])]))] {
            cassette.interactions.append(Cassette.Interaction(
                request: Cassette.Request(path: "/REST/rxcui.json", query: "search=2&name=x"),
                response: Cassette.Response(status: status, body: body), recordedAt: "2026-01-01T00:00:00Z"))
        }
        try FileSystem.atomicWrite(try cassette.encoded(), to: "\(directory)/sequence.json")
        let configuration = MedAPIConfiguration(mode: .replay, cassetteDirectory: directory, retry: MedAPITest.fastRetry)
        let http = MedAPITest.client(configuration, transport: try MedicineLookup.makeTransport(configuration))
        #expect(try RxNavClient(http: http).rxcuis(forName: "x").value == ["42"])
        #expect(try RxNavClient(http: http).rxcuis(forName: "x").value == ["42"])
    }

    @Test("damaged and foreign cassettes are refused with the reason")
    func invalidCassettes() throws {
        let directory = try TestSupport.temporaryDirectory("cassettes")
        defer { TestSupport.remove(directory) }
        func check(_ text: String, _ reason: String) throws {
            let path = "\(directory)/bad.json"
            try FileSystem.atomicWrite(Array(text.utf8), to: path)
            #expect(throws: MedAPIError.invalidCassette(path: path, reason: reason)) { try Cassette.load(path: path) }
        }
        try check("not json", "it is not JSON")
        try check(#"{"format":"vcr","version":1,"service":"rxnav","interactions":[]}"#, "format is 'vcr', not 'phr-cassette'")
        try check(#"{"format":"phr-cassette","version":2,"service":"rxnav","interactions":[]}"#, "version 2 needs a newer phr")
        try check(#"{"format":"phr-cassette","version":1,"service":"rxnav"}"#, "the document: 'interactions' is missing")
        try check(#"{"format":"phr-cassette","version":1,"service":"rxnav","interactions":[{"request":{"method":"GET","path":"/x","query":"api_key=abc"},"response":{"status":200},"recordedAt":"2026-01-01T00:00:00Z"}]}"#,
                  "interaction 1: the query holds a secret; cassettes must not")
        try check(#"{"format":"phr-cassette","version":1,"service":"rxnav","interactions":[{"request":{"method":"GET","path":"x","query":""},"response":{"status":200},"recordedAt":"2026-01-01T00:00:00Z"}]}"#,
                  "interaction 1: the path must start with /")
        #expect(MedAPIError.invalidCassette(path: "p", reason: "r").exitStatus == .dataError)
    }

    @Test("the project's cassettes load, follow the JSON Schema and hold no secrets")
    func projectCassettes() throws {
        let files = CassetteLibrary(directory: MedAPITest.cassettes).cassetteFiles()
        #expect(files.map { ($0 as NSString).lastPathComponent } == ["openfda.json", "rxnav.json"])
        for file in files {
            let cassette = try Cassette.load(path: file)
            #expect(!cassette.interactions.isEmpty)
            #expect(cassette.note?.contains("by hand") == true, "hand-written cassettes say so")
            let text = try String(contentsOfFile: file, encoding: .utf8)
            #expect(text.components(separatedBy: "api_key=").dropFirst().allSatisfy { $0.hasPrefix("REDACTED") })
        }
        try MedAPICassetteTests.validateAgainstSchema(files)
    }

    /// Validates cassette files against Schemas/cassette-v1.schema.json with an independent
    /// validator (Python's jsonschema, installed by `make test`).
    static func validateAgainstSchema(_ files: [String]) throws {
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            validator = jsonschema.Draft202012Validator(schema)
            failed = 0
            for path in sys.argv[2:]:
                for error in validator.iter_errors(json.load(open(path))):
                    failed += 1
                    print(path, list(error.absolute_path), error.message)
            sys.exit(1 if failed else 0)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, MedAPITest.schema] + files
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "schema validation: \(text)")
    }
}
