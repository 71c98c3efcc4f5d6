import Foundation
import Testing
@testable import PHRCore
@testable import PHRModel

/// `med due`: which doses are due and overdue, across midnight, DST changes and time zones.
@Suite struct DoseDueTests {
    typealias F = RecordFixtures

    /// One line per due dose: medication, instant with the user's offset, scheduled label, state, seconds.
    static func lines(_ due: [DueDose]) -> [String] {
        due.map { "\($0.medicationID) \($0.at) \($0.scheduledFor ?? "-") \($0.state.rawValue) \($0.inSeconds)" }
    }

    @Test func springForwardInBerlin() {
        // 2026-03-29: clocks go from 02:00 CET to 03:00 CEST. Now is 22:30 CET the evening before.
        let time = F.time("2026-03-28T22:30:00+01:00", "Europe/Berlin")
        let twiceDaily = F.medication("med0aa", F.times("08:00", "20:00"), created: "2026-03-20T00:00:00Z")
        let inTheGap = F.medication("med0bb", F.times("02:30"), created: "2026-03-20T00:00:00Z")
        let every8h = F.medication("med0cc", .interval(minutes: 480), created: "2026-03-20T00:00:00Z")
        let due = DoseDue.due([
            (twiceDaily, [F.dose("2026-03-28T08:00:00+01:00", slot: "2026-03-28T08:00")]),
            (inTheGap, [F.dose("2026-03-28T02:30:00+01:00", slot: "2026-03-28T02:30")]),
            (every8h, [F.dose("2026-03-28T20:00:00+01:00")]),
        ], time: time, within: 24 * 3600)
        #expect(Self.lines(due) == [
            // The 20:00 dose is overdue until halfway to 08:00 (00:30 UTC).
            "med0aa 2026-03-28T20:00:00+01:00 2026-03-28T20:00 overdue -9000",
            // 02:30 does not exist that night: due at 03:30 CEST, four hours (not five) from now.
            "med0bb 2026-03-29T03:30:00+02:00 2026-03-29T02:30 due 14400",
            // Eight elapsed hours after 20:00 CET is 05:00 CEST.
            "med0cc 2026-03-29T05:00:00+02:00 - due 19800",
            // 08:00 stays 08:00 on the wall clock.
            "med0aa 2026-03-29T08:00:00+02:00 2026-03-29T08:00 due 30600",
            "med0cc 2026-03-29T13:00:00+02:00 - due 48600",
            "med0aa 2026-03-29T20:00:00+02:00 2026-03-29T20:00 due 73800",
            "med0cc 2026-03-29T21:00:00+02:00 - due 77400",
        ])
    }

    @Test func fallBackInNewYork() {
        // 2026-11-01: clocks go from 02:00 EDT back to 01:00 EST, so 01:30 happens twice.
        let time = F.time("2026-10-31T23:00:00-04:00", "America/New_York")
        let atHalfPastOne = F.medication("med0dd", F.times("01:30"), created: "2026-10-01T00:00:00Z")
        let every4h = F.medication("med0ee", .interval(minutes: 240), created: "2026-10-01T00:00:00Z")
        let due = DoseDue.due([
            (atHalfPastOne, [F.dose("2026-10-31T01:30:00-04:00", slot: "2026-10-31T01:30", zone: "America/New_York")]),
            (every4h, [F.dose("2026-10-31T22:00:00-04:00", zone: "America/New_York")]),
        ], time: time, within: 24 * 3600)
        #expect(Self.lines(due) == [
            // Once, at the first 01:30 (EDT); the second 01:30 (EST) is not another dose.
            "med0dd 2026-11-01T01:30:00-04:00 2026-11-01T01:30 due 9000",
            // 22:00 EDT + 4 elapsed hours = 01:00 EST, the repeated hour.
            "med0ee 2026-11-01T01:00:00-05:00 - due 10800",
            "med0ee 2026-11-01T05:00:00-05:00 - due 25200",
            "med0ee 2026-11-01T09:00:00-05:00 - due 39600",
            "med0ee 2026-11-01T13:00:00-05:00 - due 54000",
            "med0ee 2026-11-01T17:00:00-05:00 - due 68400",
            "med0ee 2026-11-01T21:00:00-05:00 - due 82800",
        ])
        // A dose at 01:45 EST (after the fall back) still counts for the 01:30 dose.
        let slot = DoseSlots(medication: atHalfPastOne, userZone: time.zone).owner(of: F.instant("2026-11-01T01:45:00-05:00"))
        #expect(slot?.label.description == "2026-11-01T01:30")
        #expect(TimeText.clock(F.instant("2026-11-01T06:00:00Z"), in: time.zone) == "01:00 (-05:00)", "the repeated hour shows its offset")
        #expect(TimeText.clock(F.instant("2026-11-01T12:00:00Z"), in: time.zone) == "07:00")
    }

    @Test func acrossMidnightAnOverdueDoseBecomesMissedHalfwayToTheNext() {
        let metformin = F.medication("med001", F.times("08:00", "20:00"), created: "2026-05-01T00:00:00Z")
        let log = [F.dose("2026-05-09T08:02:00+02:00", slot: "2026-05-09T08:00")]
        let at0100 = DoseDue.due(metformin, log: log, time: F.time("2026-05-10T01:00:00+02:00", "Europe/Berlin"), within: 12 * 3600)
        #expect(Self.lines(at0100) == [
            "med001 2026-05-09T20:00:00+02:00 2026-05-09T20:00 overdue -18000",
            "med001 2026-05-10T08:00:00+02:00 2026-05-10T08:00 due 25200",
        ])
        #expect(TimeText.short(at0100[0].instant, F.time("2026-05-10T01:00:00+02:00", "Europe/Berlin")) == "yesterday 20:00")
        let at0230 = DoseDue.due(metformin, log: log, time: F.time("2026-05-10T02:30:00+02:00", "Europe/Berlin"), within: 12 * 3600)
        #expect(Self.lines(at0230) == ["med001 2026-05-10T08:00:00+02:00 2026-05-10T08:00 due 19800"])
    }

    @Test func travellingTimesFollowTheUserUnlessPinned() {
        // Taken at 08:00 in Berlin, then flown to New York: at 09:00 there the 08:00 dose of
        // that date is logged, and the next one is 20:00 New York time.
        let log = [F.dose("2026-05-10T08:00:00+02:00", slot: "2026-05-10T08:00")]
        let time = F.time("2026-05-10T09:00:00-04:00", "America/New_York")
        let follows = F.medication("med001", F.times("08:00", "20:00"), created: "2026-05-01T00:00:00Z")
        #expect(Self.lines(DoseDue.due(follows, log: log, time: time, within: 12 * 3600)) == [
            "med001 2026-05-10T20:00:00-04:00 2026-05-10T20:00 due 39600",
        ])
        // A pill pinned to Berlin time is due at 20:00 Berlin, 14:00 in New York.
        let pinned = F.medication("med002", F.times("08:00", "20:00"), created: "2026-05-01T00:00:00Z", timeZone: "Europe/Berlin")
        #expect(Self.lines(DoseDue.due(pinned, log: log, time: time, within: 12 * 3600)) == [
            "med002 2026-05-10T14:00:00-04:00 2026-05-10T20:00 due 18000",
        ])
    }

    @Test func nothingIsDueBeforeAMedicationWasAddedOrAfterItStopped() {
        let time = F.time("2026-05-10T12:00:00+02:00", "Europe/Berlin")
        let addedAt11 = F.medication("med001", F.times("08:00", "20:00"), created: "2026-05-10T09:00:00Z")
        #expect(Self.lines(DoseDue.due(addedAt11, log: [], time: time, within: 6 * 3600)) == [])
        #expect(Self.lines(DoseDue.due(addedAt11, log: [], time: time, within: 9 * 3600)) == [
            "med001 2026-05-10T20:00:00+02:00 2026-05-10T20:00 due 28800",
        ])
        let stopped = F.medication("med002", F.times("08:00", "20:00"), created: "2026-05-01T00:00:00Z", status: .stopped,
                                   stoppedOn: "2026-05-11")
        #expect(Self.lines(DoseDue.due(stopped, log: [], time: time, within: 48 * 3600)) == [
            "med002 2026-05-10T08:00:00+02:00 2026-05-10T08:00 overdue -14400",
            "med002 2026-05-10T20:00:00+02:00 2026-05-10T20:00 due 28800",
        ], "stopped from the 11th: only today's doses are left")
        #expect(DoseDue.due(F.medication("med003", .asNeeded), log: [], time: time, within: 48 * 3600).isEmpty)
        let firstDose = F.medication("med004", .interval(minutes: 360), created: "2026-05-10T10:00:00Z")
        #expect(Self.lines(DoseDue.due(firstDose, log: [], time: time, within: 6 * 3600)) == [
            "med004 2026-05-10T12:00:00+02:00 - due 0",
            "med004 2026-05-10T18:00:00+02:00 - due 21600",
        ])
    }

    @Test func adherenceCountsScheduledDosesSinceTheMedicationWasAdded() {
        let time = F.time("2026-05-10T12:00:00+02:00", "Europe/Berlin")
        // Added on the 7th at noon: 7th 20:00, 8th x2, 9th x2 are scheduled (5); the 10th's 08:00
        // dose is still open (overdue until 14:00), so it is not counted yet.
        let medication = F.medication("med001", F.times("08:00", "20:00"), created: "2026-05-07T10:00:00Z")
        let log = [
            F.dose("2026-05-07T20:10:00+02:00", slot: "2026-05-07T20:00"),
            F.dose("2026-05-08T08:00:00+02:00", slot: "2026-05-08T08:00"),
            F.dose("2026-05-08T20:00:00+02:00", slot: "2026-05-08T20:00", status: .skipped),
            // Logged in New York: the label still matches.
            F.dose("2026-05-09T08:00:00-04:00", slot: "2026-05-09T08:00", zone: "America/New_York"),
            F.dose("2026-05-09T23:00:00+02:00"),
        ]
        let adherence = Adherence.compute(medication, log: log, time: time)
        #expect(adherence == Adherence(days: 30, scheduled: 5, taken: 3, skipped: 1, missed: 1, unscheduled: 1, percent: 60))
        let interval = F.medication("med002", .interval(minutes: 720), created: "2026-05-08T10:00:00Z")
        let intervalAdherence = Adherence.compute(interval, log: [F.dose("2026-05-08T12:00:00+02:00"), F.dose("2026-05-09T00:00:00+02:00"),
                                                                  F.dose("2026-05-09T12:30:00+02:00")], time: time)
        #expect(intervalAdherence.scheduled == 4)
        #expect(intervalAdherence.percent == 75)
    }

    /// The web UI's month calendar counts each day by `compute`'s rules: the days add up to its
    /// figures, today's doses still to come are pending (never missed, never "all taken"), and a
    /// month before the medication was added is empty.
    @Test func adherenceDaysAddUpToTheMonth() {
        let time = F.time("2026-05-10T12:00:00+02:00", "Europe/Berlin")
        let medication = F.medication("med001", F.times("08:00", "20:00"), created: "2026-05-07T10:00:00Z")
        let log = [
            F.dose("2026-05-07T20:10:00+02:00", slot: "2026-05-07T20:00"),
            F.dose("2026-05-08T08:00:00+02:00", slot: "2026-05-08T08:00"),
            F.dose("2026-05-08T20:00:00+02:00", slot: "2026-05-08T20:00", status: .skipped),
            F.dose("2026-05-09T08:00:00-04:00", slot: "2026-05-09T08:00", zone: "America/New_York"),
            F.dose("2026-05-09T23:00:00+02:00"),
        ]
        let days = AdherenceDay.month(medication, log: log, time: time, year: 2026, month: 5)
        #expect(days.count == 10, "the 1st to today")
        func day(_ number: Int) -> AdherenceDay { days[number - 1] }
        #expect(days.prefix(6).allSatisfy { $0.scheduled == 0 && $0.unscheduled == 0 }, "before it was added")
        #expect((day(7).scheduled, day(7).taken) == (1, 1))
        #expect((day(8).scheduled, day(8).taken, day(8).skipped) == (2, 1, 1))
        #expect((day(9).scheduled, day(9).taken, day(9).missed, day(9).unscheduled) == (2, 1, 1, 1))
        #expect((day(10).scheduled, day(10).taken, day(10).missed, day(10).pending) == (2, 0, 0, 2))
        let month = Adherence.compute(medication, log: log, time: time)
        #expect(days.map(\.taken).reduce(0, +) == month.taken && days.map(\.skipped).reduce(0, +) == month.skipped
                && days.map(\.missed).reduce(0, +) == month.missed)
        // Taken at 08:00 today: today is not "all taken" while 20:00 is still to come.
        let morning = AdherenceDay.month(medication, log: log + [F.dose("2026-05-10T08:05:00+02:00", slot: "2026-05-10T08:00")],
                                         time: time, year: 2026, month: 5)
        #expect(morning[9].taken == 1 && morning[9].pending == 1 && morning[9].allTaken == false)
        #expect(AdherenceDay.month(medication, log: log, time: time, year: 2026, month: 4).allSatisfy { $0.scheduled == 0 })
        #expect(AdherenceDay.month(medication, log: log, time: time, year: 2026, month: 6).isEmpty, "a month ahead has no days yet")

        let interval = F.medication("med002", .interval(minutes: 720), created: "2026-05-08T10:00:00Z")
        let every12h = AdherenceDay.month(interval, log: [F.dose("2026-05-08T12:00:00+02:00"), F.dose("2026-05-09T00:00:00+02:00"),
                                                         F.dose("2026-05-09T12:30:00+02:00")], time: time, year: 2026, month: 5)
        #expect((every12h[7].scheduled, every12h[7].taken) == (1, 1))
        #expect((every12h[8].scheduled, every12h[8].taken, every12h[8].missed) == (2, 2, 0))
        #expect((every12h[9].scheduled, every12h[9].pending, every12h[9].missed) == (1, 1, 0), "today's open dose is not missed")
        let lapsed = AdherenceDay.month(interval, log: [], time: time, year: 2026, month: 5)
        #expect(lapsed[8].missed == 2, "a whole day without the doses the interval allows")
    }
}
