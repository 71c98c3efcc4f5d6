import Foundation
import GRDB
import Testing
@testable import PHRCore

/// Water reminder times inside their window, which reminders are due when, and `remind due`
/// showing each reminder once.
@Suite struct HealthLogReminderTests {
    typealias F = RecordFixtures
    typealias X = HealthLogFixture

    static func times(_ mode: Reminder.WaterMode, _ window: String) throws -> [String] {
        let (start, end) = try ReminderStore.window(window, field: Field("window"))
        return WaterReminderSchedule.times(mode: mode, start: start, end: end).map(\.description)
    }

    @Test func waterModesGiveTheirTimesInsideTheWindow() throws {
        #expect(try Self.times(.rare, "08:00-22:00") == ["08:00"])
        #expect(try Self.times(.default, "08:00-22:00") == ["08:00", "11:30", "15:00", "18:30"])
        #expect(try Self.times(.all, "08:00-22:00") == ["08:00", "10:00", "12:00", "14:00", "16:00", "18:00", "20:00"])
        #expect(try Self.times(.all, "07:00-21:30") == ["07:00", "09:00", "11:00", "13:00", "15:00", "17:00", "19:00", "21:00"])
        #expect(try Self.times(.default, "07:15-19:45") == ["07:15", "10:22", "13:30", "16:37"])
        // A night-shift window runs past midnight; equal ends are the whole day.
        #expect(try Self.times(.default, "22:00-06:00") == ["22:00", "00:00", "02:00", "04:00"])
        #expect(try Self.times(.all, "22:00–02:00") == ["22:00", "00:00"])
        #expect(try Self.times(.default, "08:00-08:00") == ["08:00", "14:00", "20:00", "02:00"])
        // Never two reminders at the same minute.
        #expect(try Self.times(.default, "09:00-09:02") == ["09:00", "09:01"])
        #expect(throws: RecordError.invalidField(field: Field("window"), reason: "'8-22' is not a window; use HH:MM-HH:MM, e.g. 08:00-22:00")) {
            try ReminderStore.window("8-22", field: Field("window"))
        }
        let night = WaterReminderSchedule.occurrences(mode: .default, start: LocalTime("22:00")!, end: LocalTime("06:00")!,
                                                      windowDay: CalendarDate("2026-03-10")!)
        #expect(night.map(\.description) == ["2026-03-10T22:00", "2026-03-11T00:00", "2026-03-11T02:00", "2026-03-11T04:00"])
    }

    static func water(_ mode: Reminder.WaterMode, _ window: String, paused: Bool = false) throws -> Reminder {
        let (start, end) = try ReminderStore.window(window, field: Field("window"))
        return Reminder(id: "rem0aa", uid: "uid", kind: .water, mode: mode, windowStart: start, windowEnd: end, medicationID: nil,
                        medicationUID: nil, beforeMinutes: nil, paused: paused, createdAt: "2026-01-01T00:00:00Z", updatedAt: "2026-01-01T00:00:00Z")
    }

    static func plan(_ reminders: [Reminder], now: String, zone: String = "Europe/Berlin", total: Double = 0, met: Bool = false,
                     lastWater: String? = nil) -> [String] {
        let time = F.time(now, zone)
        let goal = EffectiveGoal(metric: .water, value: 2000, period: .day, direction: .atLeast, since: nil, isDefault: true)
        let progress = LogStore.DayProgress(metric: .water, day: time.today(), total: total, entries: total > 0 ? 1 : 0, goal: goal, met: met,
                                            weekTotal: nil)
        let context = ReminderPlanner.Context(time: time, reminders: reminders, medications: [], appointments: [], water: progress,
                                              lastWater: lastWater.map(F.instant), format: HealthFormat(.defaults),
                                              spelling: PlainSpelling())
        return ReminderPlanner.plan(context).show.map { "\($0.key) \($0.at) \($0.message)" }
    }

    @Test func onlyTheCurrentWaterReminderIsDue() throws {
        let reminder = try Self.water(.default, "08:00-22:00")
        #expect(Self.plan([reminder], now: "2026-03-10T07:59:00+01:00").isEmpty)
        #expect(Self.plan([reminder], now: "2026-03-10T08:00:00+01:00", total: 0)
                == ["water:rem0aa:2026-03-10T08:00 2026-03-10T08:00:00+01:00 time for a glass of water: 0 ml of 2 L so far today"])
        // At 11:45 the 08:00 reminder is past; the 11:30 one is current.
        #expect(Self.plan([reminder], now: "2026-03-10T11:45:00+01:00", total: 750)
                == ["water:rem0aa:2026-03-10T11:30 2026-03-10T11:30:00+01:00 time for a glass of water: 750 ml of 2 L so far today"])
        // The last one stays current until the window closes.
        #expect(Self.plan([reminder], now: "2026-03-10T21:59:00+01:00", total: 1500).count == 1)
        #expect(Self.plan([reminder], now: "2026-03-10T22:00:00+01:00", total: 1500).isEmpty)
        // Nothing once the goal is met, or when water was logged since the reminder time.
        #expect(Self.plan([reminder], now: "2026-03-10T15:10:00+01:00", total: 2100, met: true).isEmpty)
        #expect(Self.plan([reminder], now: "2026-03-10T15:10:00+01:00", total: 1200, lastWater: "2026-03-10T15:05:00+01:00").isEmpty)
        #expect(Self.plan([reminder], now: "2026-03-10T15:10:00+01:00", total: 1200, lastWater: "2026-03-10T14:55:00+01:00").count == 1)
        #expect(Self.plan([try Self.water(.default, "08:00-22:00", paused: true)], now: "2026-03-10T11:45:00+01:00").isEmpty)
    }

    @Test func waterRemindersFollowTheWallClockAcrossDSTAndMidnight() throws {
        // 2026-03-29 in Berlin: 02:00 does not exist; its reminder comes at 03:00 CEST.
        let early = try Self.water(.all, "02:00-06:00")
        #expect(Self.plan([early], now: "2026-03-29T03:10:00+02:00").map { String($0.split(separator: " ")[0...1].joined(separator: " ")) }
                == ["water:rem0aa:2026-03-29T02:00 2026-03-29T03:00:00+02:00"])
        // A window past midnight: at 01:00 the 00:00 reminder of the window that opened last night is current.
        let night = try Self.water(.default, "22:00-06:00")
        #expect(Self.plan([night], now: "2026-03-11T01:00:00+01:00").first?.hasPrefix("water:rem0aa:2026-03-11T00:00 2026-03-11T00:00:00+01:00") == true)
        // In New York the same rule reminds at New York's 08:00.
        let day = try Self.water(.rare, "08:00-22:00")
        #expect(Self.plan([day], now: "2026-03-10T08:30:00-04:00", zone: "America/New_York").first?
            .hasPrefix("water:rem0aa:2026-03-10T08:00 2026-03-10T08:00:00-04:00") == true)
    }

    @Test func remindDueShowsEachReminderOnce() throws {
        let f = try X("remind-due")
        defer { f.cleanUp() }
        let added = F.time("2026-03-09T12:00:00+01:00", "Europe/Berlin")
        var med = MedicationStore.Input()
        med.name = "Metformin"
        med.dose = "500 mg"
        med.times = "08:00,20:00"
        let metformin = try MedicationStore(vault: f.vault, profile: f.profile, time: added).add(med)
        var appointment = AppointmentStore.Input()
        appointment.with = "Dr. Lee"
        appointment.at = "2026-03-11 09:30"
        appointment.location = "Praxis"
        appointment.remind = "2h"
        let visit = try AppointmentStore(vault: f.vault, profile: f.profile, time: added).add(appointment)
        let reminders = ReminderStore(vault: f.vault, profile: f.profile, time: added)
        var water = ReminderStore.Input(kind: "water")
        water.mode = "default"
        let (waterRule, outcome) = try reminders.add(water)
        #expect(outcome == .added && waterRule.summary == "water default: 08:00, 11:30, 15:00, 18:30")
        water.window = "09:00-21:00"
        let (changed, again) = try reminders.add(water)
        #expect(again == .updated && changed.id == waterRule.id && changed.windowStart == LocalTime("09:00"))
        #expect(try reminders.add(water).1 == .unchanged)
        try reminders.add(ReminderStore.Input(kind: "med"))
        var lead = ReminderStore.Input(kind: "appt")
        lead.before = "24h"
        try reminders.add(lead)
        #expect(try reminders.list().map(\.kind) == [.water, .med, .appt])

        func due(_ now: String, record: Bool = true) throws -> [String] {
            try ReminderRunner(vault: f.vault, profile: f.profile, time: F.time(now, "Europe/Berlin"), spelling: PlainSpelling()).due(record: record).map(\.key)
        }
        // 08:05: the 08:00 dose. The water window opens at 09:00.
        #expect(try due("2026-03-10T08:05:00+01:00", record: false) == ["med:\(metformin.id):2026-03-10T08:00"])
        #expect(try due("2026-03-10T08:05:00+01:00") == ["med:\(metformin.id):2026-03-10T08:00"])
        #expect(try due("2026-03-10T08:06:00+01:00").isEmpty)
        // 09:31: the 24h appointment reminder (09:30) and the first water reminder (09:00).
        #expect(try due("2026-03-10T09:31:00+01:00") == ["water:\(waterRule.id):2026-03-10T09:00", "appt:\(visit.id):2026-03-11T08:30:00Z:1440"])
        #expect(try due("2026-03-10T09:40:00+01:00").isEmpty)
        // Logging water, then the next reminder time: shown; a dose taken is no longer due.
        try f.log(.water, "500ml", at: "2026-03-10T10:00:00+01:00")
        _ = try DoseLog(vault: f.vault, profile: f.profile, time: F.time("2026-03-10T19:55:00+01:00", "Europe/Berlin"))
            .take(metformin.id)
        #expect(try due("2026-03-10T12:01:00+01:00") == ["water:\(waterRule.id):2026-03-10T12:00"])
        #expect(try due("2026-03-10T20:10:00+01:00") == ["water:\(waterRule.id):2026-03-10T18:00"])
        // The next morning the computer wakes at 09:00: the 08:00 dose is still in its window,
        // the appointment's own 2h reminder (07:30) is due; the water window opens at 09:00.
        #expect(try due("2026-03-11T09:00:00+01:00") == [
            "appt:\(visit.id):2026-03-11T08:30:00Z:120", "med:\(metformin.id):2026-03-11T08:00", "water:\(waterRule.id):2026-03-11T09:00",
        ])
        #expect(try due("2026-03-11T09:01:00+01:00").isEmpty)
        // Pausing stops a rule; resuming does not bring back what was shown.
        try reminders.setPaused(waterRule.id, true)
        #expect(try due("2026-03-11T12:05:00+01:00").isEmpty)
        try reminders.setPaused(waterRule.id, false)
        #expect(try due("2026-03-11T12:06:00+01:00") == ["water:\(waterRule.id):2026-03-11T12:00"])
        #expect(try due("2026-03-11T12:06:00+01:00").isEmpty)
        // Shown occurrences are forgotten after 40 days: only today's two remain.
        #expect(try due("2026-04-30T12:00:00+02:00") == ["med:\(metformin.id):2026-04-30T08:00", "water:\(waterRule.id):2026-04-30T12:00"])
        let remembered = try f.vault.database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM reminder_sent")! }
        #expect(remembered == 2)
    }

    @Test func missedAppointmentRemindersCollapseIntoTheNearest() throws {
        let f = try X("remind-appt")
        defer { f.cleanUp() }
        let added = F.time("2026-03-01T12:00:00+01:00", "Europe/Berlin")
        var appointment = AppointmentStore.Input()
        appointment.with = "Dr. Lee"
        appointment.at = "2026-03-11 09:30"
        let visit = try AppointmentStore(vault: f.vault, profile: f.profile, time: added).add(appointment)
        let reminders = ReminderStore(vault: f.vault, profile: f.profile, time: added)
        for before in ["24h", "1h"] {
            var input = ReminderStore.Input(kind: "appt")
            input.before = before
            try reminders.add(input)
        }
        // Off since the day before: at 09:00 both are due; only the nearer one is shown.
        let runner = ReminderRunner(vault: f.vault, profile: f.profile, time: F.time("2026-03-11T09:00:00+01:00", "Europe/Berlin"), spelling: PlainSpelling())
        let shown = try runner.due()
        #expect(shown.map(\.key) == ["appt:\(visit.id):2026-03-11T08:30:00Z:60"])
        #expect(shown.first?.message == "today at 09:30 (in 30m)")
        #expect(try runner.due().isEmpty)
        let sent = try f.vault.database.read { db in try String.fetchAll(db, sql: "SELECT key FROM reminder_sent ORDER BY key") }
        #expect(sent == ["appt:\(visit.id):2026-03-11T08:30:00Z:1440", "appt:\(visit.id):2026-03-11T08:30:00Z:60"])
    }

    @Test func medicationRemindersNeedAScheduleAndFollowOneMedication() throws {
        let f = try X("remind-med")
        defer { f.cleanUp() }
        let time = F.time("2026-03-09T12:00:00+01:00", "Europe/Berlin")
        var input = MedicationStore.Input()
        input.name = "Ibuprofen"
        input.asNeeded = true
        let ibuprofen = try MedicationStore(vault: f.vault, profile: f.profile, time: time).add(input)
        input = MedicationStore.Input()
        input.name = "Amoxicillin"
        input.every = "8h"
        let amoxicillin = try MedicationStore(vault: f.vault, profile: f.profile, time: time).add(input)
        var rule = ReminderStore.Input(kind: "med")
        rule.medication = ibuprofen.id
        #expect(throws: RecordError.notApplicable(reason: "med \(ibuprofen.id) has no schedule, so nothing falls due to remind of",
                                                  hint: "give it one with '\(Action.scheduleMedication(ibuprofen.id))' or \(Field.every) 8h")) {
            try ReminderStore(vault: f.vault, profile: f.profile, time: time).add(rule)
        }
        rule.medication = amoxicillin.id
        let (reminder, _) = try ReminderStore(vault: f.vault, profile: f.profile, time: time).add(rule)
        #expect(reminder.medicationID == amoxicillin.id && reminder.medicationUID == amoxicillin.uid)
        _ = try DoseLog(vault: f.vault, profile: f.profile, time: time).take(amoxicillin.id)
        let runner = { (now: String) in ReminderRunner(vault: f.vault, profile: f.profile, time: F.time(now, "Europe/Berlin"), spelling: PlainSpelling()) }
        #expect(try runner("2026-03-09T19:59:00+01:00").due().isEmpty)
        // Eight elapsed hours after 12:00.
        let due = try runner("2026-03-09T20:01:00+01:00").due()
        #expect(due.map(\.key) == ["med:\(amoxicillin.id):2026-03-09T20:00:00+01:00"])
        #expect(due.first?.message == "the dose, due today at 20:00; log it with 'log a dose of \(amoxicillin.id)'", "the core names the step; the CLI test sees 'phr med take'")
        #expect(try runner("2026-03-09T20:30:00+01:00").due().isEmpty)
        // Removing the medication removes its reminder.
        try MedicationStore(vault: f.vault, profile: f.profile, time: time).remove(amoxicillin.id)
        #expect(try ReminderStore(vault: f.vault, profile: f.profile, time: time).list().isEmpty)
    }

    @Test func installerUnitsHoldNoSecretAndQuoteWhatTheyMust() throws {
        let plan = ReminderInstaller.Plan(executable: "/usr/local/bin/phr",
                                          arguments: ["remind", "due", "--notify", "--if-unlocked", "--vault", "/home/al/My Vault", "--profile", "Sam"],
                                          everyMinutes: 5, passphraseCommand: "secret-tool lookup phr 100%", passphraseFile: nil)
        let service = ReminderInstaller.serviceUnit(plan)
        #expect(service.contains("ExecStart=/usr/local/bin/phr remind due --notify --if-unlocked --vault \"/home/al/My Vault\" --profile Sam\n"))
        #expect(service.contains("Environment=\"PHR_PASSPHRASE_COMMAND=secret-tool lookup phr 100%%\"\n"))
        #expect(!service.contains("PHR_PASSPHRASE="))
        #expect(ReminderInstaller.timerUnit(plan).contains("OnCalendar=*:0/5\n"))
        #expect(ReminderInstaller.crontabLine(plan, uid: 1000)
                == "*/5 * * * * DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus PHR_PASSPHRASE_COMMAND='secret-tool lookup phr 100\\%' /usr/local/bin/phr remind due --notify --if-unlocked --vault '/home/al/My Vault' --profile Sam")
        let hourly = ReminderInstaller.Plan(executable: "/p", arguments: ["remind", "due", "--notify", "--if-unlocked", "--vault", "/v", "--notify-details"],
                                            everyMinutes: 60, passphraseCommand: nil, passphraseFile: nil)
        #expect(ReminderInstaller.timerUnit(hourly).contains("OnCalendar=hourly\n"))
        #expect(ReminderInstaller.serviceUnit(hourly).contains("ExecStart=/p remind due --notify --if-unlocked --vault /v --notify-details\n"))

        let directory = try TestSupport.temporaryDirectory("units")
        defer { TestSupport.remove(directory) }
        let file = "\(directory)/passphrase"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x\n".utf8), attributes: [.posixPermissions: 0o644]))
        #expect(throws: ReminderInstallError.passphraseFile(path: file, reason: "others can read it; run 'chmod 600 \(file)'")) {
            try ReminderInstaller.checkPassphraseFile(file)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        try ReminderInstaller.checkPassphraseFile(file)
        let withFile = ReminderInstaller.Plan(executable: "/p", arguments: ["remind", "due"], everyMinutes: 10, passphraseCommand: nil,
                                              passphraseFile: file)
        let written = try ReminderInstaller.write(withFile, to: "\(directory)/systemd/user", force: false)
        #expect(written == ["\(directory)/systemd/user/phr-remind.service", "\(directory)/systemd/user/phr-remind.timer"])
        #expect(try String(contentsOfFile: written[0], encoding: .utf8).contains("Environment=\"PHR_PASSPHRASE_FILE=\(file)\""))
        // The same units again are fine; different ones need --force.
        _ = try ReminderInstaller.write(withFile, to: "\(directory)/systemd/user", force: false)
        #expect(throws: ReminderInstallError.exists(path: written[0])) {
            try ReminderInstaller.write(hourly, to: "\(directory)/systemd/user", force: false)
        }
        #expect(ReminderInstaller.remove(from: "\(directory)/systemd/user") == written)
    }
}
