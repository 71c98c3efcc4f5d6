// The confinement of phr-render's workers: no new privileges, Landlock (the files a worker may
// read) and a seccomp-bpf allow-list of system calls. SECURITY.md, "The workers' sandbox", says
// what each layer stops and why.

#ifndef CPHRSANDBOX_H
#define CPHRSANDBOX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What `phr_sandbox_confine` put in place.
typedef struct {
    /// PR_SET_NO_NEW_PRIVS is set (required for an unprivileged seccomp filter).
    int noNewPrivileges;
    /// The kernel's Landlock ABI version, 0 when the kernel has no Landlock.
    int landlockABI;
    /// 1 when a Landlock ruleset now restricts the worker's file access.
    int landlockFiles;
    /// 1 when Landlock also denies TCP bind and connect (ABI 4 and later).
    int landlockNetwork;
    /// 1 when Landlock scopes signals and abstract Unix sockets to the worker (ABI 6 and later).
    int landlockScopes;
    /// 1 when, without Landlock, the worker runs in new user, mount, network and IPC namespaces
    /// whose root holds only what it may read.
    int namespaces;
    /// Why those namespaces could not be made (empty when they were, or were not needed).
    char namespaceFailure[160];
    /// 1 when the seccomp filter is installed on every thread.
    int seccompFilter;
    /// Threads the process had when it was confined (Landlock binds the calling thread and
    /// those it starts later, so confinement refuses to run with more than one).
    int threads;
} phr_confinement;

/// Confines the calling process for good. `readable` lists directories and files the worker
/// may read beneath (the fonts, Tesseract's models, the shared libraries it maps); the
/// directories of every file already mapped into the process are added. `readableDescriptor`,
/// when not negative, is a directory descriptor whose tree may be read too (a Takeout folder).
/// Everything else on the file system is refused (EACCES), and so is every write.
///
/// The seccomp filter kills the process (SIGSYS) on a system call that only an attack makes
/// (the keyring, execve, ptrace, process_vm_readv and the like), refuses with EPERM every other
/// call it does not list (sockets, connect, fork, opening for writing...), and allows the rest.
///
/// Where the kernel has no Landlock, the worker moves into new user, mount, network and IPC
/// namespaces whose root holds bind mounts of the readable paths only, when the system allows
/// unprivileged user namespaces; where it does not either, the filter alone is in place
/// (reported in `out`, not an error).
///
/// Returns 0 when every layer the kernel offers is in place, or -1 with `error` filled in
/// (the worker must then stop: it never reads input unconfined).
int phr_sandbox_confine(const char *const *readable, size_t readableCount, int readableDescriptor,
                        int flags, phr_confinement *out, char *error, size_t errorLength);

/// `flags` for `phr_sandbox_confine`: behave as on a kernel without Landlock (the tests of the
/// namespace fallback).
#define PHR_SANDBOX_WITHOUT_LANDLOCK 1

/// The Landlock ABI version this kernel offers (0 when none), without confining anything.
int phr_sandbox_landlock_abi(void);

/// Reads `PR_GET_SECCOMP` and `PR_GET_NO_NEW_PRIVS` for the calling thread: what a confined
/// process can still learn about itself (it may not read /proc).
int phr_sandbox_seccomp_mode(void);
int phr_sandbox_no_new_privs(void);

/// What the sandbox tests try from inside a confined worker (debug builds call them only):
/// each returns what the system call returned (-1 with errno when refused); the forbidden ones
/// never return under the filter.
long phr_sandbox_try_keyring_search(const char *description);
long phr_sandbox_try_keyring_read(long serial, void *buffer, size_t length);
long phr_sandbox_try_ptrace_parent(void);
long phr_sandbox_try_read_parent_memory(void);

#ifdef __cplusplus
}
#endif

#endif
