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
        let kept = medicalID?.identifiers ?? []
        var members: [(String, OrderedJSON?)] = [
            ("resourceType", .string("Patient")),
            ("id", .string(id)),
            // The id as an identifier too: an import keeps it, and summaries shared from there name the same patient.
            ("identifier", identifiers(kept + (kept.contains(IPSPatientID.identifier(id)) ? [] : [IPSPatientID.identifier(id)]))),
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
            ("clinicalStatus", status("http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical", allergy.status.rawValue)),
            ("category", allergy.category.map { .array([.string($0.rawValue)]) }),
            ("criticality", allergy.criticality.map { .string($0.rawValue) }),
            ("code", concept(allergy.codes, text: allergy.substance)),
            ("patient", reference(patient)),
            ("onsetDateTime", allergy.since.map { .string($0.description) }),
            ("note", notes(allergy.notes)),
            ("reaction", reaction),
        ])
    }

    static func condition(_ condition: Condition, id: String, patient: String) -> OrderedJSON {
        // con-4: an abatement only goes with a status that says the condition is over.
        let ended = [.inactive, .remission, .resolved].contains(condition.status)
        return .members([
            ("resourceType", .string("Condition")),
            ("id", .string(id)),
            ("identifier", identifiers(condition.source?.identifiers ?? [])),
            ("clinicalStatus", status("http://terminology.hl7.org/CodeSystem/condition-clinical", condition.status.rawValue)),
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
        let dosage: OrderedJSON = .members([
            ("text", dosageText(dose: medication.dose, schedule: medication.schedule, instructions: medication.instructions)
                .map(OrderedJSON.string)),
            ("patientInstruction", medication.instructions.map(OrderedJSON.string)),
            ("timing", timing(medication.schedule)),
            ("asNeededBoolean", medication.schedule == .asNeeded ? .bool(true) : nil),
            ("doseAndRate", doseQuantity(medication.dose).map { .array([.object([("doseQuantity", $0)])]) }),
        ])
        if case .object(let parts) = dosage, !parts.isEmpty { members.append(("dosage", .array([dosage]))) }
        members.append(("note", notes(medication.notes)))
        return .members(members)
    }

    /// A Dosage's text as phr writes it: "500 mg, daily at 08:00; with food". The importer
    /// recognises this text and does not keep it as instructions beside the fields it repeats.
    static func dosageText(dose: String?, schedule: MedicationSchedule, instructions: String?) -> String? {
        var text = [dose, schedule == .unscheduled ? nil : schedule.summary].compactMap { $0 }.joined(separator: ", ")
        if let instructions { text += text.isEmpty ? instructions : "; \(instructions)" }
        return text.isEmpty ? nil : text
    }

    /// Times of day, or an interval, as a Timing.
    static func timing(_ schedule: MedicationSchedule) -> OrderedJSON? {
        switch schedule {
        case .times(let times):
            return .object([("repeat", .object([("timeOfDay", .array(times.map { .string("\($0.description):00") }))]))])
        case .interval(let minutes):
            let (period, unit) = minutes % 60 == 0 ? (minutes / 60, "h") : (minutes, "min")
            return .object([("repeat", .object([("frequency", .integer(1)), ("period", .integer(period)), ("periodUnit", .string(unit))]))])
        case .asNeeded, .unscheduled:
            return nil
        }
    }

    /// A dose such as "500 mg" as a Quantity, when it is a number and a unit that read back the
    /// same; "1-2 tablets" stays in the text only.
    static func doseQuantity(_ dose: String?) -> OrderedJSON? {
        guard let dose, let space = dose.firstIndex(of: " "), let value = Double(dose[..<space]), value.isFinite else { return nil }
        let unit = String(dose[dose.index(after: space)...])
        guard !unit.isEmpty, FHIRElements.doseText((value, unit)) == dose else { return nil }
        return quantity(value, unit: unit)
    }

    /// A Quantity with its UCUM code when phr knows the unit's (`ucum` when the record kept it).
    static func quantity(_ value: Double, unit: String?, ucum: String? = nil) -> OrderedJSON {
        let code = ucum ?? unit.flatMap { UCUM.code(for: $0) ?? LabUnits.ucum($0) }
        return .members([("value", .number(value)), ("unit", unit.map(OrderedJSON.string)),
                         ("system", code == nil ? nil : .string(UCUM.system)), ("code", code.map(OrderedJSON.string))])
    }

    static func immunization(_ immunization: Immunization, id: String, patient: String) -> OrderedJSON {
        .members([
            ("resourceType", .string("Immunization")),
            ("id", .string(id)),
            ("identifier", identifiers(immunization.source?.identifiers ?? [])),
            ("status", .string("completed")),
            ("vaccineCode", concept(immunization.codes, text: immunization.vaccine)),
            ("patient", reference(patient)),
            // occurrence[x] is required: an undated one says so in words (occurrenceString).
            ("occurrenceDateTime", immunization.date.map { .string($0.description) }),
            ("occurrenceString", immunization.date == nil ? .string("date not known") : nil),
            ("lotNumber", immunization.lot.map(OrderedJSON.string)),
            ("note", notes(immunization.notes)),
            ("protocolApplied", immunization.doseNumber.map { .array([.object([("doseNumberPositiveInt", .integer($0))])]) }),
        ])
    }

    static func procedure(_ procedure: Procedure, id: String, patient: String) -> OrderedJSON {
        .members([
            ("resourceType", .string("Procedure")),
            ("id", .string(id)),
            ("identifier", identifiers(procedure.source?.identifiers ?? [])),
            ("status", .string(procedure.status.rawValue)),
            ("code", concept(procedure.codes, text: procedure.name)),
            ("subject", reference(patient)),
            // IPS requires performed[x]; an undated procedure says so with the data-absent-reason extension.
            ("performedDateTime", procedure.date.map { .string($0.description) }),
            ("_performedDateTime", procedure.date == nil ? .object([("extension", .array([.object([
                ("url", .string("http://hl7.org/fhir/StructureDefinition/data-absent-reason")), ("valueCode", .string("unknown")),
            ])]))]) : nil),
            ("performer", procedure.performer.map { .array([.object([("actor", .object([("display", .string($0))]))])]) }),
            ("bodySite", procedure.bodySite.map { .array([.object([("text", .string($0))])]) }),
            ("note", notes(procedure.notes)),
        ])
    }

    static func familyMemberHistory(_ entry: FamilyHistory, id: String, patient: String) -> OrderedJSON {
        let relationship: OrderedJSON = entry.relationCode.map { code in
            .object([("coding", .array([coding(Coding(system: "http://terminology.hl7.org/CodeSystem/v3-RoleCode", code: code, display: nil))])),
                     ("text", .string(entry.relation))])
        } ?? .object([("text", .string(entry.relation))])
        let condition: [(String, OrderedJSON?)] = [
            ("code", concept(entry.codes, text: entry.condition)),
            ("contributedToDeath", entry.causeOfDeath.map(OrderedJSON.bool)),
            ("onsetAge", entry.onsetAge.map { .members([("value", .integer($0)), ("unit", .string("years")), ("system", .string(UCUM.system)),
                                                        ("code", .string("a"))]) }),
        ]
        return .members([
            ("resourceType", .string("FamilyMemberHistory")),
            ("id", .string(id)),
            ("identifier", identifiers(entry.source?.identifiers ?? [])),
            ("status", .string("completed")),
            ("patient", reference(patient)),
            ("relationship", relationship),
            ("condition", .array([.members(condition)])),
            ("note", notes(entry.notes)),
        ])
    }

    static func observation(_ observation: Observation, id: String, patient: String) -> OrderedJSON {
        var members: [(String, OrderedJSON?)] = [
            ("resourceType", .string("Observation")),
            ("id", .string(id)),
            ("identifier", identifiers(observation.source?.identifiers ?? [])),
            ("status", .string(observation.status.rawValue)),
            ("category", observation.category.map {
                .array([status("http://terminology.hl7.org/CodeSystem/observation-category", $0)])
            }),
            ("code", concept(observation.codes, text: observation.name)),
            ("subject", reference(patient)),
            ("effectiveDateTime", observation.effective.map(OrderedJSON.string)),
        ]
        members += value(number: observation.valueNumber, unit: observation.valueUnit, text: observation.valueText,
                         codes: observation.valueCodes, ucum: observation.lab?.unitUCUM)
        // What makes it an IPS laboratory result: interpretation and reference range.
        // An imported result says only what its source said; phr's own ones carry the flag the range implies.
        if let flag = observation.lab?.origin == .fhir ? observation.lab?.flag : observation.effectiveFlag {
            members.append(("interpretation", .array([.object([("coding", .array([coding(Coding(
                system: "http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation", code: flag.rawValue,
                display: interpretationDisplay[flag]))]))])])))
        }
        if let range = observation.lab?.range {
            let ucum = observation.unitUCUM
            let low = range.low.map { quantity($0, unit: observation.valueUnit, ucum: ucum) }
            let high = range.high.map { quantity($0, unit: observation.valueUnit, ucum: ucum) }
            members.append(("referenceRange", .array([.members([("low", low), ("high", high), ("text", range.text.map(OrderedJSON.string))])])))
        }
        if !observation.components.isEmpty {
            members.append(("component", .array(observation.components.map { component in
                .members([("code", concept(component.codes, text: component.name))]
                         + value(number: component.valueNumber, unit: component.valueUnit, text: component.valueText, codes: nil))
            })))
        }
        members.append(("note", notes(observation.notes)))
        return .members(members)
    }

    /// The display texts of v3-ObservationInterpretation codes.
    static let interpretationDisplay: [LabFlag: String] = [.high: "High", .low: "Low", .criticalHigh: "Critical high",
                                                           .criticalLow: "Critical low", .abnormal: "Abnormal", .normal: "Normal"]

    /// value[x]: a quantity, a coded value, or text, whichever the record has.
    private static func value(number: Double?, unit: String?, text: String?, codes: [Coding]?, ucum: String? = nil) -> [(String, OrderedJSON?)] {
        if let number {
            return [("valueQuantity", quantity(number, unit: unit, ucum: ucum))]
        }
        if let codes, !codes.isEmpty { return [("valueCodeableConcept", concept(codes, text: text))] }
        // "<0.5": below the lab's limit, a quantity with its comparator, not a string.
        if let text, let (comparator, bound) = LabGrammar.comparison(text) {
            guard case .object(var members) = quantity(bound, unit: unit, ucum: ucum) else { return [] }
            members.insert(("comparator", .string(comparator)), at: 1)
            return [("valueQuantity", .object(members))]
        }
        if let text { return [("valueString", .string(text))] }
        return []
    }
}
