import Foundation

extension FHIRMapper {
    func observation(_ resource: FHIRResource) throws -> Mapped<Observation> {
        let text = try self.status(resource) ?? "unknown"
        switch text {
        case "entered-in-error": return .skip("entered in error")
        case "cancelled": return .skip("cancelled")
        default: break
        }
        guard let status = Observation.Status(rawValue: text) else {
            throw FHIRFieldError(field: "status", reason: "'\(text)' is not an Observation status")
        }
        guard let concept = try FHIRElements.concept(resource["code"], field: "code"),
              let name = concept.name(preferring: [Coding.System.loinc, Coding.System.snomed]) else {
            throw FHIRFieldError(field: "code", reason: "missing; an Observation says what was observed")
        }
        let value = try self.value(resource.json, field: "value[x]")
        var components: [Observation.Component] = []
        for (index, item) in (resource["component"]?.elements ?? []).enumerated() {
            guard let code = try FHIRElements.concept(item["code"], field: "component[\(index)].code"),
                  let componentName = code.name(preferring: [Coding.System.loinc, Coding.System.snomed]) else {
                throw FHIRFieldError(field: "component[\(index)].code", reason: "missing; a component says what it measures")
            }
            guard let componentValue = try self.value(item, field: "component[\(index)].value[x]") else { continue }
            components.append(Observation.Component(name: componentName, codes: code.codings, valueNumber: componentValue.number,
                                                    valueUnit: componentValue.unit, valueText: componentValue.text))
        }
        if value == nil && components.isEmpty {
            if !(resource["hasMember"]?.elements.isEmpty ?? true) {
                return .skip("a panel without a value of its own; its members are imported one by one")
            }
            if resource["dataAbsentReason"] != nil { return .skip("has no value (dataAbsentReason)") }
            return .skip("has no value")
        }
        let effective = try repairs.optional { try FHIRElements.dateTime(resource["effectiveDateTime"], field: "effectiveDateTime") }
            ?? repairs.optional { try FHIRElements.dateTime(resource["effectivePeriod"]?["start"], field: "effectivePeriod.start") }
            ?? repairs.optional { try FHIRElements.dateTime(resource["effectiveInstant"], field: "effectiveInstant") }
        let category = try FHIRElements.concept(resource["category"]?[0], field: "category[0]")?.codings.first?.code
        return .record(Observation(id: "", uid: "", name: name, category: category, status: status, effective: effective?.text,
                                   valueNumber: value?.number, valueUnit: value?.unit, valueText: value?.text,
                                   valueCodes: value?.codes, components: components,
                                   notes: try FHIRElements.notes(resource["note"], field: "note"), codes: concept.codings,
                                   source: source(resource), lab: try labDetails(resource, unitUCUM: value?.ucum, name: name),
                                   createdAt: now, updatedAt: now))
    }

    /// UCUM unit, referenceRange and interpretation, which phr keeps as the result's lab details.
    func labDetails(_ resource: FHIRResource, unitUCUM: String?, name: String) throws -> LabDetails {
        var range: ReferenceRange?
        if let first = resource["referenceRange"]?[0] {
            let low = try repairs.optional { try FHIRElements.quantity(first["low"], field: "referenceRange[0].low") }
            let high = try repairs.optional { try FHIRElements.quantity(first["high"], field: "referenceRange[0].high") }
            let text = try FHIRElements.string(first["text"], field: "referenceRange[0].text")
            if low != nil || high != nil || text != nil { range = ReferenceRange(low: low?.value, high: high?.value, text: text) }
        }
        var flag: LabFlag?
        if let interpretation = try FHIRElements.concept(resource["interpretation"]?[0], field: "interpretation[0]") {
            flag = interpretation.codings.lazy.compactMap { LabFlag(rawValue: $0.code.uppercased()) }.first
        }
        let codes = (try FHIRElements.concept(resource["code"], field: "code"))?.codings ?? []
        let analyte = codes.lazy.filter { $0.system == Coding.System.loinc }.compactMap { AnalyteCatalog.entry(loinc: $0.code) }.first
            ?? AnalyteCatalog.lookup(name, unit: unitUCUM)
        return LabDetails(analyte: analyte?.key, unitUCUM: unitUCUM, range: range, flag: flag, origin: .fhir, reviewed: false)
    }

    struct Value {
        var number: Double?
        var unit: String?
        var text: String?
        var codes: [Coding]?
        /// The UCUM code of a Quantity whose system is UCUM.
        var ucum: String?
    }

    /// value[x] of an Observation or component: a number with its unit, coded or plain text.
    func value(_ json: StrictJSON, field: String) throws -> Value? {
        if let quantity = try FHIRElements.quantity(json["valueQuantity"], field: "valueQuantity") {
            let system = try FHIRElements.string(json["valueQuantity"]?["system"], field: "valueQuantity.system")
            let code = try FHIRElements.string(json["valueQuantity"]?["code"], field: "valueQuantity.code")
            // "<0.5" ("comparator": "<"): a bound, not the result itself; kept as the lab wrote it.
            if let comparator = try FHIRElements.string(json["valueQuantity"]?["comparator"], field: "valueQuantity.comparator") {
                guard ["<", "<=", ">=", ">", "ad"].contains(comparator) else {
                    throw FHIRFieldError(field: "valueQuantity.comparator", reason: "'\(comparator.prefix(10))' is not a comparator (<, <=, >=, >, ad)")
                }
                // The bound at its full precision ("<0.003" for troponin; Observation.number rounds).
                let bound = quantity.value == quantity.value.rounded() && abs(quantity.value) < 1e15 ? String(Int64(quantity.value)) : "\(quantity.value)"
                let written = comparator == "ad" ? "\(bound) (sufficient)" : comparator + bound
                return Value(unit: quantity.unit, text: written, ucum: system == Coding.System.ucum ? code : nil)
            }
            return Value(number: quantity.value, unit: quantity.unit, ucum: system == Coding.System.ucum ? code : nil)
        }
        if let concept = try FHIRElements.concept(json["valueCodeableConcept"], field: "valueCodeableConcept") {
            return Value(text: concept.name(preferring: [Coding.System.snomed, Coding.System.loinc]), codes: concept.codings)
        }
        if let text = try FHIRElements.string(json["valueString"], field: "valueString") { return Value(text: text) }
        if let flag = json["valueBoolean"] {
            guard let bool = flag.bool else { throw FHIRFieldError(field: "valueBoolean", reason: "expected a boolean, got \(flag.typeName)") }
            return Value(text: bool ? "yes" : "no")
        }
        if let integer = json["valueInteger"] {
            guard let number = integer.number, number == number.rounded() else {
                throw FHIRFieldError(field: "valueInteger", reason: "expected a whole number, got \(integer.typeName)")
            }
            return Value(number: number)
        }
        if let dateTime = try FHIRElements.dateTime(json["valueDateTime"], field: "valueDateTime") { return Value(text: dateTime.text) }
        if let text = try FHIRElements.string(json["valueTime"], field: "valueTime") { return Value(text: text) }
        if let range = json["valueRange"] {
            let low = try FHIRElements.quantity(range["low"], field: "valueRange.low")
            let high = try FHIRElements.quantity(range["high"], field: "valueRange.high")
            let text = [low.map(FHIRElements.doseText), high.map(FHIRElements.doseText)].map { $0 ?? "" }.joined(separator: "–")
            return text == "–" ? nil : Value(text: text)
        }
        if let ratio = json["valueRatio"],
           let numerator = try FHIRElements.quantity(ratio["numerator"], field: "valueRatio.numerator"),
           let denominator = try FHIRElements.quantity(ratio["denominator"], field: "valueRatio.denominator") {
            return Value(text: "\(FHIRElements.doseText(numerator))/\(FHIRElements.doseText(denominator))")
        }
        return nil
    }

    /// A blood group in words ("Blood group A Rh(D) positive") as A+, B-, AB+, O-...
    static func bloodType(from text: String) -> String? {
        let upper = text.uppercased()
        guard upper.contains("BLOOD GROUP") || upper.contains("BLOOD TYPE") else { return nil }
        let words = upper.replacingOccurrences(of: "(", with: " ").replacingOccurrences(of: ")", with: " ")
            .split(whereSeparator: { !$0.isLetter && $0 != "+" && $0 != "-" }).map(String.init)
        guard let group = words.first(where: { ["A", "B", "AB", "O"].contains($0) }) else { return nil }
        if words.contains("POSITIVE") || words.contains("POS") { return group + "+" }
        if words.contains("NEGATIVE") || words.contains("NEG") { return group + "-" }
        return nil
    }
}
