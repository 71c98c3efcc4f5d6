import Foundation
import Testing
@testable import PHRCore

/// `--password-file`: AES-256 (revision 6) through qpdf, the password prepared with SASLprep,
/// and no plaintext PDF on the disk at any point.
@Suite struct ShareEncryptionTests {
    static func encrypted(_ fixture: ShareFixture, password: String) throws -> ShareResult {
        var request = fixture.request()
        request.password = SecretBytes(copying: Array(password.utf8))
        request.passwordFile = "\(fixture.directory)/password"
        return try fixture.write(request)
    }

    @Test func encryptedBundleOpensOnlyWithThePassword() throws {
        let fixture = try ShareFixture()
        defer { fixture.remove() }
        let result = try Self.encrypted(fixture, password: "correct horse 42")
        #expect(result.encrypted)
        #expect(try PDFTools.info(result.path) == nil, "pdfinfo without the password fails")
        #expect(try PDFTools.info(result.path, password: "wrong horse 42") == nil)
        let info = try #require(try PDFTools.info(result.path, password: "correct horse 42"))
        #expect(info["Pages"] == "\(result.pages)")
        #expect(info["Encrypted"]?.contains("AES-256") == true)
        #expect(try PDFTools.text(result.path, password: "correct horse 42").contains("Alex Example"))
        #expect(try PDFTools.outline(result.path, password: "correct horse 42").count == 1 + ShareSection.allCases.count + result.documents.count)
        // The file holds ciphertext only: not the name, not the metadata, not a page of text.
        let raw = try #require(FileManager.default.contents(atPath: result.path))
        for needle in ["Alex Example", "Penicillin", "Health summary", "Dr. Lee"] {
            #expect(raw.range(of: Data(needle.utf8)) == nil, "\(needle) in the encrypted file")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.directory).filter { $0.contains("bundle") }
        #expect(names == ["bundle.pdf"])
    }

    @Test func passwordIsPreparedWithSASLprep() throws {
        let fixture = try ShareFixture(label: "share-saslprep", documents: [], records: false)
        defer { fixture.remove() }
        // U+2168 ROMAN NUMERAL NINE becomes "IX" under NFKC: readers that prepare the password
        // (as PDF 2.0 requires) and readers given "IX" open the same file.
        let result = try Self.encrypted(fixture, password: "\u{2168} secret")
        #expect(try PDFTools.info(result.path, password: "IX secret")?["Pages"] == "\(result.pages)")
    }

    @Test func unusablePasswordsAreRefusedBeforeAnythingIsWritten() throws {
        let fixture = try ShareFixture(label: "share-badpassword", documents: [], records: false)
        defer { fixture.remove() }
        let path = "\(fixture.directory)/password"
        #expect(throws: ShareError.passwordFile(path: path, reason: "the password is longer than 127 bytes", code: nil)) {
            try Self.encrypted(fixture, password: String(repeating: "x", count: 128))
        }
        #expect(throws: ShareError.passwordFile(path: path, reason: "the password has characters a PDF password cannot have", code: nil)) {
            try Self.encrypted(fixture, password: "tab\u{0007}bell")
        }
        #expect(!FileManager.default.fileExists(atPath: "\(fixture.directory)/bundle.pdf"))
    }

    @Test func passwordFileIsReadLikeAPassphraseFile() throws {
        let directory = try TestSupport.temporaryDirectory("password-file")
        defer { TestSupport.remove(directory) }
        let path = "\(directory)/password"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("s3cret pass\r\nsecond line\n".utf8)))
        let secret = try SharePasswordFile.read(path)
        #expect(secret.withUnsafeBytes { Array($0) } == Array("s3cret pass".utf8))
        #expect(FileManager.default.createFile(atPath: path, contents: Data("\nlater".utf8)))
        #expect(throws: ShareError.passwordFile(path: path, reason: "the first line is empty", code: nil)) { try SharePasswordFile.read(path) }
        #expect(throws: ShareError.passwordFile(path: "\(directory)/none", reason: "no such file or directory", code: ENOENT)) {
            try SharePasswordFile.read("\(directory)/none")
        }
        #expect(ShareError.passwordFile(path: "x", reason: "", code: ENOENT).exitStatus == .noInput)
        #expect(ShareError.passwordFile(path: "x", reason: "", code: nil).exitStatus == .dataError)
    }
}
