import Glibc

/// How phr starts and confines phr-render, the process that parses untrusted files: one
/// spawn for every kind of worker (text extraction, drawing) and one set of resource limits.
///
/// The parent side (`spawn`) uses posix_spawn(3) rather than Foundation's `Process`, which
/// closes every descriptor above 2: workers get their sockets, pipes and documents at fixed
/// descriptor numbers. The child starts with no signal blocked and every signal at its default
/// action, and with exactly the environment given: nothing of phr's own (PHR_PASSPHRASE and the
/// like) ever reaches a process that parses hostile files. The child side (`applyLimits`) caps
/// memory, CPU, open files and file writes with setrlimit(2) before the worker reads anything.
public enum Sandbox {
    /// What a child's descriptor `target` is: a descriptor of the parent, or /dev/null.
    public enum Source: Sendable {
        case descriptor(Int32)
        case devNull(flags: Int32)
    }

    /// Starts `executable` with `arguments` (argv after argv[0]) and `environment` (KEY=value
    /// entries), giving the child `descriptors` (target number to source); every other
    /// descriptor of the parent is close-on-exec and stays behind. With `ownProcessGroup` the
    /// child leads a process group of its own (a terminal's Ctrl-C does not reach it, and
    /// `kill(-pid, ...)` ends whatever it started). Returns the pid, or throws the errno
    /// posix_spawn gave.
    public static func spawn(executable: String, arguments: [String], environment: [String],
                             descriptors: [Int32: Source], ownProcessGroup: Bool = false) throws -> pid_t {
        // Every source is first copied above the highest target, so no dup2 onto a low number
        // overwrites another one's source (which happens when the parent runs with stdout
        // closed); dup2 clears close-on-exec on the target, and the copies are close-on-exec.
        let floor = (descriptors.keys.max() ?? 2) + 1
        var raised: [Int32] = []
        defer { raised.forEach { close($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for target in descriptors.keys.sorted() {
            switch descriptors[target]! {
            case .descriptor(let source):
                let moved = fcntl(source, F_DUPFD_CLOEXEC, max(floor, 10))
                guard moved >= 0 else { throw SpawnError(code: errno) }
                raised.append(moved)
                posix_spawn_file_actions_adddup2(&actions, moved, target)
            case .devNull(let flags):
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", flags, 0)
            }
        }

        // Nothing else phr holds reaches the child: not the vault's files, not a listening
        // socket (swift-nio opens its sockets without close-on-exec), not a caller's pipe.
        guard closeFrom(&actions, floor) == 0 else { throw SpawnError(code: ENOSYS) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard status == 0 else { throw SpawnError(code: status) }
        return pid
    }

    /// glibc's posix_spawn_file_actions_addclosefrom_np (2.34 and later), which Swift's Glibc
    /// module does not declare: looked up once by name.
    private static let closeFrom: @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32 = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
            return { _, _ in ENOSYS }
        }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// A worker's whole environment: the Swift backtracer off (a crash report is slow and could
    /// print memory), then `extra`. Nothing of phr's own environment (PHR_PASSPHRASE and the like)
    /// ever reaches a worker. Debug builds pass on the sandbox tests' hooks
    /// (`PHR_TEST_SANDBOX_SYSCALL`, `PHR_TEST_EXTRACT_PROBE`, `PHR_TEST_SANDBOX_WITHOUT_LANDLOCK`)
    /// when phr has them.
    public static func workerEnvironment(_ extra: [String] = []) -> [String] {
        var environment = ["SWIFT_BACKTRACE=enable=no"] + extra
        #if DEBUG
        for name in ["PHR_TEST_SANDBOX_SYSCALL", "PHR_TEST_EXTRACT_PROBE", "PHR_TEST_SANDBOX_WITHOUT_LANDLOCK"] {
            if let value = ProcessEnvironment[name] { environment.append("\(name)=\(value)") }
        }
        #endif
        return environment
    }

    /// posix_spawn(3) failed with `code`.
    public struct SpawnError: Error, Equatable {
        public let code: Int32

        package init(code: Int32) {
            self.code = code
        }
    }

    /// The limits a worker puts on itself before it reads anything.
    public struct Limits: Sendable, Equatable {
        /// Address space and data segment, bytes.
        public var memoryBytes: Int
        /// CPU seconds: the soft limit (SIGXCPU) and the hard one (SIGKILL).
        public var cpuSoftSeconds: Int
        public var cpuHardSeconds: Int
        /// Open descriptors.
        public var openFiles: Int

        public init(memoryBytes: Int, cpuSoftSeconds: Int, cpuHardSeconds: Int, openFiles: Int) {
            self.memoryBytes = memoryBytes
            self.cpuSoftSeconds = cpuSoftSeconds
            self.cpuHardSeconds = cpuHardSeconds
            self.openFiles = openFiles
        }
    }

    /// Applies `limits` to the calling process, plus what every worker gets: no core file (it
    /// could hold document content) and no file writes at all (a worker writes only to the
    /// sockets and pipes it was given).
    public static func applyLimits(_ limits: Limits) {
        func set(_ resource: __rlimit_resource, _ soft: Int, _ hard: Int) {
            var limit = rlimit(rlim_cur: rlim_t(soft), rlim_max: rlim_t(hard))
            _ = setrlimit(__rlimit_resource_t(resource.rawValue), &limit)
        }
        set(RLIMIT_AS, limits.memoryBytes, limits.memoryBytes)
        set(RLIMIT_DATA, limits.memoryBytes, limits.memoryBytes)
        set(RLIMIT_CORE, 0, 0)
        set(RLIMIT_FSIZE, 0, 0)
        set(RLIMIT_NOFILE, limits.openFiles, limits.openFiles)
        set(RLIMIT_CPU, limits.cpuSoftSeconds, limits.cpuHardSeconds)
    }
}

/// Exit statuses of a worker that the parent tells apart from a crash.
public enum WorkerExitStatus {
    /// EX_CONFIG: the worker could not confine itself (PHRRender's WorkerSandbox) and read nothing.
    public static let unconfined: Int32 = 78
}
