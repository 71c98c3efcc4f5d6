import Foundation

/// A directory of cassettes (PHR_MEDAPI_CASSETTES): what replay serves from and record writes to.
///
/// Replay reads every `*.json` file in the directory, so cassettes can be split by scenario;
/// record writes each service's interactions to `rxnav.json` or `openfda.json`, saving after
/// every interaction (atomically) so an interrupted session keeps what it recorded. The first
/// time a session records a request, older interactions with the same key in that file are
/// dropped; later ones in the same session are appended, keeping a "429, then 200" sequence.
public final class CassetteLibrary: @unchecked Sendable {
    public let directory: String
    private let lock = NSLock()
    private var loaded = false
    private var replayIndex: [String: [Cassette.Response]] = [:]
    private var playCounts: [String: Int] = [:]
    private var rerecorded: Set<String> = []

    public init(directory: String) {
        var path = directory
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        self.directory = path
    }

    /// Every cassette file in the directory, sorted by name.
    public func cassetteFiles() -> [String] {
        FileSystem.contents(of: directory).filter { $0.hasSuffix(".json") }.map { "\(directory)/\($0)" }
    }

    /// The recorded answer to `request`: the next one in order for its key, the last repeating.
    /// Nil when nothing was recorded for it.
    public func response(for request: HTTPRequest) throws -> HTTPResponse? {
        lock.lock()
        defer { lock.unlock() }
        try loadIfNeeded()
        let key = indexKey(request.service, request.matchKey)
        guard let responses = replayIndex[key], !responses.isEmpty else { return nil }
        let played = playCounts[key, default: 0]
        playCounts[key] = played + 1
        return responses[min(played, responses.count - 1)].httpResponse
    }

    /// Adds one interaction to the service's cassette file and saves it.
    public func record(_ request: HTTPRequest, response: HTTPResponse, at date: Date) throws {
        lock.lock()
        defer { lock.unlock() }
        try FileSystem.makePrivateDirectories(directory)
        let path = "\(directory)/\(request.service.cassetteFileName)"
        var cassette = FileSystem.exists(path) ? try Cassette.load(path: path)
            : Cassette(service: request.service, note: "Recorded by phr from \(request.baseURL.absoluteString).")
        guard cassette.service == request.service else {
            throw MedAPIError.invalidCassette(path: path, reason: "it holds \(cassette.service.name) interactions, not \(request.service.name)")
        }
        let interaction = Cassette.interaction(for: request, response: response, at: date)
        let key = interaction.matchKey
        if !rerecorded.contains(key) {
            cassette.interactions.removeAll { $0.matchKey == key }
            rerecorded.insert(key)
        }
        cassette.interactions.append(interaction)
        try FileSystem.atomicWrite(try cassette.encoded(), to: path, mode: 0o644)
        loaded = false
    }

    private func indexKey(_ service: MedAPIService, _ matchKey: String) -> String {
        "\(service.rawValue) \(matchKey)"
    }

    private func loadIfNeeded() throws {
        guard !loaded else { return }
        guard FileSystem.isDirectory(directory) else {
            throw EnvironmentSettingError.invalid(variable: "PHR_MEDAPI_CASSETTES", reason: "\(directory) is not a directory")
        }
        var index: [String: [Cassette.Response]] = [:]
        for path in cassetteFiles() {
            let cassette = try Cassette.load(path: path)
            for interaction in cassette.interactions {
                index[indexKey(cassette.service, interaction.matchKey), default: []].append(interaction.response)
            }
        }
        replayIndex = index
        loaded = true
    }
}
