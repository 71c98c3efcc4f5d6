import Foundation
import PHRModel
import Testing
@testable import PHRRender

/// The streaming XML reader under the C-CDA import, on documents written here: the subtrees a
/// receiver asks for arrive whole (attributes, namespaces, text and CDATA), in any chunking;
/// entities, depth, element counts and malformed XML stop the parse with a refusal.
@Suite struct XMLSubtreeReaderTests {
    /// A receiver that keeps the elements named in `keep` and notes everything it is told.
    final class Recorder: XMLSubtreeReader.Receiver {
        let keep: Set<String>
        var rootRefusal: CCDARefusal?
        var roots: [String] = []
        /// "open NAME @ PATH", "close NAME @ PATH", "keep NAME @ PATH", in order.
        var events: [String] = []
        var subtrees: [XMLElementNode] = []

        init(keep: Set<String>) { self.keep = keep }

        func root(name: String, namespace: String?) -> CCDARefusal? {
            roots.append("\(name) in \(namespace ?? "no namespace")")
            return rootRefusal
        }

        func keeps(_ name: String, path: [String]) -> Bool { keep.contains(name) }

        func opened(_ name: String, path: [String]) { events.append("open \(name) @ \(path.joined(separator: "/"))") }

        func closed(_ name: String, path: [String]) { events.append("close \(name) @ \(path.joined(separator: "/"))") }

        func subtree(_ node: XMLElementNode, path: [String]) {
            subtrees.append(node)
            events.append("keep \(node.name) @ \(path.joined(separator: "/"))")
        }
    }

    /// Parses `xml` in chunks of `chunk` bytes; the refusal and what the receiver was told.
    static func read(_ xml: String, chunk: Int = 1 << 16, keep: Set<String> = ["entry"], rootRefusal: CCDARefusal? = nil,
                     maximumDepth: Int = 64, maximumElements: Int = 10_000) throws -> (refusal: CCDARefusal?, recorder: Recorder) {
        let bytes = Array(xml.utf8)
        var offset = 0
        let recorder = Recorder(keep: keep)
        recorder.rootRefusal = rootRefusal
        let reader = XMLSubtreeReader(receiver: recorder, maximumDepth: maximumDepth, maximumElements: maximumElements)
        let refusal = try reader.parse {
            let next = Array(bytes[offset..<min(bytes.count, offset + chunk)])
            offset += next.count
            return next
        }
        return (refusal, recorder)
    }

    /// A node and its subtree as one line: name, sorted attributes, text, children.
    static func describe(_ node: XMLElementNode) -> String {
        let attributes = node.attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        return "\(node.name)[\(attributes)]'\(node.text)'(" + node.children.map(describe).joined(separator: " ") + ")"
    }

    static let document = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ClinicalDocument xmlns="urn:hl7-org:v3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:sdtc="urn:hl7-org:sdtc">
         <title>Continuity of Care</title>
         <component><structuredBody><component><section>
          <templateId root="2.16.840.1.113883.10.20.22.2.6.1" extension="2015-08-01"/>
          <entry typeCode="DRIV"><act classCode="ACT">
           <value xsi:type="CD" code="91936005"/>
           <sdtc:precondition sdtc:kind="x"/>
           <text>Peni<![CDATA[cillin <allergy>]]>
             and   rash</text>
          </act></entry>
          <entry><observation/></entry>
          <title xmlns="">not the CDA title</title>
         </section></component></structuredBody></component>
        </ClinicalDocument>
        """

    @Test func keptSubtreesArriveWholeWithTheirPath() throws {
        let (refusal, recorder) = try Self.read(Self.document, keep: ["title", "entry"])
        #expect(refusal == nil)
        #expect(recorder.roots == ["ClinicalDocument in urn:hl7-org:v3"])
        let section = "ClinicalDocument/component/structuredBody/component/section"
        #expect(recorder.events.filter { $0.hasPrefix("keep") } == ["keep title @ ClinicalDocument", "keep entry @ \(section)",
                                                                      "keep entry @ \(section)"])
        // What is not kept is only opened and closed, outermost first and last.
        #expect(recorder.events.first == "open ClinicalDocument @ " && recorder.events.last == "close ClinicalDocument @ ")
        #expect(recorder.events.contains("open section @ ClinicalDocument/component/structuredBody/component"))
        #expect(recorder.events.contains("open templateId @ \(section)") && recorder.events.contains("close templateId @ \(section)"))

        let entry = try #require(recorder.subtrees.dropFirst().first)
        #expect(entry["typeCode"] == "DRIV")
        let act = try #require(entry.path("act"))
        #expect(act["classCode"] == "ACT")
        let value = try #require(entry.find("value"))
        #expect(value["xsi:type"] == "CD" && value.xsiType == "CD" && value["code"] == "91936005")
        // Another namespace's element and attribute never pass for CDA ones.
        #expect(act.first("precondition") == nil)
        #expect(act.first("{urn:hl7-org:sdtc}precondition")?["{urn:hl7-org:sdtc}kind"] == "x")
        // Text and CDATA join in order; flatText folds the white space.
        #expect(act.first("text")?.text == "Penicillin <allergy>\n     and   rash")
        #expect(entry.flatText == "Penicillin <allergy> and rash")
        #expect(recorder.subtrees.last?.flatText == nil, "an entry with no text has none")
        #expect(recorder.subtrees.first?.flatText == "Continuity of Care")
    }

    /// An element in no namespace inside a CDA document is "{}name": never the CDA element of
    /// that name, so it is not kept as one.
    @Test func anElementInNoNamespaceIsNotTheCDAOne() throws {
        let (_, recorder) = try Self.read(Self.document, keep: ["title"])
        #expect(recorder.subtrees.map(\.name) == ["title"])
        #expect(recorder.events.contains("open {}title @ ClinicalDocument/component/structuredBody/component/section"))
    }

    @Test(arguments: [1, 7, 100])
    func anyChunkingGivesTheSameSubtrees(chunk: Int) throws {
        let whole = try Self.read(Self.document, keep: ["title", "entry"]).recorder
        let chunked = try Self.read(Self.document, chunk: chunk, keep: ["title", "entry"]).recorder
        #expect(chunked.subtrees.map(Self.describe) == whole.subtrees.map(Self.describe))
        #expect(chunked.events == whole.events)
    }

    /// The receiver's answer to the root stops the parse: nothing after it is handed over.
    @Test func aRootTheReceiverRefusesStopsTheParse() throws {
        let (refusal, recorder) = try Self.read("<HealthData><entry/></HealthData>", rootRefusal: .notCDA(root: "HealthData", namespace: nil))
        #expect(refusal == .notCDA(root: "HealthData", namespace: nil))
        #expect(recorder.roots == ["HealthData in no namespace"] && recorder.events.isEmpty && recorder.subtrees.isEmpty)
    }

    /// A document that declares any entity is refused at the declaration: no expansion, no
    /// external file read, nothing of its body handed over.
    @Test(arguments: [
        "<!DOCTYPE ClinicalDocument [<!ENTITY lol \"lol\"><!ENTITY lol2 \"&lol;&lol;&lol;&lol;\">]>",
        "<!DOCTYPE ClinicalDocument [<!ENTITY passwd SYSTEM \"file:///etc/passwd\">]>",
    ])
    func entityDeclarationsAreRefused(declaration: String) throws {
        let xml = "<?xml version=\"1.0\"?>\n\(declaration)\n<ClinicalDocument xmlns=\"urn:hl7-org:v3\"><entry>&lol2;&passwd;</entry></ClinicalDocument>"
        let (refusal, recorder) = try Self.read(xml)
        #expect(refusal == .entities)
        #expect(recorder.subtrees.isEmpty && recorder.roots.isEmpty)
    }

    @Test func nestingIsBoundedByTheMaximumDepth() throws {
        func nested(_ depth: Int) -> String {
            "<ClinicalDocument xmlns=\"urn:hl7-org:v3\">" + String(repeating: "<a>", count: depth - 1)
                + String(repeating: "</a>", count: depth - 1) + "</ClinicalDocument>"
        }
        #expect(try Self.read(nested(5), maximumDepth: 5).refusal == nil)
        #expect(try Self.read(nested(6), maximumDepth: 5).refusal == .tooDeep(limit: 5))
        // Inside a kept subtree too.
        #expect(try Self.read(nested(6), keep: ["a"], maximumDepth: 5).refusal == .tooDeep(limit: 5))
    }

    @Test func elementsAreBoundedByTheMaximumCount() throws {
        func elements(_ count: Int) -> String {
            "<ClinicalDocument xmlns=\"urn:hl7-org:v3\">" + String(repeating: "<entry/>", count: count - 1) + "</ClinicalDocument>"
        }
        let (read, recorder) = try Self.read(elements(10), maximumElements: 10)
        #expect(read == nil && recorder.subtrees.count == 9)
        let (refusal, partial) = try Self.read(elements(11), maximumElements: 10)
        #expect(refusal == .tooLarge(reason: "more than 10 elements"))
        #expect(partial.subtrees.count == 9, "what came before the limit was handed over, nothing after")
    }

    @Test func malformedXMLIsRefusedWithItsLine() throws {
        let (refusal, _) = try Self.read("<ClinicalDocument xmlns=\"urn:hl7-org:v3\">\n<entry>\n</section>\n</ClinicalDocument>")
        guard case .malformed(let line, let message)? = refusal else {
            Issue.record("not refused as malformed: \(String(describing: refusal))")
            return
        }
        #expect(line == 3, "\(message)")
        #expect(message.contains("mismatch"), "\(message)")
        for text in ["", "not xml", "<ClinicalDocument xmlns=\"urn:hl7-org:v3\"><entry>"] {
            guard case .malformed? = try Self.read(text).refusal else {
                Issue.record("'\(text)' was not refused as malformed")
                continue
            }
        }
    }

    /// What the input reader throws ends the parse with that error.
    @Test func anErrorReadingTheInputIsPassedOn() throws {
        struct Broken: Error {}
        // The reader holds its receiver unowned: the test keeps it alive.
        let recorder = Recorder(keep: [])
        let reader = XMLSubtreeReader(receiver: recorder, maximumDepth: 8, maximumElements: 8)
        #expect(throws: Broken.self) { try reader.parse { throw Broken() } }
        withExtendedLifetime(recorder) {}
    }
}
