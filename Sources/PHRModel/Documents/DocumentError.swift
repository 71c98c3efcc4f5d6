import Foundation

import Glibc

/// Errors of the document commands.
public enum DocumentError: PHRError, Equatable {
    case exists(String)
    case refusingTerminal
    /// `--pdf-password-file` cannot be read (`code` is the errno) or holds no password.
    case passwordFile(path: String, reason: String, code: Int32?)
    /// Tesseract has no data for these languages in `directory` (exit 69).
    case ocrLanguageMissing(languages: [String], directory: String, option: Field)

    public var exitStatus: ExitStatus {
        switch self {
        case .ocrLanguageMissing: return .unavailable
        case .exists: return .failure
        case .refusingTerminal: return .usage
        case .passwordFile(_, _, let code):
            switch code {
            case ENOENT?, ENOTDIR?: return .noInput
            case nil: return .dataError
            default: return .ioError
            }
        }
    }

    public var message: Message {
        switch self {
        case .exists(let path): return "\(path) already exists"
        case .refusingTerminal: return "refusing to write a document's bytes to a terminal"
        case .passwordFile(let path, let reason, _): return "\(Field.pdfPasswordFile) \(path): \(reason)"
        case .ocrLanguageMissing(let languages, let directory, let option):
            return "\(option): the OCR language pack for \(languages.joined(separator: ", ")) is not installed (no \(languages[0]).traineddata in \(directory))"
        }
    }

    public var hint: Message? {
        switch self {
        case .passwordFile: return "give a file whose first line is the PDF's password"
        case .ocrLanguageMissing(let languages, _, _):
            return "install it (Debian: apt-get install \(languages.map(OCRLanguages.package).joined(separator: " ")), or make deps OCR_LANGS=\"\(languages.joined(separator: " "))\"), or choose other languages"
        case .exists: return "choose another name, or remove the file first"
        case .refusingTerminal: return "redirect the output, e.g. '\(Action.exportDocument(toStandardOutput: true))', or give a file name"
        }
    }
}
