import Foundation

/// A FHIR R4 Bundle read for import: its type, its entries, and reference resolution between
/// them (by fullUrl, by `Type/id`, and to resources contained in another).
///
/// http://hl7.org/fhir/R4/bundle.html, http://hl7.org/fhir/R4/references.html
struct FHIRBundle {
    /// The release it was written in; STU3 bundles arrive here already upgraded (FHIRVersion).
    var version = FHIRVersion.r4
    /// Bundle types whose entries are resources to take in. Responses and histories are not.
    static let importableTypes = ["transaction", "batch", "collection", "document", "searchset", "message"]

    let type: String
    let resources: [FHIRResource]
    /// Entries that are not a resource at all (no object, no resourceType), refused with the reason.
    let unreadable: [(entry: String, reason: String)]
    private let byFullUrl: [String: Int]
    private let byTypeAndID: [String: Int]

    /// Parses and checks the envelope; `path` names the file in errors.
    init(json: StrictJSON, path: String) throws {
        guard json["resourceType"]?.string == "Bundle" else {
            throw InteropError.unrecognized(path: path, reason: "not a FHIR Bundle (resourceType is not \"Bundle\")")
        }
        guard let type = json["type"]?.string else {
            throw InteropError.malformed(path: path, location: "Bundle", reason: "type: missing; a Bundle says what it is (transaction, collection, document...)")
        }
        guard Self.importableTypes.contains(type) else {
            throw InteropError.malformed(path: path, location: "Bundle", reason: "type: a \(type) bundle holds no records to import; use a transaction, collection or document bundle")
        }
        self.type = type
        var resources: [FHIRResource] = []
        var byFullUrl: [String: Int] = [:]
        var byTypeAndID: [String: Int] = [:]
        var unreadable: [(entry: String, reason: String)] = []
        if let entries = json["entry"], entries.array == nil {
            throw InteropError.malformed(path: path, location: "Bundle", reason: "entry: expected an array, got \(entries.typeName)")
        }
        for (index, entry) in (json["entry"]?.elements ?? []).enumerated() {
            let location = "entry[\(index)]"
            guard entry.object != nil else {
                unreadable.append((location, "expected an object, got \(entry.typeName)"))
                continue
            }
            guard let resource = entry["resource"], resource.object != nil else {
                unreadable.append((location, "resource: missing"))
                continue
            }
            guard let resourceType = resource["resourceType"]?.string, !resourceType.isEmpty, resourceType.count <= 100 else {
                unreadable.append((location, "resource.resourceType: missing"))
                continue
            }
            if let fullUrl = entry["fullUrl"], fullUrl.string == nil {
                unreadable.append((location, "fullUrl: expected a string, got \(fullUrl.typeName)"))
                continue
            }
            let item = FHIRResource(json: resource, type: resourceType, id: resource["id"]?.string, index: index,
                                    fullUrl: entry["fullUrl"]?.string)
            if let fullUrl = item.fullUrl { byFullUrl[fullUrl] = resources.count }
            if let id = item.id { byTypeAndID["\(resourceType)/\(id)"] = resources.count }
            resources.append(item)
        }
        self.resources = resources
        self.unreadable = unreadable
        self.byFullUrl = byFullUrl
        self.byTypeAndID = byTypeAndID
    }

    /// The resource a reference in `from` points to: a contained one ("#med1"), another entry by
    /// fullUrl ("urn:uuid:…", an absolute URL) or by "Type/id" (also the tail of an absolute URL).
    func resolve(_ reference: String?, from: FHIRResource) -> FHIRResource? {
        guard let reference, !reference.isEmpty else { return nil }
        if reference.hasPrefix("#") {
            let id = String(reference.dropFirst())
            for contained in from.json["contained"]?.elements ?? [] where contained["id"]?.string == id {
                guard let type = contained["resourceType"]?.string else { return nil }
                return FHIRResource(json: contained, type: type, id: id, index: from.index, fullUrl: nil)
            }
            return nil
        }
        if let index = byFullUrl[reference] { return resources[index] }
        let parts = reference.split(separator: "/").suffix(4).map(String.init)
        // "Patient/123" or ".../Patient/123/_history/2".
        if parts.count >= 2 {
            if let index = byTypeAndID["\(parts[parts.count - 2])/\(parts[parts.count - 1])"] { return resources[index] }
            if parts.count == 4, parts[2] == "_history", let index = byTypeAndID["\(parts[0])/\(parts[1])"] { return resources[index] }
        }
        return nil
    }
}

/// One resource of a bundle, with where it sits in the file.
struct FHIRResource {
    let json: StrictJSON
    let type: String
    let id: String?
    let index: Int
    let fullUrl: String?

    /// "entry[12] (Immunization)", for messages.
    var location: String { "entry[\(index)] (\(type))" }

    subscript(key: String) -> StrictJSON? { json[key] }
}

/// A field of a resource that is not what FHIR says it must be.
struct FHIRFieldError: Error {
    let field: String
    let reason: String
}
