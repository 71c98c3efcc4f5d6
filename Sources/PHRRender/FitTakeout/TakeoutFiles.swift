import Glibc
import PHRModel

/// The files of a Google Takeout as the Fit reader sees them: the members of the Takeout .zip,
/// the regular files under the folder it extracts to, or one CSV given alone.
///
/// Everything here is untrusted and bounded: the zip through ZipArchive's limits (directory,
/// member sizes, inflation ratio, CRC); a folder is walked with openat(2) from the descriptor
/// phr handed over, never following a symbolic link, at most `maximumDepth` folders deep and
/// `maximumFiles` files; and no file is read past the limit its reader gives.
struct TakeoutFiles {
    struct File {
        /// The path inside the zip or under the folder, "/"-separated
        /// ("Takeout/Fit/All Sessions/2026-03-15T07_30_00+01_00_RUNNING.json"); "" for a CSV given alone.
        var path: String
        var size: Int64
        fileprivate var member: ZipArchive.Member?
        /// Under a folder: the path's own bytes, which open it. A name that is not UTF-8 (a
        /// Takeout unpacked on another system) reads as U+FFFD in `path` and opens by these.
        fileprivate var bytes: [UInt8] = []

        /// The last component of `path`.
        var name: String { path.split(separator: "/").last.map(String.init) ?? path }

        /// How messages name it: the path in quotes, nothing for a file given alone (phr names that).
        var label: String { path.isEmpty ? "" : ZipArchive.printable(path) + " " }
    }

    enum Layout {
        case zip(ZipArchive)
        case folder
        case single
    }

    static let maximumDepth = 8
    static let maximumFiles = 500_000

    let fd: Int32
    let layout: Layout
    private(set) var files: [File] = []
    /// Links, devices and the like under a folder: counted, never read.
    private(set) var notRegular = 0

    init(fd: Int32) throws {
        self.fd = fd
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ZipArchive.Refusal(reason: "the export cannot be read (errno \(errno))") }
        if info.st_mode & S_IFMT == S_IFDIR {
            layout = .folder
            var files: [File] = []
            var notRegular = 0
            try Self.walk(fd, prefix: "", depth: 0, into: &files, notRegular: &notRegular)
            self.files = files.sorted { $0.path < $1.path }
            self.notRegular = notRegular
            return
        }
        let size = Int64(info.st_size)
        if ZipArchive.looksLikeZip(try ZipArchive.read(fd, at: 0, count: 4)) {
            let archive = try ZipArchive(fd: fd, fileSize: size)
            layout = .zip(archive)
            files = archive.members.filter { !$0.name.hasSuffix("/") }.map { File(path: $0.name, size: $0.size, member: $0) }
        } else {
            layout = .single
            files = [File(path: "", size: size, member: nil)]
        }
    }

    /// The whole of `file`, refused when it is larger than `limit` bytes.
    func read(_ file: File, limit: Int) throws -> [UInt8] {
        guard file.size <= Int64(limit) else {
            throw ZipArchive.Refusal(reason: "\(file.label)is larger than \(limit >> 20) MB, more than phr reads for it")
        }
        switch layout {
        case .zip(let archive):
            return try archive.readWhole(file.member!)
        case .folder:
            let child = InputPath.withCString(file.bytes) { openat(fd, $0, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) }
            guard child >= 0 else { throw ZipArchive.Refusal(reason: "\(file.label)cannot be opened (errno \(errno))") }
            defer { close(child) }
            return try Self.readAll(child, label: file.label, limit: limit)
        case .single:
            return try Self.readAll(fd, label: file.label, limit: limit)
        }
    }

    /// Reads a descriptor to its end, at most `limit` bytes.
    private static func readAll(_ fd: Int32, label: String, limit: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var offset: Int64 = 0
        while true {
            let got = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(offset)) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw ZipArchive.Refusal(reason: "\(label)cannot be read (errno \(errno))") }
            if got == 0 { return bytes }
            offset += Int64(got)
            bytes += chunk[0..<got]
            guard bytes.count <= limit else {
                throw ZipArchive.Refusal(reason: "\(label)is larger than \(limit >> 20) MB, more than phr reads for it")
            }
        }
    }

    /// Collects the regular files under the folder `directory`, never following a link.
    private static func walk(_ directory: Int32, prefix: String, depth: Int, into files: inout [File], notRegular: inout Int,
                             prefixBytes: [UInt8] = []) throws {
        let copy = dup(directory)
        guard copy >= 0, let stream = fdopendir(copy) else {
            throw ZipArchive.Refusal(reason: "the folder \(prefix.isEmpty ? "" : ZipArchive.printable(prefix) + " ")cannot be listed (errno \(errno))")
        }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            // The name's bytes open it; its text (U+FFFD where it is not UTF-8) names it.
            let nameBytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            let name = String(decoding: nameBytes, as: UTF8.self)
            if name == "." || name == ".." { continue }
            let path = prefix.isEmpty ? name : prefix + "/" + name
            let pathBytes = prefixBytes.isEmpty ? nameBytes : prefixBytes + [UInt8(ascii: "/")] + nameBytes
            var info = stat()
            let found = InputPath.withCString(nameBytes) { fstatat(directory, $0, &info, AT_SYMLINK_NOFOLLOW) }
            guard found == 0 else {
                notRegular += 1
                continue
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                guard depth < maximumDepth else {
                    throw ZipArchive.Refusal(reason: "the folder nests deeper than \(maximumDepth) levels at \(ZipArchive.printable(path)); a Takeout is 3 levels deep")
                }
                let child = InputPath.withCString(nameBytes) { openat(directory, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
                guard child >= 0 else { throw ZipArchive.Refusal(reason: "the folder \(ZipArchive.printable(path)) cannot be opened (errno \(errno))") }
                defer { close(child) }
                try walk(child, prefix: path, depth: depth + 1, into: &files, notRegular: &notRegular, prefixBytes: pathBytes)
            case S_IFREG:
                files.append(File(path: path, size: Int64(info.st_size), member: nil, bytes: pathBytes))
                guard files.count <= maximumFiles else {
                    throw ZipArchive.Refusal(reason: "the folder holds more than \(maximumFiles) files; give phr the Takeout folder or its Fit folder")
                }
            default:
                notRegular += 1
            }
        }
    }
}
