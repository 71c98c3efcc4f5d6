import Foundation
import Glibc
import HTTPTypes
import Hummingbird
import NIOCore
import PHRService

/// A file a browser uploaded, held in an anonymous memory file (memfd): nothing decrypted or
/// uploaded ever touches the disk on the agent's side. The importer reads it through its
/// /proc/self/fd path and stores it encrypted like any `phr doc add`.
final class UploadedFile: @unchecked Sendable {
    let name: String
    let file: PHRModel.FileDescriptor
    private(set) var size = 0

    init(name: String) throws {
        self.name = name
        file = try MemoryFile.make(label: "phr-upload")
    }

    func append(_ bytes: UnsafeRawBufferPointer) throws {
        guard !bytes.isEmpty else { return }
        try file.write(bytes)
        size += bytes.count
    }

    var path: InputPath { InputPath("/proc/self/fd/\(file.fd)") }
}

/// What an upload request carried: its form fields (the CSRF token) and its files.
struct UploadBody {
    var fields: [String: String] = [:]
    var files: [UploadedFile] = []
}

enum UploadError: Error, Equatable {
    case tooLarge
    case tooMany
    case tooSlow
    case malformed(String)
}

/// Reads an upload as it arrives, into memory files, within the limits: `multipart/form-data`
/// from the page's form (works without JavaScript), or one file as the raw body from the page's
/// script (`X-File-Name` names it), which shows each file's progress.
enum UploadReader {
    /// The most one request may carry, all files together.
    static let largestRequest = 200 << 20
    /// The most files in one request.
    static let mostFiles = 50
    /// The most bytes of a part's headers, or of a plain field.
    static let largestField = 8 << 10

    static func read(_ request: Request) async throws -> UploadBody {
        let type = request.headers[.contentType] ?? ""
        if type.lowercased().hasPrefix("multipart/form-data") {
            guard let boundary = boundary(type) else { throw UploadError.malformed("the form has no boundary") }
            var reader = MultipartReader(boundary: boundary)
            var total = 0
            for try await chunk in request.body {
                total += chunk.readableBytes
                guard total <= largestRequest else { throw UploadError.tooLarge }
                try chunk.withUnsafeReadableBytes { try reader.feed($0) }
            }
            return try reader.finish()
        }
        let encoded = request.headers[HTTPField.Name("X-File-Name")!] ?? ""
        let name = encoded.removingPercentEncoding.map(FileNames.clean) ?? ""
        let file = try UploadedFile(name: name.isEmpty ? "upload" : name)
        for try await chunk in request.body {
            guard file.size + chunk.readableBytes <= largestRequest else { throw UploadError.tooLarge }
            try chunk.withUnsafeReadableBytes { try file.append($0) }
        }
        return UploadBody(fields: [:], files: [file])
    }

    /// The `boundary` parameter of a multipart Content-Type (quoted or not), if sane (RFC 2046:
    /// 1 to 70 characters).
    static func boundary(_ contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            var value = pair[1]
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            guard (1...70).contains(value.utf8.count), value.allSatisfy({ $0.isASCII && !$0.isNewline }) else { return nil }
            return value
        }
        return nil
    }
}

/// multipart/form-data (RFC 7578) read as it streams in: the content of each part goes straight
/// to its memory file (files) or a small buffer (fields), with only a delimiter's length held
/// back between chunks.
struct MultipartReader {
    private enum State {
        case preamble
        case headers
        case field(String, [UInt8])
        case file(UploadedFile)
        case skipping
        case done
    }

    private let delimiter: [UInt8]
    private var pending: [UInt8] = []
    private var state = State.preamble
    private var body = UploadBody()

    init(boundary: String) {
        delimiter = Array("\r\n--\(boundary)".utf8)
    }

    mutating func feed(_ bytes: UnsafeRawBufferPointer) throws {
        pending.append(contentsOf: bytes)
        try advance(final: false)
    }

    mutating func finish() throws -> UploadBody {
        try advance(final: true)
        guard case .done = state else { throw UploadError.malformed("the form ended early") }
        return body
    }

    private mutating func advance(final: Bool) throws {
        while true {
            switch state {
            case .preamble:
                // The body starts with the delimiter without its leading CRLF (or a preamble).
                let start = Array(delimiter.dropFirst(2))
                if pending.starts(with: start) {
                    pending.removeFirst(start.count)
                } else if let index = Self.find(delimiter, in: pending) {
                    pending.removeFirst(index + delimiter.count)
                } else {
                    guard pending.count <= UploadReader.largestField else { throw UploadError.malformed("no form part") }
                    return
                }
                state = .headers
            case .headers:
                // After a delimiter: "--" ends the form; else CRLF, headers, a blank line.
                if pending.count < 2 { return }
                if pending.starts(with: Array("--".utf8)) {
                    state = .done
                    pending.removeAll()
                    return
                }
                guard let end = Self.find(Array("\r\n\r\n".utf8), in: pending) else {
                    guard pending.count <= UploadReader.largestField else { throw UploadError.malformed("a part's headers are too long") }
                    return
                }
                let headers = String(decoding: pending[..<end], as: UTF8.self)
                pending.removeFirst(end + 4)
                state = try Self.part(headers, body: &body)
            case .field, .file, .skipping:
                let found = Self.find(delimiter, in: pending)
                let usable = found ?? max(0, pending.count - delimiter.count)
                if usable > 0 || found != nil {
                    try take(pending[..<usable])
                    pending.removeFirst(found.map { $0 + delimiter.count } ?? usable)
                }
                guard found != nil else {
                    if final { throw UploadError.malformed("the form ended inside a part") }
                    return
                }
                if case .field(let name, let value) = state, body.fields[name] == nil {
                    body.fields[name] = String(decoding: value, as: UTF8.self)
                }
                state = .headers
            case .done:
                pending.removeAll()
                return
            }
        }
    }

    private mutating func take(_ bytes: ArraySlice<UInt8>) throws {
        switch state {
        case .field(let name, var value):
            value += bytes
            guard value.count <= UploadReader.largestField else { throw UploadError.malformed("the field \(name) is too long") }
            state = .field(name, value)
        case .file(let file):
            try bytes.withUnsafeBytes { try file.append($0) }
        default:
            break
        }
    }

    /// The state for a part with these headers: a file (it has a filename), a field, or a part
    /// without a name (skipped).
    private static func part(_ headers: String, body: inout UploadBody) throws -> State {
        var disposition = ""
        for line in headers.split(separator: "\r\n") where line.lowercased().hasPrefix("content-disposition:") {
            disposition = String(line.dropFirst("content-disposition:".count))
        }
        let name = parameter("name", in: disposition)
        if let fileName = parameter("filename", in: disposition) {
            // An empty file input sends one part with an empty name and no content.
            guard !fileName.isEmpty else { return .skipping }
            guard body.files.count < UploadReader.mostFiles else { throw UploadError.tooMany }
            let cleaned = FileNames.clean(fileName)
            let file = try UploadedFile(name: cleaned.isEmpty ? "upload" : cleaned)
            body.files.append(file)
            return .file(file)
        }
        guard let name else { return .skipping }
        return .field(name, [])
    }

    /// A parameter of a Content-Disposition value: `name="value"`, with the escapes browsers
    /// use inside the quotes (WHATWG: %22 for ", %0D and %0A for line breaks).
    static func parameter(_ key: String, in value: String) -> String? {
        var rest = Substring(value)
        while let range = rest.range(of: key + "=") {
            let before = rest[..<range.lowerBound].last
            rest = rest[range.upperBound...]
            guard before == nil || before == ";" || before == " " else { continue }
            if rest.first == "\"" {
                rest = rest.dropFirst()
                guard let close = rest.firstIndex(of: "\"") else { return nil }
                return String(rest[..<close]).replacingOccurrences(of: "%22", with: "\"")
                    .replacingOccurrences(of: "%0D", with: "\r").replacingOccurrences(of: "%0A", with: "\n")
            }
            return String(rest.prefix { $0 != ";" }).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// The first index of `needle` in `haystack`.
    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { pin in
                var index = 0
                let last = hay.count - pin.count
                while index <= last {
                    guard let found = memchr(hay.baseAddress! + index, Int32(first), last - index + 1) else { return nil }
                    let at = hay.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    if memcmp(hay.baseAddress! + at, pin.baseAddress!, pin.count) == 0 { return at }
                    index = at + 1
                }
                return nil
            }
        }
    }
}

/// File names from a browser, made safe to keep: the last path component (old browsers sent
/// whole paths), no control characters, at most 255 bytes.
enum FileNames {
    static func clean(_ name: String) -> String {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        var cleaned = String(last.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) })
        while cleaned.utf8.count > 255 { cleaned.removeLast() }
        return cleaned.trimmingCharacters(in: .whitespaces)
    }
}
