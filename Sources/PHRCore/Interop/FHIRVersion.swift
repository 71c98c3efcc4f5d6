import Foundation

/// Which FHIR release a bundle was written in, told from what its resources look like, and the
/// STU3 (3.0) bundles phr reads by renaming the few elements that changed for R4.
///
/// Files rarely say their version (`meta.profile` points at version-less StructureDefinitions;
/// `fhirVersion` is in CapabilityStatements, not bundles), so the shapes decide:
/// - DSTU2 (1.0): resource types that R4 renamed or dropped (MedicationOrder, DiagnosticOrder,
///   Order, OrderResponse, DeviceUseRequest), an AllergyIntolerance with `substance`, a CRIT*
///   criticality or a plain `status`, a Condition or statement with `patient`, Condition
///   `dateRecorded`, `wasNotTaken` / `wasNotGiven`, an Observation whose `category` is one
///   object, a server URL naming DSTU2. Read after `upgraded(fromDSTU2:)` for the types phr keeps.
/// - STU3: statuses as plain codes where R4 has CodeableConcepts (Condition and
///   AllergyIntolerance `clinicalStatus` / `verificationStatus`), MedicationStatement `taken`,
///   Immunization `date` / `notGiven`, Condition `assertedDate`, or STU3-only types
///   (ProcedureRequest, ReferralRequest). Read after `upgradedFromSTU3`.
/// http://hl7.org/fhir/R4/diff.html, http://hl7.org/fhir/STU3/diff.html
enum FHIRVersion: String, Equatable {
    case r4 = "R4"
    case stu3 = "STU3"
    case dstu2 = "DSTU2"

    static func detect(_ bundle: StrictJSON) -> FHIRVersion {
        var stu3 = false
        for entry in bundle["entry"]?.array ?? [] {
            // A server's base URL often names its release (".../api/FHIR/DSTU2/Patient/123").
            if let url = entry["fullUrl"]?.string?.lowercased(), url.contains("/dstu2/") { return .dstu2 }
            guard let resource = entry["resource"] else { continue }
            switch shape(resource) {
            case .dstu2?: return .dstu2
            case .stu3?: stu3 = true
            default: break
            }
        }
        return stu3 ? .stu3 : .r4
    }

    /// The release one resource's shape gives away, nil when it looks like R4 (or like any).
    static func shape(_ resource: StrictJSON) -> FHIRVersion? {
        let type = resource["resourceType"]?.string ?? ""
        if ["MedicationOrder", "DiagnosticOrder", "Order", "OrderResponse", "DeviceUseRequest"].contains(type) { return .dstu2 }
        switch type {
        case "AllergyIntolerance":
            if resource["substance"] != nil { return .dstu2 }
            if let criticality = resource["criticality"]?.string, criticality.hasPrefix("CRIT") { return .dstu2 }
            if resource["category"]?.string != nil || (resource["status"]?.string != nil && resource["clinicalStatus"] == nil) { return .dstu2 }
        case "Condition":
            if resource["patient"] != nil || resource["dateRecorded"] != nil { return .dstu2 }
        case "MedicationStatement":
            if resource["patient"] != nil || resource["wasNotTaken"] != nil { return .dstu2 }
        case "Immunization":
            if resource["wasNotGiven"] != nil { return .dstu2 }
        case "Observation":
            if case .object? = resource["category"] { return .dstu2 }
        case "Encounter":
            if resource["patient"] != nil { return .dstu2 }
        default:
            break
        }
        if ["ProcedureRequest", "ReferralRequest"].contains(type) { return .stu3 }
        if ["Condition", "AllergyIntolerance"].contains(type),
           resource["clinicalStatus"]?.string != nil || resource["verificationStatus"]?.string != nil { return .stu3 }
        if type == "MedicationStatement", resource["taken"] != nil { return .stu3 }
        if type == "Immunization", resource["notGiven"] != nil || resource["date"] != nil { return .stu3 }
        if type == "Condition", resource["assertedDate"] != nil { return .stu3 }
        return nil
    }

    /// The release a `fhirVersion` names ("1.0.2", "3.0.1", "4.0.1"); nil for anything else.
    static func named(_ version: String?) -> FHIRVersion? {
        guard let version else { return nil }
        if version.hasPrefix("1.0") || version.uppercased() == "DSTU2" { return .dstu2 }
        if version.hasPrefix("3.0") || version.uppercased() == "STU3" { return .stu3 }
        if version.hasPrefix("4.0") || version.uppercased() == "R4" { return .r4 }
        return nil
    }

    /// One resource in R4's shape, from the release it was written in.
    static func upgraded(resource: StrictJSON, from version: FHIRVersion) -> StrictJSON {
        switch version {
        case .r4: return resource
        case .stu3: return upgraded(resource)
        case .dstu2: return upgraded(fromDSTU2: resource)
        }
    }

    /// A bundle of `version` with each resource in R4's shape.
    static func upgraded(bundle: StrictJSON, from version: FHIRVersion) -> StrictJSON {
        guard version != .r4, case .object(var top) = bundle, case .array(let entries)? = top["entry"] else { return bundle }
        top["entry"] = .array(entries.map { entry in
            guard case .object(var object) = entry, let resource = object["resource"] else { return entry }
            object["resource"] = upgraded(resource: resource, from: version)
            return .object(object)
        })
        return .object(top)
    }

    /// An STU3 bundle with the elements R4 renamed or retyped rewritten the R4 way; everything
    /// else is the same in both releases for what phr reads.
    static func upgradedFromSTU3(_ bundle: StrictJSON) -> StrictJSON {
        upgraded(bundle: bundle, from: .stu3)
    }

    private static func upgraded(_ resource: StrictJSON) -> StrictJSON {
        guard case .object(var object) = resource, let type = object["resourceType"]?.string else { return resource }
        func concept(_ key: String, system: String) {
            if let code = object[key]?.string {
                object[key] = .object(["coding": .array([.object(["system": .string(system), "code": .string(code)])])])
            }
        }
        func rename(_ old: String, _ new: String) {
            if let value = object.removeValue(forKey: old), object[new] == nil { object[new] = value }
        }
        switch type {
        case "Condition":
            concept("clinicalStatus", system: "http://terminology.hl7.org/CodeSystem/condition-clinical")
            concept("verificationStatus", system: "http://terminology.hl7.org/CodeSystem/condition-ver-status")
            rename("assertedDate", "recordedDate")
        case "AllergyIntolerance":
            concept("clinicalStatus", system: "http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical")
            concept("verificationStatus", system: "http://terminology.hl7.org/CodeSystem/allergyintolerance-verification")
        case "Immunization":
            rename("date", "occurrenceDateTime")
            if object.removeValue(forKey: "notGiven")?.bool == true { object["status"] = .string("not-done") }
        case "MedicationStatement":
            // STU3's taken: y | n | unk | na. "n" is R4's status not-taken.
            if object.removeValue(forKey: "taken")?.string == "n" { object["status"] = .string("not-taken") }
        default:
            break
        }
        return .object(object)
    }

    /// A DSTU2 (1.0) resource rewritten the R4 way, for the types phr reads: what R4 renamed
    /// (AllergyIntolerance `substance` to `code`, `patient` to `subject`, MedicationOrder to
    /// MedicationRequest with `dateWritten` to `authoredOn`, Immunization `date` to
    /// `occurrenceDateTime`), retyped (statuses as codes to CodeableConcepts, a single
    /// Observation `category` or `interpretation` to a list, a dose to `doseAndRate`) or
    /// re-coded (criticality CRITH to high, `wasNotTaken` / `wasNotGiven` to a status). Types R4
    /// has no counterpart for (DiagnosticOrder, Order) stay as they are, and are skipped by name.
    /// http://hl7.org/fhir/DSTU2/, http://hl7.org/fhir/R4/diff.html
    private static func upgraded(fromDSTU2 resource: StrictJSON) -> StrictJSON {
        guard case .object(var object) = resource, let type = object["resourceType"]?.string else { return resource }
        func rename(_ old: String, _ new: String) {
            if let value = object.removeValue(forKey: old), object[new] == nil { object[new] = value }
        }
        func concept(_ code: String, system: String) -> StrictJSON {
            .object(["coding": .array([.object(["system": .string(system), "code": .string(code)])])])
        }
        func listed(_ key: String) {
            if let value = object[key], case .object = value { object[key] = .array([value]) }
        }
        /// Dosages whose `doseQuantity` / `doseRange` / `quantityQuantity` move into `doseAndRate`.
        func doses(_ key: String) {
            guard case .array(let dosages)? = object[key] else { return }
            object[key] = .array(dosages.map { dosage in
                guard case .object(var fields) = dosage else { return dosage }
                var rate: [String: StrictJSON] = [:]
                for (old, new) in [("doseQuantity", "doseQuantity"), ("quantityQuantity", "doseQuantity"), ("doseRange", "doseRange")] {
                    if let value = fields.removeValue(forKey: old), rate[new] == nil { rate[new] = value }
                }
                if !rate.isEmpty && fields["doseAndRate"] == nil { fields["doseAndRate"] = .array([.object(rate)]) }
                return .object(fields)
            })
        }
        switch type {
        case "AllergyIntolerance":
            rename("substance", "code")
            rename("onset", "onsetDateTime")
            if let status = object.removeValue(forKey: "status")?.string {
                let clinical = ["active": "active", "unconfirmed": "active", "confirmed": "active", "inactive": "inactive",
                                "resolved": "resolved"][status]
                let verification = ["unconfirmed": "unconfirmed", "confirmed": "confirmed", "refuted": "refuted",
                                    "entered-in-error": "entered-in-error"][status]
                if let clinical, object["clinicalStatus"] == nil {
                    object["clinicalStatus"] = concept(clinical, system: "http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical")
                }
                if let verification, object["verificationStatus"] == nil {
                    object["verificationStatus"] = concept(verification, system: "http://terminology.hl7.org/CodeSystem/allergyintolerance-verification")
                }
            }
            if let criticality = object["criticality"]?.string {
                object["criticality"] = ["CRITL": "low", "CRITH": "high", "CRITU": "unable-to-assess"][criticality].map(StrictJSON.string)
            }
            // DSTU2's "other" has no R4 code: no category says as much.
            if let category = object["category"]?.string { object["category"] = category == "other" ? nil : .array([.string(category)]) }
        case "Condition":
            rename("patient", "subject")
            rename("dateRecorded", "recordedDate")
            if let status = object["clinicalStatus"]?.string {
                object["clinicalStatus"] = concept(status, system: "http://terminology.hl7.org/CodeSystem/condition-clinical")
            }
            if let status = object["verificationStatus"]?.string {
                // DSTU2's "unknown" has no R4 code: no verification status at all says as much.
                object["verificationStatus"] = status == "unknown" ? nil
                    : concept(status, system: "http://terminology.hl7.org/CodeSystem/condition-ver-status")
            }
        case "MedicationStatement":
            rename("patient", "subject")
            if object.removeValue(forKey: "wasNotTaken")?.bool == true { object["status"] = .string("not-taken") }
            doses("dosage")
        case "MedicationOrder":
            object["resourceType"] = .string("MedicationRequest")
            rename("patient", "subject")
            rename("dateWritten", "authoredOn")
            rename("prescriber", "requester")
            object["intent"] = object["intent"] ?? .string("order")
            doses("dosageInstruction")
        case "Immunization":
            rename("date", "occurrenceDateTime")
            if object.removeValue(forKey: "wasNotGiven")?.bool == true { object["status"] = .string("not-done") }
        case "Observation":
            listed("category")
            listed("interpretation")
        case "Encounter":
            rename("patient", "subject")
        default:
            break
        }
        return .object(object)
    }
}
