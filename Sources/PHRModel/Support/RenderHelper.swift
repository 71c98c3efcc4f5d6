import Foundation

/// phr-render, the program that reads and draws PDFs for phr: text extraction for
/// `phr doc add`, and the drawing of share bundles, emergency cards and reports.
///
/// It is a program of its own, not a mode of `phr`, for two reasons. The process that holds the
/// vault's keys never loads poppler, cairo, pango or qpdf, let alone feeds them a document. And
/// `phr` starts without loading some seventy shared libraries: about 17 ms of every command,
/// most of what a `phr search` costs (README, Benchmarks).
public enum RenderHelper {
    public static let name = "phr-render"

    /// What to do when it cannot be started.
    public static let installHint = "phr reads and draws PDFs with \(name), which must be installed in the same directory as phr; reinstall both"

    /// phr-render beside the running program (symbolic links resolved): `make` and
    /// `make release` build both into one directory, and an installation puts them side by side.
    public static let path: String = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments.first ?? name
        return (executable as NSString).deletingLastPathComponent + "/" + name
    }()
}
