import Foundation

/// The package's root folder (…/main), from this file's place in it, for tests that read the
/// sources, fixtures and built binaries.
public enum PackageRoot {
    public static let path: String = {
        var url = URL(fileURLWithPath: #filePath)
        // Tests/Support/PHRTestSupport/PackageRoot.swift
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()
}
