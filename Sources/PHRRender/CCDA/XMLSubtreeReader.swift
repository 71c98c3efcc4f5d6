import CPHRXML
import PHRModel

/// An element of the XML, kept only where the C-CDA reader needs one: the header's parts and
/// each section's entries. Names are local names in the CDA namespace; an element or attribute
/// of another namespace is named "{namespace}name", so it never passes for a CDA one, except
/// xsi:type, kept as "xsi:type".
final class XMLElementNode {
    let name: String
    var attributes: [String: String] = [:]
    var children: [XMLElementNode] = []
    var text = ""

    init(name: String) {
        self.name = name
    }

    subscript(attribute: String) -> String? { attributes[attribute] }

    func first(_ name: String) -> XMLElementNode? { children.first { $0.name == name } }

    func all(_ name: String) -> [XMLElementNode] { children.filter { $0.name == name } }

    /// The first element along a path of child names.
    func path(_ names: String...) -> XMLElementNode? {
        var node: XMLElementNode? = self
        for name in names { node = node?.first(name) }
        return node
    }

    /// templateId roots.
    var templates: [String] { all("templateId").compactMap { $0["root"] } }

    func hasTemplate(_ root: String) -> Bool { templates.contains(root) }

    /// The first element named `name` in this subtree, depth first (this one included).
    func find(_ name: String, where test: (XMLElementNode) -> Bool = { _ in true }) -> XMLElementNode? {
        if self.name == name && test(self) { return self }
        for child in children {
            if let found = child.find(name, where: test) { return found }
        }
        return nil
    }

    /// All text of the subtree, whitespace collapsed; nil when there is none.
    var flatText: String? {
        var parts: [String] = []
        func collect(_ node: XMLElementNode) {
            parts.append(node.text)
            node.children.forEach(collect)
        }
        collect(self)
        let words = parts.joined(separator: " ").split(whereSeparator: { $0.isWhitespace })
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    /// xsi:type without a namespace prefix ("PQ").
    var xsiType: String? { self["xsi:type"].map { String($0.split(separator: ":").last ?? "") } }
}

/// Reads XML with libxml2's SAX2 push parser and hands over the subtrees a `Receiver` asks for,
/// so that a large document is never held whole.
///
/// Safe by construction for hostile input: no DTD is loaded (no XML_PARSE_DTDLOAD), nothing
/// comes from the network (XML_PARSE_NONET) and the external-entity loader refuses everything;
/// entities are never stored, so no reference can expand (no XML_PARSE_NOENT, and the
/// `getEntity` callback knows none), and a document that declares any entity is refused at
/// the declaration, before its body is read. libxml2's own limits stay on (no XML_PARSE_HUGE),
/// and `maximumDepth` and `maximumElements` bound the rest.
/// https://gnome.pages.gitlab.gnome.org/libxml2/devhelp/libxml2-parser.html
final class XMLSubtreeReader {
    static let cdaNamespace = "urn:hl7-org:v3"
    static let xsiNamespace = "http://www.w3.org/2001/XMLSchema-instance"

    /// What the reader asks of its user while parsing.
    protocol Receiver: AnyObject {
        /// The root element's name and namespace; a refusal stops the parse.
        func root(name: String, namespace: String?) -> CCDARefusal?
        /// Whether the element with this name, whose open ancestors are `path` (root first),
        /// starts a subtree to keep. Called only outside kept subtrees.
        func keeps(_ name: String, path: [String]) -> Bool
        /// An element that is not kept opened or closed (sections, bodies).
        func opened(_ name: String, path: [String])
        func closed(_ name: String, path: [String])
        /// A kept subtree, complete.
        func subtree(_ node: XMLElementNode, path: [String])
    }

    let maximumDepth: Int
    let maximumElements: Int
    private unowned let receiver: Receiver
    private var context: xmlParserCtxtPtr?
    private var path: [String] = []
    private var kept: [XMLElementNode] = []
    private var elements = 0
    private(set) var refusal: CCDARefusal?
    private var firstError: (line: Int, message: String)?

    init(receiver: Receiver, maximumDepth: Int, maximumElements: Int) {
        self.receiver = receiver
        self.maximumDepth = maximumDepth
        self.maximumElements = maximumElements
    }

    /// Parses what `read` gives (chunks until an empty one) and returns the refusal, if any.
    func parse(_ read: () throws -> [UInt8]) throws -> CCDARefusal? {
        xmlInitParser()
        xmlSetExternalEntityLoader { _, _, _ in nil }
        var handler = xmlSAXHandler()
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        handler.startElementNs = { context, localname, _, uri, _, _, count, _, attributes in
            XMLSubtreeReader.from(context).start(localname, uri, Int(count), attributes)
        }
        handler.endElementNs = { context, _, _, _ in XMLSubtreeReader.from(context).end() }
        handler.characters = { context, characters, length in XMLSubtreeReader.from(context).characters(characters, length) }
        handler.cdataBlock = { context, characters, length in XMLSubtreeReader.from(context).characters(characters, length) }
        handler.entityDecl = { context, _, _, _, _, _ in XMLSubtreeReader.from(context).stop(.entities) }
        handler.getEntity = { _, _ in nil }
        handler.getParameterEntity = { _, _ in nil }
        handler.resolveEntity = { _, _, _ in nil }
        handler.serror = { context, error in
            guard let context, let error else { return }
            let reader = Unmanaged<XMLSubtreeReader>.fromOpaque(context).takeUnretainedValue()
            if reader.firstError == nil, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue {
                let message = error.pointee.message.map { String(cString: $0) } ?? "unreadable"
                reader.firstError = (Int(error.pointee.line), String(message.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ").prefix(200)))
            }
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard let context = xmlCreatePushParserCtxt(&handler, me, nil, 0, nil) else {
            return .malformed(line: 0, message: "libxml2 could not start")
        }
        self.context = context
        defer {
            xmlFreeParserCtxt(context)
            self.context = nil
        }
        _ = xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue))
        while refusal == nil {
            let chunk = try read()
            let status: Int32
            if chunk.isEmpty {
                status = xmlParseChunk(context, nil, 0, 1)
            } else {
                status = chunk.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { xmlParseChunk(context, $0.baseAddress, Int32($0.count), 0) }
                }
            }
            if refusal != nil { break }
            if status != 0 || context.pointee.wellFormed == 0 {
                let error = firstError ?? (Int(context.pointee.input?.pointee.line ?? 0), "not well-formed XML")
                return .malformed(line: error.line, message: error.message)
            }
            if chunk.isEmpty { break }
        }
        if refusal == nil && path.isEmpty && elements == 0 {
            return .malformed(line: 0, message: "no root element")
        }
        return refusal
    }

    private static func from(_ context: UnsafeMutableRawPointer?) -> XMLSubtreeReader {
        Unmanaged<XMLSubtreeReader>.fromOpaque(context!).takeUnretainedValue()
    }

    private func stop(_ reason: CCDARefusal) {
        if refusal == nil { refusal = reason }
        if let context { xmlStopParser(context) }
    }

    private static func string(_ pointer: UnsafePointer<xmlChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    private static func name(_ local: String, namespace: String?) -> String {
        namespace == cdaNamespace ? local : "{\(namespace ?? "")}\(local)"
    }

    private func start(_ localname: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?, _ count: Int,
                       _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
        guard refusal == nil else { return }
        elements += 1
        guard elements <= maximumElements else { return stop(.tooLarge(reason: "more than \(maximumElements) elements")) }
        guard path.count < maximumDepth else { return stop(.tooDeep(limit: maximumDepth)) }
        let local = Self.string(localname) ?? ""
        let namespace = Self.string(uri)
        let name = Self.name(local, namespace: namespace)
        if path.isEmpty, let refused = receiver.root(name: local, namespace: namespace) { return stop(refused) }
        if kept.isEmpty && !receiver.keeps(name, path: path) {
            receiver.opened(name, path: path)
            path.append(name)
            return
        }
        let node = XMLElementNode(name: name)
        if let attributes {
            // Five pointers an attribute: local name, prefix, URI, value start, value end.
            for index in 0..<count {
                let base = index * 5
                guard let attributeName = Self.string(attributes[base]), let start = attributes[base + 3],
                      let end = attributes[base + 4] else { continue }
                let attributeURI = Self.string(attributes[base + 2])
                let key = attributeURI == nil ? attributeName
                    : attributeURI == Self.xsiNamespace ? "xsi:\(attributeName)" : "{\(attributeURI!)}\(attributeName)"
                let length = start.distance(to: end)
                let value = String(decoding: UnsafeBufferPointer(start: start, count: max(0, length)), as: UTF8.self)
                node.attributes[key] = value
            }
        }
        kept.last?.children.append(node)
        kept.append(node)
        path.append(name)
    }

    private func end() {
        guard refusal == nil, let name = path.popLast() else { return }
        if let node = kept.popLast() {
            if kept.isEmpty { receiver.subtree(node, path: path) }
        } else {
            receiver.closed(name, path: path)
        }
    }

    private func characters(_ characters: UnsafePointer<xmlChar>?, _ length: Int32) {
        guard refusal == nil, let node = kept.last, let characters, length > 0 else { return }
        node.text += String(decoding: UnsafeBufferPointer(start: characters, count: Int(length)), as: UTF8.self)
    }
}
