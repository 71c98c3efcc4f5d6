import Foundation

extension FHIRMapper {
    /// SNOMED CT codes that state the absence of allergies: not allergies to record.
    static let noKnownAllergyCodes: Set<String> = ["716186003", "429625007", "409137002", "428607008", "428197003", "1003774007"]

    func allergy(_ resource: FHIRResource) throws -> Mapped<Allergy> {
        let verification = try FHIRElements.statusCode(resource["verificationStatus"], field: "verificationStatus")
        if verification == "entered-in-error" { return .skip("entered in error") }
        if verification == "refuted" { return .skip("refuted (verificationStatus)") }
        guard let concept = try FHIRElements.concept(resource["code"], field: "code"),
              let substance = concept.name(preferring: [Coding.System.snomed, Coding.System.rxNorm]) else {
            return .skip("names no substance (code)")
        }
        if concept.codings.contains(where: { $0.system == Coding.System.snomed && Self.noKnownAllergyCodes.contains($0.code) })
            || substance.lowercased().hasPrefix("no known") {
            return .skip("states that there is no known allergy, which is not an allergy to list")
        }
        var reactions: [String] = []
        var severity: Allergy.Severity?
        for (index, reaction) in (resource["reaction"]?.elements ?? []).enumerated() {
            for (m, manifestation) in (reaction["manifestation"]?.elements ?? []).enumerated() {
                if let name = try FHIRElements.concept(manifestation, field: "reaction[\(index)].manifestation[\(m)]")?.name(),
                   !reactions.contains(name) {
                    reactions.append(name)
                }
            }
            if let text = try FHIRElements.string(reaction["severity"], field: "reaction[\(index)].severity") {
                guard let value = Allergy.Severity(rawValue: text) else {
                    throw FHIRFieldError(field: "reaction[\(index)].severity", reason: "'\(text)' is not mild, moderate or severe")
                }
                // The worst reaction is the one to warn about.
                if severity.map({ Allergy.Severity.allCases.firstIndex(of: value)! > Allergy.Severity.allCases.firstIndex(of: $0)! }) ?? true {
                    severity = value
                }
            }
        }
        let criticality = try FHIRElements.string(resource["criticality"], field: "criticality").map { value in
            guard let criticality = Allergy.Criticality(rawValue: value) else {
                throw FHIRFieldError(field: "criticality", reason: "'\(value)' is not low, high or unable-to-assess")
            }
            return criticality
        }
        let category = try FHIRElements.string(resource["category"]?[0], field: "category[0]").map { value in
            guard let category = Allergy.Category(rawValue: value) else {
                throw FHIRFieldError(field: "category[0]", reason: "'\(value)' is not food, medication, environment or biologic")
            }
            return category
        }
        let status = try FHIRElements.statusCode(resource["clinicalStatus"], field: "clinicalStatus") ?? "active"
        guard let clinical = Allergy.Status(rawValue: status) else {
            throw FHIRFieldError(field: "clinicalStatus", reason: "'\(status)' is not active, inactive or resolved")
        }
        let onset = try repairs.optional { try FHIRElements.dateTime(resource["onsetDateTime"], field: "onsetDateTime")?.date }
            ?? repairs.optional { try FHIRElements.dateTime(resource["onsetPeriod"]?["start"], field: "onsetPeriod.start")?.date }
        return .record(Allergy(id: "", uid: "", substance: substance, reaction: reactions.isEmpty ? nil : reactions.joined(separator: ", "),
                               severity: severity, criticality: criticality, category: category, status: clinical, since: onset,
                               notes: try FHIRElements.notes(resource["note"], field: "note"), codes: concept.codings,
                               source: source(resource), createdAt: now, updatedAt: now))
    }

    func condition(_ resource: FHIRResource) throws -> Mapped<Condition> {
        let verification = try FHIRElements.statusCode(resource["verificationStatus"], field: "verificationStatus")
        if verification == "entered-in-error" { return .skip("entered in error") }
        if verification == "refuted" { return .skip("refuted (verificationStatus)") }
        guard let concept = try FHIRElements.concept(resource["code"], field: "code"),
              let name = concept.name(preferring: [Coding.System.snomed, Coding.System.icd10, Coding.System.icd10CM]) else {
            return .skip("names no condition (code)")
        }
        let since = try repairs.optional { try FHIRElements.dateTime(resource["onsetDateTime"], field: "onsetDateTime")?.date }
            ?? repairs.optional { try FHIRElements.dateTime(resource["onsetPeriod"]?["start"], field: "onsetPeriod.start")?.date }
        var resolved = try repairs.optional { try FHIRElements.dateTime(resource["abatementDateTime"], field: "abatementDateTime")?.date }
            ?? repairs.optional { try FHIRElements.dateTime(resource["abatementPeriod"]?["end"], field: "abatementPeriod.end")?.date }
        if let s = since, let r = resolved, r.lastDay < s.firstDay {
            repairs.note("abatement: \(r) is before the onset, \(s); left out")
            resolved = nil
        }
        let status = try FHIRElements.statusCode(resource["clinicalStatus"], field: "clinicalStatus")
            ?? (resolved != nil || resource["abatementBoolean"]?.bool == true ? "resolved" : "active")
        guard let clinical = Condition.Status(rawValue: status) else {
            throw FHIRFieldError(field: "clinicalStatus", reason: "'\(status)' is not a condition clinical status")
        }
        return .record(Condition(id: "", uid: "", name: name, status: clinical, since: since, resolved: resolved,
                                 notes: try FHIRElements.notes(resource["note"], field: "note"), codes: concept.codings,
                                 source: source(resource), createdAt: now, updatedAt: now))
    }

    func immunization(_ resource: FHIRResource) throws -> Mapped<Immunization> {
        switch try status(resource) {
        case "entered-in-error": return .skip("entered in error")
        case "not-done": return .skip("not given (status not-done)")
        default: break
        }
        guard let concept = try FHIRElements.concept(resource["vaccineCode"], field: "vaccineCode"),
              let vaccine = concept.name(preferring: [Coding.System.cvx, Coding.System.snomed]) else {
            throw FHIRFieldError(field: "vaccineCode", reason: "missing; an Immunization names its vaccine")
        }
        // Without a date (or with one phr cannot read) it is kept undated; a date in words
        // (occurrenceString, "as a child") goes into its notes.
        let date = try repairs.optional { try FHIRElements.dateTime(resource["occurrenceDateTime"], field: "occurrenceDateTime")?.date }
        var notes = try FHIRElements.notes(resource["note"], field: "note")
        if date == nil {
            if let words = try FHIRElements.string(resource["occurrenceString"], field: "occurrenceString") {
                notes = [notes, "given: \(words)"].compactMap { $0 }.joined(separator: "\n")
            } else if resource["occurrenceDateTime"] == nil {
                repairs.note("occurrenceDateTime: none given; kept undated")
            }
        }
        var doseNumber: Int?
        if let number = resource["protocolApplied"]?[0]?["doseNumberPositiveInt"] {
            doseNumber = try FHIRElements.wholeNumber(number, field: "protocolApplied[0].doseNumberPositiveInt", range: 1...20)
        } else if let text = resource["protocolApplied"]?[0]?["doseNumberString"]?.string, let value = Int(text), value >= 1 {
            doseNumber = value
        }
        return .record(Immunization(id: "", uid: "", vaccine: vaccine, date: date, doseNumber: doseNumber,
                                    lot: try FHIRElements.string(resource["lotNumber"], field: "lotNumber"),
                                    notes: notes, codes: concept.codings,
                                    source: source(resource), createdAt: now, updatedAt: now))
    }
}

extension FHIRMapper {
    func procedure(_ resource: FHIRResource) throws -> Mapped<Procedure> {
        let statusText = try status(resource) ?? "completed"
        switch statusText {
        case "entered-in-error": return .skip("entered in error")
        case "not-done": return .skip("not done (status not-done)")
        default: break
        }
        guard let status = Procedure.Status(rawValue: statusText) else {
            throw FHIRFieldError(field: "status", reason: "'\(statusText)' is not a procedure status")
        }
        guard let concept = try FHIRElements.concept(resource["code"], field: "code"),
              let name = concept.name(preferring: [Coding.System.snomed, "http://www.ama-assn.org/go/cpt"]) else {
            return .skip("names no procedure (code)")
        }
        let date = try repairs.optional { try FHIRElements.dateTime(resource["performedDateTime"], field: "performedDateTime")?.date }
            ?? repairs.optional { try FHIRElements.dateTime(resource["performedPeriod"]?["start"], field: "performedPeriod.start")?.date }
        let site = try repairs.optional { try FHIRElements.concept(resource["bodySite"]?[0], field: "bodySite[0]")?.name(preferring: [Coding.System.snomed]) }
        let performer = try repairs.optional { try actorName(resource["performer"]?[0]?["actor"], field: "performer[0].actor", from: resource) }
        var notes = try FHIRElements.notes(resource["note"], field: "note")
        if date == nil, let performed = try FHIRElements.string(resource["performedString"], field: "performedString") {
            // "in childhood": kept in words.
            notes = [notes, "performed: \(performed)"].compactMap { $0 }.joined(separator: "\n")
        }
        return .record(Procedure(id: "", uid: "", name: name, date: date, status: status, bodySite: site, performer: performer, notes: notes,
                                 codes: concept.codings, source: source(resource), createdAt: now, updatedAt: now))
    }

    /// One condition of a FamilyMemberHistory as an entry: where it is, what it maps to, what
    /// was left out to keep it, and the suffix its source key takes after the resource's.
    struct FamilyCondition {
        var location: String
        var mapped: Mapped<FamilyHistory>
        var repairs: [String] = []
        var keySuffix: String = ""
    }

    /// A FamilyMemberHistory: one relative and their conditions, each kept as its own entry,
    /// known again by the resource's key and what the condition is (its code and onset, never
    /// its place: a sender that adds a condition in front changes no other's key); a relative
    /// with no condition is not a record phr keeps.
    func familyHistory(_ resource: FHIRResource) throws -> [FamilyCondition] {
        let location = "entry[\(resource.index)]"
        switch try status(resource) {
        case "entered-in-error": return [FamilyCondition(location: location, mapped: .skip("entered in error"))]
        case "health-unknown": return [FamilyCondition(location: location, mapped: .skip("says the relative's health is unknown"))]
        default: break
        }
        let relationship = try FHIRElements.concept(resource["relationship"], field: "relationship")
        let code = relationship?.codings.first { $0.system == "http://terminology.hl7.org/CodeSystem/v3-RoleCode" || $0.system == nil }?.code
            ?? relationship?.codings.first?.code
        guard let relation = code.flatMap(FamilyHistory.relationWords(for:)) ?? relationship?.text ?? relationship?.codings.first?.display else {
            return [FamilyCondition(location: location, mapped: .skip("names no relative (relationship)"))]
        }
        let conditions = resource["condition"]?.elements ?? []
        guard !conditions.isEmpty else { return [FamilyCondition(location: location, mapped: .skip("lists no condition of the relative"))] }
        let key = sourceKey(resource)
        let shared = try FHIRElements.notes(resource["note"], field: "note")
        return try conditions.enumerated().map { index, condition in
            let place = conditions.count == 1 ? location : "\(location) condition[\(index)]"
            guard let concept = try FHIRElements.concept(condition["code"], field: "condition[\(index)].code"),
                  let name = concept.name(preferring: [Coding.System.snomed, Coding.System.icd10CM, Coding.System.icd10]) else {
                return FamilyCondition(location: place, mapped: .skip("names no condition (condition[\(index)].code)"))
            }
            var age: Int?
            var notesLeftOut: [String] = []
            // DSTU2 calls it onsetQuantity (an Age all the same).
            let onset = condition["onsetAge"] ?? condition["onsetQuantity"]
            if let onset {
                let unit = onset["code"]?.string ?? onset["unit"]?.string ?? "a"
                if let value = onset["value"]?.number, ["a", "yr", "year", "years"].contains(unit), (0...150).contains(value) {
                    age = Int(value)
                } else {
                    notesLeftOut.append("condition[\(index)].onsetAge: not an age in years; left out")
                }
            }
            let notes = [shared, try FHIRElements.notes(condition["note"], field: "condition[\(index)].note")].compactMap { $0 }
            // What the condition is: its code and onset, as written.
            let identity = (condition["code"]?.canonical ?? "") + "|" + (onset?.canonical ?? "")
            let digest = (try? SHA256Hasher.hash(Array(identity.utf8)).hex.prefix(16)).map(String.init) ?? ""
            let suffix = "#condition:\(digest)"
            return FamilyCondition(location: place, mapped: .record(FamilyHistory(
                id: "", uid: "", relation: relation, relationCode: code.flatMap { FamilyHistory.relationWords(for: $0) != nil ? $0.uppercased() : nil },
                condition: name, onsetAge: age, causeOfDeath: condition["contributedToDeath"]?.bool, notes: notes.isEmpty ? nil : notes.joined(separator: "\n"),
                codes: concept.codings, source: RecordSource(key: key + suffix, identifiers: FHIRElements.identifiers(resource["identifier"])),
                createdAt: now, updatedAt: now)), repairs: notesLeftOut, keySuffix: suffix)
        }
    }
}

extension FHIRMapper {
    /// A DeviceUseStatement (the device it names, from its Device entry) or an advance-directive
    /// Consent as a line of the medical ID's notes, as the C-CDA importer makes them.
    func noteLine(_ resource: FHIRResource) throws -> Mapped<String> {
        let status = try status(resource)
        if status == "entered-in-error" { return .skip("entered in error") }
        func clean(_ text: String) -> String { text.trimmingWhitespace().replacingOccurrences(of: "\n", with: " ") }
        if resource.type == "DeviceUseStatement" {
            if ["not-done", "stopped", "completed"].contains(status ?? "") { return .skip("not in use (status \(status!))") }
            let reference = try FHIRElements.reference(resource["device"], field: "device")
            let device = bundle.resolve(reference, from: resource)
            let name = try device.flatMap { device in
                try FHIRElements.concept(device["type"], field: "type")?.name(preferring: [Coding.System.snomed])
                    ?? device["deviceName"]?[0]?["name"]?.string
            } ?? FHIRElements.referenceDisplay(resource["device"], field: "device")
            guard let name else { return .skip("names no device (device)") }
            let since = try repairs.optional { try FHIRElements.dateTime(resource["timingPeriod"]?["start"], field: "timingPeriod.start")?.date }
                ?? repairs.optional { try FHIRElements.dateTime(resource["timingDateTime"], field: "timingDateTime")?.date }
            return .record("Device: \(clean(name))" + (since.map { " (since \($0))" } ?? ""))
        }
        // Consent: only an advance directive (scope adr) is kept.
        let scope = try FHIRElements.concept(resource["scope"], field: "scope")
        guard scope?.codings.contains(where: { $0.code == "adr" }) == true || scope?.text?.lowercased().contains("advance") == true else {
            return .skip("a consent other than an advance directive (scope)")
        }
        if status == "inactive" || status == "rejected" { return .skip("not in force (status \(status!))") }
        let words = try (resource["category"]?.elements ?? []).enumerated().compactMap { index, category in
            try FHIRElements.concept(category, field: "category[\(index)]")?.name(preferring: [Coding.System.loinc])
        }.filter { $0.lowercased() != "advance directive" }
        let from = try repairs.optional { try FHIRElements.dateTime(resource["dateTime"], field: "dateTime")?.date }
        let text = words.isEmpty ? "on file" : words.map(clean).joined(separator: ", ")
        return .record("Advance directive: \(text)" + (from.map { " (from \($0))" } ?? ""))
    }
}
