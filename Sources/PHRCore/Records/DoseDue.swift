import Foundation

/// A dose that is due soon or overdue now.
public struct DueDose: Codable, Sendable, Equatable {
    public enum State: String, Codable, Sendable {
        case overdue, due
    }

    public var medicationID: String
    public var medication: String
    public var dose: String?
    /// When, as an instant with the offset of the user's zone: "2026-03-29T08:00:00+02:00".
    public var at: String
    /// The scheduled time it is ("2026-03-29T08:00"), for `times` schedules.
    public var scheduledFor: String?
    public var state: State
    /// Seconds until it is due (negative when overdue).
    public var inSeconds: Int

    enum CodingKeys: String, CodingKey {
        case medicationID = "medication_id"
        case medication, dose, at
        case scheduledFor = "scheduled_for"
        case state
        case inSeconds = "in_seconds"
    }

    /// The instant, parsed back.
    public var instant: Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: at) ?? .distantPast
    }
}

/// Which doses are due: pure, from the medication, its log and the clock.
///
/// - `times` schedules: every slot in the next `horizon` that is not logged yet is due; a past
///   slot not logged is overdue until its window ends (halfway to the next slot, see
///   `DoseSlots`), then missed and no longer listed. Slots before the medication was added are
///   never due.
/// - `interval` schedules: the next dose is due one interval after the last dose taken or
///   skipped (the first one as soon as the medication starts), overdue once that passed; later
///   ones follow every interval from then, or from now when overdue (as if taken now).
/// - as-needed and unscheduled medications are never due.
public enum DoseDue {
    public static func due(_ medication: Medication, log: [Dose], time: TimeContext, within horizon: TimeInterval) -> [DueDose] {
        let now = time.now
        let until = now.addingTimeInterval(horizon)
        let created = Timestamp.parse(medication.createdAt) ?? .distantPast
        let zone = medication.scheduleZone(userZone: time.zone)
        var result: [DueDose] = []

        func add(_ instant: Date, label: LocalDateTime?) {
            result.append(DueDose(medicationID: medication.id, medication: medication.name, dose: medication.dose,
                                  at: TimeText.iso(instant, in: time.zone), scheduledFor: label?.description,
                                  state: instant < now ? .overdue : .due,
                                  inSeconds: Int(instant.timeIntervalSince(now).rounded())))
        }

        switch medication.schedule {
        case .times:
            let slots = DoseSlots(medication: medication, userZone: time.zone)
            let logged = Set(log.compactMap(\.scheduledFor))
            for slot in slots.slots(from: now.addingTimeInterval(-48 * 3600), through: until) where !logged.contains(slot.label) {
                if slot.instant >= now {
                    add(slot.instant, label: slot.label)
                } else if slot.instant >= created && slots.window(of: slot).end > now {
                    add(slot.instant, label: slot.label)
                }
            }
        case .interval(let minutes):
            let interval = TimeInterval(minutes * 60)
            var first: Date
            if let last = log.max(by: { $0.instant < $1.instant }) {
                first = last.instant.addingTimeInterval(interval)
            } else {
                first = created
                if let start = medication.start {
                    first = max(first, LocalDateTime(date: start.firstDay, time: LocalTime(hour: 0, minute: 0)!).instant(in: zone))
                }
            }
            guard first <= until else { break }
            if medication.isActive(on: CalendarDate(first, in: zone)) { add(first, label: nil) }
            var next = max(first, now).addingTimeInterval(interval)
            while next <= until {
                if medication.isActive(on: CalendarDate(next, in: zone)) { add(next, label: nil) }
                next = next.addingTimeInterval(interval)
            }
        case .asNeeded, .unscheduled:
            break
        }
        return result
    }

    /// Due doses of several medications, soonest (most overdue) first.
    public static func due(_ medications: [(Medication, [Dose])], time: TimeContext, within horizon: TimeInterval) -> [DueDose] {
        medications.flatMap { due($0.0, log: $0.1, time: time, within: horizon) }
            .sorted { ($0.inSeconds, $0.medication, $0.medicationID) < ($1.inSeconds, $1.medication, $1.medicationID) }
    }
}
