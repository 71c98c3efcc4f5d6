import PHRModel

/// The plaintext of an encrypted bundle while it is drawn and encrypted: in memory only, and
/// overwritten when done (best effort: the array may have been moved as it grew).
final class PlaintextBuffer {
    private(set) var bytes: [UInt8] = []

    func append(_ chunk: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: chunk)
    }

    func wipe() {
        PHRModel.wipe(&bytes)
    }
}
