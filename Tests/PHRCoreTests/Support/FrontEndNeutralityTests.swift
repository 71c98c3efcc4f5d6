import Foundation
import Testing

/// The core speaks no front end's language (issue 25, item 1): no string literal in PHRModel,
/// PHRCore or PHRService spells a command-line option (`--range`) or a phr command
/// (`'phr doc list'`). Fields and next steps are `Field` and `Action` values in a `Message`, which
/// the CLI spells as options and commands and a web page as form fields and links.
///
/// What other programs are given on their command lines (notify-send, gdbus, systemctl, the
/// phr-render workers), and "phr export" or "phr backup" as the names of phr's file formats,
/// are allowed by file and by spelling below, each with what it is.
@Suite struct FrontEndNeutralityTests {
    static let targets = ["PHRModel", "PHRCore", "PHRService"]

    /// Spellings that are not phr's command line, by file: other programs' options, and nouns.
    static let allowed: [String: (what: String, spellings: Set<String>)] = [
        "PHRCore/HealthLog/DesktopServices.swift": ("notify-send and systemctl", ["--app-name", "--urgency", "--user", "--now"]),
        "PHRCore/HealthLog/DesktopServices+DoseActions.swift": ("gdbus and notify-send",
                                                               ["--session", "--dest", "--object-path", "--method", "--timeout", "--help", "--action"]),
        "PHRModel/Extraction/ExtractionWorkerSettings.swift": ("phr-render extract",
                                                              ["--memory-bytes", "--cpu-seconds-per-step", "--cpu-lifetime-seconds", "--documents", "--page-text-bytes"]),
        "PHRModel/Share/RenderWorkerSettings.swift": ("phr-render draw", ["--documents", "--memory-bytes", "--cpu-seconds"]),
        "PHRModel/Interop/CCDAWorkerSettings.swift": ("phr-render ccda", ["--memory-bytes", "--cpu-seconds", "--maximum-bytes"]),
        "PHRModel/Interop/HealthExportProtocol.swift": ("phr-render health-export", ["--memory-bytes", "--cpu-seconds", "--time-zone"]),
        "PHRCore/Sync/RcloneRemote.swift": ("rclone", ["--contimeout", "--timeout", "--retries", "--low-level-retries", "--use-mmap",
                                                       "--files-only", "--dirs-only", "--max-depth", "--files-from-raw", "--no-traverse",
                                                       "--ignore-existing"]),
        // The column comment of a migration whose text is pinned by its checksum.
        "PHRCore/Storage/Schema+Records.swift": ("SQLite (a comment in a pinned migration)", ["--force"]),
        "PHRCore/Interop/RecordImport.swift": ("the name of phr's export format", ["phr export"]),
        "PHRCore/Interop/InteropError.swift": ("the name of phr's export format", ["phr export"]),
        "PHRCore/Vault/VaultBackup.swift": ("the name of phr's backup file", ["phr backup"]),
        "PHRCore/Vault/VaultError.swift": ("the name of phr's backup file", ["phr backup"]),
    ]

    /// The text of every string literal in `source`, without comments and without the code of
    /// interpolations (`\(Field.to)` is a value, not a spelling).
    static func literals(in source: String) -> [String] {
        let s = Array(source.unicodeScalars)
        var result: [String] = []
        var i = 0
        func at(_ k: Int) -> Unicode.Scalar? { k < s.count ? s[k] : nil }
        // Reads a literal starting after its opening quote(s); returns its text and the index after it.
        func literal(from start: Int, multiline: Bool) -> (String, Int) {
            var text = String.UnicodeScalarView()
            var k = start
            while k < s.count {
                if s[k] == "\\" {
                    if at(k + 1) == "(" {
                        // Skip the interpolated code, with its own nested literals and parentheses.
                        var depth = 1
                        k += 2
                        while k < s.count && depth > 0 {
                            if s[k] == "\"" {
                                let (inner, next) = literal(from: k + 1, multiline: false)
                                result.append(inner)
                                k = next
                                continue
                            }
                            if s[k] == "(" { depth += 1 } else if s[k] == ")" { depth -= 1 }
                            k += 1
                        }
                        text.append(" ")
                        continue
                    }
                    k += 2
                    continue
                }
                if multiline {
                    if s[k] == "\"" && at(k + 1) == "\"" && at(k + 2) == "\"" { return (String(text), k + 3) }
                } else if s[k] == "\"" || s[k] == "\n" {
                    return (String(text), k + 1)
                }
                text.append(s[k])
                k += 1
            }
            return (String(text), k)
        }
        while i < s.count {
            if s[i] == "/" && at(i + 1) == "/" {
                while i < s.count && s[i] != "\n" { i += 1 }
            } else if s[i] == "/" && at(i + 1) == "*" {
                i += 2
                while i < s.count && !(s[i] == "*" && at(i + 1) == "/") { i += 1 }
                i += 2
            } else if s[i] == "\"" {
                let multiline = at(i + 1) == "\"" && at(i + 2) == "\""
                let (text, next) = literal(from: i + (multiline ? 3 : 1), multiline: multiline)
                result.append(text)
                i = next
            } else {
                i += 1
            }
        }
        return result
    }

    /// phr's commands, as its pinned help lists them.
    static func commands() throws -> Set<String> {
        let help = try String(contentsOfFile: "\(TestSupport.packageRoot)/Tests/Fixtures/help/phr.txt", encoding: .utf8)
        guard let section = help.components(separatedBy: "SUBCOMMANDS:").last else { return [] }
        var names = Set<String>()
        for line in section.split(separator: "\n") where line.hasPrefix("  ") && !line.hasPrefix("   ") {
            if let word = line.split(separator: " ").first, word.allSatisfy(\.isLetter) { names.insert(String(word)) }
        }
        return names
    }

    /// The options and phr commands `text` spells.
    static func spellings(in text: String, commands: Set<String>) -> [String] {
        var found: [String] = []
        let options = try! NSRegularExpression(pattern: "(?<![A-Za-z0-9-])--[a-z][a-z0-9-]*")
        let range = NSRange(text.startIndex..., in: text)
        for match in options.matches(in: text, range: range) {
            found.append(String(text[Range(match.range, in: text)!]))
        }
        let command = try! NSRegularExpression(pattern: "(?<![A-Za-z0-9_-])phr ([a-z]+)")
        for match in command.matches(in: text, range: range) where commands.contains(String(text[Range(match.range(at: 1), in: text)!])) {
            found.append(String(text[Range(match.range, in: text)!]))
        }
        return found
    }

    @Test func theReaderFindsSpellingsInLiteralsOnly() throws {
        let commands = try Self.commands()
        #expect(commands.isSuperset(of: ["doc", "med", "init", "unlock", "remind"]), "phr's commands were not read from its help")
        let source = #"""
            // A comment may say --range and 'phr doc list'.
            let a = "use --range"
            let b = "needs \(Field.to) or \("--from")"
            let c = """
                run 'phr med due'
                """
            let d = "phr reads PDFs with poppler"
            """#
        let found = Self.literals(in: source).flatMap { Self.spellings(in: $0, commands: commands) }
        #expect(found.sorted() == ["--from", "--range", "phr med"])
    }

    @Test func theCoreSpellsNoOptionAndNoCommand() throws {
        let commands = try Self.commands()
        var offending: [String] = []
        var read = 0
        for target in Self.targets {
            let root = "\(TestSupport.packageRoot)/Sources/\(target)"
            guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
            for case let path as String in walker where path.hasSuffix(".swift") {
                let file = "\(target)/\(path)"
                let source = try String(contentsOfFile: "\(root)/\(path)", encoding: .utf8)
                read += 1
                let allowed = Self.allowed[file]?.spellings ?? []
                for text in Self.literals(in: source) {
                    for spelling in Self.spellings(in: text, commands: commands) where !allowed.contains(spelling) {
                        offending.append("\(file): \(spelling) in \"\(text.prefix(80))\"")
                    }
                }
            }
        }
        #expect(read > 250, "the core's sources were not found")
        #expect(offending.isEmpty, "\(offending.count) front-end spellings in the core:\n\(offending.joined(separator: "\n"))")
    }
}
