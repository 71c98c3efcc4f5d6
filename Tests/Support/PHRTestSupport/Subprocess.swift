import Foundation

/// Runs a program the tests use as a tool (pdftotext, pdfinfo, pdftoppm), stderr discarded.
public enum Subprocess {
    /// `executable` run with `arguments` to its end: its exit status and everything it printed
    /// on stdout.
    public static func output(_ executable: String, _ arguments: [String]) throws -> (status: Int32, stdout: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data)
    }
}
