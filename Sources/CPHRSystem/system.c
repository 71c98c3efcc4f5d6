#define _GNU_SOURCE
#include "CPHRSystem.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/resource.h>
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

int phr_flush_stdout(void) {
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) return errno != 0 ? errno : EIO;
    return 0;
}
