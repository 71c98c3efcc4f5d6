import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The network: URLSession from swift-corelibs-foundation (libcurl underneath), no extra package.
///
/// The session is ephemeral, with no URL cache and no cookies, because a response cache would
/// write medicine names to disk in the clear, outside the encrypted vault. Answers are cached
/// by phr itself, in the vault. Bodies sent gzip-compressed are decompressed by libcurl.
/// Redirects are followed only to https (or back to the loopback test host), never to plain http.
public final class URLSessionTransport: HTTPTransport, @unchecked Sendable {
    private let session: URLSession
    private let timeout: TimeInterval

    public var usesNetwork: Bool { true }

    public init(timeout: TimeInterval) {
        // swift-corelibs-foundation arms its timer with Int(timeoutInterval) * 1000 ms, so a
        // timeout under a second would fire at once: use whole seconds, at least one.
        let timeout = Self.wholeSeconds(timeout)
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.timeoutIntervalForRequest = timeout
        // The whole exchange may take longer than one quiet spell, but not forever.
        configuration.timeoutIntervalForResource = max(timeout * 4, 60)
        session = URLSession(configuration: configuration, delegate: RedirectGuard(), delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    public func send(_ request: HTTPRequest) throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.wireURL, cachePolicy: .reloadIgnoringLocalCacheData,
                                    timeoutInterval: Self.wholeSeconds(request.timeout))
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        let outcome = Outcome()
        let task = session.dataTask(with: urlRequest) { data, response, error in
            outcome.finish(data: data, response: response, error: error)
        }
        task.resume()
        outcome.wait()
        if let error = outcome.error {
            throw Self.failure(error, host: request.baseURL.host ?? request.service.name)
        }
        guard let http = outcome.response as? HTTPURLResponse else {
            throw TransportFailure(.connectionLost, "the server sent no HTTP answer")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: outcome.data ?? Data())
    }

    static func wholeSeconds(_ seconds: TimeInterval) -> TimeInterval {
        max(1, seconds.rounded(.up))
    }

    /// Maps URLSession's errors onto the three cases the retry logic tells apart.
    static func failure(_ error: Error, host: String) -> TransportFailure {
        guard let urlError = error as? URLError else {
            return TransportFailure(.unreachable, error.localizedDescription.lowercased())
        }
        switch urlError.code {
        case .timedOut:
            return TransportFailure(.timedOut, "no answer from \(host) (timed out)")
        case .networkConnectionLost, .badServerResponse, .zeroByteResource:
            return TransportFailure(.connectionLost, "the connection to \(host) broke off")
        case .cannotFindHost, .dnsLookupFailed:
            return TransportFailure(.unreachable, "cannot resolve \(host) (no network?)")
        case .notConnectedToInternet:
            return TransportFailure(.unreachable, "not connected to the internet")
        case .cannotConnectToHost:
            return TransportFailure(.unreachable, "\(host) refused the connection")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected:
            return TransportFailure(.unreachable, "the secure connection to \(host) failed (certificate or TLS)")
        case .httpTooManyRedirects, .redirectToNonExistentLocation:
            return TransportFailure(.unreachable, "\(host) redirected phr somewhere it will not follow")
        case .cancelled:
            return TransportFailure(.unreachable, "the request to \(host) was cancelled")
        default:
            return TransportFailure(.unreachable, "\(host): \(urlError.localizedDescription.lowercased())")
        }
    }

    /// The completion handler's results, handed from URLSession's queue to the waiting caller.
    private final class Outcome: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private(set) var data: Data?
        private(set) var response: URLResponse?
        private(set) var error: Error?

        func finish(data: Data?, response: URLResponse?, error: Error?) {
            self.data = data
            self.response = response
            self.error = error
            done.signal()
        }

        func wait() { done.wait() }
    }

    /// Refuses redirects that would send the request (and the medicine name in it) in the clear.
    private final class RedirectGuard: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
        func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
            guard let url = request.url, let scheme = url.scheme?.lowercased() else { return completionHandler(nil) }
            if scheme == "https" || (scheme == "http" && MedAPIConfiguration.isLoopback(url.host ?? "")) {
                completionHandler(request)
            } else {
                completionHandler(nil)
            }
        }
    }
}
