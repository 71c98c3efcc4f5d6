import Foundation
import Testing
@testable import PHRCore

/// Decisions the command line used to make itself and now asks the library for: which date
/// order a locale reads, what "yesterday" is, how findings group, what a notification may say.
@Suite struct CommandRulesTests {
    @Test(arguments: [
        (["LANG": "de_DE.UTF-8"], true), (["LANG": "en_GB.UTF-8"], true), (["LANG": "en_US.UTF-8"], false),
        (["LANG": "en_CA.UTF-8"], false), (["LANG": "C.UTF-8"], false), (["LANG": "POSIX"], false), ([:], false),
        (["LANG": "en_US.UTF-8", "LC_TIME": "fr_FR.UTF-8"], true), (["LC_ALL": "en_PH.UTF-8", "LC_TIME": "fr_FR.UTF-8"], false),
    ])
    func theLocaleDecidesDayFirst(environment: [String: String], dayFirst: Bool) {
        #expect(DocumentDateGuesser.prefersDayFirst(environment: environment) == dayFirst)
    }

    @Test func logDaysAreDatesTodayOrYesterday() throws {
        let today = CalendarDate(year: 2026, month: 3, day: 1)!
        #expect(try LogStore.day("today", field: Field("on"), today: today) == today)
        #expect(try LogStore.day("Yesterday", field: Field("on"), today: today) == CalendarDate(year: 2026, month: 2, day: 28)!)
        #expect(try LogStore.day("2025-12-31", field: Field("on"), today: today) == CalendarDate(year: 2025, month: 12, day: 31)!)
        #expect(throws: RecordError.self) { try LogStore.day("tomorrow", field: Field("on"), today: today) }
    }

    @Test func findingsAreGroupedByPairMostSeriousFirst() {
        func finding(_ a: String, _ b: String, _ severity: FindingSeverity, _ term: String) -> InteractionFinding {
            InteractionFinding(kind: .labelMention, severity: severity, medicines: [a, b], section: "warnings", term: term,
                               reason: term, quote: nil, source: nil, dailyMedURL: nil)
        }
        let report = [finding("A", "B", .high, "1"), finding("C", "A", .moderate, "2"), finding("B", "A", .moderate, "3")]
        var interactions = InteractionReport(medicines: [], allergies: [], findings: report, allergyFindings: [], pairsWithoutFindings: [],
                                             sources: [], notices: [], disclaimer: "")
        #expect(interactions.findingsByPair.map { $0.map(\.term) } == [["1", "3"], ["2"]])
        interactions.findings = []
        #expect(interactions.findingsByPair.isEmpty)
    }

    @Test func aNameGivenTwiceIsCheckedOnce() {
        let entries = [MedicineEntry(name: "Citalopram"), MedicineEntry(name: "ibuprofen"), MedicineEntry(name: "CITALOPRAM")]
        #expect(MedicineLookup.once(entries) { $0.name }.map(\.name) == ["Citalopram", "ibuprofen"])
    }

    /// The privacy rule: without details a notification names no medication, person or amount.
    @Test func notificationsSayNothingPrivateWithoutDetails() {
        let dose = DueReminder(key: "med:m1:2026-03-10T08:00", kind: .med, reminderID: "r1", recordID: "m1", at: "2026-03-10T08:00:00+01:00",
                               title: "Mia: Metformin 500 mg", message: "Metformin 500 mg is due at 08:00 (Mia)", tip: nil)
        let plain = dose.notification(details: false)
        #expect(plain.title == "phr: medication" && plain.body == "A dose is due. '\(Action.dosesDue)' shows it.")
        for secret in ["Metformin", "500", "Mia"] {
            #expect(!plain.title.contains(secret) && !plain.body.description.contains(secret))
        }
        let detailed = dose.notification(details: true)
        #expect(detailed.title == "phr: Mia: Metformin 500 mg" && detailed.body.description.contains("Metformin"))
        let appointment = DueReminder(key: "appt:a1", kind: .appt, reminderID: nil, recordID: "a1", at: "2026-03-10T08:00:00+01:00",
                                      title: "Dr. Lee", message: "Dr. Lee at Sample Clinic", tip: nil)
        #expect(!appointment.notification(details: false).body.description.contains("Lee"))
    }
}
