import Foundation

/// Readers for FHIR R4 data types (http://hl7.org/fhir/R4/datatypes.html) that check the shape
/// and throw `FHIRFieldError` naming the field, so a malformed entry is reported precisely.
enum FHIRElements {
    /// A FHIR code or string element; nil when absent.
    static func string(_ value: StrictJSON?, field: String) throws -> String? {
        guard let value else { return nil }
        guard let text = value.string else { throw FHIRFieldError(field: field, reason: "expected a string, got \(value.typeName)") }
        let trimmed = text.trimmingWhitespaceAndNewlines()
        return trimmed.isEmpty ? nil : trimmed
    }

    /// A CodeableConcept: its text and codings, in order.
    struct Concept {
        var text: String?
        var codings: [Coding]

        /// What to call it: the text, else a display (preferring `systems`, without SNOMED CT's
        /// semantic tag such as " (disorder)"), else a code. The codings keep the display as given.
        func name(preferring systems: [String] = []) -> String? {
            if let text { return text }
            if let display = codings.preferredDisplay(systems: systems) { return FHIRElements.withoutSemanticTag(display) }
            return codings.first.map { $0.label }
        }

        func has(system: String, code: String) -> Bool {
            codings.contains { $0.system == system && $0.code == code }
        }
    }

    static func concept(_ value: StrictJSON?, field: String) throws -> Concept? {
        guard let value else { return nil }
        guard value.object != nil else { throw FHIRFieldError(field: field, reason: "expected a CodeableConcept object, got \(value.typeName)") }
        var codings: [Coding] = []
        if let list = value["coding"], list.array == nil {
            throw FHIRFieldError(field: "\(field).coding", reason: "expected an array, got \(list.typeName)")
        }
        for (index, item) in (value["coding"]?.elements ?? []).enumerated() {
            if let coding = try self.coding(item, field: "\(field).coding[\(index)]") { codings.append(coding) }
        }
        let text = try string(value["text"], field: "\(field).text")
        if text == nil && codings.isEmpty { return nil }
        return Concept(text: text, codings: codings)
    }

    static func coding(_ value: StrictJSON, field: String) throws -> Coding? {
        guard value.object != nil else { throw FHIRFieldError(field: field, reason: "expected a Coding object, got \(value.typeName)") }
        guard let code = try string(value["code"], field: "\(field).code") else { return nil }
        return Coding(system: try string(value["system"], field: "\(field).system"), code: code,
                      display: try string(value["display"], field: "\(field).display"))
    }

    /// SNOMED CT fully specified names end in a semantic tag naming their hierarchy; people do
    /// not say "Viral sinusitis (disorder)".
    static let semanticTags = ["disorder", "finding", "substance", "medicinal product", "product", "situation", "procedure",
                               "observable entity", "organism", "physical object", "clinical drug", "morphologic abnormality",
                               "body structure", "event", "qualifier value", "regime/therapy"]

    static func withoutSemanticTag(_ display: String) -> String {
        for tag in semanticTags where display.hasSuffix(" (\(tag))") {
            return String(display.dropLast(tag.count + 3))
        }
        return display
    }

    /// The code of the first coding of a status-like CodeableConcept (clinicalStatus...).
    static func statusCode(_ value: StrictJSON?, field: String) throws -> String? {
        try concept(value, field: field)?.codings.first?.code
    }

    /// A FHIR date or dateTime: "2015", "2015-03", "2015-03-14", "2015-03-14T09:15:00+01:00".
    struct DateTime {
        let text: String
        let date: PartialDate
        let hasTime: Bool
    }

    static func dateTime(_ value: StrictJSON?, field: String) throws -> DateTime? {
        guard let text = try string(value, field: field) else { return nil }
        let shown = String(text.prefix(40))
        // Worded only when needed: every date of every entry passes through here.
        func invalid() -> FHIRFieldError {
            FHIRFieldError(field: field, reason: CalendarDate.dateReason(shown, otherwise: "'\(shown)' is not a FHIR date or dateTime"))
        }
        let halves = text.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
        guard let date = PartialDate(String(halves[0])) else { throw invalid() }
        guard halves.count == 2 else { return DateTime(text: text, date: date, hasTime: false) }
        // A time needs a full date and a zone (Z or ±hh:mm).
        guard date.day != nil else { throw invalid() }
        let rest = Substring(halves[1])
        let zoneStart = rest.firstIndex(where: { $0 == "Z" || $0 == "+" || $0 == "-" })
        guard let zoneStart else { throw invalid() }
        let clock = rest[..<zoneStart]
        let zone = rest[zoneStart...]
        let clockParts = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard clockParts.count == 3, let h = Int(clockParts[0]), let m = Int(clockParts[1]), clockParts[0].count == 2,
              clockParts[1].count == 2, (0...23).contains(h), (0...59).contains(m) else { throw invalid() }
        let seconds = clockParts[2].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard seconds[0].count == 2, let s = Int(seconds[0]), (0...60).contains(s),
              seconds.count == 1 || (!seconds[1].isEmpty && seconds[1].allSatisfy { $0.isASCII && $0.isNumber }) else { throw invalid() }
        if zone != "Z" {
            let offset = zone.dropFirst().split(separator: ":", omittingEmptySubsequences: false)
            guard offset.count == 2, offset[0].count == 2, offset[1].count == 2, let oh = Int(offset[0]), let om = Int(offset[1]),
                  (0...14).contains(oh), (0...59).contains(om) else { throw invalid() }
        }
        return DateTime(text: text, date: date, hasTime: true)
    }

    /// The instant of a dateTime with a time, or of a FHIR instant.
    /// Nil also for an instant outside `Timestamp.supportedInstants` (9999-12-31T23:00-05:00
    /// is in year 10000 in UTC).
    static func instant(_ dateTime: DateTime) -> Date? {
        guard dateTime.hasTime, CalendarDate.yearProblem(dateTime.text) == nil else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        var date = formatter.date(from: dateTime.text)
        if date == nil {
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            date = formatter.date(from: dateTime.text)
        }
        // Fractions of other lengths than milliseconds: drop them.
        if date == nil, let dot = dateTime.text.firstIndex(of: "."), let zone = dateTime.text[dot...].firstIndex(where: { "Z+-".contains($0) }) {
            formatter.formatOptions = [.withInternetDateTime]
            date = formatter.date(from: String(dateTime.text[..<dot] + dateTime.text[zone...]))
        }
        guard let date, Timestamp.supportedInstants.contains(date) else { return nil }
        return date
    }

    /// A whole number in `range` (checked before it becomes an Int, so 1e300 is refused, not a
    /// trap); nil when absent.
    static func wholeNumber(_ value: StrictJSON?, field: String, range: ClosedRange<Int>) throws -> Int? {
        guard let value else { return nil }
        guard let number = value.number, number == number.rounded(), number >= Double(range.lowerBound),
              number <= Double(range.upperBound) else {
            throw FHIRFieldError(field: field, reason: "expected a whole number from \(range.lowerBound) to \(range.upperBound), got \(value.number.map { "\($0)" } ?? value.typeName)")
        }
        return Int(number)
    }

    /// The reference string of a Reference element.
    static func reference(_ value: StrictJSON?, field: String) throws -> String? {
        guard let value else { return nil }
        guard value.object != nil else { throw FHIRFieldError(field: field, reason: "expected a Reference object, got \(value.typeName)") }
        return try string(value["reference"], field: "\(field).reference")
    }

    /// A Reference's display text.
    static func referenceDisplay(_ value: StrictJSON?, field: String) throws -> String? {
        guard let value, value.object != nil else { return nil }
        return try string(value["display"], field: "\(field).display")
    }

    /// A HumanName as people write it: text, else prefix-less given names and family.
    static func humanName(_ value: StrictJSON?) -> String? {
        guard let value else { return nil }
        if let text = value["text"]?.string, !text.isEmpty { return text }
        let given = value["given"]?.elements.compactMap(\.string) ?? []
        let parts = given + [value["family"]?.string].compactMap { $0 }
        let name = parts.joined(separator: " ").trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? nil : name
    }

    /// The name to use from a list of HumanNames: the official one, else the first.
    static func preferredName(_ names: StrictJSON?) -> String? {
        let all = names?.elements ?? []
        let official = all.first { $0["use"]?.string == "official" } ?? all.first { $0["use"]?.string == "usual" }
        return humanName(official) ?? all.lazy.compactMap(humanName).first
    }

    /// A Quantity's value and unit (the human unit, else the UCUM code).
    static func quantity(_ value: StrictJSON?, field: String) throws -> (value: Double, unit: String?)? {
        guard let value else { return nil }
        guard value.object != nil else { throw FHIRFieldError(field: field, reason: "expected a Quantity object, got \(value.typeName)") }
        guard let number = value["value"] else { return nil }
        guard let double = number.number, double.isFinite else {
            throw FHIRFieldError(field: "\(field).value", reason: "expected a number, got \(number.typeName)")
        }
        let unit = try string(value["unit"], field: "\(field).unit") ?? string(value["code"], field: "\(field).code")
        return (double, unit)
    }

    /// The texts of Annotation notes, one paragraph each.
    static func notes(_ value: StrictJSON?, field: String) throws -> String? {
        var texts: [String] = []
        for (index, note) in (value?.elements ?? []).enumerated() {
            if let text = try string(note["text"], field: "\(field)[\(index)].text") { texts.append(text) }
        }
        return texts.isEmpty ? nil : texts.joined(separator: "\n\n")
    }

    /// Business identifiers (system and value).
    static func identifiers(_ value: StrictJSON?) -> [SourceIdentifier] {
        (value?.elements ?? []).compactMap { item in
            guard let text = item["value"]?.string, !text.isEmpty else { return nil }
            return SourceIdentifier(system: item["system"]?.string, value: text)
        }
    }

    /// "1 tablet", "500 mg": a dose quantity for people.
    static func doseText(_ quantity: (value: Double, unit: String?)) -> String {
        let number = Observation.number(quantity.value)
        guard let unit = quantity.unit, unit != "1", !unit.isEmpty else { return number }
        return "\(number) \(unit)"
    }
}
