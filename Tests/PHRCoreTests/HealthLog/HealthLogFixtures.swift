import Foundation
import Testing
@testable import PHRCore

/// Fixtures for health-log tests: logging entries through the real store at a fixed "now" in a
/// fixed zone, as the command line does.
struct HealthLogFixture {
    typealias F = RecordFixtures

    let vault: Vault
    let profile: Profile
    let directory: String

    init(_ label: String = "healthlog") throws {
        (vault, profile, directory) = try F.vault(label)
    }

    func cleanUp() { TestSupport.remove(directory) }

    func store(_ now: String, _ zone: String = "Europe/Berlin") -> LogStore {
        LogStore(vault: vault, profile: profile, time: F.time(now, zone))
    }

    /// Logs `amount` of `metric` at `now` (an ISO instant, with an offset or Z) in `zone`.
    @discardableResult
    func log(_ metric: LogMetric, _ amount: String?, at now: String, zone: String = "Europe/Berlin",
             _ change: (inout LogStore.Input) -> Void = { _ in }) throws -> LogEntry {
        var input = LogStore.Input()
        input.amount = amount
        change(&input)
        return try store(now, zone).add(metric, input)
    }

    func stats(_ now: String, _ zone: String = "Europe/Berlin") -> HealthStats {
        HealthStats(vault: vault, profile: profile, time: F.time(now, zone))
    }

    func goals(_ now: String, _ zone: String = "Europe/Berlin") -> GoalStore {
        GoalStore(vault: vault, profile: profile, time: F.time(now, zone))
    }

    static func day(_ text: String) -> CalendarDate { CalendarDate(text)! }
}
