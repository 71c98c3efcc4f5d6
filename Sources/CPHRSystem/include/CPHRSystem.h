// Linux system calls Swift cannot reach directly (syscall(2) and prctl(2) are variadic).
//
// Kernel key retention service: https://www.kernel.org/doc/html/latest/security/keys/core.html

#ifndef CPHRSYSTEM_H
#define CPHRSYSTEM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Adds (or replaces) a "user" key named `description` in the user keyring, readable only by this
/// user, expiring after `timeoutSeconds`. Returns the key serial, or -1 with errno set.
int32_t phr_keyring_store(const char *description, const void *payload, size_t length,
                          unsigned timeoutSeconds);

/// Finds a "user" key by description in the user keyring. Returns the serial or -1 with errno
/// (ENOKEY, EKEYEXPIRED, EKEYREVOKED, ENOSYS, EPERM, ...).
int32_t phr_keyring_find(const char *description);

/// Reads a key's payload into `buffer`; returns the payload length or -1 with errno.
long phr_keyring_read(int32_t serial, void *buffer, size_t length);

/// Invalidates (or, on old kernels, revokes) a key. Returns 0 or -1 with errno.
int phr_keyring_remove(int32_t serial);

/// Makes the process non-dumpable and sets RLIMIT_CORE to 0, so no core file can hold keys.
/// Returns 0 on success.
int phr_disable_core_dumps(void);

/// Asks the kernel to send SIGKILL to this process when its parent dies, so an extraction worker
/// never outlives the phr process that started it. Returns 0 on success.
int phr_die_with_parent(void);

/// Remembers a file to unlink if SIGINT, SIGTERM or SIGHUP ends the process (an unfinished
/// export holding plaintext). Returns a slot for `phr_cleanup_forget`, or -1 when the table is
/// full or the path too long. Call `phr_cleanup_install` once first.
int phr_cleanup_remember(const char *path);

/// Forgets a slot from `phr_cleanup_remember` (the file was completed or removed).
void phr_cleanup_forget(int slot);

/// Installs the handlers for SIGINT, SIGTERM and SIGHUP that unlink the remembered files and then
/// end the process by the same signal, as the default action would. Idempotent. Returns 0.
int phr_cleanup_install(void);

/// Opens an unnamed file in `directory` for writing (open(2) with O_TMPFILE), mode `mode`. It
/// vanishes with the process unless `phr_tmpfile_link` gives it a name. Returns the descriptor,
/// or -1 with errno (EOPNOTSUPP or EISDIR where the file system cannot do it).
int phr_tmpfile_open(const char *directory, unsigned mode);

/// Gives the unnamed file `fd` the name `path` (linkat(2) through /proc/self/fd). Fails with
/// EEXIST if `path` exists. Returns 0 or -1 with errno.
int phr_tmpfile_link(int fd, const char *path);

/// pipe2(2) with O_CLOEXEC: both ends close-on-exec from the start, so a program another thread
/// starts meanwhile never inherits them (Glibc's Swift module does not export pipe2). Returns 0
/// or -1 with errno.
int phr_pipe_cloexec(int descriptors[2]);

/// copy_file_range(2) of up to `length` bytes from `in` to `out` at their current offsets (the
/// kernel copies; a reflink where the filesystem can). Returns the bytes copied, 0 at the end of
/// `in`, or -1 with errno set (EXDEV, ENOSYS, EOPNOTSUPP or EINVAL: copy another way).
long phr_copy_file_range(int in, int out, size_t length);

/// Flushes C stdio's stdout and reports whether anything written through it failed (a write
/// error now or earlier, e.g. on a full disk). Returns 0 when all of it was written, else errno.
int phr_flush_stdout(void);

/// The user id of the process at the other end of the connected Unix socket `fd` (SO_PEERCRED,
/// as ssh-agent and gpg-agent check it). Returns 0 and sets `uid`, or -1 with errno.
int phr_peer_uid(int fd, unsigned *uid);

/// accept4(2) with SOCK_CLOEXEC (Glibc's Swift module does not export accept4): a connection a
/// program started meanwhile never inherits. Returns the descriptor or -1 with errno.
int phr_accept_cloexec(int fd);

#ifdef __cplusplus
}
#endif

#endif
