import Glibc

/// AF_UNIX stream sockets that can carry file descriptors (SCM_RIGHTS), for the worker protocol.
///
/// Passing the document's descriptor lets a worker read the file itself, so the parent never
/// holds a document in memory and a memfd with content decrypted from the vault needs no path.
/// Glibc's CMSG_* macros are not visible to Swift; the control-message layout is computed here as
/// the macros do: a `cmsghdr`, then the data aligned to `size_t`.
/// https://man7.org/linux/man-pages/man7/unix.7.html , https://man7.org/linux/man-pages/man3/cmsg.3.html
package enum UnixSocket {
    /// A connected pair, both ends close-on-exec.
    package static func pair() throws -> (Int32, Int32) {
        var descriptors: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &descriptors) == 0 else {
            throw ExtractionError.system(operation: "socketpair", code: errno)
        }
        return (descriptors[0], descriptors[1])
    }

    /// Sends all of `bytes`, the first chunk carrying `descriptor` (if any) as SCM_RIGHTS.
    /// MSG_NOSIGNAL: a dead peer is an EPIPE error, not a SIGPIPE that kills phr.
    package static func send(_ socket: Int32, _ bytes: [UInt8], passing descriptor: Int32? = nil) throws {
        var sent = 0
        var pendingDescriptor = descriptor
        while sent < bytes.count {
            let count = try bytes.withUnsafeBytes { buffer -> Int in
                var vector = iovec(iov_base: UnsafeMutableRawPointer(mutating: buffer.baseAddress! + sent),
                                   iov_len: buffer.count - sent)
                return try withUnsafeMutablePointer(to: &vector) { vectorPointer in
                    var message = msghdr()
                    message.msg_iov = vectorPointer
                    message.msg_iovlen = 1
                    guard let descriptorToPass = pendingDescriptor else {
                        return try sendRetrying(socket, &message)
                    }
                    let space = controlSpace(descriptorCount: 1)
                    let control = UnsafeMutableRawPointer.allocate(byteCount: space, alignment: MemoryLayout<cmsghdr>.alignment)
                    defer { control.deallocate() }
                    control.initializeMemory(as: UInt8.self, repeating: 0, count: space)
                    let header = control.bindMemory(to: cmsghdr.self, capacity: 1)
                    header.pointee.cmsg_len = controlLength(descriptorCount: 1)
                    header.pointee.cmsg_level = SOL_SOCKET
                    header.pointee.cmsg_type = Int32(SCM_RIGHTS)
                    (control + alignedHeaderSize).storeBytes(of: descriptorToPass, as: Int32.self)
                    message.msg_control = control
                    message.msg_controllen = space
                    return try sendRetrying(socket, &message)
                }
            }
            if count > 0 { pendingDescriptor = nil }
            sent += count
        }
    }

    /// Reads what is available (blocking if nothing is), collecting any descriptors that came
    /// with it; they are close-on-exec (MSG_CMSG_CLOEXEC). Returns 0 bytes at end of stream.
    package static func receive(_ socket: Int32, into buffer: UnsafeMutableRawBufferPointer,
                        descriptors: inout [Int32]) throws -> Int {
        let maximumDescriptors = 4
        let space = controlSpace(descriptorCount: maximumDescriptors)
        let control = UnsafeMutableRawPointer.allocate(byteCount: space, alignment: MemoryLayout<cmsghdr>.alignment)
        defer { control.deallocate() }
        control.initializeMemory(as: UInt8.self, repeating: 0, count: space)
        var vector = iovec(iov_base: buffer.baseAddress, iov_len: buffer.count)
        var message = msghdr()
        let count = try withUnsafeMutablePointer(to: &vector) { vectorPointer -> Int in
            message.msg_iov = vectorPointer
            message.msg_iovlen = 1
            message.msg_control = control
            message.msg_controllen = space
            while true {
                let received = recvmsg(socket, &message, Int32(MSG_CMSG_CLOEXEC))
                if received < 0 && errno == EINTR { continue }
                return try checked(received, "recvmsg")
            }
        }
        var offset = 0
        while offset + alignedHeaderSize <= message.msg_controllen {
            let header = (control + offset).load(as: cmsghdr.self)
            guard header.cmsg_len >= alignedHeaderSize, offset + header.cmsg_len <= message.msg_controllen else { break }
            if header.cmsg_level == SOL_SOCKET && header.cmsg_type == Int32(SCM_RIGHTS) {
                let dataCount = (header.cmsg_len - alignedHeaderSize) / MemoryLayout<Int32>.size
                for index in 0..<dataCount {
                    descriptors.append((control + offset + alignedHeaderSize + index * 4).loadUnaligned(as: Int32.self))
                }
            }
            offset += align(header.cmsg_len)
        }
        if message.msg_flags & Int32(MSG_CTRUNC) != 0 {
            throw ExtractionError.protocolViolation(detail: "too many descriptors in one message")
        }
        return count
    }

    private static func sendRetrying(_ socket: Int32, _ message: inout msghdr) throws -> Int {
        while true {
            let sent = sendmsg(socket, &message, Int32(MSG_NOSIGNAL))
            if sent < 0 && errno == EINTR { continue }
            return try checked(sent, "sendmsg")
        }
    }

    // CMSG_ALIGN, CMSG_LEN and CMSG_SPACE.
    private static func align(_ length: Int) -> Int {
        let unit = MemoryLayout<Int>.size
        return (length + unit - 1) & ~(unit - 1)
    }

    private static var alignedHeaderSize: Int { align(MemoryLayout<cmsghdr>.size) }

    private static func controlLength(descriptorCount: Int) -> Int {
        alignedHeaderSize + descriptorCount * MemoryLayout<Int32>.size
    }

    private static func controlSpace(descriptorCount: Int) -> Int {
        alignedHeaderSize + align(descriptorCount * MemoryLayout<Int32>.size)
    }

    private static func checked(_ result: Int, _ operation: String) throws -> Int {
        guard result >= 0 else { throw ExtractionError.system(operation: operation, code: errno) }
        return result
    }
}
