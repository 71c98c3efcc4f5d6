// The "phr" SQLite VFS: a shim over the default (unix) VFS that encrypts database and rollback
// journal pages. Format and key handling: include/CPHRVFS.h. Facts this code relies on were
// checked on Debian's SQLite 3.40.1 (see DESIGN.md section 3 and SECURITY.md):
//
// - SQLite reads the first 100 bytes of the database before any PRAGMA runs, so the key must be
//   known at xOpen: it comes from the `phrkey` URI parameter, which names a registered key.
// - Rollback journal records are pgno(4) + page + checksum(4), written and read as three calls.
//   Journal headers sit at multiples of the sector size (itself a multiple of 8), so a page image
//   is the only page-sized transfer at an offset that is 4 modulo 8; its page number is the 4 bytes
//   before it.
// - Temporary files (sorts, temp tables, statement journals) would be written in plaintext by
//   SQLite: they are refused here, and `temp_store=MEMORY` is enforced through SQLITE_FCNTL_PRAGMA.
// - Memory-mapped I/O would bypass xRead: xFetch never maps. WAL is not used (no shared memory).

#include <openssl/crypto.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>

#include "CPHRVFS.h"
#include "pagecipher.h"

// ---------------------------------------------------------------------------------------------
// Key registry: the URI carries a handle, never key bytes.

#define MAX_KEYS 32

typedef struct KeyEntry {
    int64_t handle; // 0 when free
    uint8_t key[32];
    int failKind;
    uint32_t failPage;
} KeyEntry;

static KeyEntry keyTable[MAX_KEYS];
static pthread_mutex_t keyMutex = PTHREAD_MUTEX_INITIALIZER;
static int64_t nextHandle = 1;
static int keyTableLocked = 0;

int64_t phr_key_register(const uint8_t *key32) {
    int64_t handle = -1;
    pthread_mutex_lock(&keyMutex);
    if (!keyTableLocked) {
        // Keep key bytes out of swap. Failure (RLIMIT_MEMLOCK) is not fatal: the table is small
        // and core dumps are disabled separately.
        keyTableLocked = mlock(keyTable, sizeof keyTable) == 0 ? 1 : -1;
    }
    for (int i = 0; i < MAX_KEYS; i++) {
        if (keyTable[i].handle == 0) {
            keyTable[i].handle = nextHandle++;
            memcpy(keyTable[i].key, key32, 32);
            keyTable[i].failKind = 0;
            keyTable[i].failPage = 0;
            handle = keyTable[i].handle;
            break;
        }
    }
    pthread_mutex_unlock(&keyMutex);
    return handle;
}

void phr_key_unregister(int64_t handle) {
    pthread_mutex_lock(&keyMutex);
    for (int i = 0; i < MAX_KEYS; i++) {
        if (keyTable[i].handle == handle) {
            OPENSSL_cleanse(&keyTable[i], sizeof keyTable[i]);
            keyTable[i].handle = 0;
        }
    }
    pthread_mutex_unlock(&keyMutex);
}

// Copies the key for `handle` into `out`; returns 1 if found.
static int key_lookup(int64_t handle, uint8_t *out) {
    int found = 0;
    pthread_mutex_lock(&keyMutex);
    for (int i = 0; i < MAX_KEYS; i++) {
        if (handle > 0 && keyTable[i].handle == handle) {
            memcpy(out, keyTable[i].key, 32);
            found = 1;
            break;
        }
    }
    pthread_mutex_unlock(&keyMutex);
    return found;
}

static void key_record_failure(int64_t handle, int fileKind, uint32_t page) {
    pthread_mutex_lock(&keyMutex);
    for (int i = 0; i < MAX_KEYS; i++) {
        if (keyTable[i].handle == handle) {
            keyTable[i].failKind = fileKind;
            keyTable[i].failPage = page;
        }
    }
    pthread_mutex_unlock(&keyMutex);
}

int phr_key_last_failure(int64_t handle, int *fileKind, uint32_t *pageNumber) {
    int found = 0;
    pthread_mutex_lock(&keyMutex);
    for (int i = 0; i < MAX_KEYS; i++) {
        if (keyTable[i].handle == handle && keyTable[i].failKind != 0) {
            *fileKind = keyTable[i].failKind;
            *pageNumber = keyTable[i].failPage;
            found = 1;
        }
    }
    pthread_mutex_unlock(&keyMutex);
    return found;
}

// ---------------------------------------------------------------------------------------------
// Files

typedef struct PhrFile {
    sqlite3_file base;     // must be first
    sqlite3_file *real;    // the unix VFS file, allocated right after this struct
    int kind;              // PHR_FILE_DB or PHR_FILE_JOURNAL
    int64_t keyHandle;     // for failure reports
    int lockLevel;         // the lock SQLite holds through us, for PHR_FCNTL_VERIFY
    PhrPageCipher cipher;
    uint8_t *raw;          // one encrypted page
    uint8_t *plain;        // one decrypted page, for reads smaller than a page
} PhrFile;

#define ROOT_VFS(vfs) ((sqlite3_vfs *)((vfs)->pAppData))

static const uint8_t zeroPage[PHR_PAGE_SIZE];

static int all_zero(const uint8_t *bytes, int count) {
    return count <= PHR_PAGE_SIZE ? memcmp(bytes, zeroPage, (size_t)count) == 0 : 0;
}

static int phrClose(sqlite3_file *file) {
    PhrFile *p = (PhrFile *)file;
    int rc = p->real->pMethods ? p->real->pMethods->xClose(p->real) : SQLITE_OK;
    phr_cipher_free(&p->cipher);
    if (p->plain) {
        OPENSSL_cleanse(p->plain, PHR_PAGE_SIZE);
        sqlite3_free(p->plain);
    }
    sqlite3_free(p->raw);
    p->plain = NULL;
    p->raw = NULL;
    return rc;
}

// Reads and decrypts database page `pageNumber` into `out`. A page wholly past the end of the file
// reads as zeros with SQLITE_IOERR_SHORT_READ, as SQLite expects; a page that is partly there or
// does not authenticate is damage (SQLITE_IOERR_DATA).
static int read_db_page(PhrFile *p, uint32_t pageNumber, uint8_t *out) {
    sqlite3_int64 offset = (sqlite3_int64)(pageNumber - 1) * PHR_PAGE_SIZE;
    int rc = p->real->pMethods->xRead(p->real, p->raw, PHR_PAGE_SIZE, offset);
    if (rc == SQLITE_IOERR_SHORT_READ) {
        if (all_zero(p->raw, PHR_PAGE_SIZE)) {
            memset(out, 0, PHR_PAGE_SIZE);
            return SQLITE_IOERR_SHORT_READ;
        }
        key_record_failure(p->keyHandle, PHR_FILE_DB, pageNumber);
        return SQLITE_IOERR_DATA;
    }
    if (rc != SQLITE_OK) return rc;
    if (phr_cipher_open(&p->cipher, pageNumber, PHR_FILE_DB, p->raw, out) != PHR_OK) {
        key_record_failure(p->keyHandle, PHR_FILE_DB, pageNumber);
        return SQLITE_IOERR_DATA;
    }
    return SQLITE_OK;
}

static int db_read(PhrFile *p, uint8_t *buffer, int amount, sqlite3_int64 offset) {
    if (amount == PHR_PAGE_SIZE && offset % PHR_PAGE_SIZE == 0) {
        return read_db_page(p, (uint32_t)(offset / PHR_PAGE_SIZE) + 1, buffer);
    }
    // Smaller reads (the 100-byte header at open, the change counter): decrypt the whole page.
    int rc = SQLITE_OK;
    while (amount > 0) {
        uint32_t pageNumber = (uint32_t)(offset / PHR_PAGE_SIZE) + 1;
        int within = (int)(offset % PHR_PAGE_SIZE);
        int chunk = PHR_PAGE_SIZE - within < amount ? PHR_PAGE_SIZE - within : amount;
        int pageRc = read_db_page(p, pageNumber, p->plain);
        if (pageRc != SQLITE_OK && pageRc != SQLITE_IOERR_SHORT_READ) {
            memset(buffer, 0, (size_t)amount);
            return pageRc;
        }
        if (pageRc == SQLITE_IOERR_SHORT_READ) rc = pageRc;
        memcpy(buffer, p->plain + within, (size_t)chunk);
        OPENSSL_cleanse(p->plain, PHR_PAGE_SIZE);
        buffer += chunk;
        offset += chunk;
        amount -= chunk;
    }
    return rc;
}

static int is_journal_page(int amount, sqlite3_int64 offset) {
    return amount == PHR_PAGE_SIZE && (offset & 7) == 4;
}

static int journal_page_number(PhrFile *p, sqlite3_int64 pageOffset, uint32_t *pageNumber) {
    uint8_t be[4];
    int rc = p->real->pMethods->xRead(p->real, be, 4, pageOffset - 4);
    if (rc != SQLITE_OK) return rc;
    *pageNumber = ((uint32_t)be[0] << 24) | ((uint32_t)be[1] << 16) | ((uint32_t)be[2] << 8) | be[3];
    return SQLITE_OK;
}

static int phrRead(sqlite3_file *file, void *buffer, int amount, sqlite3_int64 offset) {
    PhrFile *p = (PhrFile *)file;
    if (p->kind == PHR_FILE_DB) return db_read(p, buffer, amount, offset);
    if (!is_journal_page(amount, offset)) {
        return p->real->pMethods->xRead(p->real, buffer, amount, offset);
    }
    uint32_t pageNumber = 0;
    int rc = journal_page_number(p, offset, &pageNumber);
    if (rc == SQLITE_OK) rc = p->real->pMethods->xRead(p->real, p->raw, PHR_PAGE_SIZE, offset);
    if (rc != SQLITE_OK) {
        // A short journal ends playback; SQLite never uses the bytes.
        memset(buffer, 0, PHR_PAGE_SIZE);
        return rc;
    }
    if (phr_cipher_open(&p->cipher, pageNumber, PHR_FILE_JOURNAL, p->raw, buffer) != PHR_OK) {
        key_record_failure(p->keyHandle, PHR_FILE_JOURNAL, pageNumber);
        return SQLITE_IOERR_DATA;
    }
    return SQLITE_OK;
}

static int phrWrite(sqlite3_file *file, const void *buffer, int amount, sqlite3_int64 offset) {
    PhrFile *p = (PhrFile *)file;
    uint32_t pageNumber;
    if (p->kind == PHR_FILE_DB) {
        // Only whole, aligned pages: anything else would leave plaintext or a torn ciphertext.
        if (amount != PHR_PAGE_SIZE || offset % PHR_PAGE_SIZE != 0) return SQLITE_IOERR_WRITE;
        pageNumber = (uint32_t)(offset / PHR_PAGE_SIZE) + 1;
    } else {
        if (!is_journal_page(amount, offset)) {
            // Journal headers, page numbers and checksums: no page content.
            return p->real->pMethods->xWrite(p->real, buffer, amount, offset);
        }
        int rc = journal_page_number(p, offset, &pageNumber);
        if (rc != SQLITE_OK) return SQLITE_IOERR_WRITE;
    }
    if (phr_cipher_seal(&p->cipher, pageNumber, p->kind, buffer, p->raw, NULL) != PHR_OK) {
        return SQLITE_IOERR_WRITE;
    }
    return p->real->pMethods->xWrite(p->real, p->raw, PHR_PAGE_SIZE, offset);
}

static int phrTruncate(sqlite3_file *file, sqlite3_int64 size) {
    PhrFile *p = (PhrFile *)file;
    return p->real->pMethods->xTruncate(p->real, size);
}

static int phrSync(sqlite3_file *file, int flags) {
    PhrFile *p = (PhrFile *)file;
    return p->real->pMethods->xSync(p->real, flags);
}

static int phrFileSize(sqlite3_file *file, sqlite3_int64 *size) {
    PhrFile *p = (PhrFile *)file;
    return p->real->pMethods->xFileSize(p->real, size);
}

static int phrLock(sqlite3_file *file, int level) {
    PhrFile *p = (PhrFile *)file;
    int rc = p->real->pMethods->xLock(p->real, level);
    if (rc == SQLITE_OK) p->lockLevel = level;
    return rc;
}

static int phrUnlock(sqlite3_file *file, int level) {
    PhrFile *p = (PhrFile *)file;
    int rc = p->real->pMethods->xUnlock(p->real, level);
    if (rc == SQLITE_OK) p->lockLevel = level;
    return rc;
}

static int phrCheckReservedLock(sqlite3_file *file, int *out) {
    PhrFile *p = (PhrFile *)file;
    return p->real->pMethods->xCheckReservedLock(p->real, out);
}

// Authenticates every page. Takes a SHARED lock when the connection holds none, so a concurrent
// writer cannot change pages under the scan.
static int verify_all(PhrFile *p, PhrVerifyResult *result) {
    memset(result, 0, sizeof *result);
    int tookLock = 0;
    int rc;
    if (p->lockLevel == SQLITE_LOCK_NONE) {
        rc = p->real->pMethods->xLock(p->real, SQLITE_LOCK_SHARED);
        if (rc != SQLITE_OK) return rc;
        tookLock = 1;
    }
    sqlite3_int64 size = 0;
    rc = p->real->pMethods->xFileSize(p->real, &size);
    if (rc == SQLITE_OK) {
        result->pageCount = (uint32_t)(size / PHR_PAGE_SIZE);
        result->trailingBytes = (int)(size % PHR_PAGE_SIZE);
        for (uint32_t page = 1; page <= result->pageCount && rc == SQLITE_OK; page++) {
            rc = p->real->pMethods->xRead(p->real, p->raw, PHR_PAGE_SIZE,
                                          (sqlite3_int64)(page - 1) * PHR_PAGE_SIZE);
            if (rc != SQLITE_OK) break;
            if (phr_cipher_open(&p->cipher, page, PHR_FILE_DB, p->raw, p->plain) != PHR_OK) {
                if (result->badCount < PHR_VERIFY_MAX_REPORTED) {
                    result->badPages[result->badCount] = page;
                }
                result->badCount++;
            }
            OPENSSL_cleanse(p->plain, PHR_PAGE_SIZE);
        }
    }
    if (tookLock) p->real->pMethods->xUnlock(p->real, SQLITE_LOCK_NONE);
    return rc;
}

int phr_verify_file(const char *path, const uint8_t *key32, PhrVerifyResult *result) {
    memset(result, 0, sizeof *result);
    FILE *file = fopen(path, "rb");
    if (file == NULL) return SQLITE_CANTOPEN;
    PhrPageCipher cipher;
    if (phr_cipher_init(&cipher, key32) != PHR_OK) {
        fclose(file);
        return SQLITE_NOMEM;
    }
    uint8_t raw[PHR_PAGE_SIZE];
    uint8_t plain[PHR_PAGE_SIZE];
    size_t got;
    uint32_t page = 0;
    while ((got = fread(raw, 1, PHR_PAGE_SIZE, file)) > 0) {
        if (got < PHR_PAGE_SIZE) {
            result->trailingBytes = (int)got;
            break;
        }
        page++;
        if (phr_cipher_open(&cipher, page, PHR_FILE_DB, raw, plain) != PHR_OK) {
            if (result->badCount < PHR_VERIFY_MAX_REPORTED) result->badPages[result->badCount] = page;
            result->badCount++;
        }
    }
    OPENSSL_cleanse(plain, sizeof plain);
    result->pageCount = page;
    int rc = ferror(file) ? SQLITE_IOERR_READ : SQLITE_OK;
    fclose(file);
    phr_cipher_free(&cipher);
    return rc;
}

static int pragma_value_is(const char *value, const char *a, const char *b) {
    return strcasecmp(value, a) == 0 || (b != NULL && strcasecmp(value, b) == 0);
}

// Vetoes PRAGMAs that would let SQLite write around the cipher. Returns SQLITE_NOTFOUND to let
// SQLite handle everything else.
static int veto_pragma(char **args) {
    const char *name = args[1];
    const char *value = args[2];
    const char *reason = NULL;
    if (value == NULL) return SQLITE_NOTFOUND;
    if (strcasecmp(name, "temp_store") == 0 && !pragma_value_is(value, "memory", "2")) {
        reason = "phr: temp_store must stay MEMORY (temporary files would be plaintext)";
    } else if (strcasecmp(name, "temp_store_directory") == 0) {
        reason = "phr: temporary files are not allowed";
    } else if (strcasecmp(name, "journal_mode") == 0 &&
               !pragma_value_is(value, "delete", "truncate") &&
               !pragma_value_is(value, "persist", NULL)) {
        reason = "phr: only rollback journal modes DELETE, TRUNCATE and PERSIST are encrypted";
    } else if (strcasecmp(name, "mmap_size") == 0 && atoll(value) != 0) {
        reason = "phr: memory-mapped I/O would bypass the cipher";
    } else if (strcasecmp(name, "page_size") == 0 && atoll(value) != PHR_PAGE_SIZE) {
        reason = "phr: the page size of a vault is fixed";
    }
    if (reason == NULL) return SQLITE_NOTFOUND;
    args[0] = sqlite3_mprintf("%s", reason);
    return SQLITE_ERROR;
}

static int phrFileControl(sqlite3_file *file, int op, void *arg) {
    PhrFile *p = (PhrFile *)file;
    switch (op) {
    case SQLITE_FCNTL_PRAGMA: {
        int rc = veto_pragma((char **)arg);
        if (rc != SQLITE_NOTFOUND) return rc;
        break;
    }
    case SQLITE_FCNTL_CHUNK_SIZE:
        // Growing the file by ftruncate would leave pages that were never encrypted.
        return SQLITE_OK;
    case SQLITE_FCNTL_MMAP_SIZE:
        if (arg) *(sqlite3_int64 *)arg = 0;
        return SQLITE_OK;
    case PHR_FCNTL_VERIFY:
        if (p->kind != PHR_FILE_DB) return SQLITE_NOTFOUND;
        return verify_all(p, (PhrVerifyResult *)arg);
    case PHR_FCNTL_RAW_READ: {
        PhrRawRead *request = (PhrRawRead *)arg;
        if (p->kind != PHR_FILE_DB) return SQLITE_NOTFOUND;
        return p->real->pMethods->xRead(p->real, request->buffer, request->amount,
                                        request->offset);
    }
    case PHR_FCNTL_RAW_SIZE: {
        sqlite3_int64 size = 0;
        int rc = p->real->pMethods->xFileSize(p->real, &size);
        *(int64_t *)arg = size;
        return rc;
    }
    default:
        break;
    }
    return p->real->pMethods->xFileControl(p->real, op, arg);
}

static int phrSectorSize(sqlite3_file *file) {
    PhrFile *p = (PhrFile *)file;
    return p->real->pMethods->xSectorSize(p->real);
}

static int phrDeviceCharacteristics(sqlite3_file *file) {
    PhrFile *p = (PhrFile *)file;
    int caps = p->real->pMethods->xDeviceCharacteristics(p->real);
    // Batch-atomic writes would skip the journal; PSOW keeps SQLite's writes whole pages.
    return (caps & ~SQLITE_IOCAP_BATCH_ATOMIC) | SQLITE_IOCAP_POWERSAFE_OVERWRITE;
}

static int phrShmMap(sqlite3_file *file, int page, int size, int extend, void volatile **out) {
    (void)file; (void)page; (void)size; (void)extend;
    *out = NULL;
    return SQLITE_IOERR_SHMMAP; // WAL is not supported: its index and frames bypass the cipher
}

static int phrShmLock(sqlite3_file *file, int offset, int n, int flags) {
    (void)file; (void)offset; (void)n; (void)flags;
    return SQLITE_IOERR_SHMLOCK;
}

static void phrShmBarrier(sqlite3_file *file) { (void)file; }

static int phrShmUnmap(sqlite3_file *file, int deleteFlag) {
    (void)file; (void)deleteFlag;
    return SQLITE_OK;
}

static int phrFetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **out) {
    (void)file; (void)offset; (void)amount;
    *out = NULL; // never map: SQLite falls back to xRead, which decrypts
    return SQLITE_OK;
}

static int phrUnfetch(sqlite3_file *file, sqlite3_int64 offset, void *page) {
    (void)file; (void)offset; (void)page;
    return SQLITE_OK;
}

static const sqlite3_io_methods phrIoMethods = {
    3,
    phrClose,
    phrRead,
    phrWrite,
    phrTruncate,
    phrSync,
    phrFileSize,
    phrLock,
    phrUnlock,
    phrCheckReservedLock,
    phrFileControl,
    phrSectorSize,
    phrDeviceCharacteristics,
    phrShmMap,
    phrShmLock,
    phrShmBarrier,
    phrShmUnmap,
    phrFetch,
    phrUnfetch,
};

// ---------------------------------------------------------------------------------------------
// VFS methods

static int phrOpen(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *file, int flags,
                   int *outFlags) {
    PhrFile *p = (PhrFile *)file;
    sqlite3_vfs *root = ROOT_VFS(vfs);
    memset(p, 0, sizeof *p);
    p->real = (sqlite3_file *)&p[1];
    if (flags & SQLITE_OPEN_MAIN_DB) {
        p->kind = PHR_FILE_DB;
    } else if (flags & SQLITE_OPEN_MAIN_JOURNAL) {
        p->kind = PHR_FILE_JOURNAL;
    } else {
        // Temporary databases and journals, statement journals, WAL and super-journals.
        return SQLITE_CANTOPEN;
    }
    if (name == NULL) return SQLITE_CANTOPEN;
    const char *handleText = sqlite3_uri_parameter(name, "phrkey");
    if (handleText == NULL) return SQLITE_CANTOPEN;
    p->keyHandle = atoll(handleText);
    uint8_t key[32];
    if (!key_lookup(p->keyHandle, key)) return SQLITE_CANTOPEN;
    int rc = phr_cipher_init(&p->cipher, key);
    OPENSSL_cleanse(key, sizeof key);
    if (rc != PHR_OK) return SQLITE_NOMEM;
    p->raw = sqlite3_malloc(PHR_PAGE_SIZE);
    p->plain = sqlite3_malloc(PHR_PAGE_SIZE);
    if (p->raw == NULL || p->plain == NULL) {
        phrClose(file);
        return SQLITE_NOMEM;
    }
    rc = root->xOpen(root, name, p->real, flags, outFlags);
    if (rc != SQLITE_OK) {
        p->real->pMethods = NULL;
        phrClose(file);
        return rc;
    }
    p->base.pMethods = &phrIoMethods;
    return SQLITE_OK;
}

static int phrDelete(sqlite3_vfs *vfs, const char *name, int syncDir) {
    return ROOT_VFS(vfs)->xDelete(ROOT_VFS(vfs), name, syncDir);
}

static int phrAccess(sqlite3_vfs *vfs, const char *name, int flags, int *out) {
    return ROOT_VFS(vfs)->xAccess(ROOT_VFS(vfs), name, flags, out);
}

static int phrFullPathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    return ROOT_VFS(vfs)->xFullPathname(ROOT_VFS(vfs), name, size, out);
}

// Extensions are never loaded into a vault connection.
static void *phrDlOpen(sqlite3_vfs *vfs, const char *path) {
    (void)vfs; (void)path;
    return NULL;
}

static void phrDlError(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    sqlite3_snprintf(size, out, "phr: loadable extensions are disabled");
}

static void (*phrDlSym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    (void)vfs; (void)handle; (void)symbol;
    return NULL;
}

static void phrDlClose(sqlite3_vfs *vfs, void *handle) { (void)vfs; (void)handle; }

static int phrRandomness(sqlite3_vfs *vfs, int size, char *out) {
    return ROOT_VFS(vfs)->xRandomness(ROOT_VFS(vfs), size, out);
}

static int phrSleep(sqlite3_vfs *vfs, int micros) {
    return ROOT_VFS(vfs)->xSleep(ROOT_VFS(vfs), micros);
}

static int phrCurrentTime(sqlite3_vfs *vfs, double *out) {
    return ROOT_VFS(vfs)->xCurrentTime(ROOT_VFS(vfs), out);
}

static int phrGetLastError(sqlite3_vfs *vfs, int size, char *out) {
    return ROOT_VFS(vfs)->xGetLastError(ROOT_VFS(vfs), size, out);
}

static int phrCurrentTimeInt64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
    return ROOT_VFS(vfs)->xCurrentTimeInt64(ROOT_VFS(vfs), out);
}

static sqlite3_vfs phrVfs = {
    2,                // iVersion
    0,                // szOsFile, set at registration
    0,                // mxPathname, set at registration
    NULL,             // pNext
    PHR_VFS_NAME,     // zName
    NULL,             // pAppData: the root VFS
    phrOpen,
    phrDelete,
    phrAccess,
    phrFullPathname,
    phrDlOpen,
    phrDlError,
    phrDlSym,
    phrDlClose,
    phrRandomness,
    phrSleep,
    phrCurrentTime,
    phrGetLastError,
    phrCurrentTimeInt64,
    NULL, NULL, NULL,
};

static pthread_once_t registerOnce = PTHREAD_ONCE_INIT;
static int registerResult = SQLITE_ERROR;

static void register_once(void) {
    sqlite3_vfs *root = sqlite3_vfs_find(NULL);
    if (root == NULL) {
        registerResult = SQLITE_ERROR;
        return;
    }
    phrVfs.pAppData = root;
    phrVfs.szOsFile = (int)sizeof(PhrFile) + root->szOsFile;
    phrVfs.mxPathname = root->mxPathname;
    registerResult = sqlite3_vfs_register(&phrVfs, 0);
}

int phr_vfs_register(void) {
    pthread_once(&registerOnce, register_once);
    return registerResult;
}
