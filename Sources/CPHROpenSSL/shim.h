// OpenSSL 3 (libcrypto) for Swift.
//
// Swift imports plain functions but not function-like macros or OSSL_PARAM arrays built on the
// stack, so the few calls that need those are wrapped here as documented `static inline` helpers.
// Every helper returns 1 on success and 0 on failure, like the OpenSSL calls it wraps.
//
// Reference: https://www.openssl.org/docs/man3.0/man7/crypto.html

#ifndef CPHROPENSSL_SHIM_H
#define CPHROPENSSL_SHIM_H

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <stddef.h>
#include <stdint.h>

/// Creates an AES-256-GCM context keyed once with `key` (32 bytes); NULL on failure.
/// The same context then seals or opens any number of messages with `phr_gcm_seal`/`phr_gcm_open`.
/// https://www.openssl.org/docs/man3.0/man3/EVP_EncryptInit.html ("GCM and OCB Modes")
static inline EVP_CIPHER_CTX *phr_gcm_new(const uint8_t *key, int forEncryption) {
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    if (ctx == NULL) return NULL;
    int ok = forEncryption ? EVP_EncryptInit_ex(ctx, EVP_aes_256_gcm(), NULL, key, NULL)
                           : EVP_DecryptInit_ex(ctx, EVP_aes_256_gcm(), NULL, key, NULL);
    if (ok != 1) {
        EVP_CIPHER_CTX_free(ctx);
        return NULL;
    }
    return ctx;
}

/// Seals `in` (any length, may be 0) with a 12-byte nonce and optional associated data.
/// Writes `inLen` ciphertext bytes to `out` (may equal `in`) and the 16-byte tag to `tag`.
static inline int phr_gcm_seal(EVP_CIPHER_CTX *ctx, const uint8_t *nonce, const uint8_t *aad,
                               size_t aadLen, const uint8_t *in, size_t inLen, uint8_t *out,
                               uint8_t *tag) {
    int len = 0;
    if (EVP_EncryptInit_ex(ctx, NULL, NULL, NULL, nonce) != 1) return 0;
    if (aadLen > 0 && EVP_EncryptUpdate(ctx, NULL, &len, aad, (int)aadLen) != 1) return 0;
    if (inLen > 0 && EVP_EncryptUpdate(ctx, out, &len, in, (int)inLen) != 1) return 0;
    if (EVP_EncryptFinal_ex(ctx, out + (inLen > 0 ? len : 0), &len) != 1) return 0;
    return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, tag) == 1;
}

/// Opens what `phr_gcm_seal` produced. Returns 0 when the tag does not authenticate; `out` then
/// holds unauthenticated bytes that the caller must wipe and never use.
static inline int phr_gcm_open(EVP_CIPHER_CTX *ctx, const uint8_t *nonce, const uint8_t *aad,
                               size_t aadLen, const uint8_t *in, size_t inLen,
                               const uint8_t *tag, uint8_t *out) {
    int len = 0;
    if (EVP_DecryptInit_ex(ctx, NULL, NULL, NULL, nonce) != 1) return 0;
    if (aadLen > 0 && EVP_DecryptUpdate(ctx, NULL, &len, aad, (int)aadLen) != 1) return 0;
    if (inLen > 0 && EVP_DecryptUpdate(ctx, out, &len, in, (int)inLen) != 1) return 0;
    if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, 16, (void *)tag) != 1) return 0;
    return EVP_DecryptFinal_ex(ctx, out + (inLen > 0 ? len : 0), &len) == 1;
}

/// HKDF-SHA256 (RFC 5869): extract with `salt` (may be empty), expand with `info` to `outLen` bytes.
/// https://www.openssl.org/docs/man3.0/man7/EVP_KDF-HKDF.html
static inline int phr_hkdf_sha256(const uint8_t *ikm, size_t ikmLen, const uint8_t *salt,
                                  size_t saltLen, const uint8_t *info, size_t infoLen,
                                  uint8_t *out, size_t outLen) {
    EVP_KDF *kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
    if (kdf == NULL) return 0;
    EVP_KDF_CTX *kctx = EVP_KDF_CTX_new(kdf);
    EVP_KDF_free(kdf);
    if (kctx == NULL) return 0;
    static const uint8_t empty[1] = {0};
    OSSL_PARAM params[5];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)"SHA256", 0);
    params[1] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)ikm, ikmLen);
    params[2] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT,
                                                  (void *)(saltLen ? salt : empty), saltLen);
    params[3] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO,
                                                  (void *)(infoLen ? info : empty), infoLen);
    params[4] = OSSL_PARAM_construct_end();
    int ok = EVP_KDF_derive(kctx, out, outLen, params) == 1;
    EVP_KDF_CTX_free(kctx);
    return ok;
}

/// scrypt (RFC 7914). `maxMem` must cover 128*r*N*p plus slack: OpenSSL's default cap is 32 MiB,
/// below what N=2^17, r=8 needs (128 MiB). https://www.openssl.org/docs/man3.0/man7/EVP_KDF-SCRYPT.html
static inline int phr_scrypt(const uint8_t *pass, size_t passLen, const uint8_t *salt,
                             size_t saltLen, uint64_t n, uint64_t r, uint64_t p, uint64_t maxMem,
                             uint8_t *out, size_t outLen) {
    return EVP_PBE_scrypt((const char *)pass, passLen, salt, saltLen, n, r, p, maxMem, out,
                          outLen) == 1;
}

/// A streaming HMAC-SHA256: `phr_hmac_new`, any number of `phr_hmac_update`, then `phr_hmac_final`
/// (writes 32 bytes) and `EVP_MAC_CTX_free`. https://www.openssl.org/docs/man3.0/man7/EVP_MAC-HMAC.html
static inline EVP_MAC_CTX *phr_hmac_new(const uint8_t *key, size_t keyLen) {
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    if (mac == NULL) return NULL;
    EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(mac);
    EVP_MAC_free(mac);
    if (ctx == NULL) return NULL;
    OSSL_PARAM params[2];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)"SHA256", 0);
    params[1] = OSSL_PARAM_construct_end();
    if (EVP_MAC_init(ctx, key, keyLen, params) != 1) {
        EVP_MAC_CTX_free(ctx);
        return NULL;
    }
    return ctx;
}

static inline int phr_hmac_update(EVP_MAC_CTX *ctx, const uint8_t *data, size_t len) {
    return len == 0 ? 1 : EVP_MAC_update(ctx, data, len) == 1;
}

static inline int phr_hmac_final(EVP_MAC_CTX *ctx, uint8_t *out32) {
    size_t outLen = 0;
    return EVP_MAC_final(ctx, out32, &outLen, 32) == 1 && outLen == 32;
}

/// A streaming SHA-256: `phr_sha256_new`, `EVP_DigestUpdate`, `phr_sha256_final`, `EVP_MD_CTX_free`.
static inline EVP_MD_CTX *phr_sha256_new(void) {
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (ctx == NULL) return NULL;
    if (EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1) {
        EVP_MD_CTX_free(ctx);
        return NULL;
    }
    return ctx;
}

static inline int phr_sha256_update(EVP_MD_CTX *ctx, const uint8_t *data, size_t len) {
    return len == 0 ? 1 : EVP_DigestUpdate(ctx, data, len) == 1;
}

static inline int phr_sha256_final(EVP_MD_CTX *ctx, uint8_t *out32) {
    unsigned int outLen = 0;
    return EVP_DigestFinal_ex(ctx, out32, &outLen) == 1 && outLen == 32;
}

/// A TLS client context that verifies servers against the system's trust store (or `caFile`
/// when not NULL, for tests with their own CA), TLS 1.2 at least. NULL on failure.
/// https://www.openssl.org/docs/man3.0/man3/SSL_CTX_set_verify.html
static inline SSL_CTX *phr_tls_client_context(const char *caFile) {
    SSL_CTX *context = SSL_CTX_new(TLS_client_method());
    if (context == NULL) return NULL;
    int ok = SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION) == 1;
    ok = ok && (caFile != NULL ? SSL_CTX_load_verify_locations(context, caFile, NULL) == 1
                               : SSL_CTX_set_default_verify_paths(context) == 1);
    if (!ok) {
        SSL_CTX_free(context);
        return NULL;
    }
    SSL_CTX_set_verify(context, SSL_VERIFY_PEER, NULL);
    return context;
}

/// Starts a TLS session on a connected socket for `host`: SNI, and certificate checks that the
/// certificate names `host` (a DNS name or an IP address). The handshake is `SSL_connect`.
/// https://www.openssl.org/docs/man3.0/man3/SSL_set1_host.html
static inline SSL *phr_tls_session(SSL_CTX *context, int socket, const char *host, int hostIsAddress) {
    SSL *ssl = SSL_new(context);
    if (ssl == NULL) return NULL;
    int ok = SSL_set_fd(ssl, socket) == 1;
    if (hostIsAddress) {
        X509_VERIFY_PARAM *param = SSL_get0_param(ssl);
        ok = ok && X509_VERIFY_PARAM_set1_ip_asc(param, host) == 1;
    } else {
        ok = ok && SSL_set_tlsext_host_name(ssl, host) == 1 && SSL_set1_host(ssl, host) == 1;
    }
    if (!ok) {
        SSL_free(ssl);
        return NULL;
    }
    return ssl;
}

#endif
