/// CRC-32 as zip, gzip and PNG use it (ISO 3309, polynomial 0xEDB88320 reflected; RFC 1952
/// section 8), bit by bit: for the tests that write those formats byte by byte.
public enum CRC32 {
    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
