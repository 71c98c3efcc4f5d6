import Foundation

/// Short hydration tips shown with water reminders, each with the source it rests on. The
/// tip of a reminder is picked by its date and time, so the same reminder always shows the same
/// tip and consecutive reminders show different ones.
public enum HydrationTips {
    public struct Tip: Codable, Sendable, Equatable {
        public var text: String
        public var source: String
    }

    public static let all: [Tip] = [
        Tip(text: "Tea and coffee count: at everyday amounts they hydrate as well as water.",
            source: "Maughan et al., Am J Clin Nutr 2016;103:717-723"),
        Tip(text: "Milk keeps more of its water in the body than plain water does, thanks to its protein and salts.",
            source: "Maughan et al., Am J Clin Nutr 2016;103:717-723"),
        Tip(text: "Food brings about a fifth of your daily water; drinks bring the rest.",
            source: "EFSA Journal 2010;8(3):1459"),
        Tip(text: "Heat and exercise raise what you need beyond your usual goal.",
            source: "EFSA Journal 2010;8(3):1459"),
        Tip(text: "Pale, straw-coloured urine is a practical sign you are drinking enough.",
            source: "Armstrong et al., Int J Sport Nutr 1994;4:265-279"),
        Tip(text: "Thirst fades with age, so older adults do well to drink at set times rather than wait for it.",
            source: "EFSA Journal 2010;8(3):1459"),
    ]

    /// The tip for the reminder at `label` (a wall-clock date and time).
    public static func tip(for label: LocalDateTime) -> Tip {
        let epoch = CalendarDate(year: 2000, month: 1, day: 1)!
        let index = epoch.days(until: label.date) * 7 + label.time.minutesSinceMidnight / 60
        return all[((index % all.count) + all.count) % all.count]
    }
}
