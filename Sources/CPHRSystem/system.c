#define _GNU_SOURCE
#include "CPHRSystem.h"

#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdio.h>
#include <limits.h>
#include <stdatomic.h>
#include <string.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

// From <linux/keyctl.h>; spelled out so the build does not need libkeyutils headers.
#define PHR_KEY_SPEC_USER_KEYRING (-4)
#define PHR_KEYCTL_REVOKE 3
#define PHR_KEYCTL_SETPERM 5
#define PHR_KEYCTL_SEARCH 10
#define PHR_KEYCTL_READ 11
#define PHR_KEYCTL_SET_TIMEOUT 15
#define PHR_KEYCTL_INVALIDATE 21
// Possessor: everything. User (same UID): view, read, write, search, setattr. Nobody else.
#define PHR_KEY_PERM 0x3f2f0000u

int32_t phr_keyring_store(const char *description, const void *payload, size_t length,
                          unsigned timeoutSeconds) {
    long serial = syscall(SYS_add_key, "user", description, payload, length,
                          PHR_KEY_SPEC_USER_KEYRING);
    if (serial < 0) return -1;
    if (syscall(SYS_keyctl, PHR_KEYCTL_SETPERM, serial, PHR_KEY_PERM) < 0 ||
        syscall(SYS_keyctl, PHR_KEYCTL_SET_TIMEOUT, serial, timeoutSeconds) < 0) {
        int saved = errno;
        phr_keyring_remove((int32_t)serial);
        errno = saved;
        return -1;
    }
    return (int32_t)serial;
}

int32_t phr_keyring_find(const char *description) {
    long serial = syscall(SYS_keyctl, PHR_KEYCTL_SEARCH, PHR_KEY_SPEC_USER_KEYRING, "user",
                          description, 0);
    return serial < 0 ? -1 : (int32_t)serial;
}

long phr_keyring_read(int32_t serial, void *buffer, size_t length) {
    return syscall(SYS_keyctl, PHR_KEYCTL_READ, serial, buffer, length);
}

int phr_keyring_remove(int32_t serial) {
    if (syscall(SYS_keyctl, PHR_KEYCTL_INVALIDATE, serial) == 0) return 0;
    return syscall(SYS_keyctl, PHR_KEYCTL_REVOKE, serial) == 0 ? 0 : -1;
}

int phr_disable_core_dumps(void) {
    struct rlimit none = {0, 0};
    int rc = setrlimit(RLIMIT_CORE, &none);
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) rc = -1;
    return rc;
}

int phr_die_with_parent(void) {
    // A parent that died before this call goes unnoticed here; the worker then finds its socket
    // closed and exits on its own.
    return prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) == 0 ? 0 : -1;
}

// Files to remove when a terminating signal arrives. The handler may run at any moment, so a
// slot's path is written before the slot is marked in use, and only async-signal-safe calls
// (unlink, sigaction, raise) happen inside it.
#define PHR_CLEANUP_SLOTS 16
static char cleanupPaths[PHR_CLEANUP_SLOTS][PATH_MAX];
static atomic_int cleanupUsed[PHR_CLEANUP_SLOTS];
static atomic_int cleanupInstalled;

static void phrCleanupHandler(int sig) {
    int saved = errno;
    for (int i = 0; i < PHR_CLEANUP_SLOTS; i++) {
        if (atomic_load(&cleanupUsed[i]) == 2) unlink(cleanupPaths[i]);
    }
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(sig, &fallback, NULL);
    errno = saved;
    raise(sig);
}

int phr_cleanup_install(void) {
    int expected = 0;
    if (!atomic_compare_exchange_strong(&cleanupInstalled, &expected, 1)) return 0;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = phrCleanupHandler;
    sigemptyset(&action.sa_mask);
    // Keep a handler someone installed on purpose (an ignored SIGHUP under nohup stays ignored).
    int signals[] = {SIGINT, SIGTERM, SIGHUP};
    sigset_t deliver;
    sigemptyset(&deliver);
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction current;
        if (sigaction(signals[i], NULL, &current) == 0 && current.sa_handler == SIG_IGN) continue;
        sigaction(signals[i], &action, NULL);
        sigaddset(&deliver, signals[i]);
    }
    // A parent that started phr from a thread with every signal blocked (as some runtimes'
    // worker threads are) would make Ctrl-C and SIGTERM wait forever.
    pthread_sigmask(SIG_UNBLOCK, &deliver, NULL);
    return 0;
}

int phr_cleanup_remember(const char *path) {
    size_t length = strlen(path);
    if (length >= PATH_MAX) return -1;
    for (int i = 0; i < PHR_CLEANUP_SLOTS; i++) {
        int expected = 0;
        if (!atomic_compare_exchange_strong(&cleanupUsed[i], &expected, 1)) continue;
        memcpy(cleanupPaths[i], path, length + 1);
        atomic_store(&cleanupUsed[i], 2);
        return i;
    }
    return -1;
}

void phr_cleanup_forget(int slot) {
    if (slot < 0 || slot >= PHR_CLEANUP_SLOTS) return;
    atomic_store(&cleanupUsed[slot], 0);
}

int phr_tmpfile_open(const char *directory, unsigned mode) {
    // Naming the file later goes through /proc/self/fd; without /proc (a chroot, some sandboxes)
    // the caller falls back to a named temporary.
    if (access("/proc/self/fd", F_OK) != 0) {
        errno = EOPNOTSUPP;
        return -1;
    }
    return open(directory, O_TMPFILE | O_WRONLY | O_CLOEXEC, (mode_t)mode);
}

int phr_tmpfile_link(int fd, const char *path) {
    char self[64];
    snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
    return linkat(AT_FDCWD, self, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
}

int phr_flush_stdout(void) {
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) return errno != 0 ? errno : EIO;
    return 0;
}

int phr_pipe_cloexec(int descriptors[2]) {
    return pipe2(descriptors, O_CLOEXEC);
}

long phr_copy_file_range(int in, int out, size_t length) {
    return (long)copy_file_range(in, NULL, out, NULL, length, 0);
}

int phr_peer_uid(int fd, unsigned *uid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    if (length != sizeof credentials) { errno = EINVAL; return -1; }
    *uid = (unsigned)credentials.uid;
    return 0;
}

int phr_accept_cloexec(int fd) {
    return accept4(fd, NULL, NULL, SOCK_CLOEXEC);
}
