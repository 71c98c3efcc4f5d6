import Foundation

extension FHIRMapper {
    /// MedicationRequest (a prescription) or MedicationStatement (what the patient takes).
    func medication(_ resource: FHIRResource) throws -> Mapped<Medication> {
        let isRequest = resource.type == "MedicationRequest"
        let status = try self.status(resource) ?? "unknown"
        switch status {
        case "entered-in-error": return .skip("entered in error")
        case "not-taken": return .skip("recorded as not taken")
        default: break
        }
        let stopped = ["completed", "stopped", "cancelled"].contains(status)

        // What: a CodeableConcept, or a Medication resource in the bundle or contained.
        var concept = try FHIRElements.concept(resource["medicationCodeableConcept"], field: "medicationCodeableConcept")
        var form: String?
        if concept == nil, let reference = resource["medicationReference"] {
            if let target = bundle.resolve(try FHIRElements.reference(reference, field: "medicationReference"), from: resource),
               target.type == "Medication" {
                concept = try FHIRElements.concept(target["code"], field: "medicationReference → Medication.code")
                form = try FHIRElements.concept(target["form"], field: "medicationReference → Medication.form")?.name()
            } else if let display = try FHIRElements.referenceDisplay(reference, field: "medicationReference") {
                concept = FHIRElements.Concept(text: display, codings: [])
            } else {
                return .skip("its Medication is not in the bundle")
            }
        }
        guard let concept, var name = concept.name(preferring: [Coding.System.rxNorm, Coding.System.snomed]) else {
            throw FHIRFieldError(field: "medication[x]", reason: "missing; a \(resource.type) names its medication")
        }

        // How: the first dosage (R4 calls it dosageInstruction on requests, dosage on statements).
        let dosageField = isRequest ? "dosageInstruction" : "dosage"
        let dosage = try self.dosage(resource[dosageField]?[0], field: "\(dosageField)[0]")
        // phr's summaries name a medication with its dose and form ("Ferrous sulfate 325 mg
        // tablet", `Medication.displayName`): the dose is its own field, so the name is what
        // comes before it, and a last word after it is the form.
        if let dose = dosage.dose, let range = name.range(of: " \(dose)", options: .backwards), range.lowerBound > name.startIndex {
            let rest = name[range.upperBound...]
            if rest.isEmpty {
                name = String(name[..<range.lowerBound])
            } else if form == nil, rest.hasPrefix(" "), !rest.dropFirst().isEmpty, !rest.dropFirst().contains(" ") {
                form = String(rest.dropFirst())
                name = String(name[..<range.lowerBound])
            }
        }

        var start: PartialDate?
        var end: PartialDate?
        if isRequest {
            start = try repairs.optional { try FHIRElements.dateTime(resource["authoredOn"], field: "authoredOn")?.date }
            let validity = resource["dispenseRequest"]?["validityPeriod"]
            end = try repairs.optional { try FHIRElements.dateTime(validity?["end"], field: "dispenseRequest.validityPeriod.end")?.date }
        } else {
            if let period = resource["effectivePeriod"] {
                start = try repairs.optional { try FHIRElements.dateTime(period["start"], field: "effectivePeriod.start")?.date }
                end = try repairs.optional { try FHIRElements.dateTime(period["end"], field: "effectivePeriod.end")?.date }
            } else {
                start = try repairs.optional { try FHIRElements.dateTime(resource["effectiveDateTime"], field: "effectiveDateTime")?.date }
            }
        }
        if let s = start, let e = end, e.lastDay < s.firstDay {
            repairs.note("end: \(e) is before the start, \(s); left out")
            end = nil
        }
        // A stopped or completed one was last taken on its end day: from the next day on, no
        // doses are due, and summaries list it among those stopped.
        let stoppedOn = stopped ? end.map { $0.lastDay.adding(days: 1) } : nil
        var refills: Int?
        refills = try FHIRElements.wholeNumber(resource["dispenseRequest"]?["numberOfRepeatsAllowed"],
                                               field: "dispenseRequest.numberOfRepeatsAllowed", range: 0...99)
        let prescriber = isRequest ? try actorName(resource["requester"], field: "requester", from: resource) : nil
        let medication = Medication(
            id: "", uid: "", name: name, dose: dosage.dose, form: form, schedule: dosage.schedule, timeZone: nil,
            minIntervalMinutes: nil, maxPerDay: nil, start: start, end: end, status: stopped ? .stopped : .active,
            stoppedOn: stoppedOn, prescriber: prescriber, pharmacy: nil, refills: refills, documentID: nil,
            instructions: dosage.instructions, notes: try FHIRElements.notes(resource["note"], field: "note"),
            codes: concept.codings, source: source(resource), createdAt: now, updatedAt: now)
        return .record(medication)
    }

    struct Dosage {
        var dose: String?
        var schedule: MedicationSchedule = .unscheduled
        var instructions: String?
    }

    /// Reads a Dosage (http://hl7.org/fhir/R4/dosage.html) into phr's schedule: times of day,
    /// an interval in hours or minutes, as needed; anything else is kept in words as instructions.
    func dosage(_ value: StrictJSON?, field: String) throws -> Dosage {
        var result = Dosage()
        guard let value else { return result }
        guard value.object != nil else { throw FHIRFieldError(field: field, reason: "expected a Dosage object, got \(value.typeName)") }
        var texts: [String] = []
        let text = try FHIRElements.string(value["text"], field: "\(field).text")
        let patientInstruction = try FHIRElements.string(value["patientInstruction"], field: "\(field).patientInstruction")
        if let quantity = try repairs.optional({ try FHIRElements.quantity(value["doseAndRate"]?[0]?["doseQuantity"], field: "\(field).doseAndRate[0].doseQuantity") }) {
            result.dose = FHIRElements.doseText(quantity)
        }
        if let asNeeded = value["asNeededBoolean"] {
            guard let flag = asNeeded.bool else { throw FHIRFieldError(field: "\(field).asNeededBoolean", reason: "expected a boolean, got \(asNeeded.typeName)") }
            if flag { result.schedule = .asNeeded }
        } else if value["asNeededCodeableConcept"] != nil {
            result.schedule = .asNeeded
        }
        if let repeatRule = value["timing"]?["repeat"], case .unscheduled = result.schedule {
            let times = try (repeatRule["timeOfDay"]?.elements ?? []).enumerated().map { index, item -> LocalTime in
                guard let text = item.string, text.count >= 5, let time = LocalTime(String(text.prefix(5))) else {
                    throw FHIRFieldError(field: "\(field).timing.repeat.timeOfDay[\(index)]", reason: "expected a time (hh:mm:ss)")
                }
                return time
            }
            let frequency = try FHIRElements.wholeNumber(repeatRule["frequency"], field: "\(field).timing.repeat.frequency", range: 1...1000) ?? 1
            let period = repeatRule["period"]?.number ?? 1
            guard period.isFinite, period > 0, period <= 1_000_000 else {
                throw FHIRFieldError(field: "\(field).timing.repeat.period", reason: "expected a number above 0 and at most 1000000")
            }
            let unit = try FHIRElements.string(repeatRule["periodUnit"], field: "\(field).timing.repeat.periodUnit")
            if !times.isEmpty {
                result.schedule = .times(Array(Set(times)).sorted())
            } else if let unit, let perUnit = ["min": 1.0, "h": 60.0][unit], period > 0 {
                // "every 8 hours" is an interval; so is "3 times per 24 hours".
                result.schedule = .interval(minutes: max(1, Int((period * perUnit / Double(frequency)).rounded())))
            } else if let unit {
                let names = ["s": "second", "d": "day", "wk": "week", "mo": "month", "a": "year"]
                let name = names[unit] ?? unit
                let every = period == 1 ? "a \(name)" : "every \(Observation.number(period)) \(name)s"
                texts.append(frequency == 1 ? "once \(every)" : frequency == 2 ? "twice \(every)" : "\(frequency) times \(every)")
            }
        }
        if let maximum = value["maxDosePerPeriod"],
           let numerator = try repairs.optional({ try FHIRElements.quantity(maximum["numerator"], field: "\(field).maxDosePerPeriod.numerator") }),
           let denominator = try repairs.optional({ try FHIRElements.quantity(maximum["denominator"], field: "\(field).maxDosePerPeriod.denominator") }) {
            // A quantity of medicine, not a count of doses: kept as words, not as the guard's maximum.
            texts.append("at most \(FHIRElements.doseText(numerator)) per \(FHIRElements.doseText(denominator))")
        }
        var words = patientInstruction.map { [$0] } ?? []
        if let text, !restates(text, &result, patientInstruction: patientInstruction) {
            // A text that already holds the patient instruction is not followed by it again.
            words = patientInstruction.map { text.contains($0) } == true ? [text] : [text] + words
        }
        texts = words + texts
        result.instructions = texts.isEmpty ? nil : texts.joined(separator: "; ")
        return result
    }

    /// Whether a Dosage's text only says what its fields say, in the words phr's summaries use
    /// ("500 mg, as needed; with food": `IPSResources.dosageText`). Kept as instructions, it would
    /// grow by a copy of itself on every trip through a summary. A dose that is no quantity
    /// ("1-2 tablets") is only in that text: it is read back from there.
    private func restates(_ text: String, _ dosage: inout Dosage, patientInstruction: String?) -> Bool {
        if text == IPSResources.dosageText(dose: dosage.dose, schedule: dosage.schedule, instructions: patientInstruction) { return true }
        guard dosage.dose == nil,
              let rest = IPSResources.dosageText(dose: nil, schedule: dosage.schedule, instructions: patientInstruction) else { return false }
        let separator = dosage.schedule == .unscheduled ? "; " : ", "
        guard text.hasSuffix(separator + rest) else { return false }
        let dose = String(text.dropLast(separator.count + rest.count))
        guard !dose.isEmpty, !dose.contains(";"), dose.count <= RecordFields.maximumLabelLength,
              IPSResources.dosageText(dose: dose, schedule: dosage.schedule, instructions: patientInstruction) == text else { return false }
        dosage.dose = dose
        return true
    }
}
