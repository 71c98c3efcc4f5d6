import Foundation

/// Turns FHIR R4 resources into phr records, keeping their codes and identifiers. Pure: no
/// database; `FHIRImporter` decides what is new.
///
/// Each `map…` function returns the record, or a reason to skip the resource (not given, entered
/// in error, no value...), and throws `FHIRFieldError` when a field breaks the FHIR spec, which
/// makes the whole import fail and name the entry.
struct FHIRMapper {
    let bundle: FHIRBundle
    let time: TimeContext

    enum Mapped<Record> {
        case record(Record)
        case skip(String)
    }

    /// The key that recognises a resource on a second import: its first business identifier,
    /// else a globally unique fullUrl (urn:uuid:, urn:oid:, an absolute URL), else Type/id,
    /// else a hash of its content.
    func sourceKey(_ resource: FHIRResource) -> String {
        if let identifier = FHIRElements.identifiers(resource["identifier"]).first(where: { $0.system != nil }) {
            return "fhir:\(resource.type):identifier:\(identifier.system!)|\(identifier.value)"
        }
        if let fullUrl = resource.fullUrl, fullUrl.hasPrefix("urn:uuid:") || fullUrl.hasPrefix("urn:oid:") || fullUrl.contains("://") {
            return "fhir:\(fullUrl)"
        }
        if let id = resource.id { return "fhir:\(resource.type)/\(id)" }
        let digest = (try? SHA256Hasher.hash(Array(resource.json.canonical.utf8)).hex) ?? UUID().uuidString
        return "fhir:\(resource.type):sha256:\(digest)"
    }

    func source(_ resource: FHIRResource) -> RecordSource {
        RecordSource(key: sourceKey(resource), identifiers: FHIRElements.identifiers(resource["identifier"]))
    }

    var now: String { Timestamp.string(time.now) }

    /// A name for a Practitioner, Organization or other actor a Reference points to.
    func actorName(_ value: StrictJSON?, field: String, from resource: FHIRResource) throws -> String? {
        if let display = try FHIRElements.referenceDisplay(value, field: field) { return display }
        guard let target = bundle.resolve(try FHIRElements.reference(value, field: field), from: resource) else { return nil }
        switch target.type {
        case "Practitioner", "Patient", "RelatedPerson": return FHIRElements.preferredName(target["name"])
        case "PractitionerRole":
            return try actorName(target["practitioner"], field: "practitioner", from: target)
                ?? actorName(target["organization"], field: "organization", from: target)
        default: return target["name"]?.string
        }
    }

    /// The status of a resource: its `status` code.
    func status(_ resource: FHIRResource) throws -> String? {
        try FHIRElements.string(resource["status"], field: "status")
    }
}
