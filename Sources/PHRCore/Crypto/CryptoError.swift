import Foundation

/// Failures of the cryptographic primitives. Messages never include key or plaintext bytes.
public enum CryptoError: Error, Equatable, LocalizedError {
    /// The random number generator failed.
    case randomFailed
    /// OpenSSL refused an operation (allocation, parameters); the name says which.
    case openSSL(String)
    /// A ciphertext or tag did not authenticate: wrong key, tampering or damage.
    case authenticationFailed

    public var errorDescription: String? {
        switch self {
        case .randomFailed: return "the system random number generator failed"
        case .openSSL(let operation): return "openssl failed in \(operation)"
        case .authenticationFailed: return "authentication failed (wrong key, tampered or damaged data)"
        }
    }
}
