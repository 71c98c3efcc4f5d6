import Foundation
import PHRService

/// Who may come in through `phr serve`'s HTTP side, and how: the checks every request passes
/// before a handler sees it (docs/serve.md, "The door"). Pure logic, no HTTP types, so each rule
/// is tested on its own and the server stays a thin layer over it.
///
/// Order, as the failures of other local web UIs taught (Jupyter, Syncthing, `bw serve`):
/// 1. the `Host` header names this server (DNS rebinding), else 403, before anything else;
/// 2. the launch token, once, for a session cookie; otherwise the cookie, else 401;
/// 3. a request that changes anything is a POST from this origin (`Origin`, else
///    `Sec-Fetch-Site: same-origin`) carrying the session's CSRF token, else 403.
public final class WebDoor: @unchecked Sendable {
    /// The address and port the server listens on (a 127.x.y.z address); the port once bound.
    public let address: String
    public var port: Int {
        get { lock.withLock { boundPort } }
        set { lock.withLock { boundPort = newValue } }
    }
    private var boundPort: Int
    /// Called once the launch token has been used (the agent removes the launch file).
    public var onLaunch: (@Sendable () -> Void)?
    /// The session cookie's name.
    public static let cookieName = "phr_session"
    /// The form field (or `X-CSRF-Token` header) that carries a session's CSRF token.
    public static let csrfField = "csrf"
    /// The most browser sessions held at once; the oldest goes first.
    public static let mostSessions = 16

    private let lock = NSLock()
    private var launchToken: [UInt8]?
    private var sessions: [String: WebSession] = [:]

    public init(address: String, port: Int, launchToken: String) {
        self.address = address
        boundPort = port
        self.launchToken = Array(launchToken.utf8)
    }

    /// The launch token, while unused, for the launch file alone.
    func launchTokenForFile() -> String? {
        lock.withLock { launchToken.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// A new one-time launch token in place of the last one (used or not): a running agent's
    /// new sign-in link.
    func renewLaunchToken() throws -> String {
        let token = try Self.token()
        lock.withLock { launchToken = Array(token.utf8) }
        return token
    }

    /// A new random token: 32 bytes as 64 hex digits.
    public static func token() throws -> String {
        try SecureRandom.bytes(32).map { String(format: "%02x", $0) }.joined()
    }

    /// The origin a browser sends with this server's own requests.
    public var origin: String { "http://\(address):\(port)" }

    /// The `Host` values that name this server: the bound address or `localhost`, with the port.
    public func allowsHost(_ host: String?) -> Bool {
        guard let host = host?.lowercased() else { return false }
        let port = self.port
        return host == "\(address):\(port)" || host == "localhost:\(port)"
    }

    /// Exchanges the launch token for a new session; nil when the token is wrong or was used.
    public func open(with token: String) -> WebSession? {
        let session: WebSession? = lock.withLock {
            guard let expected = launchToken, constantTimeEqual(expected, Array(token.utf8)) else { return nil }
            launchToken = nil
            return makeSession()
        }
        if session != nil { onLaunch?() }
        return session
    }

    /// The session a cookie value names, if any; touching it counts as use.
    public func session(cookie: String?) -> WebSession? {
        guard let cookie, !cookie.isEmpty else { return nil }
        lock.lock()
        defer { lock.unlock() }
        // Sessions are few, so a constant-time look at each leaks nothing through timing.
        return sessions.values.first { constantTimeEqual(Array($0.id.utf8), Array(cookie.utf8)) }
    }

    /// Ends a session (signing out).
    public func close(_ session: WebSession) {
        lock.lock()
        defer { lock.unlock() }
        sessions[session.id] = nil
    }

    /// Ends every session (the agent locks).
    public func closeAll() {
        lock.lock()
        defer { lock.unlock() }
        sessions.removeAll()
        launchToken = nil
    }

    /// Whether a state-changing request comes from this server's own pages: its `Origin` is
    /// this origin, or (where the browser sends none, or "null" as Chromium does for a form
    /// under `Referrer-Policy: no-referrer`) `Sec-Fetch-Site` says same-origin; and `csrf` is
    /// the session's token.
    public func allowsChange(origin: String?, fetchSite: String?, csrf: String?, session: WebSession) -> Bool {
        allowsOrigin(origin, fetchSite: fetchSite) && allowsCSRF(csrf, session: session)
    }

    /// The first half of `allowsChange`: the request comes from this server's own pages.
    public func allowsOrigin(_ origin: String?, fetchSite: String?) -> Bool {
        if let origin, origin != "null" {
            let port = self.port
            guard origin.lowercased() == "http://\(address):\(port)" || origin.lowercased() == "http://localhost:\(port)" else { return false }
            if let fetchSite, fetchSite != "same-origin" { return false }
        } else {
            guard fetchSite == "same-origin" else { return false }
        }
        return true
    }

    /// The second half of `allowsChange`: `csrf` is the session's token.
    public func allowsCSRF(_ csrf: String?, session: WebSession) -> Bool {
        guard let csrf else { return false }
        return constantTimeEqual(Array(csrf.utf8), Array(session.csrf.utf8))
    }

    private func makeSession() -> WebSession? {
        guard let id = try? Self.token(), let csrf = try? Self.token() else { return nil }
        if sessions.count >= Self.mostSessions, let oldest = sessions.values.min(by: { $0.created < $1.created }) {
            sessions[oldest.id] = nil
        }
        let session = WebSession(id: id, csrf: csrf, created: Date())
        sessions[id] = session
        return session
    }
}

/// One signed-in browser: its cookie value, its CSRF token, and the profile it looks at.
public final class WebSession: @unchecked Sendable {
    public let id: String
    public let csrf: String
    public let created: Date
    private let lock = NSLock()
    private var chosenProfile: String?
    private var chosenSettings = WebSettings()
    private var pendingFlash: Layout.Flash?
    private var query: String?
    private var filter = DocumentStore.Filter()
    private var pendingForm: FormState?
    private var share: ShareChoices?
    private var imported: WebApp.ImportOutcome?
    private var review: LabReviewState?

    init(id: String, csrf: String, created: Date) {
        self.id = id
        self.csrf = csrf
        self.created = created
    }

    /// The profile (its name) the session looks at; nil for the vault's default.
    public var profile: String? {
        get { lock.withLock { chosenProfile } }
        set { lock.withLock { chosenProfile = newValue } }
    }

    /// The last search posted, shown again at /search (never in an address).
    var lastQuery: String? {
        get { lock.withLock { query } }
        set { lock.withLock { query = newValue } }
    }

    /// The documents list's filter (type, tag, dates), kept for the session, never in an address.
    var documentFilter: DocumentStore.Filter {
        get { lock.withLock { filter } }
        set { lock.withLock { filter = newValue } }
    }

    var settings: WebSettings {
        get { lock.withLock { chosenSettings } }
        set { lock.withLock { chosenSettings = newValue } }
    }

    /// Keeps a one-line outcome for the next page shown.
    func flash(_ text: String, isError: Bool = false) {
        lock.withLock { pendingFlash = Layout.Flash(text: text, isError: isError) }
    }

    /// The share screen's choices (recipient, sections, documents), kept for the session so the
    /// preview and the downloads build the same bundle; never in an address.
    var shareChoices: ShareChoices? {
        get { lock.withLock { share } }
        set { lock.withLock { share = newValue } }
    }

    /// A lab report's rows being reviewed (one report at a time), until saved or left.
    var labReview: LabReviewState? {
        get { lock.withLock { review } }
        set { lock.withLock { review = newValue } }
    }

    /// What the last import from the browser said, for its report page.
    var lastImport: WebApp.ImportOutcome? {
        get { lock.withLock { imported } }
        set { lock.withLock { imported = newValue } }
    }

    /// A form that was refused: what was typed and what was wrong, for the next page that shows
    /// the form (kept in memory with the session, never in an address).
    func keepForm(_ state: FormState) {
        lock.withLock { pendingForm = state }
    }

    /// The refused form `name`, once; nil when the last refusal was another form's.
    func takeForm(_ name: String) -> FormState? {
        lock.withLock {
            guard pendingForm?.name == name else { return nil }
            defer { pendingForm = nil }
            return pendingForm
        }
    }

    /// The outcome kept for this page, once.
    func takeFlash() -> Layout.Flash? {
        lock.withLock {
            defer { pendingFlash = nil }
            return pendingFlash
        }
    }
}
