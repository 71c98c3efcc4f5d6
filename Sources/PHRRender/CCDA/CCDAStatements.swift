import Foundation
import PHRModel

/// Reads one entry of a section into plain `CCDAEntry` values: which clinical statement holds
/// what (C-CDA R2.1 entry templates 2.16.840.1.113883.10.20.22.4.*, and R1.1's status
/// observations). It takes what is there; phr decides what becomes a record.
struct CCDAStatements {
    let location: String

    static let template = "2.16.840.1.113883.10.20.22.4."

    /// The entry's records, or a reason it holds none.
    func read(_ entry: XMLElementNode, kind: CCDADocumentReader.SectionKind) -> ([CCDAEntry], String?) {
        switch kind {
        case .medications:
            guard let administration = entry.find("substanceAdministration") else { return ([], "holds no medication activity") }
            return ([medication(administration)], nil)
        case .immunizations:
            guard let administration = entry.find("substanceAdministration") else { return ([], "holds no immunization activity") }
            return ([immunization(administration)], nil)
        case .allergies:
            let (concern, observations) = Self.concerned(entry, template: Self.template + "7")
            guard !observations.isEmpty else { return ([], "holds no allergy observation") }
            return (observations.enumerated().map { index, observation in
                allergy(observation, concern: concern, location: Self.place(location, index, of: observations.count))
            }, nil)
        case .problems:
            let (concern, observations) = Self.concerned(entry, template: Self.template + "4")
            guard !observations.isEmpty else { return ([], "holds no problem observation") }
            return (observations.enumerated().map { index, observation in
                problem(observation, concern: concern, location: Self.place(location, index, of: observations.count))
            }, nil)
        case .results, .vitalSigns:
            let entryKind = kind.entryKind
            if let organizer = entry.find("organizer") {
                let observations = organizer.all("component").compactMap { $0.first("observation") }
                guard !observations.isEmpty else { return ([], "a panel with no observations") }
                return (organizer.all("component").enumerated().compactMap { index, component in
                    component.first("observation").map {
                        observation($0, kind: entryKind, location: "\(location) component[\(index)]", organizer: organizer)
                    }
                }, nil)
            }
            guard let single = entry.find("observation") else { return ([], "holds no observation") }
            return ([observation(single, kind: entryKind, location: location, organizer: nil)], nil)
        case .encounters:
            guard let encounter = entry.find("encounter") else { return ([], "holds no encounter") }
            return ([self.encounter(encounter)], nil)
        case .procedures:
            // Procedure Activity Procedure, Observation or Act (4.14, 4.13, 4.12): the entry's own statement.
            guard let statement = entry.first("procedure") ?? entry.first("observation") ?? entry.first("act") else {
                return ([], "holds no procedure activity")
            }
            return ([procedure(statement)], nil)
        case .familyHistory:
            // A Family History Organizer (4.45): one relative and their conditions, each a
            // Family History Observation (4.46); R1.1 may put a lone observation in the entry.
            if let organizer = entry.first("organizer") {
                let observations = organizer.all("component").compactMap { $0.first("observation") }
                guard !observations.isEmpty else { return ([], "a relative with no conditions") }
                return (observations.enumerated().map { index, observation in
                    family(observation, organizer: organizer, location: "\(location) component[\(index)]")
                }, nil)
            }
            guard let single = entry.find("observation") else { return ([], "holds no family history observation") }
            return ([family(single, organizer: nil, location: location)], nil)
        case .socialHistory:
            guard let observation = entry.first("observation") else { return ([], "holds no observation") }
            return ([social(observation)], nil)
        case .medicalEquipment:
            // A Non-Medicinal Supply Activity (4.50) or a procedure naming the device, alone or
            // in a Medical Equipment Organizer (4.135).
            let statements = entry.first("organizer").map { $0.all("component").compactMap { $0.first("supply") ?? $0.first("procedure") } }
                ?? [entry.first("supply") ?? entry.first("procedure")].compactMap { $0 }
            guard !statements.isEmpty else { return ([], "holds no device") }
            return (statements.enumerated().map { index, node in
                device(node, location: statements.count == 1 ? location : "\(location) component[\(index)]")
            }, nil)
        case .advanceDirectives:
            // An Advance Directive Observation (4.48), alone or in an Advance Directive Organizer (4.108).
            let observations = entry.first("organizer").map { $0.all("component").compactMap { $0.first("observation") } }
                ?? [entry.first("observation")].compactMap { $0 }
            guard !observations.isEmpty else { return ([], "holds no advance directive") }
            return (observations.enumerated().map { index, node in
                directive(node, location: observations.count == 1 ? location : "\(location) component[\(index)]")
            }, nil)
        }
    }

    /// The observations a concern act holds (a Problem Concern Act, an Allergy Concern Act, a
    /// hospital admission or discharge diagnosis act), every one of them: one concern often lists
    /// several problems or several allergies. They are the observations of the act's own
    /// entryRelationships with the entry template (`template`), else with typeCode SUBJ (R1.1,
    /// untemplated); an entry without an act of its own (an observation straight under the entry),
    /// or an act in neither shape, gives its first observation with the template, else its first
    /// observation.
    static func concerned(_ entry: XMLElementNode, template: String) -> (concern: XMLElementNode?, observations: [XMLElementNode]) {
        let concern = entry.first("act")
        if let concern {
            let related = concern.all("entryRelationship")
            let templated = related.compactMap { $0.first("observation") }.filter { $0.hasTemplate(template) }
            if !templated.isEmpty { return (concern, templated) }
            let subjects = related.filter { $0["typeCode"] == "SUBJ" }.compactMap { $0.first("observation") }
            if !subjects.isEmpty { return (concern, subjects) }
        }
        let single = entry.find("observation", where: { $0.hasTemplate(template) }) ?? entry.find("observation")
        return (concern, single.map { [$0] } ?? [])
    }

    /// Where the `index`th of `count` observations of an entry is: the entry's place, with the
    /// observation's number when the entry holds more than one.
    static func place(_ location: String, _ index: Int, of count: Int) -> String {
        count == 1 ? location : "\(location) observation[\(index)]"
    }

    // MARK: Statements

    private func base(_ node: XMLElementNode, kind: CCDAEntry.Kind, type: String, location: String? = nil) -> CCDAEntry {
        var entry = CCDAEntry(kind: kind, location: location ?? self.location, type: type)
        entry.ids = node.all("id").compactMap(Self.identifier)
        entry.status = node.first("statusCode")?["code"]
        entry.moodCode = node["moodCode"]
        entry.negated = node["negationInd"] == "true"
        return entry
    }

    private func medication(_ node: XMLElementNode) -> CCDAEntry {
        var entry = base(node, kind: .medication, type: "Medication Activity")
        for time in node.all("effectiveTime") {
            switch time.xsiType {
            case "PIVL_TS":
                if let period = time.first("period") { entry.period = Self.quantity(period) }
            case "EIVL_TS":
                if let event = time.first("event")?["code"] { entry.instructions = Self.eventWords[event] ?? event }
            default:
                if entry.time == nil { entry.time = Self.time(time) }
            }
        }
        entry.route = node.first("routeCode").map(Self.code)
        entry.dose = node.first("doseQuantity").flatMap(Self.doseQuantity)
        let material = node.path("consumable", "manufacturedProduct", "manufacturedMaterial")
        entry.code = material?.first("code").map(Self.code)
        entry.name = material?.first("name")?.flatText
        entry.asNeeded = node.first("precondition") != nil
        entry.performer = node.path("author", "assignedAuthor", "assignedPerson", "name").flatMap(Self.personName)
        for relationship in node.all("entryRelationship") {
            if let act = relationship.first("act"), act.hasTemplate(Self.template + "20") {
                let words = act.first("text")?.flatText ?? act.first("code").map(Self.code)?.display
                entry.instructions = [entry.instructions, words].compactMap { $0 }.joined(separator: "; ")
            }
            if relationship["typeCode"] == "RSON", let value = relationship.first("observation")?.first("value") {
                entry.reasons.append(Self.code(value))
            }
        }
        return entry
    }

    private func immunization(_ node: XMLElementNode) -> CCDAEntry {
        var entry = base(node, kind: .immunization, type: "Immunization Activity")
        entry.time = node.first("effectiveTime").map(Self.time)
        let material = node.path("consumable", "manufacturedProduct", "manufacturedMaterial")
        entry.code = material?.first("code").map(Self.code)
        entry.name = material?.first("name")?.flatText
        entry.lot = material?.first("lotNumberText")?.flatText
        entry.dose = node.first("doseQuantity").flatMap(Self.doseQuantity)
        entry.route = node.first("routeCode").map(Self.code)
        entry.performer = node.path("performer", "assignedEntity", "assignedPerson", "name").flatMap(Self.personName)
        return entry
    }

    private func allergy(_ node: XMLElementNode, concern: XMLElementNode?, location: String) -> CCDAEntry {
        var entry = base(node, kind: .allergy, type: "Allergy - Intolerance Observation", location: location)
        if entry.ids.isEmpty, let concern { entry.ids = concern.all("id").compactMap(Self.identifier) }
        entry.concernStatus = concern?.first("statusCode")?["code"]
        entry.time = node.first("effectiveTime").map(Self.time)
        entry.allergyType = node.first("value").map(Self.code)
        let substance = node.all("participant").first { $0["typeCode"] == "CSM" }?.path("participantRole", "playingEntity")
        entry.code = substance?.first("code").map(Self.code)
        entry.name = substance?.first("name")?.flatText
        for relationship in node.all("entryRelationship") {
            guard let observation = relationship.first("observation") else { continue }
            let value = observation.first("value").map(Self.code)
            if observation.hasTemplate(Self.template + "9") || relationship["typeCode"] == "MFST" {
                if let value { entry.reactions.append(value) }
                // R1.1 puts the severity inside the reaction.
                if entry.severity == nil,
                   let severity = observation.all("entryRelationship").compactMap({ $0.first("observation") })
                    .first(where: { $0.hasTemplate(Self.template + "8") })?.first("value") {
                    entry.severity = Self.code(severity)
                }
            } else if observation.hasTemplate(Self.template + "8") {
                entry.severity = value
            } else if observation.hasTemplate(Self.template + "145") {
                entry.criticality = value
            } else if observation.hasTemplate(Self.template + "28") {
                entry.statusValue = value
            }
        }
        return entry
    }

    private func problem(_ node: XMLElementNode, concern: XMLElementNode?, location: String) -> CCDAEntry {
        var entry = base(node, kind: .problem, type: "Problem Observation", location: location)
        if entry.ids.isEmpty, let concern { entry.ids = concern.all("id").compactMap(Self.identifier) }
        entry.concernStatus = concern?.first("statusCode")?["code"]
        entry.time = node.first("effectiveTime").map(Self.time)
        entry.code = node.first("value").map(Self.code)
        for relationship in node.all("entryRelationship") {
            if let observation = relationship.first("observation"), observation.hasTemplate(Self.template + "6") {
                entry.statusValue = observation.first("value").map(Self.code)
            }
        }
        return entry
    }

    private func observation(_ node: XMLElementNode, kind: CCDAEntry.Kind, location: String, organizer: XMLElementNode?) -> CCDAEntry {
        var entry = base(node, kind: kind, type: kind == .vitalSign ? "Vital Sign Observation" : "Result Observation", location: location)
        entry.code = node.first("code").map(Self.code)
        entry.time = (node.first("effectiveTime") ?? organizer?.first("effectiveTime")).map(Self.time)
        entry.value = node.first("value").map(Self.value)
        entry.interpretations = node.all("interpretationCode").map(Self.code)
        entry.ranges = node.all("referenceRange").compactMap { reference in
            guard let range = reference.first("observationRange") else { return nil }
            let value = range.first("value")
            return CCDARange(low: value?.first("low").flatMap(Self.quantity), high: value?.first("high").flatMap(Self.quantity),
                             text: range.first("text")?.flatText)
        }
        entry.panel = organizer?.first("code").map(Self.code)
        if entry.status == nil { entry.status = organizer?.first("statusCode")?["code"] }
        return entry
    }

    private func encounter(_ node: XMLElementNode) -> CCDAEntry {
        var entry = base(node, kind: .encounter, type: "Encounter Activity")
        entry.code = node.first("code").map(Self.code)
        entry.time = node.first("effectiveTime").map(Self.time)
        let assigned = node.path("performer", "assignedEntity")
        entry.performer = assigned?.path("assignedPerson", "name").flatMap(Self.personName)
            ?? assigned?.path("representedOrganization", "name")?.flatText
        let place = node.all("participant").first { $0["typeCode"] == "LOC" }?.first("participantRole")
        entry.place = place?.path("playingEntity", "name")?.flatText ?? place?.first("addr")?.flatText
        for relationship in node.all("entryRelationship") {
            if let value = relationship.find("observation")?.first("value") { entry.reasons.append(Self.code(value)) }
        }
        return entry
    }

    private func procedure(_ node: XMLElementNode) -> CCDAEntry {
        var entry = base(node, kind: .procedure, type: "Procedure Activity")
        entry.code = node.first("code").map(Self.code)
        entry.time = node.first("effectiveTime").map(Self.time)
        entry.bodySite = node.first("targetSiteCode").map(Self.code)
        let assigned = node.path("performer", "assignedEntity")
        entry.performer = assigned?.path("assignedPerson", "name").flatMap(Self.personName)
            ?? assigned?.path("representedOrganization", "name")?.flatText
        return entry
    }

    private func family(_ node: XMLElementNode, organizer: XMLElementNode?, location: String) -> CCDAEntry {
        var entry = base(node, kind: .familyHistory, type: "Family History Observation", location: location)
        entry.code = node.first("value").map(Self.code)
        entry.time = node.first("effectiveTime").map(Self.time)
        entry.relation = (organizer ?? node).path("subject", "relatedSubject")?.first("code").map(Self.code)
        for relationship in node.all("entryRelationship") {
            guard let observation = relationship.first("observation") else { continue }
            if observation.hasTemplate(Self.template + "31") || observation.first("code")?["code"] == "445518008" {
                entry.age = observation.first("value").flatMap(Self.quantity)
            } else if observation.hasTemplate(Self.template + "47") || relationship["typeCode"] == "CAUS" {
                entry.causeOfDeath = true
            }
        }
        return entry
    }

    private func device(_ node: XMLElementNode, location: String) -> CCDAEntry {
        var entry = base(node, kind: .device, type: "Medical Equipment", location: location)
        let product = node.all("participant").first { ["PRD", "DEV"].contains($0["typeCode"] ?? "") }?.first("participantRole")
        let playing = product?.first("playingDevice")
        entry.code = playing?.first("code").map(Self.code)
        entry.name = playing?.first("manufacturerModelName")?.flatText ?? node.first("text")?.flatText
        entry.time = node.first("effectiveTime").map(Self.time)
        return entry
    }

    private func directive(_ node: XMLElementNode, location: String) -> CCDAEntry {
        var entry = base(node, kind: .advanceDirective, type: "Advance Directive Observation", location: location)
        entry.code = node.first("code").map(Self.code)
        entry.value = node.first("value").map(Self.value)
        entry.time = node.first("effectiveTime").map(Self.time)
        return entry
    }

    private func social(_ node: XMLElementNode) -> CCDAEntry {
        let smoking = node.hasTemplate(Self.template + "78") || node.hasTemplate(Self.template + "85")
        var entry = base(node, kind: .socialHistory, type: smoking ? "Smoking Status Observation" : "Social History Observation")
        entry.code = node.first("code").map(Self.code)
        entry.time = node.first("effectiveTime").map(Self.time)
        entry.value = node.first("value").map(Self.value)
        return entry
    }

    // MARK: Data types

    static let eventWords = ["AC": "before a meal", "PC": "after a meal", "HS": "at bedtime", "WAKE": "on waking",
                             "ACM": "before breakfast", "ACD": "before lunch", "ACV": "before dinner", "C": "with a meal"]

    static func identifier(_ node: XMLElementNode) -> CCDAIdentifier? {
        guard node["nullFlavor"] == nil, let root = node["root"], !root.isEmpty else { return nil }
        // An empty extension is none: the id is its root alone.
        return CCDAIdentifier(root: root, extension: node["extension"].flatMap { $0.isEmpty ? nil : $0 })
    }

    /// A CD, CE or CV, with its translations (flattened) and original text. An original text that
    /// only points into the narrative (a reference) is not text.
    static func code(_ node: XMLElementNode) -> CCDACode {
        var translations: [CCDACode] = []
        for translation in node.all("translation") {
            let code = Self.code(translation)
            translations.append(CCDACode(code: code.code, system: code.system, display: code.display, nullFlavor: code.nullFlavor))
            translations += code.translations
        }
        let originalText = node.first("originalText")?.flatText
        return CCDACode(code: node["code"], system: node["codeSystem"], display: node["displayName"], originalText: originalText,
                        nullFlavor: node["nullFlavor"], translations: translations)
    }

    static func quantity(_ node: XMLElementNode) -> CCDAQuantity? {
        guard node["nullFlavor"] == nil, node["value"] != nil || node["unit"] != nil else { return nil }
        return CCDAQuantity(value: node["value"], unit: node["unit"])
    }

    /// A dose: a quantity, or a range ("1 to 2").
    static func doseQuantity(_ node: XMLElementNode) -> CCDAQuantity? {
        if let quantity = quantity(node) { return quantity }
        let low = node.first("low").flatMap(quantity)
        let high = node.first("high").flatMap(quantity)
        guard let low, let high, let from = low.value, let to = high.value else { return low ?? high }
        return CCDAQuantity(value: "\(from)-\(to)", unit: high.unit ?? low.unit)
    }

    static func time(_ node: XMLElementNode) -> CCDATime {
        CCDATime(value: node["value"], low: node.first("low")?["value"], high: node.first("high")?["value"])
    }

    static func value(_ node: XMLElementNode) -> CCDAValue {
        let type = node.xsiType ?? "ANY"
        var value = CCDAValue(type: type, nullFlavor: node["nullFlavor"])
        switch type {
        case "PQ", "INT", "REAL", "MO":
            value.quantity = quantity(node)
        case "IVL_PQ", "IVL_INT", "IVL_REAL":
            value.low = node.first("low").flatMap(quantity)
            value.high = node.first("high").flatMap(quantity)
        case "CD", "CE", "CV", "CO", "CS":
            value.code = code(node)
        case "BL":
            value.text = node["value"]
        default:
            value.text = node.flatText ?? node["value"]
        }
        return value
    }

    /// "Jane A. Doe Jr": given names, family name and suffix, or the name's plain text.
    static func personName(_ node: XMLElementNode) -> String? {
        let parts = (node.all("prefix") + node.all("given") + node.all("family") + node.all("suffix")).compactMap(\.flatText)
        guard !parts.isEmpty else { return node.flatText }
        // Given names before family: rebuild in that order regardless of the file's order.
        let ordered = ["given", "family", "suffix"].flatMap { name in node.all(name).compactMap(\.flatText) }
        return ordered.isEmpty ? parts.joined(separator: " ") : ordered.joined(separator: " ")
    }
}
