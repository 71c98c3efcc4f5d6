import Foundation

/// Turns FHIR R4 resources into phr records, keeping their codes and identifiers. Pure: no
/// database; `FHIRImporter` decides what is new.
///
/// Each `map…` function returns the record, or a reason to skip the resource (not given, entered
/// in error, no value...), and throws `FHIRFieldError` when a field the record cannot do without
/// breaks the FHIR spec, which refuses that entry. A field it can do without (an onset, an end,
/// a dose, a reference range) that cannot be read is left out and noted in `repairs`.
struct FHIRMapper {
    let bundle: FHIRBundle
    let time: TimeContext
    /// What was left out of the resource being mapped; the importer empties it before each one.
    var repairs = ImportRepairs()

    enum Mapped<Record> {
        case record(Record)
        case skip(String)
    }

    /// The key that recognises a resource on a second import: its first business identifier
    /// together with what the resource is (`identity`), else a globally unique fullUrl
    /// (urn:uuid:, urn:oid:, an absolute URL), else Type/id, else a hash of its content.
    ///
    /// A business identifier alone is not enough: vendors give one prescription or order number
    /// to several resources (three medications of one order), and each is its own record.
    func sourceKey(_ resource: FHIRResource) -> String {
        if let identifier = identifierKey(resource) {
            let digest = (try? SHA256Hasher.hash(Array(identity(resource).utf8)).hex) ?? ""
            return "\(identifier)#\(digest.prefix(16))"
        }
        if let fullUrl = resource.fullUrl, fullUrl.hasPrefix("urn:uuid:") || fullUrl.hasPrefix("urn:oid:") || fullUrl.contains("://") {
            return "fhir:\(fullUrl)"
        }
        if let id = resource.id { return "fhir:\(resource.type)/\(id)" }
        let digest = (try? SHA256Hasher.hash(Array(resource.json.canonical.utf8)).hex) ?? UUID().uuidString
        return "fhir:\(resource.type):sha256:\(digest)"
    }

    /// The key earlier versions of phr gave a resource with a business identifier (the identifier
    /// alone), which records they imported still carry.
    func identifierKey(_ resource: FHIRResource) -> String? {
        guard let identifier = FHIRElements.identifiers(resource["identifier"]).first(where: { $0.system != nil }) else { return nil }
        return "fhir:\(resource.type):identifier:\(identifier.system!)|\(identifier.value)"
    }

    /// Fields that say what a resource is, as opposed to how it stands now (a status, an end
    /// date, a note change when the record is updated).
    static let identityCodeFields = ["code", "medicationCodeableConcept", "vaccineCode"]
    static let identityDateFields = ["authoredOn", "effectiveDateTime", "effectiveInstant", "onsetDateTime", "occurrenceDateTime",
                                     "recordedDate", "start"]
    static let identityPeriodFields = ["effectivePeriod", "onsetPeriod"]

    /// What the resource is: its type, its code (for a medication by reference, the code of the
    /// Medication it points to) and the dates it starts or happened on, in canonical JSON.
    func identity(_ resource: FHIRResource) -> String {
        var parts = [resource.type]
        for field in Self.identityCodeFields {
            if let value = resource[field] { parts.append("\(field)=\(value.canonical)") }
        }
        if let reference = resource["medicationReference"] {
            let target = bundle.resolve(reference["reference"]?.string, from: resource)
            parts.append("medication=\((target?["code"] ?? reference).canonical)")
        }
        for field in Self.identityDateFields {
            if let value = resource[field] { parts.append("\(field)=\(value.canonical)") }
        }
        for field in Self.identityPeriodFields {
            if let value = resource[field]?["start"] { parts.append("\(field).start=\(value.canonical)") }
        }
        return parts.joined(separator: "\n")
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
