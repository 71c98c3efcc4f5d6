import Foundation

/// One scheduled dose: its wall-clock label in the schedule's zone ("2026-03-29T08:00") and the
/// instant it falls on.
public struct DoseSlot: Hashable, Sendable {
    public let label: LocalDateTime
    public let instant: Date
}

/// Where the scheduled doses of a `times` medication fall, and which one a dose counts for.
///
/// Rules (README, "Time zones and schedules"):
/// - each active day has one slot per time, at that wall-clock time in the schedule's zone; a
///   time the clocks skip moves forward by the gap, a time that happens twice counts once, at
///   its first occurrence (`LocalDateTime.instant(in:)`);
/// - a slot owns the time from halfway since the previous slot to halfway to the next one: a dose
///   taken then counts for it, and until its window ends an untaken slot is overdue, after that
///   it is missed;
/// - slots are identified by their label, so a dose logged at 08:00 in Berlin still counts for
///   "08:00" when the user later looks at the log in New York.
public struct DoseSlots: Sendable {
    public let medication: Medication
    public let zone: TimeZone
    let times: [LocalTime]

    public init(medication: Medication, userZone: TimeZone) {
        self.medication = medication
        zone = medication.scheduleZone(userZone: userZone)
        if case .times(let times) = medication.schedule { self.times = times } else { times = [] }
    }

    /// Every slot on `day`, active or not, in time order.
    func allSlots(on day: CalendarDate) -> [DoseSlot] {
        times.map { time in
            let label = LocalDateTime(date: day, time: time)
            return DoseSlot(label: label, instant: label.instant(in: zone))
        }
    }

    /// Slots falling in `from...through` on days the medication is active, in time order.
    public func slots(from: Date, through: Date) -> [DoseSlot] {
        guard !times.isEmpty, from <= through else { return [] }
        var day = CalendarDate(from, in: zone).adding(days: -1)
        let last = CalendarDate(through, in: zone).adding(days: 1)
        var result: [DoseSlot] = []
        while day <= last {
            if medication.isActive(on: day) {
                result += allSlots(on: day).filter { $0.instant >= from && $0.instant <= through }
            }
            day = day.adding(days: 1)
        }
        return result.sorted { $0.instant < $1.instant }
    }

    /// The slot a dose taken at `instant` counts for, if its day is an active one.
    public func owner(of instant: Date) -> DoseSlot? {
        let around = neighbourhood(of: CalendarDate(instant, in: zone))
        for (index, slot) in around.enumerated() where index > 0 && index < around.count - 1 {
            let window = Self.window(previous: around[index - 1], slot: slot, next: around[index + 1])
            if instant >= window.start && instant < window.end {
                return medication.isActive(on: slot.label.date) ? slot : nil
            }
        }
        return nil
    }

    /// The time during which `slot` is the one a dose counts for.
    public func window(of slot: DoseSlot) -> (start: Date, end: Date) {
        let around = neighbourhood(of: slot.label.date)
        guard let index = around.firstIndex(of: slot), index > 0, index < around.count - 1 else {
            return (slot.instant, slot.instant)
        }
        return Self.window(previous: around[index - 1], slot: slot, next: around[index + 1])
    }

    /// The first slot strictly after `instant` on an active day, within a year.
    public func next(after instant: Date) -> DoseSlot? {
        guard !times.isEmpty else { return nil }
        var day = CalendarDate(instant, in: zone)
        for _ in 0..<366 {
            if medication.isActive(on: day), let slot = allSlots(on: day).first(where: { $0.instant > instant }) {
                return slot
            }
            if let end = medication.end, day > end.lastDay { return nil }
            if medication.status == .stopped, medication.stoppedOn.map({ day >= $0 }) ?? true { return nil }
            day = day.adding(days: 1)
        }
        return nil
    }

    /// Slots of the day before, the day itself and the day after, sorted by instant.
    private func neighbourhood(of day: CalendarDate) -> [DoseSlot] {
        (allSlots(on: day.adding(days: -1)) + allSlots(on: day) + allSlots(on: day.adding(days: 1)))
            .sorted { $0.instant < $1.instant }
    }

    private static func window(previous: DoseSlot, slot: DoseSlot, next: DoseSlot) -> (start: Date, end: Date) {
        (previous.instant.addingTimeInterval(slot.instant.timeIntervalSince(previous.instant) / 2),
         slot.instant.addingTimeInterval(next.instant.timeIntervalSince(slot.instant) / 2))
    }
}
