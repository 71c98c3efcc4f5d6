import Foundation

/// Creates the output directory like `mkdir -p`, with the system's reason when that fails.
///
/// Done with mkdir(2) rather than FileManager because on Linux FileManager's errors read
/// "the operation could not be completed" and drop the errno that says what went wrong.
enum OutputDirectory {
    static func create(_ path: String) throws(GeneratorError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o755) != 0 {
                let error = errno
                guard error == EEXIST else { throw .io(path: prefix, reason: describe(error)) }
                var info = stat()
                guard stat(prefix, &info) == 0 else { throw .io(path: prefix, reason: describe(errno)) }
                guard info.st_mode & S_IFMT == S_IFDIR else { throw .io(path: prefix, reason: describe(ENOTDIR)) }
            }
            prefix += "/"
        }
    }

    /// strerror's text in lowercase, as phr's messages are.
    static func describe(_ error: Int32) -> String {
        String(cString: strerror(error)).lowercased()
    }
}
