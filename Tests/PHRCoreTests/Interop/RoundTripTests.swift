import CCDASamples
import Foundation
import Testing
@testable import PHRCore

/// Issue 26: what another system's file brings in survives phr's own format. Each import fixture
/// of the suite (the generator's C-CDA documents, the corpus's FHIR bundles) is imported, exported,
/// imported into an empty vault and exported again: the two exports are the same bytes, and
/// importing the export once more changes nothing.
@Suite struct RoundTripTests {
    typealias F = RecordFixtures
    static let time = F.time("2026-05-10T10:00:00Z", "America/New_York")

    static func roundTrip(_ path: String) throws {
        let (first, firstProfile, firstDirectory) = try F.vault("roundtrip-a")
        defer { TestSupport.remove(firstDirectory) }
        let imported = try RecordImport.run(path: path, vault: first, profileName: nil, time: time)
        #expect(imported.added.values.reduce(0, +) > 0, "\(path) brought records in")
        let exported = try VaultExport.build(vault: first, profile: firstProfile, time: time, generator: "phr test").encoded()
        let exportPath = "\(firstDirectory)/export.json"
        try exported.write(to: URL(fileURLWithPath: exportPath))

        let (second, secondProfile, secondDirectory) = try F.vault("roundtrip-b")
        defer { TestSupport.remove(secondDirectory) }
        let report = try RecordImport.run(path: exportPath, vault: second, profileName: nil, time: time)
        #expect(report.rejectedCount == 0, "\(path): \(report.skipped.filter(\.rejected))")
        let again = try VaultExport.build(vault: second, profile: secondProfile, time: time, generator: "phr test").encoded()
        if again != exported {
            let a = String(decoding: exported, as: UTF8.self).split(separator: "\n")
            let b = String(decoding: again, as: UTF8.self).split(separator: "\n")
            let firstDifference = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }
            Issue.record("\(path): the second export differs, first at line \(firstDifference?.offset ?? min(a.count, b.count)): \(firstDifference.map { "\($0.element.0) | \($0.element.1)" } ?? "length")")
        }
        #expect(try RecordImport.run(path: exportPath, vault: second, profileName: nil, time: time).changedCount == 0)
    }

    @Test(arguments: CCDASampleDocument.Kind.allCases, CCDASampleDocument.Release.allCases)
    func aCCDADocumentSurvivesExportAndImport(kind: CCDASampleDocument.Kind, release: CCDASampleDocument.Release) throws {
        let directory = try TestSupport.temporaryDirectory("roundtrip-ccda")
        defer { TestSupport.remove(directory) }
        let path = "\(directory)/document.xml"
        try CCDASampleDocument(kind: kind, release: release).xml.write(toFile: path, atomically: true, encoding: .utf8)
        try Self.roundTrip(path)
    }

    @Test(.corpus) func everyFHIRBundleOfTheCorpusSurvivesExportAndImport() throws {
        let bundles = CorpusData.fhirBundles
        #expect(bundles.count >= 2)
        for bundle in bundles { try Self.roundTrip(bundle) }
    }
}
