import CPHROpenSSL
import Foundation
@testable import PHRCore

/// Small PDFs written from scratch for tests: text pages in Helvetica, image-only pages, fonts
/// whose ToUnicode map turns text into junk, document metadata, AES-256 (revision 6) encryption
/// with exact password bytes, and a large sparse padding stream.
///
/// Written by hand (ISO 32000-2 sections 7.5 and 7.6) so the tests need no PDF tool, and so the
/// password bytes are exactly what a conforming writer stores (SASLprep already applied).
struct SyntheticPDF {
    enum Glyphs {
        /// Text extracts as written.
        case normal
        /// A ToUnicode map sends every character to the private use area (U+E020...).
        case privateUse
        /// A ToUnicode map sends every character to its code minus 31, as glyph numbers of a
        /// subset font: spaces and capitals become control characters.
        case glyphNumbers
    }

    struct Page {
        var lines: [String]
        var image = false
        /// Values of filled-in text form fields on the page.
        var formValues: [String] = []

        static func text(_ lines: String...) -> Page { Page(lines: lines) }
        static let scanned = Page(lines: [], image: true)
        static let blank = Page(lines: [])
    }

    var pages: [Page]
    var glyphs = Glyphs.normal
    var title: String?
    /// A PDF date string, such as "D:20250312101500Z".
    var creationDate: String?
    /// AES-256 R6 with these exact user password bytes (the owner password is "owner").
    var userPassword: [UInt8]?
    /// Bytes of an unreferenced stream of zeros written as a hole, so a huge file costs no disk.
    var paddingBytes = 0

    init(pages: [Page], glyphs: Glyphs = .normal, title: String? = nil, creationDate: String? = nil,
         userPassword: [UInt8]? = nil, paddingBytes: Int = 0) {
        self.pages = pages
        self.glyphs = glyphs
        self.title = title
        self.creationDate = creationDate
        self.userPassword = userPassword
        self.paddingBytes = paddingBytes
    }

    /// A PDF poppler cannot open: its trailer names a catalog object that does not exist and
    /// there is no cross-reference table to rebuild from.
    static let unopenable = Data("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 9 0 R >>\n%%EOF\n".utf8)

    /// Writes the file; returns its path.
    @discardableResult
    func write(to path: String) throws -> String {
        let file = try FileDescriptor.createExclusive(path)
        var writer = try Writer(file: file, encryption: try userPassword.map { try R6Encryption(userPassword: $0) })
        let pagesID = 2, fontID = 3, unicodeID = 4, imageID = 5, infoID = 6, firstPageID = 7
        let paddingID = firstPageID + 2 * pages.count
        let encryptID = paddingID + 1
        var fieldIDs: [[Int]] = []
        var nextID = encryptID + 1
        for page in pages {
            fieldIDs.append(Array(nextID..<nextID + page.formValues.count))
            nextID += page.formValues.count
        }
        let allFields = fieldIDs.joined().map { "\($0) 0 R" }.joined(separator: " ")

        let form = allFields.isEmpty ? "" : " /AcroForm << /Fields [\(allFields)] >>"
        try writer.object(1, "<< /Type /Catalog /Pages \(pagesID) 0 R\(form) >>")
        let kids = (0..<pages.count).map { "\(firstPageID + 2 * $0) 0 R" }.joined(separator: " ")
        try writer.object(pagesID, "<< /Type /Pages /Kids [\(kids)] /Count \(pages.count) >>")
        let toUnicode = glyphs == .normal ? "" : " /ToUnicode \(unicodeID) 0 R"
        try writer.object(fontID, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding\(toUnicode) >>")
        try writer.stream(unicodeID, dictionary: "", content: Array(unicodeMap.utf8))
        try writer.stream(imageID, dictionary: "/Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8",
                          content: [0x00, 0xFF, 0xFF, 0x00])
        var info = "<<"
        if let title { info += " /Title \(try writer.string(title, object: infoID))" }
        if let creationDate { info += " /CreationDate \(try writer.string(creationDate, object: infoID))" }
        try writer.object(infoID, info + " >>")
        for (index, page) in pages.enumerated() {
            let pageID = firstPageID + 2 * index
            let annotations = fieldIDs[index].isEmpty ? "" : " /Annots [\(fieldIDs[index].map { "\($0) 0 R" }.joined(separator: " "))]"
            try writer.object(pageID, """
                << /Type /Page /Parent \(pagesID) 0 R /MediaBox [0 0 612 792] /Contents \(pageID + 1) 0 R \
                /Resources << /Font << /F1 \(fontID) 0 R >> /XObject << /Im1 \(imageID) 0 R >> >>\(annotations) >>
                """)
            try writer.stream(pageID + 1, dictionary: "", content: Array(contentStream(page).utf8))
        }
        for (index, page) in pages.enumerated() {
            for (field, value) in zip(fieldIDs[index], page.formValues) {
                let rect = "[72 \(600 - 30 * (field % 10)) 300 \(620 - 30 * (field % 10))]"
                try writer.object(field, """
                    << /Type /Annot /Subtype /Widget /FT /Tx /T \(try writer.string("field\(field)", object: field)) \
                    /V \(try writer.string(value, object: field)) /Rect \(rect) /P \(firstPageID + 2 * index) 0 R >>
                    """)
            }
        }
        if paddingBytes > 0 { try writer.sparseStream(paddingID, length: paddingBytes) }
        var trailerExtra = ""
        if let encryption = writer.encryption {
            try writer.object(encryptID, encryption.dictionary, encrypt: false)
            trailerExtra = " /Encrypt \(encryptID) 0 R"
        }
        let id = "<00112233445566778899aabbccddeeff>"
        try writer.finish(size: nextID, trailer: "/Root 1 0 R /Info \(infoID) 0 R /ID [\(id) \(id)]\(trailerExtra)")
        try file.close()
        return path
    }

    private func contentStream(_ page: Page) -> String {
        var content = ""
        if page.image { content += "q 400 0 0 400 100 300 cm /Im1 Do Q\n" }
        if !page.lines.isEmpty {
            content += "BT /F1 12 Tf 72 720 Td 14 TL\n"
            for line in page.lines {
                let escaped = line.replacingOccurrences(of: "\\", with: "\\\\")
                    .replacingOccurrences(of: "(", with: "\\(").replacingOccurrences(of: ")", with: "\\)")
                content += "(\(escaped)) Tj T*\n"
            }
            content += "ET\n"
        }
        return content
    }

    private var unicodeMap: String {
        let mapping: String
        switch glyphs {
        case .normal, .privateUse: mapping = "<20> <7E> <E020>"
        case .glyphNumbers: mapping = "<20> <7E> <0001>"
        }
        return """
            /CIDInit /ProcSet findresource begin 12 dict begin begincmap
            /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
            /CMapName /Adobe-Identity-UCS def /CMapType 2 def
            1 begincodespacerange <00> <FF> endcodespacerange
            1 beginbfrange \(mapping) endbfrange
            endcmap CMapName currentdict /CMap defineresource pop end end
            """
    }

    /// Serialises objects, remembering their offsets for the cross-reference table.
    private struct Writer {
        let file: FileDescriptor
        let encryption: R6Encryption?
        var offset = 0
        var offsets: [Int: Int] = [:]

        init(file: FileDescriptor, encryption: R6Encryption?) throws {
            self.file = file
            self.encryption = encryption
            try emit("%PDF-1.7\n%\u{e2}\u{e3}\u{cf}\u{d3}\n")
        }

        mutating func emit(_ text: String) throws { try emit(Array(text.utf8)) }

        mutating func emit(_ bytes: [UInt8]) throws {
            try file.write(bytes)
            offset += bytes.count
        }

        mutating func object(_ id: Int, _ body: String, encrypt: Bool = true) throws {
            offsets[id] = offset
            try emit("\(id) 0 obj\n\(body)\nendobj\n")
        }

        /// A string object: a literal, or hex of its AES-256 encryption.
        func string(_ text: String, object: Int) throws -> String {
            guard let encryption else { return "(\(text))" }
            return "<\(try encryption.encrypt(Array(text.utf8)).hex)>"
        }

        mutating func stream(_ id: Int, dictionary: String, content: [UInt8]) throws {
            let bytes = try encryption?.encrypt(content) ?? content
            offsets[id] = offset
            try emit("\(id) 0 obj\n<< \(dictionary) /Length \(bytes.count) >>\nstream\n")
            try emit(bytes)
            try emit("\nendstream\nendobj\n")
        }

        /// A stream of `length` zero bytes, left as a hole in the file.
        mutating func sparseStream(_ id: Int, length: Int) throws {
            offsets[id] = offset
            try emit("\(id) 0 obj\n<< /Length \(length) >>\nstream\n")
            guard lseek(file.fd, off_t(length), SEEK_CUR) >= 0 else {
                throw POSIXIOError(operation: "seek", path: file.path, code: errno)
            }
            offset += length
            try emit("\nendstream\nendobj\n")
        }

        mutating func finish(size: Int, trailer: String) throws {
            let xref = offset
            var table = "xref\n0 \(size)\n0000000000 65535 f \n"
            for id in 1..<size {
                if let position = offsets[id] {
                    table += String(format: "%010d 00000 n \n", position)
                } else {
                    table += "0000000000 65535 f \n"
                }
            }
            try emit(table + "trailer\n<< /Size \(size) \(trailer) >>\nstartxref\n\(xref)\n%%EOF\n")
        }
    }
}

/// The standard security handler, revision 6 (ISO 32000-2 section 7.6.4.4, algorithms 2.B, 8, 9
/// and 10): AES-256 with one random file key for every string and stream.
struct R6Encryption {
    let fileKey: [UInt8]
    let dictionary: String

    init(userPassword: [UInt8], ownerPassword: [UInt8] = Array("owner".utf8)) throws {
        fileKey = try Self.random(32)
        let user = Array(userPassword.prefix(127))
        let owner = Array(ownerPassword.prefix(127))
        let (userValidationSalt, userKeySalt) = (try Self.random(8), try Self.random(8))
        let u = Self.hash(user, salt: userValidationSalt, userKey: []) + userValidationSalt + userKeySalt
        let ue = try Self.aes(256, key: Self.hash(user, salt: userKeySalt, userKey: []), iv: [UInt8](repeating: 0, count: 16),
                              fileKey, padding: false)
        let (ownerValidationSalt, ownerKeySalt) = (try Self.random(8), try Self.random(8))
        let o = Self.hash(owner, salt: ownerValidationSalt, userKey: u) + ownerValidationSalt + ownerKeySalt
        let oe = try Self.aes(256, key: Self.hash(owner, salt: ownerKeySalt, userKey: u), iv: [UInt8](repeating: 0, count: 16),
                              fileKey, padding: false)
        // P = -4: every permission. Bytes 0-3 P, 4-7 0xFF, 8 'T' (metadata encrypted), 9-11 "adb".
        let permissions: [UInt8] = [0xFC, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x54, 0x61, 0x64, 0x62] + (try Self.random(4))
        let perms = try Self.aes(256, key: fileKey, iv: nil, permissions, padding: false)
        dictionary = """
            << /Filter /Standard /V 5 /R 6 /Length 256 /P -4 /EncryptMetadata true \
            /CF << /StdCF << /Type /CryptFilter /CFM /AESV3 /AuthEvent /DocOpen /Length 32 >> >> \
            /StmF /StdCF /StrF /StdCF /O <\(o.hex)> /U <\(u.hex)> /OE <\(oe.hex)> /UE <\(ue.hex)> /Perms <\(perms.hex)> >>
            """
    }

    /// AES-256-CBC with a random IV in front and PKCS#7 padding, as for every string and stream.
    func encrypt(_ plaintext: [UInt8]) throws -> [UInt8] {
        let iv = try Self.random(16)
        return iv + (try Self.aes(256, key: fileKey, iv: iv, plaintext, padding: true))
    }

    /// Algorithm 2.B: SHA-256, then rounds of AES-128-CBC and SHA-256/384/512 chosen by the data.
    static func hash(_ password: [UInt8], salt: [UInt8], userKey: [UInt8]) -> [UInt8] {
        var k = digest(EVP_sha256(), password + salt + userKey)
        var round = 0
        while true {
            let block = password + k + userKey
            var k1: [UInt8] = []
            for _ in 0..<64 { k1 += block }
            let e = try! aes(128, key: Array(k[0..<16]), iv: Array(k[16..<32]), k1, padding: false)
            let selector = e[0..<16].reduce(0) { $0 + Int($1) } % 3
            k = digest(selector == 0 ? EVP_sha256() : selector == 1 ? EVP_sha384() : EVP_sha512(), e)
            round += 1
            if round >= 64 && Int(e.last!) <= round - 32 { break }
        }
        return Array(k[0..<32])
    }

    static func digest(_ type: OpaquePointer?, _ data: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 64)
        var length: UInt32 = 0
        _ = EVP_Digest(data, data.count, &out, &length, type, nil)
        return Array(out[0..<Int(length)])
    }

    /// AES-CBC (or ECB when `iv` is nil) encryption.
    static func aes(_ bits: Int, key: [UInt8], iv: [UInt8]?, _ input: [UInt8], padding: Bool) throws -> [UInt8] {
        let cipher = bits == 128 ? EVP_aes_128_cbc() : (iv == nil ? EVP_aes_256_ecb() : EVP_aes_256_cbc())
        let context = EVP_CIPHER_CTX_new()
        defer { EVP_CIPHER_CTX_free(context) }
        var out = [UInt8](repeating: 0, count: input.count + 32)
        var written: Int32 = 0
        var total = 0
        guard EVP_EncryptInit_ex(context, cipher, nil, key, iv) == 1,
              EVP_CIPHER_CTX_set_padding(context, padding ? 1 : 0) == 1,
              EVP_EncryptUpdate(context, &out, &written, input, Int32(input.count)) == 1 else {
            throw CryptoError.openSSL("EVP_EncryptUpdate")
        }
        total = Int(written)
        let finished = out.withUnsafeMutableBufferPointer { buffer in
            EVP_EncryptFinal_ex(context, buffer.baseAddress! + total, &written)
        }
        guard finished == 1 else { throw CryptoError.openSSL("EVP_EncryptFinal_ex") }
        return Array(out[0..<total + Int(written)])
    }

    static func random(_ count: Int) throws -> [UInt8] {
        try SecureRandom.bytes(count)
    }
}
