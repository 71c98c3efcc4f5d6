import Foundation
import Testing
@testable import PHRCore

/// The settings people give through the environment, and the ones refused.
@Suite("MedAPI configuration")
struct MedAPIConfigurationTests {
    @Test("defaults: live, the public https services, keyless limits, a User-Agent naming phr")
    func defaults() throws {
        let configuration = try MedAPIConfiguration.fromEnvironment([:], phrVersion: "1.2.3")
        #expect(configuration.mode == .live)
        #expect(!configuration.offline)
        #expect(configuration.baseURL(.rxnav).absoluteString == "https://rxnav.nlm.nih.gov")
        #expect(configuration.baseURL(.openFDA).absoluteString == "https://api.fda.gov")
        #expect(configuration.userAgent.hasPrefix("phr/1.2.3 "))
        #expect(configuration.timeout == 15)
        #expect(configuration.rateLimits[.openFDA]?.perDay == 1_000)
        #expect(configuration.rateLimits[.rxnav]?.perDay == nil)
        #expect(configuration.lifetimes.labels == 30 * 86_400)
        #expect(configuration.lifetimes.recalls == 86_400)
        let rxnav = try #require(configuration.rateLimits[.rxnav])
        #expect(rxnav.burst + rxnav.perSecond <= 20, "never more than RxNav's 20 requests in a second")
        let fda = try #require(configuration.rateLimits[.openFDA])
        #expect(fda.burst + 60 * fda.perSecond <= 240, "never more than openFDA's 240 requests in a minute")
    }

    @Test("every variable read, the key raising the daily limit")
    func everything() throws {
        let directory = try TestSupport.temporaryDirectory("cassettes")
        defer { TestSupport.remove(directory) }
        let configuration = try MedAPIConfiguration.fromEnvironment([
            "PHR_MEDAPI_MODE": "Replay", "PHR_MEDAPI_CASSETTES": directory, "PHR_RXNAV_URL": "http://127.0.0.1:8080/rxnav/",
            "PHR_OPENFDA_URL": "https://fda.example.org", "PHR_OPENFDA_API_KEY": "k", "PHR_MEDAPI_TIMEOUT": "500ms", "PHR_OFFLINE": "0",
        ], phrVersion: "1")
        #expect(configuration.mode == .replay)
        #expect(configuration.cassetteDirectory == directory)
        #expect(configuration.baseURL(.rxnav).absoluteString == "http://127.0.0.1:8080/rxnav")
        #expect(configuration.baseURL(.openFDA).absoluteString == "https://fda.example.org")
        #expect(configuration.openFDAAPIKey == "k")
        #expect(configuration.rateLimits[.openFDA]?.perDay == 120_000)
        #expect(configuration.timeout == 0.5)
        #expect(!configuration.offline)
        #expect(try MedAPIConfiguration.fromEnvironment(["PHR_OFFLINE": "1", "PHR_MEDAPI_MODE": "record"], phrVersion: "1").offline,
                "offline needs no cassette directory, whatever the mode")
    }

    @Test("refused settings name the variable and exit 64")
    func refused() {
        func refuses(_ environment: [String: String], _ variable: String) {
            do {
                _ = try MedAPIConfiguration.fromEnvironment(environment, phrVersion: "1")
                Issue.record("\(environment) should be refused")
            } catch let error as EnvironmentSettingError {
                guard case .invalid(let name, _) = error else { Issue.record("unexpected \(error)"); return }
                #expect(name == variable)
                #expect(error.exitStatus == .usage)
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
        refuses(["PHR_RXNAV_URL": "http://rxnav.nlm.nih.gov"], "PHR_RXNAV_URL")
        refuses(["PHR_OPENFDA_URL": "http://192.168.1.5:8080"], "PHR_OPENFDA_URL")
        refuses(["PHR_OPENFDA_URL": "ftp://127.0.0.1"], "PHR_OPENFDA_URL")
        refuses(["PHR_RXNAV_URL": "https://x.org/?a=1"], "PHR_RXNAV_URL")
        refuses(["PHR_RXNAV_URL": "not a url"], "PHR_RXNAV_URL")
        refuses(["PHR_MEDAPI_MODE": "mock"], "PHR_MEDAPI_MODE")
        refuses(["PHR_MEDAPI_MODE": "replay"], "PHR_MEDAPI_CASSETTES")
        refuses(["PHR_MEDAPI_MODE": "replay", "PHR_MEDAPI_CASSETTES": "/nonexistent/cassettes"], "PHR_MEDAPI_CASSETTES")
        refuses(["PHR_OFFLINE": "maybe"], "PHR_OFFLINE")
        refuses(["PHR_MEDAPI_TIMEOUT": "-1"], "PHR_MEDAPI_TIMEOUT")
    }

    @Test("plain http is allowed on this machine only")
    func loopback() throws {
        for url in ["http://127.0.0.1:9", "http://localhost:9/x", "http://[::1]:9", "http://127.1.2.3"] {
            #expect(throws: Never.self) { try MedAPIConfiguration.validatedBaseURL(url, variable: "V") }
        }
        #expect(!MedAPIConfiguration.isLoopback("127.0.0.1.evil.com"))
        #expect(!MedAPIConfiguration.isLoopback("128.0.0.1"))
    }
}
