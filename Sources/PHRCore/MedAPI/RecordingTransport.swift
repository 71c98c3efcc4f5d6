import Foundation

/// Record mode: every request goes to the network, and each answer (whatever its status) is
/// written to the cassette library before it is returned. Failures without an answer (timeouts,
/// no network) are not recorded: a cassette holds only what a server said.
public final class RecordingTransport: HTTPTransport, @unchecked Sendable {
    private let live: HTTPTransport
    private let library: CassetteLibrary
    private let now: @Sendable () -> Date

    public var usesNetwork: Bool { live.usesNetwork }

    public init(live: HTTPTransport, library: CassetteLibrary, now: @escaping @Sendable () -> Date = { Date() }) {
        self.live = live
        self.library = library
        self.now = now
    }

    public func send(_ request: HTTPRequest) throws -> HTTPResponse {
        let response = try live.send(request)
        try library.record(request, response: response, at: now())
        return response
    }
}
