import Foundation
import Testing
@testable import PHRCore
@testable import PHRModel

/// The timeline's order, grouping and pages: newest first with partial dates as their first
/// day, a day's lab results and doses as one event each, a kind on its own, and pages that
/// together hold every event exactly once however the kinds interleave.
@Suite struct TimelineTests {
    typealias F = RecordFixtures

    @Test func eventsComeNewestFirstGroupedAndPagedWithoutLoss() throws {
        let (vault, profile, directory) = try F.vault("timeline")
        defer { TestSupport.remove(directory) }
        let time = F.time("2026-05-10T12:00:00+02:00", "Europe/Berlin")
        let labs = LabStore(vault: vault, profile: profile, time: time)
        for (name, value) in [("ferritin", "12"), ("hemoglobin", "13.1"), ("TSH", "2.2")] {
            var input = LabStore.Input(name: name, value: value, unit: nil)
            input.date = "2026-03-18"
            input.flag = name == "ferritin" ? "L" : nil
            try labs.add(input)
        }
        var conditionInput = ConditionStore.Input()
        conditionInput.name = "Asthma"
        conditionInput.since = "2019"
        try ConditionStore(vault: vault, profile: profile, time: time).add(conditionInput)
        var shot = ImmunizationStore.Input()
        shot.vaccine = "Tetanus"
        shot.date = "2026-03-18"
        try ImmunizationStore(vault: vault, profile: profile, time: time).add(shot)
        var medication = MedicationStore.Input()
        medication.name = "Levothyroxine"
        medication.times = "08:00"
        let med = try MedicationStore(vault: vault, profile: profile, time: time).add(medication)
        let log = DoseLog(vault: vault, profile: profile, time: time)
        _ = try log.take(med.id, at: F.instant("2026-05-09T08:05:00+02:00"))
        _ = try log.skip(med.id, at: F.instant("2026-05-10T08:00:00+02:00"))
        var appointment = AppointmentStore.Input()
        appointment.with = "Dr Patel"
        appointment.at = "2026-06-01 09:30"
        try AppointmentStore(vault: vault, profile: profile, time: time).add(appointment)

        let timeline = Timeline(vault: vault, profile: profile, time: time)
        let all = try timeline.page()
        #expect(all.total == 6)
        #expect(all.events.map(\.date) == ["2026-06-01", "2026-05-10", "2026-05-09", "2026-03-18", "2026-03-18", "2019"])
        #expect(all.events.map(\.kind) == [.appointment, .doses, .doses, .labs, .immunization, .condition])
        #expect(all.events[1].title == "Doses: 1 skipped" && all.events[2].title == "Doses: 1 taken")
        #expect(all.events[3].title == "3 lab results" && all.events[3].detail?.contains("(1 flagged)") == true)
        #expect(try timeline.page(kinds: [.labs]).events.count == 1)
        #expect(try timeline.page(kinds: [.labs]).total == 1)

        // Pages of two hold each event once, in the same order.
        var paged: [Timeline.Event] = []
        for page in 0..<3 { paged += try timeline.page(offset: page * 2, limit: 2).events }
        #expect(paged == all.events)
        #expect(try timeline.page(offset: 6, limit: 2).events.isEmpty)
    }
}
