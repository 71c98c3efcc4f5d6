import Foundation
import Testing
@testable import PHRCore

/// The dose guard: minimum interval, a rolling 24-hour maximum, one dose per scheduled time,
/// with the exact words the user reads.
@Suite struct DoseGuardTests {
    typealias F = RecordFixtures

    @Test func minimumIntervalSaysWhenTheLastDoseWasAndWhenTheNextIsAllowed() {
        let time = F.time("2026-05-10T14:00:00+02:00", "Europe/Berlin")
        let ibuprofen = F.medication("med001", .asNeeded, minInterval: 240)
        let log = [F.dose("2026-05-10T12:40:00+02:00")]
        let refusal = DoseGuard.check(ibuprofen, at: time.now, slot: nil, log: log, time: time)
        #expect(refusal?.rules == [.minInterval])
        #expect(refusal?.message == "dose refused: med med001 was taken today at 12:40, 1h 20m before this dose; doses must be at least 4h apart; the next dose is allowed today at 16:40")
        #expect(refusal?.nextAllowed == F.instant("2026-05-10T16:40:00+02:00"))
        // At the boundary the dose passes.
        #expect(DoseGuard.check(ibuprofen, at: F.instant("2026-05-10T16:40:00+02:00"), slot: nil, log: log, time: time) == nil)
    }

    @Test func minimumIntervalIsElapsedTimeAcrossADSTChange() {
        // Europe/Berlin springs forward at 02:00 on 2026-03-29: 01:30 CET to 04:00 CEST is 1h 30m.
        let time = F.time("2026-03-29T04:00:00+02:00", "Europe/Berlin")
        let medication = F.medication("med001", .asNeeded, minInterval: 240)
        let refusal = DoseGuard.check(medication, at: time.now, slot: nil, log: [F.dose("2026-03-29T01:30:00+01:00")], time: time)
        #expect(refusal?.message == "dose refused: med med001 was taken today at 01:30, 1h 30m before this dose; doses must be at least 4h apart; the next dose is allowed today at 06:30")
    }

    @Test func dailyMaximumIsARolling24HoursAcrossMidnight() {
        // Three doses from 18:00 yesterday to 06:00 today: a calendar-day count would allow a
        // second dose today at 12:00; "at most 3 in any 24 hours" does not.
        let time = F.time("2026-05-10T12:00:00+02:00", "Europe/Berlin")
        let paracetamol = F.medication("med001", .asNeeded, minInterval: 240, maxPerDay: 3)
        let log = [F.dose("2026-05-09T18:00:00+02:00"), F.dose("2026-05-09T22:00:00+02:00"), F.dose("2026-05-10T06:00:00+02:00")]
        let refusal = DoseGuard.check(paracetamol, at: time.now, slot: nil, log: log, time: time)
        #expect(refusal?.rules == [.maxPerDay])
        #expect(refusal?.message == "dose refused: this would be dose 4 of med med001 within 24 hours; at most 3 are allowed in any 24 hours; the next dose is allowed today at 18:00")
        #expect(DoseGuard.check(paracetamol, at: F.instant("2026-05-10T18:00:00+02:00"), slot: nil, log: log, time: time) == nil)
    }

    @Test func bothRulesReportTheLaterAllowedTime() {
        let time = F.time("2026-05-10T07:00:00+02:00", "Europe/Berlin")
        let medication = F.medication("med001", .asNeeded, minInterval: 240, maxPerDay: 3)
        let log = [F.dose("2026-05-09T18:00:00+02:00"), F.dose("2026-05-09T22:00:00+02:00"), F.dose("2026-05-10T06:00:00+02:00")]
        let refusal = DoseGuard.check(medication, at: time.now, slot: nil, log: log, time: time)
        #expect(refusal?.rules == [.minInterval, .maxPerDay])
        #expect(refusal?.message == "dose refused: med med001 was taken today at 06:00, 1h before this dose; doses must be at least 4h apart; this would be dose 4 of med med001 within 24 hours; at most 3 are allowed in any 24 hours; the next dose is allowed today at 18:00")
    }

    @Test func aScheduledTimeIsTakenOnce() throws {
        let time = F.time("2026-05-10T09:30:00+02:00", "Europe/Berlin")
        let metformin = F.medication("med001", F.times("08:00", "20:00"))
        let log = [F.dose("2026-05-10T08:05:00+02:00", slot: "2026-05-10T08:00")]
        let slot = try #require(DoseSlots(medication: metformin, userZone: time.zone).owner(of: time.now))
        #expect(slot.label.description == "2026-05-10T08:00")
        let refusal = DoseGuard.check(metformin, at: time.now, slot: slot, log: log, time: time)
        #expect(refusal?.rules == [.alreadyTaken])
        #expect(refusal?.message == "dose refused: the 08:00 dose of med med001 was already taken today at 08:05; the next dose is due today at 20:00")
    }

    @Test func aDoseLoggedForEarlierIsCheckedAgainstLaterDoses() {
        let time = F.time("2026-05-10T16:00:00+02:00", "Europe/Berlin")
        let medication = F.medication("med001", .asNeeded, minInterval: 240)
        let refusal = DoseGuard.check(medication, at: F.instant("2026-05-10T13:00:00+02:00"), slot: nil,
                                      log: [F.dose("2026-05-10T15:00:00+02:00")], time: time)
        #expect(refusal?.message == "dose refused: med med001 was taken today at 15:00, 2h after this dose; doses must be at least 4h apart")
    }

    @Test func skippedDosesDoNotCountAndEveryScheduleImpliesHalfItsInterval() {
        let time = F.time("2026-05-10T12:00:00+02:00", "Europe/Berlin")
        let asNeeded = F.medication("med001", .asNeeded, minInterval: 240, maxPerDay: 1)
        #expect(DoseGuard.check(asNeeded, at: time.now, slot: nil, log: [F.dose("2026-05-10T11:00:00+02:00", status: .skipped)], time: time) == nil)
        let antibiotic = F.medication("med002", .interval(minutes: 480))
        #expect(antibiotic.effectiveMinInterval == TimeInterval(4 * 3600))
        let refusal = DoseGuard.check(antibiotic, at: time.now, slot: nil, log: [F.dose("2026-05-10T11:55:00+02:00")], time: time)
        #expect(refusal?.message == "dose refused: med med002 was taken today at 11:55, 5m before this dose; doses must be at least 4h apart; the next dose is allowed today at 15:55")
    }

    @Test func theLogRefusesRecordsFlaggedAndReplacesASkip() throws {
        let (vault, profile, directory) = try F.vault("guard")
        defer { TestSupport.remove(directory) }
        let time = F.time("2026-05-10T08:10:00+02:00", "Europe/Berlin")
        var input = MedicationStore.Input()
        input.name = "Metformin"
        input.dose = "500 mg"
        input.times = "08:00,20:00"
        input.start = "2026-05-01"
        let medication = try MedicationStore(vault: vault, profile: profile, time: F.time("2026-05-01T06:00:00Z", "Europe/Berlin")).add(input)
        let log = DoseLog(vault: vault, profile: profile, time: time)

        let skipped = try log.skip(medication.id)
        #expect(skipped.dose.status == .skipped)
        #expect(skipped.dose.scheduledFor?.description == "2026-05-10T08:00")
        // Taken after all: the skip goes, the dose counts for 08:00.
        let taken = try log.take(medication.id)
        #expect(taken.replacedSkip)
        #expect(taken.dose.scheduledFor?.description == "2026-05-10T08:00")
        #expect(taken.dose.timeZone == "Europe/Berlin")
        #expect(taken.next?.at == "2026-05-10T20:00:00+02:00")

        #expect(throws: RecordError.self) { _ = try log.take(medication.id) }
        do {
            _ = try log.take(medication.id)
        } catch RecordError.doseRefused(let refusal) {
            #expect(refusal.message == "dose refused: the 08:00 dose of med \(medication.id) was already taken today at 08:10; the next dose is due today at 20:00")
        }
        let forced = try log.take(medication.id, force: true, note: "vomited the first one")
        #expect(forced.dose.forced == ["already-taken"])
        #expect(forced.dose.scheduledFor == nil, "an extra dose counts for no scheduled time")
        let doses = try vault.database.read { try Dose.all($0, medicationID: medication.id) }
        #expect(doses.map(\.status) == [.taken, .taken])

        let (_, removed) = try log.undo(String(forced.dose.id.prefix(5)))
        #expect(removed.id == forced.dose.id)
        #expect(throws: RecordError.notFound(kind: "dose", id: "zzzzzz")) { try log.undo("zzzzzz") }
        #expect(throws: RecordError.self) { _ = try log.take(medication.id, at: F.instant("2026-05-10T09:00:00+02:00")) }
    }

    @Test func dosesCannotBeLoggedInTheFutureOrSkippedWithoutASchedule() throws {
        let (vault, profile, directory) = try F.vault("guard")
        defer { TestSupport.remove(directory) }
        let time = F.time("2026-05-10T12:00:00+02:00", "Europe/Berlin")
        var input = MedicationStore.Input()
        input.name = "Ibuprofen"
        input.asNeeded = true
        let medication = try MedicationStore(vault: vault, profile: profile, time: time).add(input)
        let log = DoseLog(vault: vault, profile: profile, time: time)
        #expect(throws: RecordError.invalidOption(option: Field("at"), reason: "today 13:00 is in the future", hint: "log doses when they are taken")) {
            try log.take(medication.id, at: F.instant("2026-05-10T13:00:00+02:00"))
        }
        #expect(throws: RecordError.notApplicable(reason: "med \(medication.id) has no schedule, so there is no dose to skip",
                                                  hint: "skipping applies to medications with \(Field.schedule) or \(Field.every)")) {
            try log.skip(medication.id)
        }
        // "--at 23:30" typed at 12:00 means last night, not tonight.
        #expect(try DoseLog.parseInstant("23:30", time: time) == F.instant("2026-05-09T23:30:00+02:00"))
        #expect(try DoseLog.parseInstant("11:15", time: time) == F.instant("2026-05-10T11:15:00+02:00"))
        #expect(try DoseLog.parseInstant("2026-03-29 02:30", time: time) == F.instant("2026-03-29T03:30:00+02:00"))
        #expect(throws: RecordError.self) { _ = try DoseLog.parseInstant("noon", time: time) }
    }

    /// Issue 35, item 9: a second dose for the same time, minutes after the first, is refused in
    /// one statement, not the same dose twice.
    @Test func aRepeatedDoseIsRefusedOnceByName() throws {
        let amoxicillin = F.medication("med003", F.times("08:00", "20:00"), minInterval: 360)
        let time = F.time("2026-05-10T18:00:00Z", "Europe/Berlin")
        let slot = try #require(DoseSlots(medication: amoxicillin, userZone: time.zone).owner(of: time.now))
        let refusal = DoseGuard.check(amoxicillin, at: time.now, slot: slot,
                                      log: [F.dose("2026-05-10T17:59:00Z", slot: "2026-05-10T20:00")], time: time)
        #expect(refusal?.message.hasPrefix("dose refused: the 20:00 dose of med med003 was already taken today at 19:59; doses must be at least 6h apart") == true,
                "\(refusal?.message ?? "")")
        #expect(refusal?.message.components(separatedBy: "19:59").count == 2, "said once")
    }
}
