import Foundation

/// A measurement or result (FHIR Observation): a lab value, a vital sign, a blood group.
/// Imported from FHIR; the health log (a later feature) records the user's own measurements.
public struct Observation: Codable, Sendable, Equatable {
    /// A part of a compound observation (systolic and diastolic of a blood pressure).
    public struct Component: Codable, Sendable, Equatable {
        public var name: String
        public var codes: [Coding]
        public var valueNumber: Double?
        public var valueUnit: String?
        public var valueText: String?

        enum CodingKeys: String, CodingKey {
            case name, codes
            case valueNumber = "value_number"
            case valueUnit = "value_unit"
            case valueText = "value_text"
        }

        public init(name: String, codes: [Coding], valueNumber: Double?, valueUnit: String?, valueText: String?) {
            self.name = name
            self.codes = codes
            self.valueNumber = valueNumber
            self.valueUnit = valueUnit
            self.valueText = valueText
        }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            name = try c.decode(String.self, forKey: .name)
            codes = try c.decodeIfPresent([Coding].self, forKey: .codes) ?? []
            valueNumber = try c.decodeIfPresent(Double.self, forKey: .valueNumber)
            valueUnit = try c.decodeIfPresent(String.self, forKey: .valueUnit)
            valueText = try c.decodeIfPresent(String.self, forKey: .valueText)
        }
    }

    public enum Status: String, RecordChoice {
        case registered, preliminary, final, amended, corrected, unknown
    }

    public var id: String
    public var uid: String
    public var name: String
    /// laboratory, vital-signs, social-history... (FHIR category code)
    public var category: String?
    public var status: Status
    /// When, as the source gave it (a FHIR date or dateTime with its offset).
    public var effective: String?
    public var valueNumber: Double?
    public var valueUnit: String?
    public var valueText: String?
    /// A coded value (a blood group, "Positive") with its codings.
    public var valueCodes: [Coding]?
    public var components: [Component]
    public var notes: String?
    public var codes: [Coding]
    public var source: RecordSource?
    /// Reference range, flag, UCUM unit, provenance and review of a lab result (Labs/).
    public var lab: LabDetails?
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, uid, name, category, status, effective
        case valueNumber = "value_number"
        case valueUnit = "value_unit"
        case valueText = "value_text"
        case valueCodes = "value_codes"
        case components, notes, codes, source, lab
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// "177.9 cm", "Blood group A Rh(D) positive", "127/86 mm[Hg]".
    public var valueDescription: String {
        if let valueNumber {
            return [Self.number(valueNumber), valueUnit].compactMap { $0 }.joined(separator: " ")
        }
        if let valueText { return valueText }
        let parts = components.map { component -> String in
            let value = component.valueNumber.map(Self.number) ?? component.valueText ?? "?"
            return "\(component.name) \(value)\(component.valueUnit.map { " \($0)" } ?? "")"
        }
        return parts.joined(separator: ", ")
    }

    /// Up to two decimals, no trailing zeros: 177.94489 → "177.94", 7.5 → "7.5", 72.0 → "72".
    ///
    /// C's `%.2f` (what `String(format:)` hands its `%f` to, without the CFString around it: an
    /// import describes every value for the search index); phr never changes the C locale, so
    /// the decimal point is a point.
    public static func number(_ value: Double) -> String {
        var buffer = [CChar](repeating: 0, count: 400)
        let count = withVaList([value]) { vsnprintf(&buffer, buffer.count, "%.2f", $0) }
        var text = count > 0 && count < buffer.count ? String(decoding: buffer[..<Int(count)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : String(format: "%.2f", value)
        while text.contains("."), text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    public init(id: String, uid: String, name: String, category: String?, status: Status, effective: String?, valueNumber: Double?,
                valueUnit: String?, valueText: String?, valueCodes: [Coding]?, components: [Component], notes: String?,
                codes: [Coding], source: RecordSource?, lab: LabDetails? = nil, createdAt: String, updatedAt: String) {
        self.id = id
        self.uid = uid
        self.name = name
        self.category = category
        self.status = status
        self.effective = effective
        self.valueNumber = valueNumber
        self.valueUnit = valueUnit
        self.valueText = valueText
        self.valueCodes = valueCodes
        self.components = components
        self.notes = notes
        self.codes = codes
        self.source = source
        self.lab = lab
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

}
