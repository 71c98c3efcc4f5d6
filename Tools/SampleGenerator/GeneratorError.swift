import Foundation

/// Everything that can stop `phr-samples`, with the exit status each maps to.
enum GeneratorError: Error, LocalizedError {
    /// The command line was not `phr-samples OUTPUT_DIR`.
    case usage(String)
    /// The output directory could not be created or a file in it could not be written.
    case io(path: String, reason: String)
    /// cairo reported an error while drawing or writing a PDF.
    case cairo(file: String, reason: String)

    var errorDescription: String? {
        switch self {
        case .usage(let problem):
            problem
        case .io(let path, let reason):
            "cannot write \(path): \(reason)"
        case .cairo(let file, let reason):
            "cairo failed on \(file): \(reason)"
        }
    }

    /// The sysexits-style status, matching the conventions of `phr` itself (DESIGN.md section 8).
    var exitStatus: Int32 {
        switch self {
        case .usage: 64
        case .io: 74
        case .cairo: 1
        }
    }
}
