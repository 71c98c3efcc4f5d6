import ArgumentParser
import Foundation
import PHRService

/// The kinds of records `phr mcp` can be allowed to read (`--only`).
enum MCPKind: String, CaseIterable, Codable, Sendable {
    case documents, medications, appointments, results, log, contacts, allergies, conditions, immunizations, procedures
    case familyHistory = "family_history"
    case medicalID = "medical_id"

    /// The record kind a `phr search` hit names (`kind` in its JSON).
    static func ofSearchKind(_ kind: String) -> MCPKind? {
        switch kind {
        case "doc": return .documents
        case "med": return .medications
        case "appt": return .appointments
        case "contact": return .contacts
        case "condition": return .conditions
        case "allergy": return .allergies
        case "immunization": return .immunizations
        case "procedure": return .procedures
        case "family": return .familyHistory
        case "observation": return .results
        case "profile": return .medicalID
        case "log": return .log
        default: return nil
        }
    }
}

/// What the user allowed an assistant to read: whose records (`profiles`, nil for every profile)
/// and which kinds; whether drug information may be looked up over the network. The server
/// refuses anything outside it, and lists only the tools and resources inside it.
struct MCPScope: Codable, Sendable, Equatable {
    /// The profiles by name; nil: all of them (`--all-profiles`); empty: the default profile.
    var profiles: [String]?
    var kinds: Set<MCPKind>
    var network: Bool

    func allows(_ kind: MCPKind) -> Bool { kinds.contains(kind) }

    /// Parses `--only` (comma-separated kinds, or repeated), then takes `--no-documents` away.
    static func kinds(only: [String], noDocuments: Bool) throws -> Set<MCPKind> {
        var kinds = Set<MCPKind>()
        let names = only.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() } }
            .filter { !$0.isEmpty }
        if names.isEmpty {
            kinds = Set(MCPKind.allCases)
        } else {
            for name in names {
                guard let kind = MCPKind(rawValue: name.replacingOccurrences(of: "-", with: "_")) else {
                    throw ValidationError("--only: '\(name)' is not a kind of record; use \(MCPKind.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                kinds.insert(kind)
            }
        }
        if noDocuments { kinds.remove(.documents) }
        return kinds
    }
}
