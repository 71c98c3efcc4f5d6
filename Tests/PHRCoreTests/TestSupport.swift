import Foundation
import Testing
@testable import PHRCore

/// Shared fixtures: temporary directories, cheap test vaults, and the paths of the built `phr`
/// binary. The third-party corpus is reached only through `CorpusData`.
enum TestSupport {
    /// The package root (…/main).
    static let packageRoot = PackageRoot.path

    /// The built `phr` executable: $PHR_BIN, else .build/debug/phr.
    static let phrBinary: String = {
        if let path = ProcessInfo.processInfo.environment["PHR_BIN"], !path.isEmpty { return path }
        return "\(packageRoot)/.build/debug/phr"
    }()

    /// phr-render, beside phr: the extraction and drawing workers.
    static let renderBinary: String = (phrBinary as NSString).deletingLastPathComponent + "/phr-render"

    /// scrypt at N=2^10 so tests create vaults in milliseconds; the product uses N=2^17.
    static let cheapKDF = ScryptParameters(log2N: 10, r: 8, p: 1)

    static let passphrase = "correct horse battery staple"

    /// A new empty directory under /tmp, removed by the caller with `remove`.
    static func temporaryDirectory(_ label: String = "test") throws -> String {
        let path = NSTemporaryDirectory() + "phr-\(label)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    static func secret(_ text: String) -> SecretBytes { SecretBytes(copying: Array(text.utf8)) }

    /// A fresh vault in a fresh directory, with the cheap KDF.
    static func makeVault(_ label: String = "vault") throws -> (vault: Vault, recoveryKey: String, directory: String) {
        let directory = try temporaryDirectory(label)
        let (vault, recovery) = try Vault.create(at: VaultLocation(path: "\(directory)/vault"),
                                                 passphrase: secret(passphrase), parameters: cheapKDF)
        return (vault, recovery, directory)
    }

    /// Every regular file under `path`, recursively.
    static func files(under path: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: path) else { return [] }
        return enumerator.compactMap { $0 as? String }.map { "\(path)/\($0)" }.filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }

    /// True if `needle` occurs in any file under `path`.
    static func anyFile(under path: String, contains needle: [UInt8]) -> String? {
        for file in files(under: path) {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            if data.range(of: Data(needle)) != nil { return file }
        }
        return nil
    }
}
