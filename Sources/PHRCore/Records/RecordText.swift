import Foundation

/// Every string inside a record, with the path that names it (`codes[0].display`): what
/// `RecordFields.refuseControlCharacters(inStringsOf:)` checks before a row is written.
///
/// Reflection (Mirror) finds the strings of any value, so the rule holds for every record kind
/// without a list to keep up to date. It is also slow: for each field of each value the runtime
/// decodes the field's type from its mangled name, and writing the 5,480 observations of a
/// 5 MB C-CDA document spent nearly a fifth of `phr import` there. So the types that imports
/// write by the thousand list their own strings (`ListsTextFields`), in declaration order and
/// under the paths reflection gives; RecordTextTests checks each against reflection with every
/// field filled, so a field added later cannot be left out. Every other type is reflected on.
enum RecordText {
    /// Where a string is: kept as steps and worded only for a string that fails.
    indirect enum Path {
        case root(String)
        case field(Path, String)
        case element(Path, Int)

        /// "codes[0].display"; "" at the top of a record.
        var text: String {
            switch self {
            case .root(let name):
                return name
            case .field(let parent, let label):
                let prefix = parent.text
                return prefix.isEmpty ? label : "\(prefix).\(label)"
            case .element(let parent, let index):
                return "\(parent.text)[\(index)]"
            }
        }
    }

    /// Gets each string and where it is.
    typealias Visitor = (_ text: String, _ path: Path) throws -> Void

    /// Calls `body` with every string in `value`, in declaration order. `reflectingOnly`
    /// ignores the types' own lists (for the test that compares the two).
    static func forEach(in value: Any, path: String, reflectingOnly: Bool = false, _ body: Visitor) throws {
        try visit(value, .root(path), reflectingOnly: reflectingOnly, body)
    }

    private static func visit(_ value: Any, _ path: Path, reflectingOnly: Bool, _ body: Visitor) throws {
        if let text = value as? String {
            try body(text, path)
            return
        }
        if holdsNoText(type(of: value)) { return }
        if !reflectingOnly, let listing = value as? any ListsTextFields {
            try listing.forEachText(path, body)
            return
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            if let wrapped = mirror.children.first { try visit(wrapped.value, path, reflectingOnly: reflectingOnly, body) }
        case .collection, .set:
            for (index, child) in mirror.children.enumerated() {
                try visit(child.value, .element(path, index), reflectingOnly: reflectingOnly, body)
            }
        case .dictionary:
            for child in mirror.children {
                let pair = Mirror(reflecting: child.value).children.map(\.value)
                for part in pair { try visit(part, path, reflectingOnly: reflectingOnly, body) }
            }
        case .struct, .class, .enum, .tuple:
            for child in mirror.children {
                try visit(child.value, child.label.map { .field(path, $0) } ?? path, reflectingOnly: reflectingOnly, body)
            }
        default:
            return
        }
    }

    /// Numbers and flags, which records hold many of: nothing in them to check.
    private static func holdsNoText(_ type: Any.Type) -> Bool {
        type == Int.self || type == Double.self || type == Bool.self || type == Int64.self
            || type == Int?.self || type == Double?.self || type == Bool?.self || type == Int64?.self
    }

    /// A string field, if it is set.
    static func string(_ text: String?, _ parent: Path, _ label: String, _ body: Visitor) throws {
        if let text { try body(text, .field(parent, label)) }
    }

    /// A field holding a value that lists its own strings, if it is set.
    static func value(_ value: (some ListsTextFields)?, _ parent: Path, _ label: String, _ body: Visitor) throws {
        try value?.forEachText(.field(parent, label), body)
    }

    /// An array field of values that list their own strings, if it is set.
    static func array(_ items: [some ListsTextFields]?, _ parent: Path, _ label: String, _ body: Visitor) throws {
        guard let items, !items.isEmpty else { return }
        let field = Path.field(parent, label)
        for (index, item) in items.enumerated() { try item.forEachText(.element(field, index), body) }
    }
}

/// A value that hands its strings to `RecordText` itself, instead of being reflected on: every
/// `String` stored property (optional or not) and every stored value that holds strings, in
/// declaration order, named by the property.
protocol ListsTextFields {
    func forEachText(_ path: RecordText.Path, _ body: RecordText.Visitor) throws
}

extension Coding: ListsTextFields {
    func forEachText(_ path: RecordText.Path, _ body: RecordText.Visitor) throws {
        try RecordText.string(system, path, "system", body)
        try RecordText.string(code, path, "code", body)
        try RecordText.string(display, path, "display", body)
    }
}

extension SourceIdentifier: ListsTextFields {
    func forEachText(_ path: RecordText.Path, _ body: RecordText.Visitor) throws {
        try RecordText.string(system, path, "system", body)
        try RecordText.string(value, path, "value", body)
    }
}

extension RecordSource: ListsTextFields {
    func forEachText(_ path: RecordText.Path, _ body: RecordText.Visitor) throws {
        try RecordText.string(key, path, "key", body)
        try RecordText.array(identifiers, path, "identifiers", body)
    }
}

extension ReferenceRange: ListsTextFields {
    func forEachText(_ path: RecordText.Path, _ body: RecordText.Visitor) throws {
        try RecordText.string(text, path, "text", body)
    }
}

extension LabDetails: ListsTextFields {
    /// `flag` and `origin` are enums without payloads: no strings, as reflection sees them.
    func forEachText(_ path: RecordText.Path, _ body: RecordText.Visitor) throws {
        try RecordText.string(analyte, path, "analyte", body)
        try RecordText.string(unitUCUM, path, "unitUCUM", body)
        try RecordText.value(range, path, "range", body)
        try RecordText.string(panel, path, "panel", body)
        try RecordText.string(documentID, path, "documentID", body)
    }
}

extension Observation.Component: ListsTextFields {
    func forEachText(_ path: RecordText.Path, _ body: RecordText.Visitor) throws {
        try RecordText.string(name, path, "name", body)
        try RecordText.array(codes, path, "codes", body)
        try RecordText.string(valueUnit, path, "valueUnit", body)
        try RecordText.string(valueText, path, "valueText", body)
    }
}

extension Observation: ListsTextFields {
    /// `status` is an enum without a payload: no strings, as reflection sees it.
    func forEachText(_ path: RecordText.Path, _ body: RecordText.Visitor) throws {
        try RecordText.string(id, path, "id", body)
        try RecordText.string(uid, path, "uid", body)
        try RecordText.string(name, path, "name", body)
        try RecordText.string(category, path, "category", body)
        try RecordText.string(effective, path, "effective", body)
        try RecordText.string(valueUnit, path, "valueUnit", body)
        try RecordText.string(valueText, path, "valueText", body)
        try RecordText.array(valueCodes, path, "valueCodes", body)
        try RecordText.array(components, path, "components", body)
        try RecordText.string(notes, path, "notes", body)
        try RecordText.array(codes, path, "codes", body)
        try RecordText.value(source, path, "source", body)
        try RecordText.value(lab, path, "lab", body)
        try RecordText.string(createdAt, path, "createdAt", body)
        try RecordText.string(updatedAt, path, "updatedAt", body)
    }
}
