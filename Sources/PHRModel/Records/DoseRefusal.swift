import Foundation

/// Why the dose guard refused a dose, in words, with the rules it broke.
public struct DoseRefusal: Equatable, Sendable {
    public enum Rule: String, Sendable, CaseIterable {
        /// Another dose was taken closer in time than the minimum interval.
        case minInterval = "min-interval"
        /// The dose would make more than the daily maximum in some 24 hours.
        case maxPerDay = "max-per-day"
        /// The scheduled dose it would count for was already taken.
        case alreadyTaken = "already-taken"
    }

    public var rules: [Rule]
    public var message: String
    /// When a dose would pass the guard (for a dose logged now).
    public var nextAllowed: Date?

    package init(rules: [Rule], message: String, nextAllowed: Date? = nil) {
        self.rules = rules
        self.message = message
        self.nextAllowed = nextAllowed
    }
}
