#define _GNU_SOURCE
#include "CPHRSandbox.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

// ---------------------------------------------------------------------------------------------
// Landlock, spelled out: Debian 12's headers know ABI 2, the kernels phr runs on offer up to 7.

#define PHR_LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#define PHR_LANDLOCK_RULE_PATH_BENEATH 1

#define PHR_LL_EXECUTE (1ULL << 0)
#define PHR_LL_WRITE_FILE (1ULL << 1)
#define PHR_LL_READ_FILE (1ULL << 2)
#define PHR_LL_READ_DIR (1ULL << 3)
#define PHR_LL_REFER (1ULL << 13)      // ABI 2
#define PHR_LL_TRUNCATE (1ULL << 14)   // ABI 3
#define PHR_LL_IOCTL_DEV (1ULL << 15)  // ABI 5
#define PHR_LL_NET_BIND_TCP (1ULL << 0)     // ABI 4
#define PHR_LL_NET_CONNECT_TCP (1ULL << 1)  // ABI 4
#define PHR_LL_SCOPE_ABSTRACT_UNIX (1ULL << 0)  // ABI 6
#define PHR_LL_SCOPE_SIGNAL (1ULL << 1)         // ABI 6

struct phr_landlock_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

struct phr_landlock_path_beneath_attr {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif

static void fail(char *error, size_t length, const char *format, ...) {
    if (!error || length == 0) return;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(error, length, format, arguments);
    va_end(arguments);
}

int phr_sandbox_landlock_abi(void) {
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, PHR_LANDLOCK_CREATE_RULESET_VERSION);
    return abi < 0 ? 0 : (int)abi;
}

int phr_sandbox_seccomp_mode(void) { return prctl(PR_GET_SECCOMP, 0, 0, 0, 0); }

int phr_sandbox_no_new_privs(void) { return prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0); }

static int countThreads(void) {
    DIR *tasks = opendir("/proc/self/task");
    if (!tasks) return -1;
    int count = 0;
    struct dirent *entry;
    while ((entry = readdir(tasks))) {
        if (entry->d_name[0] != '.') count++;
    }
    closedir(tasks);
    return count;
}

/// The read rights a rule may grant: a directory's tree, or one file.
static int addReadRule(int ruleset, int fd, int isDirectory) {
    struct phr_landlock_path_beneath_attr rule = {
        .allowed_access = isDirectory ? (PHR_LL_READ_FILE | PHR_LL_READ_DIR) : PHR_LL_READ_FILE,
        .parent_fd = fd,
    };
    return (int)syscall(SYS_landlock_add_rule, ruleset, PHR_LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
}

/// Adds a read rule for `path` when it exists; a missing path is no error (a machine without
/// /var/cache/fontconfig still works).
static int addReadPath(int ruleset, const char *path) {
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) return 0;
    struct stat info;
    int result = 0;
    if (fstat(fd, &info) == 0) result = addReadRule(ruleset, fd, S_ISDIR(info.st_mode));
    close(fd);
    return result;
}

/// Every file mapped into the process now (the program, the Swift runtime, poppler...): its
/// directory may be read, so libraries loaded later from the same place (glib's modules,
/// iconv's gconv) load too. Not /proc, and not the program's own directory for a program in a
/// build tree: for the program itself only its file is visited.
static int forEachMappedPath(int (*visit)(const char *path, void *context), void *context) {
    FILE *maps = fopen("/proc/self/maps", "re");
    if (!maps) return 0;
    char self[PATH_MAX];
    ssize_t selfLength = readlink("/proc/self/exe", self, sizeof self - 1);
    self[selfLength > 0 ? selfLength : 0] = 0;
    char line[PATH_MAX + 128];
    static char added[64][PATH_MAX];
    int addedCount = 0;
    int result = 0;
    while (fgets(line, sizeof line, maps)) {
        char *path = strchr(line, '/');
        if (!path) continue;
        path[strcspn(path, "\n")] = 0;
        if (strncmp(path, "/proc/", 6) == 0 || strncmp(path, "/dev/", 5) == 0 || strstr(path, " (deleted)")) continue;
        char directory[PATH_MAX];
        snprintf(directory, sizeof directory, "%s", path);
        if (strcmp(path, self) != 0) {
            char *slash = strrchr(directory, '/');
            if (!slash || slash == directory) continue;
            *slash = 0;
        }
        int seen = 0;
        for (int i = 0; i < addedCount; i++) {
            if (strcmp(added[i], directory) == 0) { seen = 1; break; }
        }
        if (seen) continue;
        if (addedCount < 64) snprintf(added[addedCount++], PATH_MAX, "%s", directory);
        if (visit(directory, context) != 0) result = -1;
    }
    fclose(maps);
    return result;
}

static int visitReadRule(const char *path, void *context) { return addReadPath(*(int *)context, path); }

static int applyLandlock(int abi, const char *const *readable, size_t readableCount, int readableDescriptor,
                         phr_confinement *out, char *error, size_t errorLength) {
    struct phr_landlock_ruleset_attr attributes = {0};
    size_t size = sizeof attributes.handled_access_fs;
    attributes.handled_access_fs = (1ULL << 13) - 1;  // ABI 1: execute ... make_sym
    if (abi >= 2) attributes.handled_access_fs |= PHR_LL_REFER;
    if (abi >= 3) attributes.handled_access_fs |= PHR_LL_TRUNCATE;
    if (abi >= 5) attributes.handled_access_fs |= PHR_LL_IOCTL_DEV;
    if (abi >= 4) {
        attributes.handled_access_net = PHR_LL_NET_BIND_TCP | PHR_LL_NET_CONNECT_TCP;
        size = offsetof(struct phr_landlock_ruleset_attr, scoped);
    }
    if (abi >= 6) {
        attributes.scoped = PHR_LL_SCOPE_ABSTRACT_UNIX | PHR_LL_SCOPE_SIGNAL;
        size = sizeof attributes;
    }
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attributes, size, 0);
    if (ruleset < 0) {
        fail(error, errorLength, "Landlock refused a ruleset (%s)", strerror(errno));
        return -1;
    }
    int result = 0;
    for (size_t i = 0; i < readableCount && result == 0; i++) {
        if (addReadPath(ruleset, readable[i]) != 0) {
            fail(error, errorLength, "Landlock refused a rule for %s (%s)", readable[i], strerror(errno));
            result = -1;
        }
    }
    if (result == 0 && forEachMappedPath(visitReadRule, &ruleset) != 0) {
        fail(error, errorLength, "Landlock refused a rule for a mapped library (%s)", strerror(errno));
        result = -1;
    }
    if (result == 0 && readableDescriptor >= 0) {
        struct stat info;
        if (fstat(readableDescriptor, &info) == 0 && S_ISDIR(info.st_mode)
            && addReadRule(ruleset, readableDescriptor, 1) != 0) {
            fail(error, errorLength, "Landlock refused a rule for the input folder (%s)", strerror(errno));
            result = -1;
        }
    }
    if (result == 0 && syscall(SYS_landlock_restrict_self, ruleset, 0) != 0) {
        fail(error, errorLength, "Landlock could not restrict the worker (%s)", strerror(errno));
        result = -1;
    }
    close(ruleset);
    if (result == 0) {
        out->landlockFiles = 1;
        out->landlockNetwork = abi >= 4;
        out->landlockScopes = abi >= 6;
    }
    return result;
}

// ---------------------------------------------------------------------------------------------
// seccomp-bpf

#if defined(__x86_64__)
#define PHR_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define PHR_AUDIT_ARCH AUDIT_ARCH_AARCH64
#else
#error "phr-render's seccomp filter knows x86_64 and aarch64"
#endif

#define PHR_FILTER_CAPACITY 512
#define ARG_LOW(index) ((uint32_t)offsetof(struct seccomp_data, args) + 8u * (index))
#define RET_EPERM (SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA))
#define RET_ENOSYS (SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA))

typedef struct {
    struct sock_filter code[PHR_FILTER_CAPACITY];
    unsigned short length;
    int overflow;
} Program;

static void emit(Program *program, struct sock_filter instruction) {
    if (program->length >= PHR_FILTER_CAPACITY) {
        program->overflow = 1;
        return;
    }
    program->code[program->length++] = instruction;
}

#define STMT(code, k) ((struct sock_filter)BPF_STMT(code, k))
#define JUMP(code, k, jt, jf) ((struct sock_filter)BPF_JUMP(code, k, jt, jf))

/// `nr` ends in `action`, whatever its arguments.
static void rule(Program *program, long nr, uint32_t action) {
    emit(program, JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, 1));
    emit(program, STMT(BPF_RET | BPF_K, action));
}

/// `nr` is allowed when none of `mask`'s bits are set in argument `index`; refused otherwise.
static void allowWithout(Program *program, long nr, unsigned index, uint32_t mask, uint32_t refusal) {
    emit(program, JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, 4));
    emit(program, STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LOW(index)));
    emit(program, JUMP(BPF_JMP | BPF_JSET | BPF_K, mask, 1, 0));
    emit(program, STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    emit(program, STMT(BPF_RET | BPF_K, refusal));
}

/// `nr` is allowed when argument `index` is one of `values`; refused with EPERM otherwise.
static void allowIn(Program *program, long nr, unsigned index, const uint32_t *values, unsigned count) {
    emit(program, JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, (unsigned char)(count + 3)));
    emit(program, STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LOW(index)));
    for (unsigned i = 0; i < count; i++) {
        emit(program, JUMP(BPF_JMP | BPF_JEQ | BPF_K, values[i], (unsigned char)(count - i), 0));
    }
    emit(program, STMT(BPF_RET | BPF_K, RET_EPERM));
    emit(program, STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
}

/// clone(2) for a thread of this process only: CLONE_THREAD set, no namespace flag.
static void allowThreadClone(Program *program) {
    const uint32_t namespaces = CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER
        | CLONE_NEWPID | CLONE_NEWNET;
    emit(program, JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 5));
    emit(program, STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LOW(0)));
    emit(program, JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 2));
    emit(program, JUMP(BPF_JMP | BPF_JSET | BPF_K, namespaces, 1, 0));
    emit(program, STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    emit(program, STMT(BPF_RET | BPF_K, RET_EPERM));
}

static void buildFilter(Program *program, pid_t self) {
    emit(program, STMT(BPF_LD | BPF_W | BPF_ABS, (uint32_t)offsetof(struct seccomp_data, arch)));
    emit(program, JUMP(BPF_JMP | BPF_JEQ | BPF_K, PHR_AUDIT_ARCH, 1, 0));
    emit(program, STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
    emit(program, STMT(BPF_LD | BPF_W | BPF_ABS, (uint32_t)offsetof(struct seccomp_data, nr)));
#if defined(__x86_64__)
    // The x32 ABI's numbers (bit 30) would bypass every rule below.
    emit(program, JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1));
    emit(program, STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
#endif

    // What only an attack does: reach the keys in the kernel keyring, run a program, look into
    // another process. The worker dies at once (SIGSYS), and phr reports it for the document.
    static const long forbidden[] = {
        SYS_keyctl, SYS_add_key, SYS_request_key, SYS_execve, SYS_execveat, SYS_ptrace,
        SYS_process_vm_readv, SYS_process_vm_writev, SYS_kcmp, SYS_pidfd_open, SYS_pidfd_getfd,
        SYS_bpf, SYS_perf_event_open, SYS_userfaultfd, SYS_unshare, SYS_setns, SYS_mount, SYS_umount2,
        SYS_pivot_root, SYS_chroot, SYS_init_module, SYS_finit_module, SYS_delete_module, SYS_kexec_load,
        SYS_reboot, SYS_open_by_handle_at, SYS_name_to_handle_at, SYS_io_uring_setup, SYS_io_uring_enter,
        SYS_io_uring_register,
    };
    for (size_t i = 0; i < sizeof forbidden / sizeof forbidden[0]; i++) rule(program, forbidden[i], SECCOMP_RET_KILL_PROCESS);

    // Opening for reading only: the worker writes to the descriptors it was given, never to a file.
    // O_TMPFILE's own bit: glibc's __O_TMPFILE includes O_DIRECTORY, which reading a folder needs.
    const uint32_t writing = O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND | 020000000;
    allowWithout(program, SYS_openat, 2, writing, RET_EPERM);
#ifdef SYS_open
    allowWithout(program, SYS_open, 1, writing, RET_EPERM);
#endif
    // glibc's pthread_create tries clone3 first and falls back to clone on ENOSYS; clone3's
    // flags are in memory a filter cannot read, so clone is the one checked.
    rule(program, SYS_clone3, RET_ENOSYS);
    allowThreadClone(program);
    // Signals to itself only (raise, abort): never to phr or another process.
    const uint32_t selfPid[] = {(uint32_t)self};
    allowIn(program, SYS_kill, 0, selfPid, 1);
    allowIn(program, SYS_tgkill, 0, selfPid, 1);
    const uint32_t ownLimits[] = {0, (uint32_t)self};
    allowIn(program, SYS_prlimit64, 0, ownLimits, 2);
    // Terminal and descriptor queries (isatty, FIONREAD), and close-on-exec.
    const uint32_t ioctls[] = {TCGETS, TIOCGWINSZ, FIONREAD, FIONBIO, FIOCLEX, FIONCLEX};
    allowIn(program, SYS_ioctl, 1, ioctls, sizeof ioctls / sizeof ioctls[0]);
    // A thread's name, the stack guard's label, and what the sandbox reports about itself.
    const uint32_t prctls[] = {PR_SET_NAME, PR_GET_NAME, 0x53564d41 /* PR_SET_VMA */, PR_GET_DUMPABLE,
                               PR_GET_SECCOMP, PR_GET_NO_NEW_PRIVS};
    allowIn(program, SYS_prctl, 0, prctls, sizeof prctls / sizeof prctls[0]);

    static const long allowed[] = {
        // Descriptors the worker was given or opened for reading.
        SYS_read, SYS_write, SYS_readv, SYS_writev, SYS_pread64, SYS_pwrite64, SYS_preadv, SYS_preadv2,
        SYS_pwritev, SYS_lseek, SYS_close, SYS_close_range, SYS_fstat, SYS_newfstatat, SYS_statx,
        SYS_fstatfs, SYS_statfs, SYS_getdents64, SYS_fcntl, SYS_dup, SYS_dup3, SYS_readlinkat,
        SYS_faccessat, SYS_faccessat2, SYS_fadvise64, SYS_fsync, SYS_fdatasync, SYS_getcwd,
        SYS_sendmsg, SYS_recvmsg, SYS_sendto, SYS_recvfrom, SYS_shutdown, SYS_getsockopt,
        SYS_getsockname, SYS_getpeername, SYS_pipe2, SYS_ppoll, SYS_pselect6, SYS_epoll_create1,
        SYS_epoll_ctl, SYS_epoll_pwait, SYS_eventfd2, SYS_timerfd_create, SYS_timerfd_settime,
        SYS_timerfd_gettime,
        // Memory.
        SYS_brk, SYS_mmap, SYS_munmap, SYS_mremap, SYS_mprotect, SYS_madvise, SYS_mincore, SYS_membarrier,
        SYS_get_mempolicy, SYS_set_mempolicy,
        // Threads, time, signals of its own, limits, identity.
        SYS_futex, SYS_set_robust_list, SYS_get_robust_list, SYS_rseq, SYS_set_tid_address,
        SYS_sched_yield, SYS_sched_getaffinity, SYS_sched_getparam, SYS_sched_getscheduler,
        SYS_sched_get_priority_max, SYS_sched_get_priority_min, SYS_getpriority,
        SYS_clock_gettime, SYS_clock_getres, SYS_clock_nanosleep, SYS_nanosleep, SYS_gettimeofday,
        SYS_times, SYS_getrusage, SYS_setrlimit, SYS_getrlimit, SYS_getpid, SYS_gettid, SYS_getppid,
        SYS_getuid, SYS_geteuid, SYS_getgid, SYS_getegid, SYS_getresuid, SYS_getresgid, SYS_getgroups,
        SYS_uname, SYS_sysinfo, SYS_umask, SYS_getrandom, SYS_rt_sigaction, SYS_rt_sigprocmask,
        SYS_rt_sigreturn, SYS_rt_sigtimedwait, SYS_rt_sigpending, SYS_sigaltstack, SYS_restart_syscall,
        SYS_exit, SYS_exit_group,
#if defined(__x86_64__)
        SYS_arch_prctl, SYS_stat, SYS_lstat, SYS_access, SYS_readlink, SYS_dup2, SYS_pipe, SYS_poll,
        SYS_select, SYS_epoll_create, SYS_epoll_wait, SYS_eventfd, SYS_time,
#endif
    };
    for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++) rule(program, allowed[i], SECCOMP_RET_ALLOW);

    // Everything else, sockets and connect among them, is refused.
    emit(program, STMT(BPF_RET | BPF_K, RET_EPERM));
}

static int applySeccomp(char *error, size_t errorLength) {
    static Program program;
    memset(&program, 0, sizeof program);
    buildFilter(&program, getpid());
    if (program.overflow) {
        fail(error, errorLength, "the seccomp filter is longer than %d instructions", PHR_FILTER_CAPACITY);
        return -1;
    }
    struct sock_fprog filter = {.len = program.length, .filter = program.code};
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &filter) != 0) {
        fail(error, errorLength, "the kernel refused the seccomp filter (%s)", strerror(errno));
        return -1;
    }
    return 0;
}

// ---------------------------------------------------------------------------------------------
// Without Landlock: a user, mount, network and IPC namespace whose root holds only what the
// worker may read (bind mounts of the same paths), as bubblewrap and Chromium's namespace
// sandbox do. Needs unprivileged user namespaces (or root).

static int writeFile(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t length = (ssize_t)strlen(text);
    ssize_t written = write(fd, text, (size_t)length);
    close(fd);
    return written == length ? 0 : -1;
}

/// Creates `path` (a directory, or an empty file when `file`) and its parents.
static int makePath(const char *path, int file) {
    char partial[PATH_MAX];
    snprintf(partial, sizeof partial, "%s", path);
    for (char *slash = strchr(partial + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = 0;
        if (mkdir(partial, 0755) != 0 && errno != EEXIST) return -1;
        *slash = '/';
    }
    if (file) {
        int fd = open(partial, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) return -1;
        close(fd);
        return 0;
    }
    return mkdir(partial, 0755) == 0 || errno == EEXIST ? 0 : -1;
}

#define PHR_NEW_ROOT "/tmp"

/// Binds `path` (when it exists) at the same place under the new root.
static int bindIntoRoot(const char *path, void *context) {
    (void)context;
    struct stat info;
    if (stat(path, &info) != 0) return 0;
    char target[PATH_MAX];
    if (snprintf(target, sizeof target, "%s%s", PHR_NEW_ROOT, path) >= (int)sizeof target) return -1;
    if (makePath(target, !S_ISDIR(info.st_mode)) != 0) return -1;
    return mount(path, target, NULL, MS_BIND | MS_REC, NULL);
}

static int applyNamespaces(const char *const *readable, size_t readableCount, char *error, size_t errorLength) {
    uid_t uid = getuid();
    gid_t gid = getgid();
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC) != 0) {
        fail(error, errorLength, "no user namespace (%s)", strerror(errno));
        return -1;
    }
    char map[64];
    snprintf(map, sizeof map, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
    if (writeFile("/proc/self/setgroups", "deny") != 0 || writeFile("/proc/self/uid_map", map) != 0) {
        fail(error, errorLength, "the user namespace's id map was refused (%s)", strerror(errno));
        return -1;
    }
    snprintf(map, sizeof map, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
    if (writeFile("/proc/self/gid_map", map) != 0) {
        fail(error, errorLength, "the user namespace's group map was refused (%s)", strerror(errno));
        return -1;
    }
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0
        || mount("phr-render", PHR_NEW_ROOT, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755") != 0) {
        fail(error, errorLength, "an empty root could not be mounted (%s)", strerror(errno));
        return -1;
    }
    // The mapped libraries first: their paths are read from /proc, which the new root lacks.
    if (forEachMappedPath(bindIntoRoot, NULL) != 0) {
        fail(error, errorLength, "a mapped library could not be bound into the new root (%s)", strerror(errno));
        return -1;
    }
    for (size_t i = 0; i < readableCount; i++) {
        if (bindIntoRoot(readable[i], NULL) != 0) {
            fail(error, errorLength, "%s could not be bound into the new root (%s)", readable[i], strerror(errno));
            return -1;
        }
    }
    if (mkdir(PHR_NEW_ROOT "/.old", 0700) != 0 || syscall(SYS_pivot_root, PHR_NEW_ROOT, PHR_NEW_ROOT "/.old") != 0
        || chdir("/") != 0 || umount2("/.old", MNT_DETACH) != 0 || rmdir("/.old") != 0) {
        fail(error, errorLength, "the worker could not move into its new root (%s)", strerror(errno));
        return -1;
    }
    // Read-only from here: nothing in the new root may be changed (the bound trees are the
    // system's own; the filter refuses opening for writing too).
    if (mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL) != 0) {
        fail(error, errorLength, "the new root could not be made read-only (%s)", strerror(errno));
        return -1;
    }
    return 0;
}

int phr_sandbox_confine(const char *const *readable, size_t readableCount, int readableDescriptor,
                        int flags, phr_confinement *out, char *error, size_t errorLength) {
    phr_confinement result;
    memset(&result, 0, sizeof result);
    if (error && errorLength) error[0] = 0;
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) {
        fail(error, errorLength, "PR_SET_DUMPABLE failed (%s)", strerror(errno));
        return -1;
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        fail(error, errorLength, "PR_SET_NO_NEW_PRIVS failed (%s)", strerror(errno));
        return -1;
    }
    result.noNewPrivileges = 1;
    result.threads = countThreads();
    result.landlockABI = (flags & PHR_SANDBOX_WITHOUT_LANDLOCK) ? 0 : phr_sandbox_landlock_abi();
    if (result.threads != 1) {
        // Landlock and unshare(CLONE_NEWUSER) act on the calling thread (or refuse more).
        fail(error, errorLength, "the worker has %d threads; its sandbox would confine only one", result.threads);
        return -1;
    }
    if (result.landlockABI > 0) {
        if (applyLandlock(result.landlockABI, readable, readableCount, readableDescriptor, &result, error, errorLength) != 0) {
            return -1;
        }
    } else {
        // No Landlock: the namespaces where the system allows them, else the filter alone
        // (reported, never fatal: the filter still keeps the keys, programs and the network out).
        char reason[160] = {0};
        if (applyNamespaces(readable, readableCount, reason, sizeof reason) == 0) {
            result.namespaces = 1;
        } else if (result.noNewPrivileges) {
            snprintf(result.namespaceFailure, sizeof result.namespaceFailure, "%s", reason);
        }
    }
    if (applySeccomp(error, errorLength) != 0) return -1;
    result.seccompFilter = 1;
    if (out) *out = result;
    return 0;
}

long phr_sandbox_try_keyring_search(const char *description) {
    return syscall(SYS_keyctl, 10 /* KEYCTL_SEARCH */, -4 /* KEY_SPEC_USER_KEYRING */, "user", description, 0);
}

long phr_sandbox_try_keyring_read(long serial, void *buffer, size_t length) {
    return syscall(SYS_keyctl, 11 /* KEYCTL_READ */, serial, buffer, length);
}

long phr_sandbox_try_ptrace_parent(void) { return ptrace(PTRACE_ATTACH, getppid(), NULL, NULL); }

long phr_sandbox_try_read_parent_memory(void) {
    char byte = 0;
    struct iovec local = {.iov_base = &byte, .iov_len = 1};
    struct iovec remote = {.iov_base = (void *)0x400000, .iov_len = 1};
    return process_vm_readv(getppid(), &local, 1, &remote, 1, 0);
}
