import Foundation
import Testing
@testable import PHRCore
@testable import PHRRender

/// A worker that crashes, hangs, spins or runs out of memory costs that one document, reported
/// as its outcome; the parent carries on with the others on a fresh worker. The misbehaviour is
/// triggered through the debug-only `WorkerTestFaults` on the first page containing a marker, so
/// $PHR_BIN must be a debug build of phr.
@Suite final class TextExtractorFaultTests: Sendable {
    /// Four small documents written by `SyntheticPDF` for each test, removed with the test.
    let directory: String
    let discharge: String
    let prescription: String
    let insurance: String
    let lab: String
    /// Printed only on the prescription, and only on page 2 of the lab report.
    static let prescriptionMarker = "Sunrise Health Clinic"
    static let labPage2Marker = "Triglycerides"

    init() throws {
        directory = try TestSupport.temporaryDirectory("faults")
        discharge = try SyntheticPDF(pages: [.text("Discharge summary", "Discharge date: 2025-04-20", "Hospital course: uneventful.")])
            .write(to: "\(directory)/discharge.pdf")
        prescription = try SyntheticPDF(pages: [.text(Self.prescriptionMarker, "Rx: amoxicillin 500 mg", "Sig: one capsule three times daily")])
            .write(to: "\(directory)/prescription.pdf")
        insurance = try SyntheticPDF(pages: [.text("Health insurance card", "Member ID: XJ-4411", "Group number: 7781")])
            .write(to: "\(directory)/insurance.pdf")
        lab = try SyntheticPDF(pages: [.text("Laboratory report", "Hemoglobin 13.5 g/dL"),
                                       .text("Lipid panel", "\(Self.labPage2Marker) 140 mg/dL"),
                                       .text("Comments", "Fasting sample.")])
            .write(to: "\(directory)/lab.pdf")
    }

    deinit {
        TestSupport.remove(directory)
    }

    /// Runs the four documents with one fault armed; returns the summaries by file.
    func runBatch(_ faults: [String: String], limits: ExtractionLimits = .default)
        throws -> (summaries: [String: ExtractionSummary], pages: [String: [ExtractedPage]]) {
        let paths = [discharge, prescription, insurance, lab]
        let extractor = ExtractionFixtures.extractor(limits, faults: faults)
        let (summaries, pages) = try ExtractionFixtures.extractAll(paths.map { ExtractionJob(.path($0)) }, with: extractor)
        var byPath: [String: ExtractionSummary] = [:]
        var pagesByPath: [String: [ExtractedPage]] = [:]
        for (index, path) in paths.enumerated() {
            byPath[path] = summaries[index]
            pagesByPath[path] = pages[index] ?? []
        }
        return (byPath, pagesByPath)
    }

    @Test func aCrashIsReportedForThatDocumentOnly() throws {
        let (summaries, _) = try runBatch([WorkerTestFaults.crashVariable: Self.prescriptionMarker])
        #expect(summaries[prescription]?.outcome == .unreadable)
        #expect(summaries[prescription]?.reason == "the reader crashed (SIGSEGV) on page 1 of 1")
        #expect(summaries[discharge]?.outcome == .indexed)
        #expect(summaries[insurance]?.outcome == .indexed)
        #expect(summaries[lab]?.outcome == .indexed)
    }

    /// A worker that dies on a page (a hostile page, an image bomb, a page that hangs OCR)
    /// costs that page only: the document resumes after it in a fresh worker.
    @Test func aCrashOnAPageCostsThatPageOnly() throws {
        let (summaries, pages) = try runBatch([WorkerTestFaults.crashVariable: Self.labPage2Marker])
        let summary = try #require(summaries[lab])
        #expect(summary.outcome == .partial)
        #expect(summary.reason == "1 of 3 pages could not be read (page 2: the reader crashed (SIGSEGV))")
        #expect(summary.textPages == 2)
        #expect(pages[lab]?.map(\.number) == [1, 3])
        #expect(summaries[prescription]?.outcome == .indexed)
    }

    @Test func aHangIsKilledAfterTheStepTimeout() throws {
        var limits = ExtractionLimits.default
        limits.stepTimeout = 3
        let started = Date()
        let (summaries, _) = try runBatch([WorkerTestFaults.hangVariable: Self.prescriptionMarker], limits: limits)
        #expect(summaries[prescription]?.outcome == .unreadable)
        #expect(summaries[prescription]?.reason == "the reader made no progress for 3 s on page 1 of 1")
        #expect(summaries[discharge]?.outcome == .indexed)
        #expect(summaries[lab]?.outcome == .indexed)
        #expect(Date().timeIntervalSince(started) < 20)
    }

    @Test func aDocumentThatTakesTooLongInAllIsStopped() throws {
        var limits = ExtractionLimits.default
        limits.stepTimeout = 30
        limits.documentTimeout = 4
        let (summaries, _) = try runBatch([WorkerTestFaults.hangVariable: Self.labPage2Marker], limits: limits)
        #expect(summaries[lab]?.outcome == .partial)
        #expect(summaries[lab]?.reason == "the reader took longer than 4 s in all on page 2 of 3")
        // Time ran out, not the file: another run (`doc reindex --ocr`) may read it.
        #expect(summaries[lab]?.timedOut == true)
        #expect(summaries.values.filter(\.timedOut).count == 1)
    }

    @Test func aRunawayLoopHitsTheCPULimit() throws {
        var limits = ExtractionLimits.default
        limits.cpuSecondsPerStep = 1
        let (summaries, _) = try runBatch([WorkerTestFaults.spinVariable: Self.prescriptionMarker], limits: limits)
        #expect(summaries[prescription]?.outcome == .unreadable)
        #expect(summaries[prescription]?.reason == "the reader used more than 1 s of CPU time on one step on page 1 of 1")
        #expect(summaries[insurance]?.outcome == .indexed)
    }

    @Test func runningOutOfMemoryIsReportedAsSuch() throws {
        var limits = ExtractionLimits.default
        limits.memoryBytes = 768 << 20
        let (summaries, _) = try runBatch([WorkerTestFaults.exhaustMemoryVariable: Self.prescriptionMarker], limits: limits)
        #expect(summaries[prescription]?.outcome == .unreadable)
        #expect(summaries[prescription]?.reason == "the reader ran out of memory (limit 768 MiB; PHR_READER_MEMORY raises it) on page 1 of 1")
        #expect(summaries[discharge]?.outcome == .indexed)
        #expect(summaries[lab]?.outcome == .indexed)
    }

    @Test func workersRetireAfterTheirShareAndFreshOnesTakeOver() throws {
        var limits = ExtractionLimits.default
        limits.documentsPerWorker = 2
        limits.parallelWorkers = 1
        let files = try (1...5).map { number in
            try SyntheticPDF(pages: [.text("Visit note \(number)", "Assessment and plan: rest.")]).write(to: "\(directory)/note\(number).pdf")
        }
        let extractor = ExtractionFixtures.extractor(limits)
        let (summaries, _) = try ExtractionFixtures.extractAll(files.map { ExtractionJob(.path($0)) }, with: extractor)
        #expect(summaries.count == files.count)
        #expect(summaries.values.allSatisfy { $0.outcome == .indexed })
        // And the extractor is still usable afterwards, with a kept worker.
        let (again, _) = try ExtractionFixtures.extract(discharge, with: extractor)
        #expect(again.outcome == .indexed)
    }

    @Test func aCallbackErrorStopsTheBatchAndTheExtractorRecovers() throws {
        struct Stop: Error {}
        let extractor = ExtractionFixtures.extractor()
        #expect(throws: Stop.self) {
            _ = try extractor.extract(.path(lab)) { _ in throw Stop() }
        }
        let (summary, pages) = try ExtractionFixtures.extract(lab, with: extractor)
        #expect(summary.outcome == .indexed)
        #expect(pages.count == 3)
    }

    @Test func aMissingWorkerExecutableIsAnError() throws {
        let extractor = TextExtractor(workerExecutable: "/nonexistent/phr")
        #expect(throws: ExtractionError.workerStartFailed(executable: "/nonexistent/phr", code: ENOENT)) {
            _ = try extractor.extract(.path(discharge)) { _ in }
        }
    }

    @Test func aWorkerThatIsNotPhrIsAnError() throws {
        let extractor = TextExtractor(workerExecutable: "/bin/true")
        #expect(throws: ExtractionError.workerNotReady(executable: "/bin/true", detail: "it exited with status 0")) {
            _ = try extractor.extract(.path(discharge)) { _ in }
        }
    }

    @Test func filesThatAreNotPDFsNeverReachAWorker() throws {
        let directory = try TestSupport.temporaryDirectory("sniff")
        defer { TestSupport.remove(directory) }
        let png = "\(directory)/photo.pdf"
        _ = FileManager.default.createFile(atPath: png, contents: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]))
        let extractor = TextExtractor(workerExecutable: "/nonexistent/phr")
        let cases: [(String, String)] = [
            ("\(directory)/missing.pdf", "cannot open the file: no such file or directory"),
            (directory, "not a regular file"),
            ("/dev/null", "not a regular file"),
        ]
        for (path, reason) in cases {
            let summary = try extractor.extract(.path(path)) { _ in }
            #expect(summary.outcome == .unreadable)
            #expect(summary.reason == reason)
        }
        // An image whatever its name, with OCR off: it needs OCR, and no worker is started.
        let image = try extractor.extract(.path(png), ocr: .none) { _ in }
        #expect(image.outcome == .noText)
        #expect(image.reason == "an image: needs OCR to be searchable")
    }

    @Test func thePasswordNeverAppearsInTheWorkersArgumentsOrEnvironment() throws {
        let password = "view"
        let pages = (1...30).map { SyntheticPDF.Page.text("Page \($0)") }
        let locked = try SyntheticPDF(pages: pages, userPassword: Array(password.utf8)).write(to: "\(directory)/locked.pdf")
        let extractor = ExtractionFixtures.extractor()
        var inspected = 0
        _ = try extractor.extract(.path(locked), password: TestSupport.secret(password)) { _ in
            // Workers are not dumpable (phr disables core dumps first thing), so their environ
            // is unreadable even to their own user; their command line is readable.
            for pid in Self.workerProcesses() {
                let arguments = Self.procFile(pid, "cmdline")
                guard !arguments.isEmpty else { continue }  // another test's worker, just exited
                #expect(!arguments.contains(Array(password.utf8)))
                inspected += 1
            }
        }
        #expect(inspected > 0)
        #expect(!ExtractionWorkerSettings(extractor.limits).arguments.joined().contains(password))
    }

    @Test func errorMessagesAreLowercaseOneLinersWithoutSecrets() {
        let errors: [ExtractionError] = [
            .workerStartFailed(executable: "/usr/bin/phr", code: ENOENT),
            .workerNotReady(executable: "/usr/bin/phr", detail: "it exited with status 64"),
            .protocolViolation(detail: "page 3 out of order"),
            .system(operation: "poll", code: EINTR),
            .passwordProhibitedCharacter,
            .passwordBidirectionalText,
        ]
        for error in errors {
            let message = error.localizedDescription
            #expect(message.first?.isLowercase == true)
            #expect(!message.contains("\n") && !message.hasSuffix("."))
        }
    }

    // MARK: Helpers

    /// Children of this process running the extraction worker.
    static func workerProcesses() -> [Int32] {
        let me = getpid()
        return FileSystem.contents(of: "/proc").compactMap(Int32.init).filter { pid in
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("PPid:") }),
                  Int32(line.dropFirst(5).trimmingCharacters(in: .whitespaces)) == me else { return false }
            return procFile(pid, "cmdline").contains(Array(WorkerProtocol.subcommand.utf8))
        }
    }

    static func procFile(_ pid: Int32, _ name: String) -> [UInt8] {
        Array(FileManager.default.contents(atPath: "/proc/\(pid)/\(name)") ?? Data())
    }
}

private extension Array where Element == UInt8 {
    func contains(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, count >= needle.count else { return false }
        return (0...(count - needle.count)).contains { self[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}
