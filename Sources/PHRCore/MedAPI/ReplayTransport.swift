import Foundation

/// Replay mode: answers come from the cassette library only. A request nobody recorded fails at
/// once with `MedAPIError.notRecorded`, naming the request; replay never falls back to the
/// network, so a test or demo that passes in replay cannot have quietly used it.
public final class ReplayTransport: HTTPTransport, @unchecked Sendable {
    private let library: CassetteLibrary

    public var usesNetwork: Bool { false }

    public init(library: CassetteLibrary) {
        self.library = library
    }

    public func send(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let response = try library.response(for: request) else {
            throw MedAPIError.notRecorded(service: request.service, request: request.matchKey, directory: library.directory)
        }
        return response
    }
}
