import Foundation

/// The parts of a share bundle `--include` chooses from, in the order the bundle prints them.
public enum ShareSection: String, CaseIterable, Sendable, Codable {
    /// Who the patient is: the medical ID (date of birth, sex, blood type, height, weight,
    /// identifiers, notes) and the alerts a clinician must see first.
    case summary
    /// Before medications, as on an emergency card: the first thing to know before prescribing.
    case allergies
    case medications
    case conditions
    /// Operations, scopes, biopsies: what was done, when.
    case procedures
    /// Relatives' conditions.
    case familyHistory = "family-history"
    case immunizations
    /// Observations: the latest value of each test or measurement.
    case results
    /// Upcoming appointments.
    case appointments
    /// Emergency contacts.
    case contacts
    /// The manifest of included documents and their pages.
    case documents

    /// The heading printed in the bundle and used in its outline.
    public var title: String {
        switch self {
        case .summary: return "Patient summary"
        case .medications: return "Medications"
        case .allergies: return "Allergies and intolerances"
        case .conditions: return "Conditions"
        case .procedures: return "Procedures"
        case .familyHistory: return "Family history"
        case .immunizations: return "Immunizations"
        case .results: return "Results"
        case .appointments: return "Upcoming appointments"
        case .contacts: return "Emergency contacts"
        case .documents: return "Documents"
        }
    }

    /// Parses `--include`: comma-separated names, in any order and case; "all" means every one.
    public static func parse(_ text: String) throws -> Set<ShareSection> {
        var sections = Set<ShareSection>()
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = item.trimmingCharacters(in: .whitespaces).lowercased()
            if name == "all" {
                sections.formUnion(allCases)
                continue
            }
            guard let section = ShareSection(rawValue: name) else {
                let names = allCases.map(\.rawValue).joined(separator: ",")
                throw ShareError.invalidOption(option: Field.include,
                                               reason: name.isEmpty ? "an empty section name" : "'\(name)' is not a section; use \(names) or all")
            }
            sections.insert(section)
        }
        return sections
    }
}
