import Foundation
import Testing
@testable import PHRCore

/// RecordText: the types that list their own strings (ListsTextFields) list exactly what
/// reflection finds, in the same order and under the same paths, so the control-character rule
/// at the record stores is the same rule with or without reflection.
@Suite struct RecordTextTests {
    /// An observation with every optional set and every array filled, with a distinct string in
    /// each place.
    static let observation = Observation(
        id: "obs1", uid: "uid1", name: "Hemoglobin", category: "laboratory", status: .final, effective: "2024-01-02T08:30:00-05:00",
        valueNumber: 13.5, valueUnit: "g/dL", valueText: "thirteen and a half",
        valueCodes: [Coding(system: "value-system", code: "value-code", display: "value-display")],
        components: [Observation.Component(name: "part", codes: [Coding(system: "part-system", code: "part-code", display: "part-display")],
                                           valueNumber: 1, valueUnit: "part-unit", valueText: "part-text")],
        notes: "notes",
        codes: [Coding(system: "http://loinc.org", code: "718-7", display: "Hemoglobin [Mass/volume] in Blood"),
                Coding(system: "local", code: "HGB", display: "Hgb")],
        source: RecordSource(key: "ccda:result:id:1.2.3|4", identifiers: [SourceIdentifier(system: "urn:oid:1.2.3", value: "4")]),
        lab: LabDetails(analyte: "hemoglobin", unitUCUM: "g/dL", range: ReferenceRange(low: 12, high: 16, text: "12-16"), flag: .high,
                        panel: "Complete blood count", origin: .document, documentID: "doc1", page: 2, confidence: 0.9, reviewed: true),
        createdAt: "2026-01-01T00:00:00Z", updatedAt: "2026-01-02T00:00:00Z")

    /// "path=text" for every string, as the check visits them.
    static func strings(_ value: Any, reflectingOnly: Bool) throws -> [String] {
        var found: [String] = []
        try RecordText.forEach(in: value, path: "", reflectingOnly: reflectingOnly) { text, path in found.append("\(path.text)=\(text)") }
        return found
    }

    /// Paths of the optionals that are nil and the arrays that are empty anywhere in `value`:
    /// a sample with none compares every field, including one added later.
    static func unfilled(_ value: Any, _ path: String = "") -> [String] {
        if value is String { return [] }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first else { return [path] }
            return unfilled(wrapped.value, path)
        case .collection, .set, .dictionary:
            if mirror.children.isEmpty { return [path] }
            return mirror.children.enumerated().flatMap { index, child in unfilled(child.value, "\(path)[\(index)]") }
        case .struct, .class, .tuple:
            return mirror.children.flatMap { child in unfilled(child.value, path + "." + (child.label ?? "")) }
        default:
            return []
        }
    }

    @Test func theSampleFillsEveryField() {
        #expect(Self.unfilled(Self.observation) == [])
    }

    @Test func listedStringsAreTheReflectedOnes() throws {
        let listed = try Self.strings(Self.observation, reflectingOnly: false)
        #expect(listed == (try Self.strings(Self.observation, reflectingOnly: true)))
        #expect(listed.count == 33)
        #expect(listed.contains("components[0].codes[0].display=part-display"))
        #expect(listed.contains("lab.range.text=12-16"))
        #expect(listed.contains("source.identifiers[0].value=4"))
        // Nested in a type that is reflected on, under a field name of its own.
        struct Holder { var observations: [Observation]; var count: Int }
        let holder = Holder(observations: [Self.observation], count: 1)
        #expect(try Self.strings(holder, reflectingOnly: false) == (try Self.strings(holder, reflectingOnly: true)))
    }

    @Test func theFirstBadStringIsNamedByItsPath() {
        for (path, change) in [("notes", { (o: inout Observation) in o.notes = "a\u{1b}[2J" }),
                               ("components[0].codes[0].display", { $0.components[0].codes[0].display = "b\u{9b}" }),
                               ("lab.range.text", { $0.lab?.range?.text = "12\r16" }),
                               ("source.identifiers[0].system", { $0.source?.identifiers[0].system = "\u{7f}" })] as [(String, (inout Observation) -> Void)] {
            var observation = Self.observation
            change(&observation)
            #expect(throws: RecordError.invalidField(field: Field.path(path), reason: "contains control characters (such as a terminal escape sequence)")) {
                try RecordFields.refuseControlCharacters(inStringsOf: observation)
            }
        }
        #expect(throws: Never.self) { try RecordFields.refuseControlCharacters(inStringsOf: Self.observation) }
    }

    /// The byte-level test says what the general category says, for every scalar of the Latin-1
    /// range and beyond, alone and between other text.
    @Test func controlCharactersAreUnicodesCc() {
        for value in Array(0...0x3FF) + [0x2028, 0x2029, 0xFEFF, 0xFFFD, 0x1F600] {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let control = scalar.properties.generalCategory == .control && scalar != "\n" && scalar != "\t"
            #expect(RecordFields.containsControlCharacters("é\(scalar)x") == control, "U+\(String(value, radix: 16))")
        }
        #expect(RecordFields.containsControlCharacters("a\r\nb") == false)
        #expect(RecordFields.containsControlCharacters("a\rb") == true)
        #expect(RecordFields.containsControlCharacters("a\r") == true)
        #expect(RecordFields.containsControlCharacters("") == false)
    }
}
