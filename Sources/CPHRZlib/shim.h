// zlib for Swift: gzip decoding of HTTP bodies; zip members of Apple Health exports (in phr-render). `inflateInit2` is a macro, wrapped here.
// https://www.zlib.net/manual.html
#ifndef CPHRZLIB_SHIM_H
#define CPHRZLIB_SHIM_H

#include <zlib.h>

/// Prepares `stream` (zeroed by the caller) to inflate a gzip stream. Returns Z_OK on success.
static inline int phr_inflate_init_gzip(z_stream *stream) {
    return inflateInit2(stream, 16 + MAX_WBITS);
}

/// Prepares `stream` (zeroed by the caller) to inflate raw deflate data, as a zip member holds
/// it (no zlib or gzip header). Returns Z_OK on success.
static inline int phr_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -MAX_WBITS);
}

/// Prepares `stream` (zeroed by the caller) to deflate raw data for a zip member, at `level`.
/// Returns Z_OK on success.
static inline int phr_deflate_init_raw(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
}

#endif
