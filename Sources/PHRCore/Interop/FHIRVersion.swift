import Foundation

/// Which FHIR release a bundle was written in, told from what its resources look like, and the
/// STU3 (3.0) bundles phr reads by renaming the few elements that changed for R4.
///
/// Files rarely say their version (`meta.profile` points at version-less StructureDefinitions;
/// `fhirVersion` is in CapabilityStatements, not bundles), so the shapes decide:
/// - DSTU2 (1.0): resource types that R4 renamed or dropped (MedicationOrder, DiagnosticOrder,
///   Order, OrderResponse, DeviceUseRequest), an AllergyIntolerance with `substance`, a Condition or
///   statement with `patient`. Refused: its mapping is not a rename.
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
        let resources = (bundle["entry"]?.array ?? []).compactMap { $0["resource"] }
        var stu3 = false
        for resource in resources {
            let type = resource["resourceType"]?.string ?? ""
            if ["MedicationOrder", "DiagnosticOrder", "Order", "OrderResponse", "DeviceUseRequest"].contains(type) { return .dstu2 }
            if type == "AllergyIntolerance", resource["substance"] != nil { return .dstu2 }
            if ["Condition", "MedicationStatement", "AllergyIntolerance", "Immunization"].contains(type), resource["patient"] != nil,
               type != "AllergyIntolerance" && type != "Immunization" { return .dstu2 }
            if ["ProcedureRequest", "ReferralRequest"].contains(type) { stu3 = true }
            if ["Condition", "AllergyIntolerance"].contains(type),
               resource["clinicalStatus"]?.string != nil || resource["verificationStatus"]?.string != nil { stu3 = true }
            if type == "MedicationStatement", resource["taken"] != nil { stu3 = true }
            if type == "Immunization", resource["notGiven"] != nil || resource["date"] != nil { stu3 = true }
            if type == "Condition", resource["assertedDate"] != nil { stu3 = true }
        }
        return stu3 ? .stu3 : .r4
    }

    /// An STU3 bundle with the elements R4 renamed or retyped rewritten the R4 way; everything
    /// else is the same in both releases for what phr reads.
    static func upgradedFromSTU3(_ bundle: StrictJSON) -> StrictJSON {
        guard case .object(var top) = bundle, case .array(let entries)? = top["entry"] else { return bundle }
        top["entry"] = .array(entries.map { entry in
            guard case .object(var object) = entry, let resource = object["resource"] else { return entry }
            object["resource"] = upgraded(resource)
            return .object(object)
        })
        return .object(top)
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
}
