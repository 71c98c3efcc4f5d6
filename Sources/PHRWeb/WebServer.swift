import Dispatch
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import PHRService

/// `phr serve`'s HTTP side: Hummingbird on loopback, every request through the door
/// (`WebDoor`), every response with the same strict headers, handlers run off the event loop.
public struct WebServer: Sendable {
    public let app: WebApp
    /// Called as every signed-in request starts and ends: the agent's idle clock, which does
    /// not run while a request is under way.
    public let started: @Sendable () -> Void
    public let finished: @Sendable () -> Void
    /// Called when the browser asks to lock phr.
    public let lock: @Sendable () -> Void

    /// Where the documents page uploads files.
    static let uploadPath = "/documents/upload"
    /// Where the health record's screen uploads a file to import.
    static let importPath = "/records/import"
    /// The paths whose bodies their handlers read as they stream in (uploads), not the door.
    static let uploadPaths: Set<String> = [uploadPath, importPath]
    /// An upload must arrive whole within this long.
    public static let uploadSeconds: Int64 = 600

    /// The largest form a page posts (a search, a dose, a setting).
    public static let largestForm = 64 << 10
    /// The most connections open at once; more wait in the kernel's queue.
    public static let mostConnections = 32
    /// A connection idle this long is closed (a slow or silent client cannot hold one).
    public static let idleSeconds: Int64 = 30
    /// A form must arrive whole within this long: a client trickling its body cannot hold a
    /// connection (the idle timeout restarts with every piece it sends).
    public static let formSeconds: Int64 = 10

    public init(app: WebApp, started: @escaping @Sendable () -> Void, finished: @escaping @Sendable () -> Void,
                lock: @escaping @Sendable () -> Void) {
        self.app = app
        self.started = started
        self.finished = finished
        self.lock = lock
    }

    /// Every response carries these (docs/serve.md, "Headers").
    public static let securityHeaders: [(String, String)] = [
        ("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("Cross-Origin-Opener-Policy", "same-origin"),
        ("Cross-Origin-Resource-Policy", "same-origin"),
        ("Cache-Control", "no-store"),
        ("X-Frame-Options", "DENY"),
        ("Permissions-Policy", "camera=(), microphone=(), geolocation=(), interest-cohort=()"),
    ]

    /// Runs the server on `address`:`port` (0 for any free port) until the task is cancelled;
    /// `ready` gets the bound port once it listens.
    public func run(address: String, port: Int, ready: @escaping @Sendable (Int) async -> Void) async throws {
        let router = Router(context: WebContext.self)
        router.add(middleware: DoorMiddleware(server: self))
        routes(router)
        var logger = Logger(label: "phr-serve")
        logger.logLevel = .critical
        let application = Application(
            router: router,
            server: .http1(configuration: .init(idleTimeout: .seconds(Self.idleSeconds))),
            configuration: .init(address: .hostname(address, port: port), serverName: nil, reuseAddress: false,
                                 availableConnectionsDelegate: MaximumAvailableConnections(Self.mostConnections)),
            onServerRunning: { channel in await ready(channel.localAddress?.port ?? port) },
            logger: logger
        )
        try await application.run()
    }

    private func routes(_ router: Router<WebContext>) {
        let app = self.app
        router.get("/assets/app.css") { _, _ in Self.asset(WebAssets.css, type: "text/css; charset=utf-8") }
        router.get("/assets/app.js") { _, _ in Self.asset(WebAssets.javascript, type: "text/javascript; charset=utf-8") }
        router.get("/assets/icon.svg") { _, _ in Self.asset(WebAssets.icon, type: "image/svg+xml") }
        router.get("/favicon.ico") { _, _ in Self.asset(WebAssets.icon, type: "image/svg+xml") }
        router.post("/launch") { request, context in
            guard let token = context.form["token"], let session = app.door.open(with: token) else {
                return Self.page(Layout.bare(heading: "This link was used already",
                                             text: "Each link phr serve gives opens phr once. To sign in again, run phr lock, then phr serve --open."),
                                 status: .unauthorized)
            }
            // A page, not a redirect: the cookie is SameSite=Strict, and a redirect that began on
            // another site (the launch file) would not send it; a refresh from this page does.
            var response = Self.page("""
                <!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=/">
                <title>phr</title><link rel="stylesheet" href="/assets/app.css"></head>
                <body><main id="main" class="bare"><p><a href="/">Open phr</a></p></main></body></html>
                """)
            response.headers[.setCookie] = "\(WebDoor.cookieName)=\(session.id); Path=/; HttpOnly; Secure; SameSite=Strict"
            return response
        }
        router.get("/") { _, context in try await Self.page { try app.today(context.signedIn) } }
        router.post("/doses/take") { _, context in
            let session = try context.signedIn
            await Self.blocking { app.dose(session, medication: context.form["medication"] ?? "", take: true, at: nil) }
            return Self.seeOther(Self.back(context.form["back"]))
        }
        router.post("/doses/skip") { _, context in
            let session = try context.signedIn
            await Self.blocking { app.dose(session, medication: context.form["medication"] ?? "", take: false, at: context.form["at"]) }
            return Self.seeOther(Self.back(context.form["back"]))
        }
        router.post("/documents/filter") { _, context in
            app.setDocumentFilter(try context.signedIn, form: context.form)
            return Self.seeOther("/documents")
        }
        router.post(RouterPath(stringLiteral: Self.uploadPath)) { request, context in
            try await Self.upload(request, context: context, app: app)
        }
        router.post("/documents/:id/edit") { _, context in
            let session = try context.signedIn
            let id = context.parameters.get("id") ?? ""
            try await Self.blocking { try app.editDocument(session, id: id, form: context.form) }
            return Self.seeOther("/documents/\(Self.plainID(id))")
        }
        // A report's lab rows: read (in the sandboxed workers) when first shown, reviewed as a
        // form, saved only on its button.
        router.get("/documents/:id/labs") { request, context in
            let session = try context.signedIn
            let id = try context.parameters.require("id")
            let again = request.uri.queryParameters.get("read") == "again"
            return try await Self.page {
                if again || session.labReview?.documentID != id { try app.readLabs(session, id: id) }
                return try app.labReview(session, id: id)
            }
        }
        router.post("/documents/:id/labs") { _, context in
            let session = try context.signedIn
            let id = try context.parameters.require("id")
            let next = await Self.blockingValue { app.saveLabReview(session, id: id, form: context.form) }
            return Self.seeOther(Self.back(next))
        }
        router.get("/documents/:id/remove") { _, context in
            let session = try context.signedIn
            let id = context.parameters.get("id") ?? ""
            return try await Self.page { try app.confirmRemoval(session, id: id) }
        }
        router.post("/documents/:id/remove") { _, context in
            let session = try context.signedIn
            let id = context.parameters.get("id") ?? ""
            let withResults = context.form["with_results"] == "1"
            try await Self.blocking { try app.removeDocument(session, id: id, withResults: withResults) }
            return Self.seeOther("/documents")
        }
        router.get("/documents") { request, context in
            let page = request.uri.queryParameters.get("page").flatMap { Int($0) } ?? 1
            return try await Self.page { try app.documents(context.signedIn, page: page) }
        }
        router.get("/documents/:id") { _, context in
            let id = try context.parameters.require("id")
            return try await Self.page { try app.document(context.signedIn, id: id) }
        }
        router.get("/documents/:id/pages/:page") { request, context in
            let id = try context.parameters.require("id")
            guard let number = context.parameters.get("page", as: Int.self),
                  let size = WebApp.ImageSize(rawValue: request.uri.queryParameters.get("size") ?? "full") else {
                throw WebApp.NotFound()
            }
            let session = try context.signedIn
            let png = try await Self.blocking { try app.pageImage(session, id: id, number: number, size: size) }
            return Response(status: .ok, headers: [.contentType: "image/png"], body: .init(byteBuffer: ByteBuffer(bytes: png)))
        }
        router.get("/documents/:id/original") { _, context in
            let id = try context.parameters.require("id")
            let session = try context.signedIn
            let original = try await Self.blocking { try app.original(session, id: id) }
            var response = Response(status: .ok, headers: [.contentType: "application/octet-stream"],
                                    body: .init(byteBuffer: ByteBuffer(bytes: original.bytes)))
            // An ASCII stand-in for old browsers, and the real name (any script) as RFC 6266/8187's filename*.
            let plain = original.name.unicodeScalars.map { (0x20..<0x7F).contains($0.value) && $0 != "\"" && $0 != "\\" ? String($0) : "_" }.joined()
            let encoded = original.name.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn:
                "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$&+-.^_`|~")) ?? plain
            response.headers[.contentDisposition] = "attachment; filename=\"\(plain)\"; filename*=UTF-8''\(encoded)"
            // Whatever the browser does with it, it never runs as a page of this origin.
            response.headers[.contentSecurityPolicy] = "sandbox; default-src 'none'"
            return response
        }
        router.get("/search") { _, context in
            let session = try context.signedIn
            return try await Self.page { try app.search(session, query: session.lastQuery ?? "") }
        }
        // Post, then see the answer at /search: the browser keeps a POST's body with its history
        // entry (and so in its Sessions files) to send again; after a redirect it keeps nothing.
        router.post("/search") { _, context in
            try context.signedIn.lastQuery = context.form["q"] ?? ""
            return Self.seeOther("/search")
        }
        router.post("/search/live") { _, context in
            let query = context.form["q"] ?? ""
            return try await Self.page { try app.searchResults(context.signedIn, query: query, asYouType: true) }
        }
        router.get("/timeline") { request, context in
            let kind = request.uri.queryParameters.get("kind").flatMap { Timeline.Kind(rawValue: String($0)) }
            let page = request.uri.queryParameters.get("page").flatMap { Int($0) } ?? 1
            return try await Self.page { try app.timeline(context.signedIn, kind: kind, page: min(max(1, page), 100_000)) }
        }
        router.get("/settings") { _, context in try await Self.page { try app.settingsPage(context.signedIn) } }
        Self.settingsForm(router, "/settings/health") { app.saveHealthSettings($0, form: $1) }
        Self.settingsForm(router, "/settings/goal") { app.setGoal($0, form: $1) }
        router.post("/settings/channels/test") { _, context in
            let session = try context.signedIn
            await Self.blocking { app.testChannels(session) }
            return Self.seeOther("/settings")
        }
        Self.settingsForm(router, "/settings/reminders/add") { app.addReminder($0, form: $1) }
        router.post("/settings/reminders/:id/pause") { _, context in
            let session = try context.signedIn
            let id = try context.parameters.require("id")
            let paused = context.form["paused"] != "0"
            try await Self.blocking { try app.pauseReminder(session, id: id, paused: paused) }
            return Self.seeOther("/settings")
        }
        router.get("/settings/reminders/:id/remove") { _, context in
            let id = try context.parameters.require("id")
            return try await Self.page { try app.confirmReminderRemoval(context.signedIn, id: id) }
        }
        router.post("/settings/reminders/:id/remove") { _, context in
            let session = try context.signedIn
            let id = try context.parameters.require("id")
            try await Self.blocking { try app.removeReminder(session, id: id) }
            return Self.seeOther("/settings")
        }
        Self.settingsForm(router, "/settings/channels/add") { app.addChannel($0, form: $1) }
        router.get("/settings/channels/:id/remove") { _, context in
            let id = try context.parameters.require("id")
            return try await Self.page { try app.confirmChannelRemoval(context.signedIn, id: id) }
        }
        router.post("/settings/channels/:id/remove") { _, context in
            let session = try context.signedIn
            let id = try context.parameters.require("id")
            try await Self.blocking { try app.removeChannel(session, id: id) }
            return Self.seeOther("/settings")
        }
        Self.settingsForm(router, "/settings/profile") { app.addProfile($0, form: $1) }
        Self.settingsForm(router, "/settings/ocr") { app.setOCRLanguages($0, form: $1) }
        Self.settingsForm(router, "/settings/sync") { session, _ in app.syncNow(session) }
        router.get("/share") { _, context in try await Self.page { try app.share(context.signedIn) } }
        router.post("/share/preview") { _, context in
            let session = try context.signedIn
            await Self.blocking { app.previewShare(session, form: context.form) }
            return Self.seeOther("/share")
        }
        for (path, ips) in [("/share/pdf", false), ("/share/ips", true)] {
            router.post(RouterPath(stringLiteral: path)) { _, context in
                let session = try context.signedIn
                let file: (name: String, type: String, bytes: [UInt8])
                // One bundle is drawn into memory at a time.
                guard app.downloadSlots.take() else {
                    session.flash("phr is making another bundle; try again in a moment.", isError: true)
                    return Self.seeOther("/share")
                }
                defer { app.downloadSlots.give() }
                let password = ips ? nil : context.form["password"]
                do {
                    file = try await Self.blocking { try app.shareDownload(session, ips: ips, password: password) }
                } catch ShareError.passwordFile(_, let reason, _) {
                    session.flash("Nothing was made: \(reason). Choose another password, or leave it empty.", isError: true)
                    return Self.seeOther("/share")
                } catch let error as PHRError {
                    session.flash("Nothing was made. " + WebApp.words(error), isError: true)
                    return Self.seeOther("/share")
                }
                var response = Response(status: .ok, headers: [.contentType: file.type], body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
                response.headers[.contentDisposition] = "attachment; filename=\"\(file.name)\""
                response.headers[.contentSecurityPolicy] = "sandbox; default-src 'none'"
                return response
            }
        }
        router.post(RouterPath(stringLiteral: Self.importPath)) { request, context in
            try await Self.importUpload(request, context: context, app: app)
        }
        router.get(RouterPath(stringLiteral: Self.importPath)) { _, context in try await Self.page { try app.importReport(context.signedIn) } }
        router.get("/records") { _, context in try await Self.page { try app.records(context.signedIn) } }
        router.post("/records/id") { _, context in
            let session = try context.signedIn
            await Self.blocking { app.setMedicalID(session, form: context.form) }
            return Self.seeOther("/records")
        }
        router.post("/records/:kind/add") { _, context in
            let session = try context.signedIn
            guard let kind = context.parameters.get("kind").flatMap(WebApp.RecordScreenKind.init(rawValue:)) else { throw WebApp.NotFound() }
            await Self.blocking { app.addRecord(session, kind: kind, form: context.form) }
            return Self.seeOther("/records")
        }
        router.get("/records/:kind/:id/edit") { _, context in
            guard let kind = context.parameters.get("kind").flatMap(WebApp.RecordScreenKind.init(rawValue:)) else { throw WebApp.NotFound() }
            let id = try context.parameters.require("id")
            return try await Self.page { try app.editRecordPage(context.signedIn, kind: kind, id: id) }
        }
        router.post("/records/:kind/:id/edit") { _, context in
            let session = try context.signedIn
            guard let kind = context.parameters.get("kind").flatMap(WebApp.RecordScreenKind.init(rawValue:)) else { throw WebApp.NotFound() }
            let id = try context.parameters.require("id")
            let next = try await Self.blocking { try app.editRecord(session, kind: kind, id: id, form: context.form) }
            return Self.seeOther(Self.back(next))
        }
        router.get("/records/:kind/:id/remove") { _, context in
            guard let kind = context.parameters.get("kind").flatMap(WebApp.RecordScreenKind.init(rawValue:)) else { throw WebApp.NotFound() }
            let id = try context.parameters.require("id")
            return try await Self.page { try app.confirmRecordRemoval(context.signedIn, kind: kind, id: id) }
        }
        router.post("/records/:kind/:id/remove") { _, context in
            let session = try context.signedIn
            guard let kind = context.parameters.get("kind").flatMap(WebApp.RecordScreenKind.init(rawValue:)) else { throw WebApp.NotFound() }
            let id = try context.parameters.require("id")
            try await Self.blocking { try app.removeRecord(session, kind: kind, id: id) }
            return Self.seeOther("/records")
        }
        router.get("/medications") { _, context in try await Self.page { try app.medications(context.signedIn) } }
        router.post("/medications/add") { _, context in
            let session = try context.signedIn
            let next = await Self.blockingValue { app.addMedication(session, form: context.form) }
            return Self.seeOther(Self.back(next))
        }
        router.get("/medications/:id") { request, context in
            let id = try context.parameters.require("id")
            let month = request.uri.queryParameters.get("month").map { String($0) }
            return try await Self.page { try app.medication(context.signedIn, id: id, month: month) }
        }
        router.post("/medications/:id/edit") { _, context in
            let session = try context.signedIn
            let id = try context.parameters.require("id")
            try await Self.blocking { try app.editMedication(session, id: id, form: context.form) }
            return Self.seeOther("/medications/\(Self.plainID(id))")
        }
        router.post("/medications/:id/stop") { _, context in
            let session = try context.signedIn
            let id = try context.parameters.require("id")
            await Self.blocking { app.stopMedication(session, id: id) }
            return Self.seeOther("/medications/\(Self.plainID(id))")
        }
        router.get("/medications/:id/remove") { _, context in
            let id = try context.parameters.require("id")
            return try await Self.page { try app.confirmMedicationRemoval(context.signedIn, id: id) }
        }
        router.post("/medications/:id/remove") { _, context in
            let session = try context.signedIn
            let id = try context.parameters.require("id")
            try await Self.blocking { try app.removeMedication(session, id: id) }
            return Self.seeOther("/medications")
        }
        router.get("/appointments") { request, context in
            let month = request.uri.queryParameters.get("month").map { String($0) }
            let day = request.uri.queryParameters.get("day").map { String($0) }
            return try await Self.page { try app.appointments(context.signedIn, month: month, day: day) }
        }
        router.post("/appointments/add") { _, context in
            let session = try context.signedIn
            let next = await Self.blockingValue { app.addAppointment(session, form: context.form) }
            return Self.seeOther(Self.back(next))
        }
        router.get("/appointments/calendar.ics") { _, context in
            let session = try context.signedIn
            let file = try await Self.blocking { try app.appointmentCalendar(session) }
            var response = Response(status: .ok, headers: [.contentType: "text/calendar; charset=utf-8"],
                                    body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
            response.headers[.contentDisposition] = "attachment; filename=\"\(file.name)\""
            response.headers[.contentSecurityPolicy] = "sandbox; default-src 'none'"
            return response
        }
        router.get("/appointments/:id/edit") { _, context in
            let id = try context.parameters.require("id")
            return try await Self.page { try app.editAppointmentPage(context.signedIn, id: id) }
        }
        router.post("/appointments/:id/edit") { _, context in
            let session = try context.signedIn
            let id = try context.parameters.require("id")
            let next = try await Self.blocking { try app.editAppointment(session, id: id, form: context.form) }
            return Self.seeOther(Self.back(next))
        }
        router.get("/appointments/:id/remove") { _, context in
            let id = try context.parameters.require("id")
            return try await Self.page { try app.confirmAppointmentRemoval(context.signedIn, id: id) }
        }
        router.post("/appointments/:id/remove") { _, context in
            let session = try context.signedIn
            let id = try context.parameters.require("id")
            let next = try await Self.blocking { try app.removeAppointment(session, id: id) }
            return Self.seeOther(Self.back(next))
        }
        router.get("/labs") { _, context in try await Self.page { try app.labs(context.signedIn) } }
        router.post("/labs/add") { _, context in
            let session = try context.signedIn
            let next = await Self.blockingValue { app.addLab(session, form: context.form) }
            return Self.seeOther(Self.back(next))
        }
        router.get("/labs/:id") { request, context in
            let id = try context.parameters.require("id")
            let units = LabUnitChoice(rawValue: request.uri.queryParameters.get("units") ?? "printed") ?? .printed
            return try await Self.page { try app.lab(context.signedIn, id: id, units: units) }
        }
        router.get("/log") { request, context in
            let metric = request.uri.queryParameters.get("metric").flatMap { LogMetric(rawValue: String($0)) } ?? .water
            let period = request.uri.queryParameters.get("period").flatMap { WebApp.LogPeriod(rawValue: String($0)) } ?? .week
            return try await Self.page { try app.healthLog(context.signedIn, metric: metric, period: period) }
        }
        router.post("/log/pin") { _, context in
            let session = try context.signedIn
            await Self.blocking { app.togglePin(session, form: context.form) }
            return Self.seeOther(Self.back(context.form["back"]))
        }
        router.post("/log/add") { _, context in
            let session = try context.signedIn
            await Self.blocking { app.addLogEntry(session, form: context.form) }
            return Self.seeOther(Self.back(context.form["back"]))
        }
        router.get("/emergency") { _, context in try await Self.page { try app.emergency(context.signedIn) } }
        router.post("/profile") { _, context in
            let session = try context.signedIn
            await Self.blocking { app.chooseProfile(session, name: context.form["profile"] ?? "") }
            return Self.seeOther(Self.back(context.form["back"]))
        }
        router.post("/settings") { _, context in
            let session = try context.signedIn
            app.applySettings(session, text: context.form["text"], theme: context.form["theme"])
            return Self.seeOther(Self.back(context.form["back"]))
        }
        let lock = self.lock
        router.post("/lock") { _, context in
            _ = try context.signedIn
            // The answer goes out first; the agent locks a moment later.
            Task {
                try? await Task.sleep(for: .milliseconds(300))
                lock()
            }
            return Self.page(Layout.bare(heading: "phr is locked", text: "Its keys are gone from memory. Run phr serve again to look at your records."))
        }
    }

    // MARK: - Upload

    /// Reads an upload into memory files (within `UploadReader`'s limits and `uploadSeconds`),
    /// checks its CSRF token, adds its files, and answers with each file's outcome: JSON for the
    /// page's script, a page for a plain form.
    static func upload(_ request: Request, context: WebContext, app: WebApp) async throws -> Response {
        let wantsJSON = (request.headers[.accept] ?? "").contains("application/json")
        return try await receive(request, context: context, app: app, wantsJSON: wantsJSON) { session, body in
            let files = body.files
            let outcomes: [WebApp.UploadOutcome]
            do {
                outcomes = try await blocking { try app.add(session, files: files) }
            } catch let error as PHRError {
                return refusal(.unprocessableContent, "Not added", WebApp.words(error), wantsJSON: wantsJSON)
            }
            if wantsJSON {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                return Response(status: .ok, headers: [.contentType: "application/json"],
                                body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(outcomes))))
            }
            return try await Self.page { try app.uploadResults(session, outcomes) }
        }
    }

    /// A file to import: read into a memory file, imported, and its report shown on the page
    /// the browser is sent to (a redirect, so the upload is not kept with the history entry).
    static func importUpload(_ request: Request, context: WebContext, app: WebApp) async throws -> Response {
        try await receive(request, context: context, app: app, wantsJSON: false) { session, body in
            let files = body.files
            let dryRun = body.fields["dry_run"] == "1"
            let profileID = body.fields["profile"]
            await blocking { app.importUpload(session, files: files, dryRun: dryRun, profileID: profileID) }
            return seeOther(importPath)
        }
    }

    /// A refusal as the page (or the script) that sent an upload reads it; the connection ends
    /// with it, so what the client still sends is not read.
    static func refusal(_ status: HTTPResponse.Status, _ heading: String, _ text: String, wantsJSON: Bool) -> Response {
        var response = wantsJSON
            ? Response(status: status, headers: [.contentType: "application/json"],
                       body: .init(byteBuffer: ByteBuffer(string: "{\"error\":\(Self.jsonString(text))}")))
            : page(Layout.bare(heading: heading, text: text), status: status)
        response.headers[.connection] = "close"
        return response
    }

    /// Reads an upload within its limits (two at once, `uploadSeconds`, `UploadReader`'s sizes),
    /// checks its CSRF token, then hands it to `handle`.
    static func receive(_ request: Request, context: WebContext, app: WebApp, wantsJSON: Bool,
                        handle: @escaping @Sendable (WebSession, UploadBody) async throws -> Response) async throws -> Response {
        let session = try context.signedIn
        // At most two uploads are read at once (each up to 200 MB in memory files).
        guard app.uploadSlots.take() else {
            return refusal(.serviceUnavailable, "Busy", "phr is reading two uploads already; send this one when they are done.", wantsJSON: wantsJSON)
        }
        defer { app.uploadSlots.give() }
        let body: UploadBody
        do {
            body = try await withThrowingTaskGroup(of: UploadBody?.self) { group in
                group.addTask { try await UploadReader.read(request) }
                group.addTask {
                    try await Task.sleep(for: .seconds(uploadSeconds))
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let body = first else { throw UploadError.tooSlow }
                return body
            }
        } catch UploadError.tooLarge {
            return refusal(.contentTooLarge, "Too large", "An upload may carry at most \(UploadReader.largestRequest >> 20) MB; bring bigger files in with the phr command.", wantsJSON: wantsJSON)
        } catch UploadError.tooMany {
            return refusal(.contentTooLarge, "Too many files", "Add at most \(UploadReader.mostFiles) files at a time.", wantsJSON: wantsJSON)
        } catch UploadError.tooSlow {
            return refusal(.requestTimeout, "Too slow", "The upload took too long to arrive.", wantsJSON: wantsJSON)
        } catch UploadError.malformed(let reason) {
            return refusal(.badRequest, "Not an upload", "The upload could not be read: \(reason).", wantsJSON: wantsJSON)
        }
        let csrf = body.fields[WebDoor.csrfField] ?? request.headers[HTTPField.Name("X-CSRF-Token")!]
        guard app.door.allowsCSRF(csrf, session: session) else { return DoorMiddleware.refused }
        return try await handle(session, body)
    }

    static func jsonString(_ text: String) -> String {
        (try? String(decoding: JSONEncoder().encode(text), as: UTF8.self)) ?? "\"\""
    }

    /// A record ID as it may go into a redirect: letters and digits only.
    static func plainID(_ id: String) -> String {
        String(id.unicodeScalars.filter { $0.isASCII && CharacterSet.alphanumerics.contains($0) }.prefix(16).map(Character.init))
    }

    // MARK: - Responses

    static func page(_ html: HTML, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: html.text)))
    }

    static func page(_ build: @escaping @Sendable () throws -> HTML) async throws -> Response {
        page(try await blocking(build))
    }

    static func asset(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func seeOther(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }

    /// The page a form came from (its `back` field) when that is a plain path of this server:
    /// letters, digits and `/-_.` only, so never another site (`//host`, `/\\host`) or a header.
    /// The query keys a page's address may carry: which view of it, never record text.
    static let viewKeys: Set<String> = ["page", "metric", "period", "month", "day", "units", "kind"]

    static func back(_ path: String?) -> String {
        // A page of a list (`/documents?page=3`) or a view of one (`/log?metric=water&period=month`,
        // `/appointments?day=2026-12-02`) comes back to it: only the views' own keys, with short
        // values of lowercase letters, digits and hyphens (never record text, such as a query).
        if let path, let mark = path.firstIndex(of: "?") {
            let query = path[path.index(after: mark)...]
            let pairs = query.split(separator: "&", omittingEmptySubsequences: false)
            guard query.count <= 60, !pairs.isEmpty, pairs.allSatisfy({ pair in
                let parts = pair.split(separator: "=", omittingEmptySubsequences: false)
                return parts.count == 2 && Self.viewKeys.contains(String(parts[0])) && (1...10).contains(parts[1].count)
                    && parts[1].allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }
            }) else { return back(String(path[..<mark])) }
            return back(String(path[..<mark])) + "?" + query
        }
        guard let path, path.hasPrefix("/"), !path.hasPrefix("//"), path.count <= 200,
              path.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "/-_.".unicodeScalars.contains($0)) })
        else { return "/" }
        return path
    }

    /// Vault work (SQLite, the drawing worker) on a thread of its own, never on the event loop.
    /// A Settings form: the signed-in session and the form go to `act` off the event loop (it
    /// keeps a refused form or flashes the outcome itself), then the browser goes back to Settings.
    static func settingsForm(_ router: Router<WebContext>, _ path: String,
                             _ act: @escaping @Sendable (WebSession, [String: String]) -> Void) {
        router.post(RouterPath(stringLiteral: path)) { _, context in
            let session = try context.signedIn
            let form = context.form
            await Self.blocking { act(session, form) }
            return Self.seeOther("/settings")
        }
    }

    static func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            workQueue.async { continuation.resume(with: Result { try work() }) }
        }
    }

    static func blockingValue<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            workQueue.async { continuation.resume(returning: work()) }
        }
    }

    static func blocking(_ work: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { continuation in
            workQueue.async {
                work()
                continuation.resume()
            }
        }
    }

    private static let workQueue = DispatchQueue(label: "phr-serve.work", qos: .userInitiated, attributes: .concurrent)
}

/// What a request carries past the door: its session and its parsed form.
public struct WebContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    var session: WebSession?
    var form: [String: String] = [:]

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    public var maxUploadSize: Int { WebServer.largestForm }

    /// The session; the door lets no request without one reach a handler that asks.
    var signedIn: WebSession {
        get throws {
            guard let session else { throw DoorMiddleware.Refusal.unauthorized }
            return session
        }
    }
}

/// The door as Hummingbird middleware: host, then session, then (for POST) origin and CSRF
/// token, before any handler; the strict headers on every answer, refusals and errors included.
struct DoorMiddleware: RouterMiddleware {
    typealias Context = WebContext
    let server: WebServer

    enum Refusal: Error {
        case unauthorized
        case forbidden
    }

    /// `response`, ending the connection: what the client still sends is not read.
    static func closing(_ response: Response) -> Response {
        var response = response
        response.headers[.connection] = "close"
        return response
    }

    static var refused: Response {
        WebServer.page(Layout.bare(heading: "Refused", text: "This request did not come from phr's own pages."), status: .forbidden)
    }

    func handle(_ request: Request, context: WebContext, next: (Request, WebContext) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        var response = await answer(request, context: context, next: next)
        // How long phr took to answer (Server-Timing, shown by a browser's developer tools; the
        // benchmark reads it): the request's work, not the network's or the body's sending.
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        response.headers[HTTPField.Name("Server-Timing")!] = String(format: "app;dur=%.2f", milliseconds)
        for (name, value) in WebServer.securityHeaders {
            guard let field = HTTPField.Name(name), response.headers[field] == nil else { continue }
            response.headers[field] = value
        }
        return response
    }

    private func answer(_ request: Request, context: WebContext, next: (Request, WebContext) async throws -> Response) async -> Response {
        let door = server.app.door
        guard door.allowsHost(request.head.authority) else {
            return WebServer.page(Layout.bare(heading: "Not this address", text: "phr answers only at the address phr serve printed."),
                                  status: .forbidden)
        }
        var context = context
        var request = request
        let path = request.uri.path
        let open = path.hasPrefix("/assets/") || path == "/favicon.ico" || (path == "/launch" && request.method == .post)
        var session: WebSession?
        // Who is asking comes before reading anything they send.
        if !open {
            guard let known = door.session(cookie: request.cookies[WebDoor.cookieName]?.value) else {
                return WebServer.page(Layout.bare(heading: "Open phr from its link",
                                                  text: "This browser is not signed in. Open the link file phr serve printed; if it was used already, run phr lock, then phr serve --open."),
                                      status: .unauthorized)
            }
            session = known
        }
        let changes = request.method != .get && request.method != .head
        if changes, let session {
            guard door.allowsOrigin(request.headers[.origin], fetchSite: request.headers[HTTPField.Name("Sec-Fetch-Site")!]) else {
                return Self.refused
            }
            _ = session
        }
        // An upload's body is read by its handler as it streams in (into memory files), which
        // checks the CSRF token before anything is stored; every other form is read here.
        if request.method == .post && !WebServer.uploadPaths.contains(path) {
            do {
                context.form = try await Self.form(&request, context: context)
            } catch is FormTimeout {
                return Self.closing(WebServer.page(Layout.bare(heading: "Too slow", text: "The form took too long to arrive."), status: .requestTimeout))
            } catch {
                return Self.closing(WebServer.page(Layout.bare(heading: "Too much", text: "The form sent more than phr takes."), status: .contentTooLarge))
            }
        }
        if let session {
            if changes && !WebServer.uploadPaths.contains(path) {
                let csrf = context.form[WebDoor.csrfField] ?? request.headers[HTTPField.Name("X-CSRF-Token")!]
                guard door.allowsCSRF(csrf, session: session) else { return Self.refused }
            }
            context.session = session
            server.started()
        }
        defer { if session != nil { server.finished() } }
        do {
            return try await next(request, context)
        } catch is WebApp.NotFound {
            return WebServer.page(Layout.bare(heading: "Not found", text: "Nothing here in the records shown."), status: .notFound)
        } catch Refusal.forbidden {
            return Self.refused
        } catch Refusal.unauthorized {
            return WebServer.page(Layout.bare(heading: "Open phr from its link", text: "This browser is not signed in."), status: .unauthorized)
        } catch let error as HTTPResponseError {
            return WebServer.page(Layout.bare(heading: "Cannot answer that", text: "\(error.status.code) \(error.status.reasonPhrase)"),
                                  status: error.status)
        } catch {
            return WebServer.page(Layout.bare(heading: "Something went wrong", text: WebApp.words(error)), status: .internalServerError)
        }
    }

    /// A POSTed url-encoded form, read within `WebServer.largestForm` and `WebServer.formSeconds`;
    /// throws when larger or slower.
    static func form(_ request: inout Request, context: WebContext) async throws -> [String: String] {
        let body = request.body
        let buffer = try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask { try await body.collect(upTo: WebServer.largestForm) }
            group.addTask {
                try await Task.sleep(for: .seconds(WebServer.formSeconds))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let buffer = first else { throw FormTimeout() }
            return buffer
        }
        let type = request.headers[.contentType] ?? ""
        guard type.hasPrefix("application/x-www-form-urlencoded") else { return [:] }
        return FormBody.parse(String(buffer: buffer))
    }
}

struct FormTimeout: Error {}

extension UInt8 {
    var isHexDigit: Bool { (48...57).contains(self) || (65...70).contains(self) || (97...102).contains(self) }
}

/// application/x-www-form-urlencoded, as browsers send it (WHATWG URL, "urlencoded parsing").
enum FormBody {
    static func parse(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decode(parts[0])
            let value = parts.count > 1 ? decode(parts[1]) : ""
            if fields[name] == nil { fields[name] = value }
        }
        return fields
    }

    static func decode(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), utf8.count >= 2, utf8.prefix(2).allSatisfy({ $0.isHexDigit }),
                      let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
