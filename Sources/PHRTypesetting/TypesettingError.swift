import Foundation

/// What can go wrong while typesetting: cairo failing to draw or write, or an input (a PDF page
/// or an image to embed) that cannot be read.
///
/// Messages are lowercase and never quote the content of a document: callers add the file or
/// record they were working on.
public enum TypesettingError: Error, LocalizedError, Equatable {
    /// cairo reported an error while creating a surface or drawing.
    case cairo(reason: String)
    /// The output stream refused bytes (a full disk, a closed pipe, a failing sink).
    case write(reason: String)
    /// poppler could not open a PDF to embed; `encrypted` when it needs a password.
    case unreadablePDF(reason: String, encrypted: Bool)
    /// A PNG or JPEG to embed could not be decoded.
    case unreadableImage(reason: String)
    /// A two-pass layout drew a different number of pages than it counted: the composition
    /// depended on something other than its content (a bug in the caller).
    case inconsistentLayout(counted: Int, drawn: Int)

    public var errorDescription: String? {
        switch self {
        case .cairo(let reason): "cairo failed: \(reason)"
        case .write(let reason): "cannot write the pdf: \(reason)"
        case .unreadablePDF(let reason, _): "cannot open the pdf: \(reason)"
        case .unreadableImage(let reason): "cannot read the image: \(reason)"
        case .inconsistentLayout(let counted, let drawn): "the layout counted \(counted) pages but drew \(drawn)"
        }
    }
}
