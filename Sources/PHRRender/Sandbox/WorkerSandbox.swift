import CPHRSandbox
import Glibc
import PHRModel

/// The confinement every `phr-render` worker puts itself in after its resource limits and before
/// it reads a byte of input (SECURITY.md, "The workers' sandbox"):
///
/// - no new privileges, not dumpable (no core, no ptrace by other processes of the user);
/// - where the kernel has no Landlock: new user, mount, network and IPC namespaces whose root
///   holds only what the worker may read, where the system allows them;
/// - Landlock: the worker may read the system's shared libraries, fonts and Tesseract's models
///   and nothing else: not the user's home, not the vault, not `/proc` (so not another process's
///   memory or environment), not `/etc` beyond the font configuration; it may write no file;
///   where the kernel has it (Landlock ABI 4, 6), no TCP bind or connect, and no signal to a
///   process outside the sandbox;
/// - seccomp-bpf: an allow-list of system calls on every thread. Calls that only an attack makes
///   (the kernel keyring, execve, ptrace, process_vm_readv, ...) kill the worker with SIGSYS;
///   everything else not listed (socket, connect, fork, opening a file for writing) fails with
///   EPERM.
///
/// A worker that cannot confine itself exits with `unconfinedExitStatus` before reading
/// anything; phr reports that document as unread and says why.
public enum WorkerSandbox {
    /// EX_CONFIG: the sandbox could not be set up on this system.
    public static let unconfinedExitStatus: Int32 = WorkerExitStatus.unconfined

    /// What a worker may read beneath: the libraries, fonts and models it loads lazily. The
    /// directories of every library already mapped are added by the C side.
    static func readablePaths(environment: [String: String]) -> [String] {
        ["/usr", "/etc/fonts", "/etc/ld.so.cache", "/etc/localtime", "/var/cache/fontconfig",
         "/dev/null", "/dev/urandom", OCRLanguages.dataDirectory(environment: environment)]
    }

    /// Confines the calling process or exits with `unconfinedExitStatus`, writing the reason to
    /// standard error. `readableDescriptor` is an input folder's descriptor whose tree may be
    /// read (a Google Takeout folder), or -1.
    @discardableResult
    public static func confine(readableDescriptor: Int32 = -1) -> phr_confinement {
        let paths = readablePaths(environment: ProcessEnvironment.variables)
        var pointers = paths.map { strdup($0) }
        defer { pointers.forEach { free($0) } }
        var confinement = phr_confinement()
        var error = [CChar](repeating: 0, count: 256)
        var flags: Int32 = 0
        #if DEBUG
        // The tests of the fallback for kernels without Landlock.
        if ProcessEnvironment["PHR_TEST_SANDBOX_WITHOUT_LANDLOCK"] == "1" { flags |= PHR_SANDBOX_WITHOUT_LANDLOCK }
        #endif
        let status = pointers.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) { base in
                phr_sandbox_confine(base, buffer.count, readableDescriptor, flags, &confinement, &error, error.count)
            }
        }
        guard status == 0 else {
            let message = "phr-render: cannot confine the worker: \(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))\n"
            _ = message.withCString { write(2, $0, strlen($0)) }
            exit(unconfinedExitStatus)
        }
        #if DEBUG
        SandboxProbe.runIfRequested()
        // The tests of the parent's wall-clock deadline: a worker that neither reads nor writes.
        if let hang = ProcessEnvironment["PHR_TEST_WORKER_HANG"], CommandLine.arguments.dropFirst().first == hang {
            while true { sleep(60) }
        }
        // The tests of a reader's memory death: a worker that fills its address space as a
        // parser given a hostile or huge file would, until the Swift runtime cannot allocate.
        if let exhaust = ProcessEnvironment["PHR_TEST_WORKER_EXHAUST"], CommandLine.arguments.dropFirst().first == exhaust {
            var kept: [[UInt8]] = []
            while kept.count < Int.max { kept.append([UInt8](repeating: 1, count: 16 << 20)) }
            _ = kept.count
        }
        #endif
        return confinement
    }
}
