import Glibc

/// Wipes a Swift byte array in place (best effort: earlier copies made by the runtime remain).
///
/// `explicit_bzero` rather than OpenSSL's `OPENSSL_cleanse`: PHRModel is shared with phr-render,
/// which links no OpenSSL; both are guaranteed not to be optimised away.
public func wipe(_ bytes: inout [UInt8]) {
    bytes.withUnsafeMutableBytes { buffer in
        if let base = buffer.baseAddress { explicit_bzero(base, buffer.count) }
    }
    bytes.removeAll()
}
