import Foundation

/// The id of the Patient in a profile's FHIR summaries (`phr share --fhir`): the same in every
/// summary of the profile, so that a receiver sees one patient, not a new one each time.
///
/// A medical ID that holds a `urn:ietf:rfc:3986` identifier `urn:uuid:…` (a summary imported
/// from phr, which names its Patient so) keeps that UUID: a summary moved to another vault and
/// shared again names the same patient. Otherwise the UUID is derived from the vault's keys and
/// the profile, HMAC-SHA256(blob-name key, "phr/v1/ips-patient-id" 0x00 profile id), with the
/// version and variant bits of a UUIDv8: stable, nothing stored, and unlinkable to the vault
/// for anyone without its keys.
enum IPSPatientID {
    static let system = "urn:ietf:rfc:3986"

    static func id(keys: VaultKeys, profileID: Int64, medicalID: MedicalID?) throws -> String {
        for identifier in medicalID?.identifiers ?? [] where identifier.system == system && identifier.value.hasPrefix("urn:uuid:") {
            if let uuid = UUID(uuidString: String(identifier.value.dropFirst("urn:uuid:".count))) {
                return uuid.uuidString.lowercased()
            }
        }
        var bytes = try HMACSHA256.mac(key: keys.blobNameKey, Array("phr/v1/ips-patient-id".utf8) + [0] + Array(String(profileID).utf8))
        bytes[6] = (bytes[6] & 0x0f) | 0x80
        bytes[8] = (bytes[8] & 0x3f) | 0x80
        let hex = Array(bytes.prefix(16)).hex
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex[hex.index(hex.startIndex, offsetBy: range.lowerBound)..<hex.index(hex.startIndex, offsetBy: range.upperBound)])
        }
        return groups.joined(separator: "-")
    }

    /// The identifier the Patient resource carries, which an import keeps in the medical ID.
    static func identifier(_ id: String) -> SourceIdentifier {
        SourceIdentifier(system: system, value: "urn:uuid:\(id)")
    }
}
