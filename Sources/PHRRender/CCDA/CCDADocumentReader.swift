import Foundation
import PHRModel

/// Reads a C-CDA document (R2.1, and R1.1 where it differs) into a `CCDADocument`: the header
/// (document type, id, patient) and the entries of the sections phr keeps. Sections are told
/// by their templateId, or by their LOINC code when a template is missing; every other section
/// is reported as skipped with its entry count, so nothing is left out silently.
///
/// C-CDA's structure: HL7 CDA R2 with the C-CDA R2.1 templates (US Realm Header
/// 2.16.840.1.113883.10.20.22.1.1, sections 2.16.840.1.113883.10.20.22.2.*, entries
/// 2.16.840.1.113883.10.20.22.4.*), as in HL7's C-CDA-Examples.
final class CCDADocumentReader: XMLSubtreeReader.Receiver {
    static let maximumDepth = 80
    static let maximumElements = 4_000_000

    enum SectionKind: String {
        case medications, allergies, problems, immunizations, results, vitalSigns, encounters, procedures, familyHistory, socialHistory
        case medicalEquipment, advanceDirectives

        var entryKind: CCDAEntry.Kind {
            switch self {
            case .medications: return .medication
            case .allergies: return .allergy
            case .problems: return .problem
            case .immunizations: return .immunization
            case .results: return .result
            case .vitalSigns: return .vitalSign
            case .encounters: return .encounter
            case .procedures: return .procedure
            case .familyHistory: return .familyHistory
            case .socialHistory: return .socialHistory
            case .medicalEquipment: return .device
            case .advanceDirectives: return .advanceDirective
            }
        }

        /// Section templateId roots (R2.1's "entries required" and "entries optional" variants).
        static func from(templates: [String], code: String?) -> SectionKind? {
            let prefix = "2.16.840.1.113883.10.20.22.2."
            for template in templates where template.hasPrefix(prefix) {
                switch String(template.dropFirst(prefix.count)) {
                case "1", "1.1", "11", "11.1", "44", "44.1", "38": return .medications
                case "6", "6.1": return .allergies
                case "5", "5.1", "20", "24", "24.1": return .problems
                case "2", "2.1": return .immunizations
                case "3", "3.1": return .results
                case "4", "4.1": return .vitalSigns
                case "22", "22.1": return .encounters
                case "7", "7.1": return .procedures
                case "15": return .familyHistory
                case "17": return .socialHistory
                case "23": return .medicalEquipment
                case "21", "21.1": return .advanceDirectives
                default: continue
                }
            }
            switch code {
            case "10160-0", "10183-2", "42346-7", "29549-3": return .medications
            case "48765-2": return .allergies
            case "11450-4", "11535-2", "11348-0", "46665-6": return .problems
            case "11369-6": return .immunizations
            case "30954-2": return .results
            case "8716-3": return .vitalSigns
            case "46240-8": return .encounters
            case "47519-4": return .procedures
            case "10157-6": return .familyHistory
            case "29762-2": return .socialHistory
            case "46264-8": return .medicalEquipment
            case "42348-3": return .advanceDirectives
            default: return nil
            }
        }
    }

    /// A section being read: what it is (known once its templateId and code are read, which the
    /// schema puts before its entries) and its place.
    private struct OpenSection {
        var index: Int
        var templates: [String] = []
        var code: CCDACode?
        var title: String?
        var entries = 0
        var kind: SectionKind? { SectionKind.from(templates: templates, code: code?.code) }
        var label: String { title ?? code?.display ?? "section" }
    }

    private(set) var document = CCDADocument()
    private var sections: [OpenSection] = []
    private var sectionCount = 0
    private var unstructured = false
    private let entry: (CCDAEntry) -> Void

    private init(entry: @escaping (CCDAEntry) -> Void) {
        self.entry = entry
    }

    /// Reads the document `read` gives in chunks, handing each entry to `entry` as soon as it is
    /// read; the result's document has the rest (header, patient, skipped sections) and no
    /// entries.
    static func read(_ read: () throws -> [UInt8], entry: @escaping (CCDAEntry) -> Void) throws -> CCDAReadResult {
        let reader = CCDADocumentReader(entry: entry)
        let parser = XMLSubtreeReader(receiver: reader, maximumDepth: maximumDepth, maximumElements: maximumElements)
        if let refusal = try parser.parse(read) { return .refused(refusal) }
        if reader.unstructured && reader.sectionCount == 0 { return .refused(.unstructured) }
        return .document(reader.document)
    }

    func root(name: String, namespace: String?) -> CCDARefusal? {
        name == "ClinicalDocument" && namespace == XMLSubtreeReader.cdaNamespace ? nil : .notCDA(root: name, namespace: namespace)
    }

    func keeps(_ name: String, path: [String]) -> Bool {
        if path.count == 1 { return name != "component" }
        if path.last == "section" { return ["templateId", "code", "title", "entry"].contains(name) }
        return false
    }

    func opened(_ name: String, path: [String]) {
        if name == "section" {
            sections.append(OpenSection(index: sectionCount))
            sectionCount += 1
        } else if name == "nonXMLBody" {
            unstructured = true
        }
    }

    func closed(_ name: String, path: [String]) {
        guard name == "section", let section = sections.popLast() else { return }
        if section.kind == nil {
            let code = section.code?.code.map { " (LOINC \($0))" } ?? ""
            let what = section.entries == 0 ? "" : section.entries == 1 ? "; its 1 entry is not imported" : "; its \(section.entries) entries are not imported"
            document.skipped.append(CCDASkip(location: "section[\(section.index)]", type: "\(section.label) section",
                                             reason: "phr does not keep this section\(code)\(what)"))
        }
    }

    func subtree(_ node: XMLElementNode, path: [String]) {
        if path.count == 1 {
            header(node)
            return
        }
        guard !sections.isEmpty else { return }
        switch node.name {
        case "templateId":
            if let root = node["root"] { sections[sections.count - 1].templates.append(root) }
        case "code":
            sections[sections.count - 1].code = CCDAStatements.code(node)
        case "title":
            sections[sections.count - 1].title = node.flatText
        case "entry":
            let section = sections[sections.count - 1]
            sections[sections.count - 1].entries += 1
            guard let kind = section.kind else { return }
            let location = "section[\(section.index)] entry[\(section.entries)]"
            let statements = CCDAStatements(location: location)
            let (entries, skip) = statements.read(node, kind: kind)
            entries.forEach(entry)
            if let skip { document.skipped.append(CCDASkip(location: location, type: "\(section.label) entry", reason: skip)) }
        default:
            break
        }
    }

    private func header(_ node: XMLElementNode) {
        switch node.name {
        case "templateId":
            if let root = node["root"] { document.templates.append(node["extension"].map { "\(root):\($0)" } ?? root) }
        case "id":
            if let root = node["root"] { document.id = CCDAIdentifier(root: root, extension: node["extension"]) }
        case "code":
            document.code = CCDAStatements.code(node)
        case "title":
            document.title = node.flatText
        case "effectiveTime":
            document.effectiveTime = node["value"]
        case "recordTarget":
            guard document.patient == nil, let role = node.first("patientRole") else { return }
            let patient = role.first("patient")
            let names = patient?.all("name") ?? []
            let legal = names.first { ($0["use"] ?? "").split(separator: " ").contains("L") } ?? names.first
            document.patient = CCDAPatient(
                name: legal.flatMap(CCDAStatements.personName), birthTime: patient?.first("birthTime")?["value"],
                gender: patient?.first("administrativeGenderCode")?["code"],
                identifiers: role.all("id").compactMap(CCDAStatements.identifier))
        default:
            break
        }
    }
}
