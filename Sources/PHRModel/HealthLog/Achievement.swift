import Foundation

/// A milestone of a habit, as the water-tracker seed apps award them: the first entry, the
/// first goal met, the first week in a row ("First week"), longer streaks, and totals.
public struct Achievement: Codable, Sendable, Equatable {
    /// Stable name: "water-first-entry", "sleep-streak-30", "workout-total-6000".
    public var id: String
    public var title: String
    public var detail: String
    /// The day it was reached; nil while not yet.
    public var achievedOn: CalendarDate?
    /// How far along, 0 to 1 (1 once reached). For streaks: the current streak's share.
    public var progress: Double

    enum CodingKeys: String, CodingKey {
        case id, title, detail
        case achievedOn = "achieved_on"
        case progress
    }

    package init(id: String, title: String, detail: String, achievedOn: CalendarDate? = nil, progress: Double) {
        self.id = id
        self.title = title
        self.detail = detail
        self.achievedOn = achievedOn
        self.progress = progress
    }
}
