// AES-256-GCM page cipher. Layout and rationale: include/CPHRVFS.h and Schemas/vault-format-v1.md.

#include "pagecipher.h"

#include <openssl/crypto.h>
#include <openssl/rand.h>
#include <string.h>

#include "CPHRVFS.h"

#define CONTENT_END (PHR_PAGE_SIZE - PHR_PAGE_RESERVE) // 4064: end of the encrypted region
#define NONCE_AT CONTENT_END                          // 4064..4075
#define TAG_AT (NONCE_AT + 12)                        // 4076..4091
#define SPARE_AT (TAG_AT + 16)                        // 4092..4095, always zero
#define PAGE1_CLEAR 24                                // page 1 keeps bytes 0..23 in the clear

static const uint8_t sqliteMagic[16] = "SQLite format 3";

// Associated data: file kind, big-endian page number and, on page 1, the 24 clear header bytes.
static size_t build_aad(uint8_t *aad, uint32_t pageNumber, int fileKind, const uint8_t *clear) {
    aad[0] = (uint8_t)fileKind;
    aad[1] = (uint8_t)(pageNumber >> 24);
    aad[2] = (uint8_t)(pageNumber >> 16);
    aad[3] = (uint8_t)(pageNumber >> 8);
    aad[4] = (uint8_t)pageNumber;
    if (clear == NULL) return 5;
    memcpy(aad + 5, clear, PAGE1_CLEAR);
    return 5 + PAGE1_CLEAR;
}

int phr_cipher_init(PhrPageCipher *cipher, const uint8_t *key32) {
    cipher->enc = EVP_CIPHER_CTX_new();
    cipher->dec = EVP_CIPHER_CTX_new();
    if (cipher->enc == NULL || cipher->dec == NULL ||
        EVP_EncryptInit_ex(cipher->enc, EVP_aes_256_gcm(), NULL, key32, NULL) != 1 ||
        EVP_DecryptInit_ex(cipher->dec, EVP_aes_256_gcm(), NULL, key32, NULL) != 1) {
        phr_cipher_free(cipher);
        return PHR_ERR_CRYPTO;
    }
    return PHR_OK;
}

void phr_cipher_free(PhrPageCipher *cipher) {
    // EVP_CIPHER_CTX_free cleanses the expanded key.
    EVP_CIPHER_CTX_free(cipher->enc);
    EVP_CIPHER_CTX_free(cipher->dec);
    cipher->enc = NULL;
    cipher->dec = NULL;
}

// A page 1 header phr can encrypt: SQLite's magic, our page size and our reserve.
static int header_ok(const uint8_t *plain) {
    int pageSize = (plain[16] << 8) | plain[17];
    return memcmp(plain, sqliteMagic, 16) == 0 && pageSize == PHR_PAGE_SIZE &&
           plain[20] == PHR_PAGE_RESERVE;
}

int phr_cipher_seal(PhrPageCipher *cipher, uint32_t pageNumber, int fileKind,
                    const uint8_t *plain, uint8_t *raw, const uint8_t *nonce12) {
    uint8_t aad[5 + PAGE1_CLEAR];
    size_t from = 0;
    size_t aadLen;
    if (pageNumber == 1) {
        // Never write a page 1 whose reserve is not ours: the tag would overwrite cell content.
        if (!header_ok(plain)) return PHR_ERR_FORMAT;
        memcpy(raw, PHR_DB_MAGIC, 16);
        memcpy(raw + 16, plain + 16, PAGE1_CLEAR - 16);
        from = PAGE1_CLEAR;
        aadLen = build_aad(aad, pageNumber, fileKind, raw);
    } else {
        aadLen = build_aad(aad, pageNumber, fileKind, NULL);
    }
    uint8_t *nonce = raw + NONCE_AT;
    if (nonce12 != NULL) {
        memcpy(nonce, nonce12, 12);
    } else if (RAND_bytes(nonce, 12) != 1) {
        return PHR_ERR_CRYPTO;
    }
    EVP_CIPHER_CTX *ctx = cipher->enc;
    int len = 0;
    if (EVP_EncryptInit_ex(ctx, NULL, NULL, NULL, nonce) != 1 ||
        EVP_EncryptUpdate(ctx, NULL, &len, aad, (int)aadLen) != 1 ||
        EVP_EncryptUpdate(ctx, raw + from, &len, plain + from, (int)(CONTENT_END - from)) != 1 ||
        EVP_EncryptFinal_ex(ctx, raw + from + len, &len) != 1 ||
        EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, raw + TAG_AT) != 1) {
        return PHR_ERR_CRYPTO;
    }
    memset(raw + SPARE_AT, 0, PHR_PAGE_SIZE - SPARE_AT);
    return PHR_OK;
}

int phr_cipher_open(PhrPageCipher *cipher, uint32_t pageNumber, int fileKind,
                    const uint8_t *raw, uint8_t *plain) {
    static const uint8_t zero[PHR_PAGE_SIZE - SPARE_AT] = {0};
    uint8_t aad[5 + PAGE1_CLEAR];
    size_t from = 0;
    size_t aadLen;
    if (CRYPTO_memcmp(raw + SPARE_AT, zero, sizeof zero) != 0) goto fail;
    if (pageNumber == 1) {
        if (memcmp(raw, PHR_DB_MAGIC, 16) != 0) goto fail;
        from = PAGE1_CLEAR;
        aadLen = build_aad(aad, pageNumber, fileKind, raw);
    } else {
        aadLen = build_aad(aad, pageNumber, fileKind, NULL);
    }
    EVP_CIPHER_CTX *ctx = cipher->dec;
    int len = 0;
    if (EVP_DecryptInit_ex(ctx, NULL, NULL, NULL, raw + NONCE_AT) != 1 ||
        EVP_DecryptUpdate(ctx, NULL, &len, aad, (int)aadLen) != 1 ||
        EVP_DecryptUpdate(ctx, plain + from, &len, raw + from, (int)(CONTENT_END - from)) != 1 ||
        EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, 16, (void *)(raw + TAG_AT)) != 1 ||
        EVP_DecryptFinal_ex(ctx, plain + from + len, &len) != 1) {
        goto fail;
    }
    if (pageNumber == 1) {
        memcpy(plain, sqliteMagic, 16);
        memcpy(plain + 16, raw + 16, PAGE1_CLEAR - 16);
    }
    // SQLite must see the reserve as it wrote it (zeros): the journal checksum and the b-tree
    // code read the whole page, and leaving nonce+tag there would make the plaintext differ from
    // what SQLite wrote.
    memset(plain + CONTENT_END, 0, PHR_PAGE_RESERVE);
    return PHR_OK;
fail:
    OPENSSL_cleanse(plain, PHR_PAGE_SIZE);
    return PHR_ERR_AUTH;
}

int phr_page_encrypt(const uint8_t *key32, uint32_t pageNumber, int fileKind,
                     const uint8_t *plain, uint8_t *raw, const uint8_t *nonce12) {
    PhrPageCipher cipher;
    if (phr_cipher_init(&cipher, key32) != PHR_OK) return PHR_ERR_CRYPTO;
    int rc = phr_cipher_seal(&cipher, pageNumber, fileKind, plain, raw, nonce12);
    phr_cipher_free(&cipher);
    return rc;
}

int phr_page_decrypt(const uint8_t *key32, uint32_t pageNumber, int fileKind, const uint8_t *raw,
                     uint8_t *plain) {
    PhrPageCipher cipher;
    if (phr_cipher_init(&cipher, key32) != PHR_OK) return PHR_ERR_CRYPTO;
    int rc = phr_cipher_open(&cipher, pageNumber, fileKind, raw, plain);
    phr_cipher_free(&cipher);
    return rc;
}
