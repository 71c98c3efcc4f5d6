import Foundation
import Testing

/// The targets' allowed imports (docs/development.md, "Targets"): the code that parses hostile
/// files (PHRRender, phr-render, and PHRRenderTests, which tests it alone) and what it shares
/// with the key-holding process (PHRModel) never reach the vault, SQLite or OpenSSL. A forbidden import fails here, naming the file,
/// before it could ever link a library into phr-render.
@Suite struct ModuleBoundaryTests {
    /// Every `import` of each Swift file under `folder`/`target` (Sources/ unless told), by file.
    static func imports(of target: String, in folder: String = "Sources") throws -> [String: Set<String>] {
        let root = "\(TestSupport.packageRoot)/\(folder)/\(target)"
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [:] }
        var result: [String: Set<String>] = [:]
        for case let path as String in walker where path.hasSuffix(".swift") {
            let text = try String(contentsOfFile: "\(root)/\(path)", encoding: .utf8)
            var modules = Set<String>()
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ").filter { !$0.hasPrefix("@") }
                guard words.count >= 2, words[0] == "import" else { continue }
                // `import struct Foundation.Date` and `import Foundation.NSString` name the module first.
                let name = words.count >= 3 ? words[2] : words[1]
                modules.insert(String(name.split(separator: ".")[0]))
            }
            result["\(target)/\(path)"] = modules
        }
        return result
    }

    @Test func theSharedModelImportsOnlyTheSystem() throws {
        let files = try Self.imports(of: "PHRModel")
        #expect(files.count > 50, "PHRModel's sources were not found")
        for (file, modules) in files.sorted(by: { $0.key < $1.key }) {
            #expect(modules.isSubset(of: ["Foundation", "Glibc"]), "\(file) imports \(modules.sorted())")
        }
    }

    @Test func theParsersNeverImportTheVault() throws {
        let forbidden: Set<String> = ["PHRCore", "GRDB", "GRDBSQLite", "SQLite3", "CPHRVFS", "CPHROpenSSL"]
        for (folder, target) in [("Sources", "PHRRender"), ("Sources", "phr-render"), ("Sources", "PHRTypesetting"), ("Tests", "PHRRenderTests")] {
            let files = try Self.imports(of: target, in: folder)
            #expect(!files.isEmpty, "\(target)'s sources were not found")
            for (file, modules) in files.sorted(by: { $0.key < $1.key }) {
                #expect(modules.isDisjoint(with: forbidden), "\(file) imports \(modules.intersection(forbidden).sorted())")
            }
        }
    }

    /// The front ends (the web UI and every file of the CLI, `phr mcp` among them) go through
    /// PHRService (which brings the core's types), never around it.
    @Test func theFrontEndsImportTheServiceNotTheCore() throws {
        let web = try Self.imports(of: "PHRWeb")
        #expect(web.count >= 6, "PHRWeb's sources were not found")
        let cli = try Self.imports(of: "phr")
        #expect(cli.count >= 50, "phr's sources were not found")
        #expect(cli.keys.contains { $0.hasSuffix("MCPServer.swift") })
        for (file, modules) in (web.merging(cli) { $1 }).sorted(by: { $0.key < $1.key }) {
            #expect(!modules.contains("PHRCore") && !modules.contains("GRDB"), "\(file) imports \(modules.sorted())")
        }
        #expect(try Self.imports(of: "PHRService")["PHRService/Exports.swift"] == ["PHRCore"])
    }

    /// The helpers every test target shares (Tests/Support/PHRTestSupport) need nothing of phr,
    /// so PHRRenderTests can use them without linking the vault.
    @Test func theSharedTestHelpersImportOnlyTheSystemAndTesting() throws {
        let files = try Self.imports(of: "PHRTestSupport", in: "Tests/Support")
        #expect(files.keys.contains("PHRTestSupport/CorpusData.swift") && files.keys.contains("PHRTestSupport/LoopbackHTTPServer.swift"))
        for (file, modules) in files.sorted(by: { $0.key < $1.key }) {
            #expect(modules.isSubset(of: ["Foundation", "Glibc", "Testing"]), "\(file) imports \(modules.sorted())")
        }
    }

    /// The check reads what it claims to: a file that imports PHRCore is seen as doing so.
    @Test func theImportReaderSeesEveryForm() throws {
        let files = try Self.imports(of: "PHRCore")
        #expect(files["PHRCore/Exports.swift"] == ["PHRModel"])
        #expect(files.values.contains { $0.contains("GRDB") } && files.values.contains { $0.contains("CPHROpenSSL") })
    }
}
