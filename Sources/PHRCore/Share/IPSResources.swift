import Foundation

/// phr's records as the FHIR R4 resources the IPS profiles describe, carrying the codings kept
/// from imports (RxNorm, SNOMED CT, ICD-10, LOINC, CVX...) and the text the user typed.
/// http://hl7.org/fhir/uv/ips/
enum IPSResources {
    static let dataAbsentReason = "http://hl7.org/fhir/StructureDefinition/data-absent-reason"

    static func reference(_ fullUrl: String) -> OrderedJSON {
        .object([("reference", .string(fullUrl))])
    }

    static func coding(_ coding: Coding) -> OrderedJSON {
        .members([("system", coding.system.map(OrderedJSON.string)), ("code", .string(coding.code)),
                  ("display", coding.display.map(OrderedJSON.string))])
    }

    /// A CodeableConcept: the kept codings, and the name as the user knows it.
    static func concept(_ codes: [Coding], text: String?) -> OrderedJSON {
        .members([("coding", codes.isEmpty ? nil : .array(codes.map(coding))), ("text", text.map(OrderedJSON.string))])
    }

    static func status(_ system: String, _ code: String) -> OrderedJSON {
        .object([("coding", .array([.object([("system", .string(system)), ("code", .string(code))])]))])
    }

    /// The JSON form of a primitive that is required but unknown: only an extension saying so.
    static func absent(_ reason: String = "unknown") -> OrderedJSON {
        .object([("extension", .array([.object([("url", .string(dataAbsentReason)), ("valueCode", .string(reason))])]))])
    }

    static func notes(_ text: String?) -> OrderedJSON? {
        text.map { .array([.object([("text", .string($0))])]) }
    }

    static func identifiers(_ identifiers: [SourceIdentifier]) -> OrderedJSON? {
        identifiers.isEmpty ? nil : .array(identifiers.map { .members([("system", $0.system.map(OrderedJSON.string)), ("value", .string($0.value))]) })
    }

    static func patient(id: String, content: ShareContent) -> OrderedJSON {
        let medicalID = content.medicalID
        var members: [(String, OrderedJSON?)] = [
            ("resourceType", .string("Patient")),
            ("id", .string(id)),
            ("identifier", identifiers(medicalID?.identifiers ?? [])),
            // IPS requires a name; an unknown one says so (data-absent-reason), as the birth date does.
            ("name", .array([content.hasName ? .object([("text", .string(content.patientName))])
                             : .object([("extension", .array([.object([
                                 ("url", .string("http://hl7.org/fhir/StructureDefinition/data-absent-reason")),
                                 ("valueCode", .string("unknown")),
                             ])]))])])),
            ("gender", medicalID?.sex.map { .string($0.rawValue) }),
        ]
        // IPS requires a birth date; an unknown one says so instead of being left out.
        if let born = medicalID?.dateOfBirth {
            members.append(("birthDate", .string(born.description)))
        } else {
            members.append(("_birthDate", absent()))
        }
        let contacts = content.emergencyContacts.map { contact -> OrderedJSON in
            var relationship: [OrderedJSON] = [.object([
                ("coding", .array([.object([("system", .string("http://terminology.hl7.org/CodeSystem/v2-0131")),
                                            ("code", .string("C")), ("display", .string("Emergency Contact"))])])),
            ])]
            if let relation = contact.relation { relationship.append(.object([("text", .string(relation))])) }
            var telecom: [OrderedJSON] = [.object([("system", .string("phone")), ("value", .string(contact.phone))])]
            if let email = contact.email { telecom.append(.object([("system", .string("email")), ("value", .string(email))])) }
            return .object([("relationship", .array(relationship)), ("name", .object([("text", .string(contact.name))])),
                            ("telecom", .array(telecom))])
        }
        members.append(("contact", contacts.isEmpty ? nil : .array(contacts)))
        return .members(members)
    }

    static func allergy(_ allergy: Allergy, id: String, patient: String) -> OrderedJSON {
        var reaction: OrderedJSON?
        if allergy.reaction != nil || allergy.severity != nil {
            reaction = .array([.members([
                ("manifestation", .array([.object([("text", .string(allergy.reaction ?? "reaction not described"))])])),
                ("severity", allergy.severity.map { .string($0.rawValue) }),
            ])])
        }
        return .members([
            ("resourceType", .string("AllergyIntolerance")),
            ("id", .string(id)),
            ("identifier", identifiers(allergy.source?.identifiers ?? [])),
            ("clinicalStatus", status("http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical", allergy.status)),
            ("category", allergy.category.map { .array([.string($0)]) }),
            ("criticality", allergy.criticality.map(OrderedJSON.string)),
            ("code", concept(allergy.codes, text: allergy.substance)),
            ("patient", reference(patient)),
            ("onsetDateTime", allergy.since.map { .string($0.description) }),
            ("note", notes(allergy.notes)),
            ("reaction", reaction),
        ])
    }

    static func condition(_ condition: Condition, id: String, patient: String) -> OrderedJSON {
        // con-4: an abatement only goes with a status that says the condition is over.
        let ended = ["inactive", "remission", "resolved"].contains(condition.status)
        return .members([
            ("resourceType", .string("Condition")),
            ("id", .string(id)),
            ("identifier", identifiers(condition.source?.identifiers ?? [])),
            ("clinicalStatus", status("http://terminology.hl7.org/CodeSystem/condition-clinical", condition.status)),
            ("code", concept(condition.codes, text: condition.name)),
            ("subject", reference(patient)),
            ("onsetDateTime", condition.since.map { .string($0.description) }),
            ("abatementDateTime", ended ? condition.resolved.map { .string($0.description) } : nil),
            ("note", notes(condition.notes)),
        ])
    }

    static func medication(_ medication: Medication, id: String, patient: String, today: CalendarDate) -> OrderedJSON {
        let status: String
        if medication.status == .stopped {
            status = "stopped"
        } else if let start = medication.start, start.firstDay > today {
            status = "intended"
        } else if let end = medication.end, end.lastDay < today {
            status = "completed"
        } else {
            status = "active"
        }
        var members: [(String, OrderedJSON?)] = [
            ("resourceType", .string("MedicationStatement")),
            ("id", .string(id)),
            ("identifier", identifiers(medication.source?.identifiers ?? [])),
            ("status", .string(status)),
            ("medicationCodeableConcept", concept(medication.codes, text: medication.displayName)),
            ("subject", reference(patient)),
        ]
        let last = ShareContent.lastDay(of: medication)
        if medication.start != nil || last != nil {
            members.append(("effectivePeriod", .members([("start", medication.start.map { .string($0.description) }),
                                                         ("end", last.map { .string($0.description) })])))
        } else {
            // IPS requires effective[x]; the day it started is not recorded.
            members.append(("_effectiveDateTime", absent()))
        }
        var dosageText = [medication.dose, medication.schedule == .unscheduled ? nil : medication.schedule.summary].compactMap { $0 }
            .joined(separator: ", ")
        if let instructions = medication.instructions { dosageText += dosageText.isEmpty ? instructions : "; \(instructions)" }
        let dosage: OrderedJSON = .members([
            ("text", dosageText.isEmpty ? nil : .string(dosageText)),
            ("asNeededBoolean", medication.schedule == .asNeeded ? .bool(true) : nil),
        ])
        if case .object(let parts) = dosage, !parts.isEmpty { members.append(("dosage", .array([dosage]))) }
        members.append(("note", notes(medication.notes)))
        return .members(members)
    }

    static func immunization(_ immunization: Immunization, id: String, patient: String) -> OrderedJSON {
        .members([
            ("resourceType", .string("Immunization")),
            ("id", .string(id)),
            ("identifier", identifiers(immunization.source?.identifiers ?? [])),
            ("status", .string("completed")),
            ("vaccineCode", concept(immunization.codes, text: immunization.vaccine)),
            ("patient", reference(patient)),
            ("occurrenceDateTime", .string(immunization.date.description)),
            ("lotNumber", immunization.lot.map(OrderedJSON.string)),
            ("note", notes(immunization.notes)),
            ("protocolApplied", immunization.doseNumber.map { .array([.object([("doseNumberPositiveInt", .integer($0))])]) }),
        ])
    }

    static func observation(_ observation: Observation, id: String, patient: String) -> OrderedJSON {
        var members: [(String, OrderedJSON?)] = [
            ("resourceType", .string("Observation")),
            ("id", .string(id)),
            ("identifier", identifiers(observation.source?.identifiers ?? [])),
            ("status", .string(observation.status)),
            ("category", observation.category.map {
                .array([status("http://terminology.hl7.org/CodeSystem/observation-category", $0)])
            }),
            ("code", concept(observation.codes, text: observation.name)),
            ("subject", reference(patient)),
            ("effectiveDateTime", observation.effective.map(OrderedJSON.string)),
        ]
        members += value(number: observation.valueNumber, unit: observation.valueUnit, text: observation.valueText,
                         codes: observation.valueCodes)
        if !observation.components.isEmpty {
            members.append(("component", .array(observation.components.map { component in
                .members([("code", concept(component.codes, text: component.name))]
                         + value(number: component.valueNumber, unit: component.valueUnit, text: component.valueText, codes: nil))
            })))
        }
        members.append(("note", notes(observation.notes)))
        return .members(members)
    }

    /// value[x]: a quantity, a coded value, or text, whichever the record has.
    private static func value(number: Double?, unit: String?, text: String?, codes: [Coding]?) -> [(String, OrderedJSON?)] {
        if let number {
            return [("valueQuantity", .members([("value", .number(number)), ("unit", unit.map(OrderedJSON.string))]))]
        }
        if let codes, !codes.isEmpty { return [("valueCodeableConcept", concept(codes, text: text))] }
        if let text { return [("valueString", .string(text))] }
        return []
    }
}
