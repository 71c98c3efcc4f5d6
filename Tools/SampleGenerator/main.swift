// phr-samples: writes the project's synthetic sample PDFs (Samples/documents/) into a directory.
//
// Usage: phr-samples OUTPUT_DIR [LAB_REPORTS_DIR]
//
// Every person, organisation and number in the output is fictitious; see Samples/README.md.

import Foundation

let programName = "phr-samples"

func run(_ arguments: [String]) throws(GeneratorError) {
    if arguments == ["-h"] || arguments == ["--help"] {
        print("usage: \(programName) OUTPUT_DIR [LAB_REPORTS_DIR]")
        print("Writes the synthetic sample documents of phr as PDF files into OUTPUT_DIR.")
        return
    }
    guard (1...2).contains(arguments.count), let path = arguments.first, !arguments.contains(where: { $0.hasPrefix("-") }) else {
        throw .usage("expected the output directory, and optionally a directory for the lab-report layouts")
    }
    try OutputDirectory.create(path)
    let directory = URL(fileURLWithPath: path, isDirectory: true)
    // The lab-report layouts go apart from the documents (the share and import tests add the
    // whole documents folder), with their expected rows.
    let labDirectory = arguments.count == 2 ? URL(fileURLWithPath: arguments[1], isDirectory: true) : directory
    if arguments.count == 2 { try OutputDirectory.create(arguments[1]) }
    for document in allSampleDocuments {
        let written = try SampleRenderer.render(document, into: document is any LabReportSample ? labDirectory : directory)
        print(written.path)
        if let lab = document as? any LabReportSample {
            // The rows the report prints, for the extraction tests (Tests/PHRCoreTests/Labs).
            let expected = labDirectory.appendingPathComponent(lab.fileName.replacingOccurrences(of: ".pdf", with: ".expected.json"))
            do {
                try (lab.expectedJSON() + Data("\n".utf8)).write(to: expected)
            } catch {
                throw .io(path: expected.path, reason: error.localizedDescription)
            }
            print(expected.path)
        }
    }
}

do {
    try run(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("\(programName): error: \(error.localizedDescription)\n".utf8))
    if case .usage = error {
        FileHandle.standardError.write(Data("\(programName): hint: usage: \(programName) OUTPUT_DIR\n".utf8))
    }
    exit(error.exitStatus)
}
