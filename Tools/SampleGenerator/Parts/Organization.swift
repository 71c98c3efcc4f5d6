import PHRTypesetting

/// A fictional issuer of documents: a practice, hospital, laboratory, pharmacy or insurer.
struct Organization: Sendable {
    /// The small logo drawn beside the name, so each issuer is recognisable at a glance.
    enum Emblem: Sendable {
        /// A white cross on a rounded square: practices and hospitals.
        case cross
        /// Three stacked bars in a circle: a laboratory's sample rack.
        case rack
        /// Concentric rings: radiology.
        case rings
        /// A shield with a check: an insurer.
        case shield
    }

    var name: String
    /// One line saying what the organisation is, e.g. "Family medicine · Primary care".
    var tagline: String
    var address: String
    var phone: String
    var fax: String?
    var accent: Color
    var emblem: Emblem
    /// The word before telephone numbers ("Tel", or "Τηλ." in Greek).
    var phoneWord = "Tel"
    var faxWord = "Fax"

    var contactLine: String {
        var parts = [address, "\(phoneWord) \(phone)"]
        if let fax { parts.append("\(faxWord) \(fax)") }
        return parts.joined(separator: " · ")
    }
}
