// CPHRVFS: the SQLite VFS shim that encrypts every page of a phr vault database and of its
// rollback journal with AES-256-GCM.
//
// The on-disk page format is specified in Schemas/vault-format-v1.md; SECURITY.md explains why.
// In short, for a 4096-byte page whose last 32 bytes SQLite leaves to us (the "reserve"):
//
//   bytes    0 .. 4063   AES-256-GCM ciphertext of the page content
//   bytes 4064 .. 4075   96-bit random nonce
//   bytes 4076 .. 4091   128-bit GCM tag
//   bytes 4092 .. 4095   zero
//
// The associated data is the file kind ('D' database, 'J' journal) and the page number, so a page
// cannot be moved to another position or between the database and its journal unnoticed. Page 1
// keeps bytes 0..23 in the clear (a phr magic in place of "SQLite format 3", then SQLite's page
// size, versions and reserve bytes) and authenticates them as associated data.
//
// Keys never appear in a filename: the caller registers a 32-byte key with `phr_key_register`
// and opens `file:/path/vault.db?vfs=phr&phrkey=<handle>`. Temporary files, WAL and memory
// mapping are refused so that nothing SQLite writes can bypass the cipher.
//
// VFS reference: https://www.sqlite.org/vfs.html and https://www.sqlite.org/c3ref/io_methods.html

#ifndef CPHRVFS_H
#define CPHRVFS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The page size of every phr vault database.
#define PHR_PAGE_SIZE 4096
/// The bytes per page reserved for the nonce, the tag and 4 zero bytes (SQLite header byte 20).
#define PHR_PAGE_RESERVE 32
/// The name the VFS is registered under.
#define PHR_VFS_NAME "phr"
/// The 16 bytes that replace "SQLite format 3\0" at the start of an encrypted database.
#define PHR_DB_MAGIC "phr db format 1"

/// Which file a page belongs to; part of the associated data of every page.
enum { PHR_FILE_DB = 'D', PHR_FILE_JOURNAL = 'J' };

/// Result codes of the helpers below.
enum {
    PHR_OK = 0,
    PHR_ERR_AUTH = 1,   // the page failed authentication (tampered, damaged or wrong key)
    PHR_ERR_CRYPTO = 2, // OpenSSL failed (out of memory, RNG failure)
    PHR_ERR_FORMAT = 3, // page 1 does not carry the header this format requires
};

/// Registers the "phr" VFS with SQLite (idempotent, thread-safe). Returns an SQLite result code.
int phr_vfs_register(void);

/// Copies a 32-byte page key into locked memory and returns a handle (> 0) for the `phrkey` URI
/// parameter, or -1 when the table is full or the memory cannot be allocated.
int64_t phr_key_register(const uint8_t *key32);

/// Wipes and forgets a key. Connections opened with it keep their own expanded copy until closed.
void phr_key_unregister(int64_t handle);

/// The last authentication failure seen through `handle`: sets `*fileKind` to PHR_FILE_DB or
/// PHR_FILE_JOURNAL and `*pageNumber` to the 1-based page, and returns 1; returns 0 if none.
int phr_key_last_failure(int64_t handle, int *fileKind, uint32_t *pageNumber);

/// Encrypts one plaintext page into `raw`. `nonce12` is NULL in production (a fresh random nonce);
/// tests pass a fixed nonce for known-answer vectors. Page 1 must carry a valid SQLite header with
/// page size PHR_PAGE_SIZE and reserve PHR_PAGE_RESERVE.
int phr_page_encrypt(const uint8_t *key32, uint32_t pageNumber, int fileKind,
                     const uint8_t *plain, uint8_t *raw, const uint8_t *nonce12);

/// Authenticates and decrypts one raw page into `plain`; on failure `plain` is zeroed.
int phr_page_decrypt(const uint8_t *key32, uint32_t pageNumber, int fileKind, const uint8_t *raw,
                     uint8_t *plain);

// File controls understood by the VFS, for sqlite3_file_control(db, "main", op, arg).

/// Authenticates every page of the database file under a SHARED lock. Argument: PhrVerifyResult*.
#define PHR_FCNTL_VERIFY 0x70687201
/// Reads raw (encrypted) bytes of the database file, for backups. Argument: PhrRawRead*.
#define PHR_FCNTL_RAW_READ 0x70687202
/// The raw size of the database file in bytes. Argument: int64_t*.
#define PHR_FCNTL_RAW_SIZE 0x70687203

#define PHR_VERIFY_MAX_REPORTED 32

typedef struct PhrVerifyResult {
    uint32_t pageCount;                          // whole pages in the file
    uint32_t badCount;                           // pages that failed authentication
    uint32_t badPages[PHR_VERIFY_MAX_REPORTED];  // the first ones, 1-based
    int trailingBytes;                           // bytes after the last whole page (damage)
} PhrVerifyResult;

/// Authenticates every page of a database file that SQLite could not open (no locking: use only
/// when no connection to the file is open in this process). Returns an SQLite result code.
int phr_verify_file(const char *path, const uint8_t *key32, PhrVerifyResult *result);

typedef struct PhrRawRead {
    void *buffer;
    int amount;
    int64_t offset;
} PhrRawRead;

/// Registers the FTS5 auxiliary function phr_rank(table, K, weights...) on a connection (an
/// `sqlite3 *`): bm25() for the best K rows of a match without reading the length of rows that
/// cannot be among them (rank.c). Returns an SQLite result code.
int phr_rank_register(void *connection);

#ifdef __cplusplus
}
#endif

#endif
