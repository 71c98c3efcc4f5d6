// The page cipher shared by the VFS and the exported helpers. Private to CPHRVFS.
#ifndef PHR_PAGECIPHER_H
#define PHR_PAGECIPHER_H

#include <openssl/evp.h>
#include <stdint.h>

typedef struct PhrPageCipher {
    EVP_CIPHER_CTX *enc;
    EVP_CIPHER_CTX *dec;
} PhrPageCipher;

int phr_cipher_init(PhrPageCipher *cipher, const uint8_t *key32);
void phr_cipher_free(PhrPageCipher *cipher);
int phr_cipher_seal(PhrPageCipher *cipher, uint32_t pageNumber, int fileKind,
                    const uint8_t *plain, uint8_t *raw, const uint8_t *nonce12);
int phr_cipher_open(PhrPageCipher *cipher, uint32_t pageNumber, int fileKind,
                    const uint8_t *raw, uint8_t *plain);

#endif
