import Foundation
import Testing
@testable import PHRCore

/// The offline-first cache: answers kept in the encrypted vault, lifetimes, --refresh, the
/// fallback when the network goes away, and PHR_OFFLINE=1 opening no socket at all.
@Suite("MedAPI cache", .serialized)
struct MedAPICacheTests {
    @Test("a second lookup after going offline answers from the cache and says how old it is")
    func offlineFallback() throws {
        let cassettes = try MedAPITest.CassetteServer()
        let (vault, _, directory) = try TestSupport.makeVault("medcache")
        defer { TestSupport.remove(directory) }
        let clock = Clock()
        let lookup = try MedAPITest.lookup(cassettes.server, vault: vault, now: { clock.now })
        let online = try lookup.info(.name("citalopram"))
        #expect(online.sources.allSatisfy { !$0.cached })
        #expect(online.label?.title == "Citalopram (citalopram hydrobromide)")
        let requests = cassettes.server.requests.count

        // Within the lifetime the cache answers without asking.
        clock.now += 3600
        let cached = try lookup.info(.name("citalopram"))
        #expect(cassettes.server.requests.count == requests)
        #expect(cached.sources.allSatisfy { $0.cached })
        #expect(cached.notices.isEmpty)

        // The network goes away; 40 days later everything is stale, and still answered.
        cassettes.server.stop()
        clock.now += 40 * 86_400
        let stale = try lookup.info(.name("citalopram"))
        #expect(stale.concept == online.concept)
        #expect(stale.ingredients == online.ingredients)
        #expect(stale.brandNames == online.brandNames)
        #expect(stale.strengths == online.strengths)
        #expect(stale.classes == online.classes)
        #expect(stale.label == online.label)
        #expect(stale.sources.allSatisfy { $0.cached })
        #expect(stale.notices.contains { $0.hasPrefix("cannot reach RxNav") && $0.contains("fetched 40 days ago") }, "\(stale.notices)")
        #expect(stale.notices.contains { $0.hasPrefix("cannot reach openFDA") && $0.contains("the FDA label for citalopram") })
        #expect(cassettes.misses.isEmpty)
    }

    @Test("without a cached answer, no network is exit 69")
    func nothingCached() throws {
        let server = try LoopbackHTTPServer { _ in .json(200, "{}") }
        server.stop()
        let (vault, _, directory) = try TestSupport.makeVault("medcache")
        defer { TestSupport.remove(directory) }
        let lookup = try MedAPITest.lookup(server, vault: vault)
        do {
            _ = try lookup.info(.name("citalopram"))
            Issue.record("nothing can answer")
        } catch let error as MedAPIError {
            guard case .unavailable(.rxnav, _) = error else { Issue.record("unexpected \(error)"); return }
            #expect(error.exitStatus == .unavailable)
        }
    }

    @Test("PHR_OFFLINE=1 never opens a socket: cached answers come back, the rest is exit 69")
    func offlineMode() throws {
        let cassettes = try MedAPITest.CassetteServer()
        defer { cassettes.server.stop() }
        let (vault, _, directory) = try TestSupport.makeVault("medcache")
        defer { TestSupport.remove(directory) }
        let environment = ["PHR_OFFLINE": "1", "PHR_RXNAV_URL": cassettes.server.baseURL, "PHR_OPENFDA_URL": cassettes.server.baseURL]

        // Offline before anything was fetched: exit 69, and the server never hears of it.
        let offline = try MedicineLookup(vault: vault, environment: environment, phrVersion: "test")
        #expect(offline.http == nil, "no transport exists offline")
        #expect(throws: MedAPIError.offline(what: "the RxNorm match for 'citalopram'")) { try offline.resolve("citalopram") }
        #expect(MedAPIError.offline(what: "x").exitStatus == .unavailable)
        #expect(cassettes.server.connectionCount == 0)

        // Online once, through the same server.
        let online = try MedAPITest.lookup(cassettes.server, vault: vault)
        let fetched = try online.check(medicines: [MedicineEntry(name: "citalopram"), MedicineEntry(name: "linezolid")],
                                       allergies: [AllergyEntry(substance: "penicillin")])
        let connections = cassettes.server.connectionCount
        #expect(connections > 0)

        // Offline again, even with --refresh: the same answer, from the vault only.
        offline.refresh = true
        let answered = try offline.check(medicines: [MedicineEntry(name: "citalopram"), MedicineEntry(name: "linezolid")],
                                         allergies: [AllergyEntry(substance: "penicillin")])
        #expect(answered.findings == fetched.findings.map { finding in
            var copy = finding
            copy.source?.cached = true
            return copy
        })
        #expect(answered.sources.allSatisfy { $0.cached })
        #expect(cassettes.server.connectionCount == connections)
        #expect(throws: MedAPIError.offline(what: "the RxNorm match for 'ibuprofen'")) { try offline.resolve("ibuprofen") }
        #expect(cassettes.server.connectionCount == connections)
        #expect(cassettes.misses.isEmpty)
    }

    @Test("lifetimes: recalls are asked again after a day, labels after 30 days; --refresh asks at once")
    func lifetimes() throws {
        let cassettes = try MedAPITest.CassetteServer()
        defer { cassettes.server.stop() }
        let (vault, _, directory) = try TestSupport.makeVault("medcache")
        defer { TestSupport.remove(directory) }
        let clock = Clock()
        let lookup = try MedAPITest.lookup(cassettes.server, vault: vault, now: { clock.now })
        func asked(_ prefix: String) -> Int { cassettes.server.requests.filter { $0.path.hasPrefix(prefix) }.count }

        _ = try lookup.recalls(for: [MedicineEntry(name: "citalopram")])
        _ = try lookup.info(.name("citalopram"))
        #expect(asked("/drug/enforcement.json") == 1)
        #expect(asked("/drug/label.json") == 1)

        clock.now += 20 * 3600
        _ = try lookup.recalls(for: [MedicineEntry(name: "citalopram")])
        #expect(asked("/drug/enforcement.json") == 1, "recalls are fresh for a day")

        clock.now += 5 * 3600
        _ = try lookup.recalls(for: [MedicineEntry(name: "citalopram")])
        _ = try lookup.info(.name("citalopram"))
        #expect(asked("/drug/enforcement.json") == 2, "after a day recalls are asked again")
        #expect(asked("/drug/label.json") == 1, "labels are fresh for 30 days")

        clock.now += 30 * 86_400
        _ = try lookup.info(.name("citalopram"))
        #expect(asked("/drug/label.json") == 2)

        lookup.refresh = true
        _ = try lookup.info(.name("citalopram"))
        #expect(asked("/drug/label.json") == 3, "--refresh asks even when fresh")
        #expect(cassettes.misses.isEmpty)
    }

    @Test("cached answers are normalised into tables, inside the encrypted database")
    func normalisedAndEncrypted() throws {
        let cassettes = try MedAPITest.CassetteServer()
        defer { cassettes.server.stop() }
        let (vault, _, directory) = try TestSupport.makeVault("medcache")
        defer { TestSupport.remove(directory) }
        // The published limits, so openFDA's daily budget is counted.
        let lookup = try MedicineLookup(configuration: MedAPITest.configuration(cassettes.server, rateLimits: nil),
                                        cache: MedAPICache(vault: vault), limiter: RateLimiter())
        _ = try lookup.info(.name("citalopram"))
        _ = try lookup.recalls(for: [MedicineEntry(name: "citalopram")])
        _ = try? lookup.resolve("ambienn")

        let counts = try vault.database.read { db in
            try [String: Int](uniqueKeysWithValues: ["medapi_concept", "medapi_ingredient", "medapi_related", "medapi_drug_class",
                                                      "medapi_label", "medapi_label_section", "medapi_recall", "medapi_suggestion",
                                                      "medapi_usage"].map { table in
                (table, try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)")!)
            })
        }
        #expect(counts["medapi_concept"]! >= 18)
        #expect(counts["medapi_ingredient"] == 1)
        #expect(counts["medapi_label"] == 1)
        #expect(counts["medapi_label_section"] == 5)
        #expect(counts["medapi_recall"] == 2, "the escitalopram report was left out")
        #expect(counts["medapi_suggestion"] == 5)
        #expect(counts["medapi_drug_class"] == 7)
        #expect(counts["medapi_usage"] == 1, "openFDA requests are counted for its daily limit")
        let counted = try vault.database.read { try Int.fetchOne($0, sql: "SELECT requests FROM medapi_usage WHERE service = 'openfda'") }
        #expect(counted == 2, "a label search and a recall search")
        let lookups = try MedAPICache(vault: vault).counts()
        #expect(lookups[.name] == 2 && lookups[.allRelated] == 1 && lookups[.label] == 1 && lookups[.recalls] == 1)

        // Words of the label and the recall are nowhere in the vault's files in the clear.
        for secretWord in ["pimozide", "Failed Dissolution", "citalopram", "Celexa"] {
            #expect(TestSupport.anyFile(under: directory, contains: Array(secretWord.utf8)) == nil, "\(secretWord) found in plaintext")
        }
    }

    @Test("a \"no such medicine\" answer is kept too, with its suggestions, for offline use")
    func negativeAnswers() throws {
        let cassettes = try MedAPITest.CassetteServer()
        let (vault, _, directory) = try TestSupport.makeVault("medcache")
        defer { TestSupport.remove(directory) }
        let expected = MedAPIError.noSuchMedicine(query: "ambienn", suggestions: ["Ambien", "Ammens", "Amber", "Amrinon", "Ambifed"])
        #expect(throws: expected) { try MedAPITest.lookup(cassettes.server, vault: vault).resolve("ambienn") }
        cassettes.server.stop()
        let offline = try MedicineLookup(configuration: MedAPITest.configuration(cassettes.server, offline: true),
                                         cache: MedAPICache(vault: vault))
        #expect(throws: expected) { try offline.resolve("  ambienn ") }
    }
}

/// A settable clock for lifetimes.
final class Clock: @unchecked Sendable {
    var now = Date()
}
